// How much memory this machine can give a run, and up-front refusals of inputs
// that cannot fit: a graph or sweep too big is a ConfigError naming its
// estimated size before anything is allocated, not a std::bad_alloc (or the
// kernel's OOM killer) minutes later.
#pragma once

#include <cstdint>
#include <string>

namespace tbdse {

// Bytes this process can still allocate: /proc/meminfo's MemAvailable, capped
// by a cgroup memory limit when one is set (the physical memory elsewhere),
// and by what the process limits RLIMIT_AS (ulimit -v) and RLIMIT_DATA
// (ulimit -d) leave beyond the process's current VmSize / VmData.
std::int64_t available_memory_bytes();

// "12.3 GB".
std::string format_bytes(double bytes);

// ConfigError "<what> would need about X of memory; this machine has Y
// available" when `bytes` exceeds 90% of available_memory_bytes().
void require_memory(const std::string& what, double bytes);

// Peak bytes to build and simulate a task graph of this size: the input edge
// lists, the CSR, the per-node arrays and a run's per-task state.
double task_graph_bytes(double nodes, double edges);

// Refuses a graph whose node count does not fit task ids (2^31 - 1) or that
// cannot fit in memory (task_graph_bytes); `what` names it in the message.
void require_graph_fits(const std::string& what, double nodes, double edges);

// Peak bytes to build a Digraph (core/digraph.hpp) of this size: the input
// arc lists, the CSR and the counting sort's per-node cursors.
double digraph_bytes(double nodes, double arcs);

// Refuses a data graph whose node count is not 1..2^31 - 1 or that cannot fit
// in memory (digraph_bytes); `what` names it in the message.
void require_digraph_fits(const std::string& what, double nodes, double arcs);

}  // namespace tbdse
