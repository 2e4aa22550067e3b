// The worklist machine's workload (docs/MODELS.md §6): an operator applied to
// work items, the nodes of a graph (HWWL §II-A, Fig. 1).  BFS and SSSP do real
// relaxations on a Digraph and are checked against a reference solution; the
// synthetic operator stands in for the LonestarGPU benchmarks whose code
// tbdse does not model (BH, DMR, MST, SP): its work and activations per item
// are drawn from distributions (docs/models/hwwl.md derives the presets).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/digraph.hpp"
#include "core/model_input.hpp"
#include "models/hwwl/survey.hpp"

namespace tbdse::hwwl {

enum class OperatorKind { BFS, SSSP, SYNTHETIC };

// What one item costs and what it activates.  Instruction counts are per
// thread; a warp issues the largest count among its threads (SIMT lockstep).
struct OperatorSpec {
  OperatorKind kind = OperatorKind::BFS;
  // BFS / SSSP: the source node (initially the only active item).
  std::int32_t source = 0;
  // Instructions per item besides its arcs, and per arc; a graph operator
  // makes one load round trip for the node and one per arc.
  std::int64_t node_instructions = 10;
  std::int64_t arc_instructions = 6;
  // Synthetic operator: ids 0..nodes-1; a fraction `initial` of them (evenly
  // spaced) active at the start; per item lognormal(work_mean, work_sigma)
  // instructions, times work_growth per generation; mem_rounds load round
  // trips; activations per item drawn with mean `activations` (at most
  // max_activations), to ids uniform over `spread` ids after the item's
  // (wrapping; spread = nodes means anywhere), while the item's generation
  // + 1 < generations.  work_smooth (0..1) of the log-work's variance comes
  // from a smooth random field over ids whose correlation length is
  // work_corr ids (BH: bodies sorted along a space-filling curve walk trees
  // of similar depth), the rest is drawn per item; the mean stays work_mean.
  std::int32_t nodes = 0;
  double initial = 1.0;
  double work_mean = 100.0;
  double work_sigma = 0.0;
  double work_growth = 1.0;
  std::int32_t mem_rounds = 2;
  double activations = 0.0;
  std::int32_t max_activations = 4;
  std::int32_t spread = 0;
  std::int32_t generations = 1;
  // Synthetic operator: the ids on either side of an item whose records its
  // load rounds after the first read (tree cells, neighbouring triangles,
  // clauses); 0 = anywhere.  Decides the operator's cache locality.
  std::int32_t locality = 0;
  double work_smooth = 0.0;
  std::int32_t work_corr = 0;
  // Synthetic operator over an input's structure (a graph given with it:
  // td.workloads.lonestar_inputs): ids are the graph's nodes, and processing
  // an item activates each target of its out-arcs with this probability
  // (instead of `activations` within `spread`); its later load rounds read
  // its neighbours' records (instead of ids within `locality`).
  double arc_activation = 0.0;
  // Survey propagation (a formula given with the problem: SP over random
  // K-SAT, docs/models/hwwl.md "SP"): the items are the clauses, and
  // processing one updates its surveys and activates the clauses sharing a
  // variable whose survey moved by more than survey_epsilon (instead of
  // arc_activation), while the item's generation + 1 < generations.  The run
  // is the survey propagation pass that follows `decimations` decimation
  // steps of LonestarGPU's survey-inspired decimation (each fixing
  // fix_fraction of the variables), made on the host and not timed; its
  // initial items are the clauses of the variables the last one fixed (all
  // clauses when decimations = 0, from random surveys).
  double survey_epsilon = 0.01;
  std::int32_t decimations = 0;
  double fix_fraction = 0.01;
};

// Where SP's simulated pass starts: the surveys after the host's decimations,
// and its initial items.
struct SurveyStart {
  Surveys surveys;
  std::vector<std::int32_t> seeds;
  std::int32_t sweeps = 0;  // synchronous sweeps the host's converge() calls took
};

class WorklistProblem final : public ModelInput {
 public:
  // Validates: a graph operator needs a graph and a source in range; the
  // synthetic one a node count (or a graph: its structure); ids fit the
  // banks' 24-bit entries (§III-B).  Synthetic only: work_scale (one factor
  // per id, > 0, multiplying work_mean: the input's per-item work) and
  // initial (the ids active at the start, instead of `initial` evenly
  // spaced).  ConfigError naming the field otherwise.
  // literals: SP's K-SAT formula (SatFormula), one clause per id; only with
  // the synthetic operator, and without initial ids (the decimation gives them).
  WorklistProblem(DigraphPtr graph, OperatorSpec op, std::vector<float> work_scale = {},
                  std::vector<std::int32_t> initial = {}, std::vector<std::int32_t> literals = {});

  std::string kind() const override { return "worklist"; }
  std::uint64_t content_hash() const override { return hash_; }
  double weight() const override;
  std::map<std::string, double> sizes() const override;

  const OperatorSpec& op() const { return op_; }
  const Digraph* graph() const { return graph_.get(); }
  const DigraphPtr& graph_ptr() const { return graph_; }
  std::int32_t nodes() const;
  bool synthetic() const { return op_.kind == OperatorKind::SYNTHETIC; }
  // Per-id work factors (empty: 1 everywhere) and the explicit initial ids
  // (empty: `initial` evenly spaced), as given.
  const std::vector<float>& work_scale() const { return work_scale_; }
  const std::vector<std::int32_t>& initial_ids() const { return initial_; }
  // SP's formula (null: not SP) and, computed once on first use, where its
  // pass starts (SimulationError when the host's survey propagation does
  // not converge; ConfigError when the formula turns paramagnetic before
  // `decimations` steps).
  const SatFormula* formula() const { return formula_.get(); }
  const SurveyStart& survey_start() const;

  // The ids active at the start, in order.
  std::vector<std::int32_t> initial_items() const;

  // BFS / SSSP: each node's distance from the source (kUnreached where none),
  // computed once (BFS levels, or Dijkstra) and shared by every run.
  const std::vector<std::int64_t>& reference_distances() const;

 private:
  DigraphPtr graph_;
  OperatorSpec op_;
  std::vector<float> work_scale_;
  std::vector<std::int32_t> initial_;
  std::shared_ptr<const SatFormula> formula_;
  std::uint64_t hash_ = 0;
  mutable std::once_flag survey_once_;
  mutable std::unique_ptr<SurveyStart> survey_;
  mutable std::once_flag reference_once_;
  mutable std::vector<std::int64_t> reference_;
};

inline constexpr std::int64_t kUnreached = INT64_MAX;
// Bank entries hold 24-bit work ids (§III-B: "up to 17M unique work IDs").
inline constexpr std::int64_t kMaxWorkIds = std::int64_t{1} << 24;

}  // namespace tbdse::hwwl
