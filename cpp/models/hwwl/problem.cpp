#include "models/hwwl/problem.hpp"

#include <cmath>
#include <deque>
#include <queue>
#include <utility>

#include "core/errors.hpp"
#include "core/hash.hpp"

namespace tbdse::hwwl {

namespace {

std::vector<std::int64_t> bfs_levels(const Digraph& g, std::int32_t source) {
  std::vector<std::int64_t> dist(static_cast<std::size_t>(g.nodes()), kUnreached);
  std::deque<std::int32_t> queue{source};
  dist[source] = 0;
  while (!queue.empty()) {
    const std::int32_t u = queue.front();
    queue.pop_front();
    for (const std::int32_t v : g.neighbours(u))
      if (dist[v] == kUnreached) {
        dist[v] = dist[u] + 1;
        queue.push_back(v);
      }
  }
  return dist;
}

std::vector<std::int64_t> dijkstra(const Digraph& g, std::int32_t source) {
  std::vector<std::int64_t> dist(static_cast<std::size_t>(g.nodes()), kUnreached);
  using Entry = std::pair<std::int64_t, std::int32_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap;
  dist[source] = 0;
  heap.emplace(0, source);
  while (!heap.empty()) {
    const auto [d, u] = heap.top();
    heap.pop();
    if (d != dist[u]) continue;
    const auto next = g.neighbours(u);
    const auto weight = g.arc_weights(u);
    for (std::size_t i = 0; i < next.size(); ++i) {
      const std::int64_t nd = d + weight[i];
      if (nd < dist[next[i]]) {
        dist[next[i]] = nd;
        heap.emplace(nd, next[i]);
      }
    }
  }
  return dist;
}

void require(bool ok, const std::string& message) {
  if (!ok) throw ConfigError("worklist workload: " + message);
}

}  // namespace

WorklistProblem::WorklistProblem(DigraphPtr graph, OperatorSpec op, std::vector<float> work_scale,
                                 std::vector<std::int32_t> initial,
                                 std::vector<std::int32_t> literals)
    : graph_(std::move(graph)), op_(op), work_scale_(std::move(work_scale)),
      initial_(std::move(initial)) {
  const bool synthetic = op_.kind == OperatorKind::SYNTHETIC;
  require(op_.node_instructions >= 0 && op_.arc_instructions >= 0,
          "node_instructions and arc_instructions must be >= 0");
  if (!synthetic) {
    require(graph_ != nullptr, "a BFS or SSSP operator needs a graph");
    require(op_.source >= 0 && op_.source < graph_->nodes(),
            "source " + std::to_string(op_.source) + " is not a node (0.." +
                std::to_string(graph_->nodes() - 1) + ")");
    require(work_scale_.empty() && initial_.empty() && op_.arc_activation == 0 && literals.empty(),
            "work_scale, initial ids, arc_activation and literals belong to the synthetic operator");
  } else {
    if (graph_) {  // the input's structure: ids are its nodes
      require(op_.nodes == 0 || op_.nodes == graph_->nodes(),
              "nodes = " + std::to_string(op_.nodes) + " differs from the graph's " +
                  std::to_string(graph_->nodes()) + " (leave it 0 with a graph)");
      op_.nodes = graph_->nodes();
      require(op_.activations == 0 && op_.spread == 0 && op_.locality == 0,
              "with a graph, activations follow its arcs (arc_activation) and loads its "
              "neighbours: activations, spread and locality must be 0");
    }
    require(op_.arc_activation >= 0 && op_.arc_activation <= 1,
            "arc_activation must be in [0, 1]");
    require(op_.arc_activation == 0 || graph_ != nullptr,
            "arc_activation needs a graph (the input's structure)");
    require(op_.nodes >= 1, "the synthetic operator needs nodes >= 1");
    require(work_scale_.empty() || work_scale_.size() == static_cast<std::size_t>(op_.nodes),
            "work_scale has " + std::to_string(work_scale_.size()) + " factors for " +
                std::to_string(op_.nodes) + " ids");
    for (const float f : work_scale_)
      require(std::isfinite(f) && f > 0 && f <= 1e6, "work_scale factors must be in (0, 1e6]");
    for (const std::int32_t id : initial_)
      require(id >= 0 && id < op_.nodes, "initial id " + std::to_string(id) +
                                             " is not an id (0.." + std::to_string(op_.nodes - 1) +
                                             ")");
    require(op_.initial > 0 && op_.initial <= 1, "initial must be in (0, 1]");
    require(op_.work_mean >= 1 && op_.work_mean <= 1e9, "work_mean must be in [1, 1e9]");
    require(op_.work_sigma >= 0 && op_.work_sigma <= 4, "work_sigma must be in [0, 4]");
    require(op_.work_growth > 0 && op_.work_growth <= 100, "work_growth must be in (0, 100]");
    require(op_.mem_rounds >= 0 && op_.mem_rounds <= 1'000'000, "mem_rounds must be in [0, 1e6]");
    require(op_.max_activations >= 0 && op_.max_activations <= 1024,
            "max_activations must be in [0, 1024]");
    require(op_.activations >= 0 && op_.activations <= op_.max_activations,
            "activations must be in [0, max_activations]");
    require(op_.spread >= 0 && op_.spread <= op_.nodes, "spread must be in [0, nodes]");
    require(op_.locality >= 0 && op_.locality <= op_.nodes, "locality must be in [0, nodes]");
    require(op_.generations >= 1 && op_.generations <= 1'000'000,
            "generations must be in [1, 1e6]");
    require(op_.work_smooth >= 0 && op_.work_smooth <= 1, "work_smooth must be in [0, 1]");
    require(op_.work_corr >= 0 && op_.work_corr <= kMaxWorkIds, "work_corr must be in [0, 2^24]");
    require(op_.work_smooth == 0 || op_.work_corr >= 1,
            "work_smooth > 0 needs a correlation length work_corr >= 1");
    require(op_.survey_epsilon > 0 && op_.survey_epsilon < 1, "survey_epsilon must be in (0, 1)");
    require(op_.decimations >= 0 && op_.decimations <= 100'000, "decimations must be in [0, 1e5]");
    require(op_.fix_fraction > 0 && op_.fix_fraction <= 1, "fix_fraction must be in (0, 1]");
    if (!literals.empty()) {
      require(initial_.empty() && op_.arc_activation == 0,
              "with literals (survey propagation) the surveys decide activations and the "
              "decimation the initial items: give no initial ids and arc_activation 0");
      formula_ = std::make_shared<const SatFormula>(std::move(literals), op_.nodes);
    }
  }
  require(nodes() <= kMaxWorkIds,
          std::to_string(nodes()) + " work ids do not fit the banks' 24-bit entries (at most " +
              std::to_string(kMaxWorkIds) + ", HWWL §III-B)");

  Hasher h(graph_ ? graph_->content_hash() : 0x5E7);
  h.add_signed(static_cast<std::int64_t>(op_.kind)).add_signed(op_.source);
  h.add_signed(op_.node_instructions).add_signed(op_.arc_instructions);
  h.add_signed(op_.nodes).add_double(op_.initial).add_double(op_.work_mean);
  h.add_double(op_.work_sigma).add_double(op_.work_growth).add_signed(op_.mem_rounds);
  h.add_double(op_.activations).add_signed(op_.max_activations).add_signed(op_.spread);
  h.add_signed(op_.generations).add_double(op_.work_smooth).add_signed(op_.work_corr);
  h.add_signed(op_.locality).add_double(op_.arc_activation);
  h.add_signed(static_cast<std::int64_t>(work_scale_.size()));
  for (const float f : work_scale_) h.add_double(f);
  h.add_signed(static_cast<std::int64_t>(initial_.size()));
  for (const std::int32_t id : initial_) h.add_signed(id);
  // Version 3 of the synthetic draws (graph-driven activations): results kept
  // under the old keys are not reused.
  if (synthetic) h.add_signed(3);
  if (formula_) {  // version 4: survey propagation
    h.add_signed(4).add_double(op_.survey_epsilon).add_signed(op_.decimations);
    h.add_double(op_.fix_fraction);
    for (const std::int32_t lit : formula_->literals()) h.add_signed(lit);
  }
  hash_ = h.digest();
}

std::int32_t WorklistProblem::nodes() const { return graph_ ? graph_->nodes() : op_.nodes; }

double WorklistProblem::weight() const {
  if (graph_ && synthetic())
    return static_cast<double>(graph_->nodes()) * (1.0 + op_.generations * op_.arc_activation *
                                                             static_cast<double>(graph_->arcs()) /
                                                             graph_->nodes());
  if (graph_) return static_cast<double>(graph_->nodes()) + static_cast<double>(graph_->arcs());
  return static_cast<double>(op_.nodes) * (1.0 + op_.activations * op_.generations);
}

std::map<std::string, double> WorklistProblem::sizes() const {
  std::map<std::string, double> out{{"nodes", nodes()}};
  if (graph_) out["edges"] = static_cast<double>(graph_->arcs());
  return out;
}

const SurveyStart& WorklistProblem::survey_start() const {
  std::call_once(survey_once_, [this] {
    if (!formula_) throw SimulationError("internal: survey_start() without a formula");
    // LonestarGPU sp's main loop on the host: converge from random surveys,
    // then each decimation fixes variables and converges again; the pass
    // after the last decimation is the one the machines run.
    SurveyParams p;
    p.epsilon = op_.survey_epsilon;
    p.fix_fraction = op_.fix_fraction;
    auto start = std::make_unique<SurveyStart>(
        SurveyStart{Surveys(*formula_, mix64(hash_ ^ 0x5B5E7ULL)), {}, 0});
    Surveys& s = start->surveys;
    if (op_.decimations == 0) {
      start->seeds.resize(static_cast<std::size_t>(formula_->clauses()));
      for (std::int32_t a = 0; a < formula_->clauses(); ++a) start->seeds[a] = a;
    }
    for (std::int32_t d = 1; d <= op_.decimations; ++d) {
      start->sweeps += s.converge(p);
      start->seeds = s.decimate(p);
      if (start->seeds.empty())
        throw ConfigError("worklist workload: decimations = " +
                          std::to_string(op_.decimations) + ": the formula is paramagnetic " +
                          "(or has no free variable) after " + std::to_string(d - 1) +
                          " decimations; use at most " + std::to_string(d - 1));
      if (d < op_.decimations) s.retire_satisfied();
    }
    survey_ = std::move(start);
  });
  return *survey_;
}

std::vector<std::int32_t> WorklistProblem::initial_items() const {
  if (op_.kind != OperatorKind::SYNTHETIC) return {op_.source};
  if (formula_) return survey_start().seeds;
  if (!initial_.empty()) return initial_;
  const auto count = std::max<std::int64_t>(1, std::llround(op_.initial * op_.nodes));
  std::vector<std::int32_t> items;
  items.reserve(static_cast<std::size_t>(count));
  for (std::int64_t i = 0; i < count; ++i)  // evenly spaced over the id space
    items.push_back(static_cast<std::int32_t>(i * op_.nodes / count));
  return items;
}

const std::vector<std::int64_t>& WorklistProblem::reference_distances() const {
  std::call_once(reference_once_, [this] {
    if (!graph_ || synthetic()) return;
    reference_ = op_.kind == OperatorKind::BFS ? bfs_levels(*graph_, op_.source)
                                               : dijkstra(*graph_, op_.source);
  });
  return reference_;
}

}  // namespace tbdse::hwwl
