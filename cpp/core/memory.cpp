#include "memory.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>

#include "errors.hpp"

namespace tbdse {

namespace {

std::int64_t physical_memory() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? std::int64_t{pages} * page : std::int64_t{1} << 34;
}

// The number (in kB) after `key` at the start of a line of a /proc file such
// as /proc/meminfo or /proc/self/status, in bytes; -1 if absent.
std::int64_t proc_kb(const char* file, const std::string& key) {
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(key, 0) == 0) {
      std::istringstream fields(line.substr(key.size()));
      std::int64_t kb = -1;
      fields >> kb;
      return kb >= 0 ? kb * 1024 : -1;
    }
  return -1;
}

std::int64_t cgroup_limit() {
  std::ifstream in("/sys/fs/cgroup/memory.max");  // cgroup v2; "max" = no limit
  std::int64_t bytes = -1;
  if (in >> bytes) return bytes;
  return -1;
}

// What a soft rlimit (ulimit -v: RLIMIT_AS, ulimit -d: RLIMIT_DATA) leaves
// this process beyond what it already maps; -1 when there is no limit.
std::int64_t rlimit_left(int resource, const char* usage_key) {
  rlimit lim{};
  if (getrlimit(resource, &lim) != 0 || lim.rlim_cur == RLIM_INFINITY) return -1;
  constexpr auto kMax = static_cast<rlim_t>(std::numeric_limits<std::int64_t>::max());
  const auto cap = static_cast<std::int64_t>(std::min<rlim_t>(lim.rlim_cur, kMax));
  const std::int64_t used = proc_kb("/proc/self/status", usage_key);
  return std::max<std::int64_t>(0, cap - std::max<std::int64_t>(0, used));
}

std::int64_t machine_memory() {
  std::int64_t bytes = proc_kb("/proc/meminfo", "MemAvailable:");
  if (bytes <= 0) bytes = physical_memory();
  const std::int64_t limit = cgroup_limit();
  return limit > 0 && limit < bytes ? limit : bytes;
}

// The process limit that binds, or -1 when the machine's memory does.
std::int64_t process_limit_left() {
  std::int64_t left = -1;
  for (const std::int64_t l :
       {rlimit_left(RLIMIT_AS, "VmSize:"), rlimit_left(RLIMIT_DATA, "VmData:")})
    if (l >= 0 && (left < 0 || l < left)) left = l;
  return left;
}

}  // namespace

std::int64_t available_memory_bytes() {
  const std::int64_t machine = machine_memory(), process = process_limit_left();
  return process >= 0 && process < machine ? process : machine;
}

std::string format_bytes(double bytes) {
  const char* units[] = {"bytes", "KB", "MB", "GB", "TB", "PB", "EB"};
  int u = 0;
  while (bytes >= 1000.0 && u < 6) {
    bytes /= 1000.0;
    ++u;
  }
  char out[32];
  std::snprintf(out, sizeof out, u == 0 ? "%.0f %s" : "%.1f %s", bytes, units[u]);
  return out;
}

void require_memory(const std::string& what, double bytes) {
  const std::int64_t machine = machine_memory(), process = process_limit_left();
  const bool by_process = process >= 0 && process < machine;
  const double available = static_cast<double>(by_process ? process : machine);
  if (bytes > 0.9 * available)
    throw ConfigError(what + " would need about " + format_bytes(bytes) + " of memory; " +
                      (by_process ? "this process's memory limit (ulimit -v / -d) leaves it "
                                  : "this machine has ") +
                      format_bytes(available) + " available");
}

double task_graph_bytes(double nodes, double edges) {
  // Building: input edges (8 B each), CSR children and a sorting copy (8 B),
  // edge starts (8 B/node) and six per-node arrays (28 B/node) with their
  // renamed copies.  Running: costs, states, ready structures (~40 B/node).
  return 110.0 * nodes + 24.0 * edges;
}

void require_graph_fits(const std::string& what, double nodes, double edges) {
  if (nodes > static_cast<double>(std::numeric_limits<std::int32_t>::max())) {
    std::ostringstream n;
    n.precision(0);
    n << std::fixed << nodes;
    throw ConfigError(what + ": " + n.str() +
                      " tasks exceed the limit of 2147483647 tasks per graph");
  }
  std::ostringstream size;
  size.precision(0);
  size << std::fixed << what << " (" << nodes << " tasks, " << edges << " edges)";
  require_memory(size.str(), task_graph_bytes(nodes, edges));
}

double digraph_bytes(double nodes, double arcs) {
  // Input source, target and weight (12 B/arc) alive beside the CSR targets
  // and weights (8 B/arc); offsets and cursors (16 B/node).
  return 20.0 * arcs + 16.0 * nodes;
}

void require_digraph_fits(const std::string& what, double nodes, double arcs) {
  std::ostringstream size;
  size.precision(0);
  size << std::fixed;
  if (!(nodes >= 1.0) || nodes > static_cast<double>(std::numeric_limits<std::int32_t>::max())) {
    size << what << ": " << nodes
         << " nodes is out of range (a graph has 1..2147483647 nodes)";
    throw ConfigError(size.str());
  }
  size << what << " (" << nodes << " nodes, " << arcs << " arcs)";
  require_memory(size.str(), digraph_bytes(nodes, arcs));
}

}  // namespace tbdse
