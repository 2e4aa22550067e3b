#include "models/hwwl/operator_state.hpp"

#include <cmath>
#include <limits>

#include "core/errors.hpp"

namespace tbdse::hwwl {

OperatorState::OperatorState(const WorklistProblem& problem, std::uint64_t model_key)
    : problem_(problem), op_(problem.op()), rng_(model_key) {
  const auto n = static_cast<std::size_t>(problem.nodes());
  if (op_.kind == OperatorKind::SYNTHETIC) {
    visits_.assign(n, 0);
    generation_.assign(n, 0);
  } else {
    dist_.assign(n, kUnreached);
    dist_[op_.source] = 0;
  }
}

ItemCost OperatorState::apply(std::int32_t id, std::vector<std::int32_t>& activated) {
  ++items_;
  return op_.kind == OperatorKind::SYNTHETIC ? apply_synthetic(id, activated)
                                             : apply_graph(id, activated);
}

ItemCost OperatorState::apply_graph(std::int32_t u, std::vector<std::int32_t>& activated) {
  const Digraph& g = *problem_.graph();
  const auto next = g.neighbours(u);
  const auto weight = g.arc_weights(u);
  const bool bfs = op_.kind == OperatorKind::BFS;
  const std::int64_t du = dist_[u];
  for (std::size_t i = 0; i < next.size(); ++i) {
    const std::int64_t nd = du + (bfs ? 1 : weight[i]);
    if (nd < dist_[next[i]]) {
      dist_[next[i]] = nd;
      activated.push_back(next[i]);
    }
  }
  const auto degree = static_cast<std::int64_t>(next.size());
  // One load for the node, then one per arc (the neighbour's distance).
  return {op_.node_instructions + degree * op_.arc_instructions,
          static_cast<std::int32_t>(std::min<std::int64_t>(1 + degree, INT32_MAX))};
}

ItemCost OperatorState::apply_synthetic(std::int32_t u, std::vector<std::int32_t>& activated) {
  // Draws keyed by (item, visit): the same item visited the same number of
  // times costs the same under every scheme.
  const auto visit = static_cast<std::uint64_t>(visits_[u]++);
  const std::int32_t gen = generation_[u];
  const std::uint64_t stream = visit << 16;
  const double z = rng_.normal2(static_cast<std::uint64_t>(u), stream)[0];
  const double sigma = op_.work_sigma;
  const double work = op_.work_mean * std::pow(op_.work_growth, gen) *
                      std::exp(sigma * z - 0.5 * sigma * sigma);
  const auto instructions = static_cast<std::int64_t>(std::max(1.0, std::round(work)));
  if (gen + 1 < op_.generations && op_.max_activations > 0) {
    const std::int32_t n = op_.nodes;
    const std::int32_t spread = op_.spread > 0 ? op_.spread : n;
    const double p = op_.activations / op_.max_activations;
    for (std::int32_t k = 0; k < op_.max_activations; ++k) {
      const auto draw = rng_.uniform2(static_cast<std::uint64_t>(u), stream + 1 + k);
      if (draw[0] >= p) continue;
      const auto offset = static_cast<std::int64_t>(draw[1] * spread);
      const auto v = static_cast<std::int32_t>((u + 1 + std::min<std::int64_t>(offset, spread - 1)) % n);
      generation_[v] = gen + 1;
      activated.push_back(v);
    }
  }
  return {instructions, op_.mem_rounds};
}

void OperatorState::check(const char* scheme) const {
  if (op_.kind == OperatorKind::SYNTHETIC) return;
  const auto& ref = problem_.reference_distances();
  for (std::size_t v = 0; v < dist_.size(); ++v)
    if (dist_[v] != ref[v])
      throw SimulationError(std::string("internal: scheme '") + scheme + "' computed distance " +
                            (dist_[v] == kUnreached ? "unreached" : std::to_string(dist_[v])) +
                            " for node " + std::to_string(v) + ", the reference " +
                            (ref[v] == kUnreached ? "unreached" : std::to_string(ref[v])));
}

std::vector<double> OperatorState::values() const {
  std::vector<double> out(dist_.size());
  for (std::size_t v = 0; v < dist_.size(); ++v)
    out[v] = dist_[v] == kUnreached ? std::numeric_limits<double>::quiet_NaN()
                                    : static_cast<double>(dist_[v]);
  return out;
}

}  // namespace tbdse::hwwl
