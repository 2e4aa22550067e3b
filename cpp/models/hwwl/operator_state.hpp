// The state an operator works on (each node's distance, or a synthetic item's
// visits and generation) and one item's execution: what it costs a thread and
// which ids it activates (HWWL Fig. 1: compute, then push the activated
// neighbours).  Relaxations are applied when the item is processed, so the
// order the machine processes items in decides how much redundant work a
// label-correcting BFS/SSSP does; the final distances never depend on it.
#pragma once

#include <cstdint>
#include <vector>

#include "core/rng.hpp"
#include "models/hwwl/problem.hpp"

namespace tbdse::hwwl {

struct ItemCost {
  std::int64_t instructions = 0;  // this thread's instructions for the item
  std::int32_t rounds = 0;        // dependent load round trips
};

class OperatorState {
 public:
  OperatorState(const WorklistProblem& problem, std::uint64_t model_key);

  // Processes item `id` now; appends the ids it activates to `activated`.
  ItemCost apply(std::int32_t id, std::vector<std::int32_t>& activated);

  // SimulationError when a BFS/SSSP distance differs from the reference (a
  // lost or duplicated update would show here).
  void check(const char* scheme) const;

  // Final node values (distances; NaN where unreached), for Result.values().
  std::vector<double> values() const;

  std::int64_t items() const { return items_; }

 private:
  ItemCost apply_graph(std::int32_t u, std::vector<std::int32_t>& activated);
  ItemCost apply_synthetic(std::int32_t u, std::vector<std::int32_t>& activated);

  const WorklistProblem& problem_;
  const OperatorSpec& op_;
  Philox rng_;
  std::vector<std::int64_t> dist_;         // graph operators
  std::vector<std::int32_t> visits_;       // synthetic: times each id was processed
  std::vector<std::int32_t> generation_;   // synthetic: generation of each id's activation
  std::int64_t items_ = 0;
};

}  // namespace tbdse::hwwl
