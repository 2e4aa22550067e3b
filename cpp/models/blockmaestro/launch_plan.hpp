// What the BlockMaestro-family schemes know about a workload, derived once
// per run: its launches, each launch's TBs in block order, and per launch the
// dependencies on earlier launches as BlockMaestro's hardware sees them
// (ISCA 2021 §III-B, §III-D):
//   * TB-level dependencies are tracked only between consecutive launches
//     (the bipartite graphs of Fig. 1); a pair whose pattern is fully
//     connected, or whose children have more parents than the parent counter
//     can count (§IV-C "Area overhead"), is tracked per kernel instead — its
//     TBs wait for the whole previous launch;
//   * a dependency on a launch further back cannot be tracked at all; with
//     in-order kernel completion it is met once that launch has completed
//     (§III-B1, Fig. 4), so the TBs wait for it — tbdse makes that wait
//     explicit, since with more than one kernel pre-launched it is not
//     implied by the previous launch's TBs.
// Launches are the application's (launch group i = launch i), else the task
// graph's launch groups in order, else its levels (one kernel per wave, as
// the Fig. 14 wavefronts are launched).
#pragma once

#include <cstdint>
#include <vector>

#include "core/types.hpp"
#include "core/workload.hpp"
#include "models/blockmaestro/patterns.hpp"

namespace tbdse::blockmaestro {

struct LaunchInfo {
  std::vector<TaskId> tbs;    // graph nodes, in block order (input ids ascending)
  // The pair (previous launch, this one):
  PairShape pair;             // Table I pattern and storage, from the graph's edges
  bool barrier = false;       // tracked per kernel: wait for the whole previous launch
  bool overflow = false;      // barrier because a child has more parents than the counter holds
  // The latest launch j < i - 1 that must have completed first (-1: none).
  std::int32_t waits_for = -1;
};

struct LaunchPlan {
  std::vector<LaunchInfo> launches;
  std::vector<std::int32_t> launch_of;     // per node
  std::vector<std::int32_t> block_of;      // per node: its index in launch_of's tbs
  std::vector<std::int32_t> prev_parents;  // per node: parents in the previous launch

  // ConfigError when an edge does not point to a later launch (launch groups
  // given by the graph), naming the edge.  A child with more than
  // 2^parent_counter_bits - 1 parents makes its pair a barrier.
  static LaunchPlan build(const Workload& workload, std::int64_t parent_counter_bits);

  std::int32_t size() const { return static_cast<std::int32_t>(launches.size()); }
};

}  // namespace tbdse::blockmaestro
