// Per-task execution cycles (docs/MODELS.md §1 "Cost model").  A cost model is
// materialised once per run into one integer per task; random kinds draw from
// the counter-based generator keyed by the run's cost key, with the task id as
// the counter, so a task's cost does not depend on the schedule.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "task_graph.hpp"
#include "types.hpp"

namespace tbdse {

struct CostModel {
  enum class Kind { GRAPH, CONSTANT, PER_KERNEL, ARRAY, UNIFORM, NORMAL, LOGNORMAL };

  Kind kind = Kind::GRAPH;
  // Kind-specific numeric parameters, named by param_names(kind):
  //   graph:      scale (cycles per unit of the graph's nominal cost), jitter
  //   constant:   cycles, jitter
  //   per_kernel: jitter           (values = cycles per kernel id)
  //   array:      jitter           (values = cycles per task id)
  //   uniform:    low, high        (cycles, continuous, rounded)
  //   normal:     mean, std        (cycles)
  //   lognormal:  mean, sigma      (mean in cycles; sigma of the underlying normal)
  // jitter: sigma of a mean-one lognormal factor applied to deterministic kinds.
  std::vector<double> params;

  static Kind kind_from_name(std::string_view name);  // ConfigError listing kinds
  static std::string kind_name(Kind kind);
  static std::vector<std::string> kind_names();
  static const std::vector<std::string>& param_names(Kind kind);

  // A model of `kind` with default parameters.
  static CostModel make(Kind kind);

  double param(std::string_view name) const;
  void set_param(std::string_view name, double value);  // ConfigError if unknown for this kind

  // Range checks of the parameters and values.
  void check_params() const;
  // check_params() and the fit to the graph (array length, per-kernel table
  // covering every kernel id).
  void validate(const TaskGraph& graph) const;

  std::uint64_t hash() const;

  // One cost per node (TaskGraph numbering); an `array` table and the random
  // draws are indexed by input task id.  Draws are rounded, clamped to >= 1.
  std::vector<Cycle> materialize(const TaskGraph& graph, std::uint64_t rng_key) const;

  // Cycles per kernel id (per_kernel) or per task id (array).  Shared and
  // immutable, so copying a model (one per run of a sweep) does not copy it.
  std::span<const Cycle> table() const;
  void set_table(std::vector<Cycle> values);

 private:
  std::shared_ptr<const std::vector<Cycle>> table_;
  std::uint64_t table_hash_ = 0;  // computed once by set_table
};

}  // namespace tbdse
