// The state an operator works on (each node's distance, or a synthetic item's
// pending activations) and one item's execution: what it costs a thread and
// which ids it activates (HWWL Fig. 1: compute, then push the activated
// neighbours).  Relaxations are applied when the item is processed, so the
// order the machine processes items in decides how much redundant work a
// label-correcting BFS/SSSP does; the final distances never depend on it.
// The synthetic operator's work does not depend on the order at all: every
// activation is a token with its own generation and origin (the activation
// that made it), and every draw is keyed by the origin.
#pragma once

#include <cstdint>
#include <optional>
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
  // Synthetic: consumes one of id's pending activations (the lowest
  // generation, then the lowest origin); SimulationError when none is pending.
  ItemCost apply(std::int32_t id, std::vector<std::int32_t>& activated);

  // Synthetic: merges id's pending activations into one (the one apply would
  // take), as a scheme that keeps one flag per node does (topology-driven,
  // §II-C).  A no-op for graph operators and for ids with at most one pending.
  void merge_pending(std::int32_t id);

  // Synthetic: activations pushed but not yet processed (0 for graphs).
  std::int64_t pending() const { return pending_; }

  // SimulationError when a BFS/SSSP distance differs from the reference (a
  // lost or duplicated update would show here).
  void check(const char* scheme) const;

  // Final node values (distances; NaN where unreached), for Result.values().
  std::vector<double> values() const;

  std::int64_t items() const { return items_; }

  // SP: the surveys as the run left them (nullptr for other operators).
  const Surveys* surveys() const { return surveys_ ? &*surveys_ : nullptr; }

 private:
  struct Token {  // a pending activation of a synthetic item
    std::uint64_t origin;
    std::int32_t generation;
    std::int32_t next;  // the id's next pending token, or -1
  };

  ItemCost apply_graph(std::int32_t u, std::vector<std::int32_t>& activated);
  ItemCost apply_synthetic(std::int32_t u, std::vector<std::int32_t>& activated);
  std::int32_t take(std::int32_t u);  // unlinks u's first pending token
  void push(std::int32_t v, std::uint64_t origin, std::int32_t generation);
  double smooth_field(std::int32_t u) const;
  bool is_pending(std::int32_t v) const { return initial_[v] != 0 || head_[v] >= 0; }

  const WorklistProblem& problem_;
  const OperatorSpec& op_;
  Philox rng_;
  std::vector<std::int64_t> dist_;      // graph operators
  std::vector<std::uint8_t> initial_;   // synthetic: the id's initial activation pending
  std::vector<std::int32_t> head_;      // synthetic: first pending token (sorted list), or -1
  std::vector<Token> tokens_;           // pool of pending tokens
  std::int32_t free_ = -1;              // free list through Token::next
  std::int64_t pending_ = 0;
  std::int64_t items_ = 0;
  std::optional<Surveys> surveys_;      // SP: the surveys, updated as clauses are processed
};

}  // namespace tbdse::hwwl
