#include "models/hwwl/operator_state.hpp"

#include <cmath>
#include <limits>
#include <string>

#include "core/errors.hpp"

namespace tbdse::hwwl {

namespace {

// Philox streams: 0 the work draw, 1.. the activation draws (at most 1024),
// kFieldStream + octave the smooth field's lattice values.
constexpr std::uint64_t kFieldStream = std::uint64_t{1} << 40;
constexpr int kOctaves = 3;

std::uint64_t initial_origin(std::int32_t u) {
  return mix64(0x1A171A1ULL ^ static_cast<std::uint64_t>(u));
}

// The k-th activation drawn by an item: a function of its parent only.
std::uint64_t child_origin(std::uint64_t parent, std::int32_t k) {
  return mix64(parent + static_cast<std::uint64_t>(k + 1) * 0x9E3779B97F4A7C15ULL);
}

}  // namespace

OperatorState::OperatorState(const WorklistProblem& problem, std::uint64_t model_key)
    : problem_(problem), op_(problem.op()), rng_(model_key) {
  const auto n = static_cast<std::size_t>(problem.nodes());
  if (op_.kind == OperatorKind::SYNTHETIC) {
    // The initial activations (generation 0) are flags: BH's 16M bodies need no tokens.
    initial_.assign(n, 0);
    head_.assign(n, -1);
    for (const std::int32_t id : problem.initial_items()) {
      pending_ += initial_[id] ? 0 : 1;
      initial_[id] = 1;
    }
    if (problem.formula()) surveys_.emplace(problem.survey_start().surveys);
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

void OperatorState::push(std::int32_t v, std::uint64_t origin, std::int32_t generation) {
  std::int32_t t = free_;
  if (t >= 0) {
    free_ = tokens_[t].next;
  } else {
    t = static_cast<std::int32_t>(tokens_.size());
    tokens_.push_back({});
  }
  tokens_[t] = {origin, generation, -1};
  // Keep v's list sorted by (generation, origin): which token apply takes
  // then depends on the set pending, not on the order they were pushed in.
  std::int32_t* at = &head_[v];
  const auto before = [&](const Token& a) {
    return a.generation < generation || (a.generation == generation && a.origin < origin);
  };
  while (*at >= 0 && before(tokens_[*at])) at = &tokens_[*at].next;
  tokens_[t].next = *at;
  *at = t;
  ++pending_;
}

std::int32_t OperatorState::take(std::int32_t u) {
  const std::int32_t t = head_[u];
  head_[u] = tokens_[t].next;
  tokens_[t].next = free_;
  free_ = t;
  --pending_;
  return t;
}

void OperatorState::merge_pending(std::int32_t id) {
  if (op_.kind != OperatorKind::SYNTHETIC) return;
  if (initial_[id]) {  // generation 0 comes first: drop every token
    while (head_[id] >= 0) take(id);
    return;
  }
  if (head_[id] < 0) return;
  const std::int32_t keep = take(id);  // freed, but its fields stay until reused
  const Token kept = tokens_[keep];
  while (head_[id] >= 0) take(id);
  push(id, kept.origin, kept.generation);
}

// Value noise over ids (kOctaves octaves, the longest work_corr ids; smoothstep
// between Gaussian lattice values), scaled to unit variance at every id, so
// that exp(sigma z) keeps the preset's mean.
double OperatorState::smooth_field(std::int32_t u) const {
  double sum = 0, var = 0;
  for (int o = 0; o < kOctaves; ++o) {
    const double length = std::max(1.0, static_cast<double>(op_.work_corr) / (1 << o));
    const double x = u / length, cell = std::floor(x), t = x - cell;
    const double s = t * t * (3 - 2 * t), amp = 1.0 / (1 << o);
    const auto i = static_cast<std::uint64_t>(cell);
    const double g0 = rng_.normal(i, kFieldStream + o), g1 = rng_.normal(i + 1, kFieldStream + o);
    sum += amp * ((1 - s) * g0 + s * g1);
    var += amp * amp * ((1 - s) * (1 - s) + s * s);
  }
  return sum / std::sqrt(var);
}

ItemCost OperatorState::apply_synthetic(std::int32_t u, std::vector<std::int32_t>& activated) {
  // Draws keyed by the activation's origin: the same activations give the
  // same items and costs under every scheme and processing order.
  std::uint64_t origin;
  std::int32_t gen;
  if (initial_[u]) {
    initial_[u] = 0;
    --pending_;
    origin = initial_origin(u), gen = 0;
  } else if (head_[u] >= 0) {
    const Token& t = tokens_[take(u)];
    origin = t.origin, gen = t.generation;
  } else {
    throw SimulationError("internal: synthetic item " + std::to_string(u) +
                          " processed without a pending activation");
  }
  double z = rng_.normal2(origin, 0)[0];
  if (op_.work_smooth > 0)  // part of the log-work shared with nearby ids
    z = std::sqrt(op_.work_smooth) * smooth_field(u) + std::sqrt(1 - op_.work_smooth) * z;
  const double sigma = op_.work_sigma;
  const auto& scale = problem_.work_scale();
  const double work = op_.work_mean * (scale.empty() ? 1.0 : scale[u]) *
                      std::pow(op_.work_growth, gen) * std::exp(sigma * z - 0.5 * sigma * sigma);
  const auto instructions = static_cast<std::int64_t>(std::max(1.0, std::round(work)));
  if (surveys_) {  // SP: the clause's surveys; neighbours whose input moved are activated
    const bool may_push = gen + 1 < op_.generations;
    std::int32_t k = 0;
    surveys_->update(u, op_.survey_epsilon, [&](std::int32_t b) {
      if (!may_push || is_pending(b)) return;  // Galois sp's onWL flag: one pending per clause
      push(b, child_origin(origin, k++), gen + 1);
      activated.push_back(b);
    });
  } else if (const Digraph* g = problem_.graph()) {  // the input's structure: activations along arcs
    if (gen + 1 < op_.generations && op_.arc_activation > 0) {
      const auto next = g->neighbours(u);
      for (std::size_t k = 0; k < next.size(); ++k) {
        if (rng_.uniform2(origin, 1 + k)[0] >= op_.arc_activation) continue;
        push(next[k], child_origin(origin, static_cast<std::int32_t>(k)), gen + 1);
        activated.push_back(next[k]);
      }
    }
  } else if (gen + 1 < op_.generations && op_.max_activations > 0) {
    const std::int32_t n = op_.nodes;
    const std::int32_t spread = op_.spread > 0 ? op_.spread : n;
    const double p = op_.activations / op_.max_activations;
    for (std::int32_t k = 0; k < op_.max_activations; ++k) {
      const auto draw = rng_.uniform2(origin, 1 + static_cast<std::uint64_t>(k));
      if (draw[0] >= p) continue;
      const auto offset = static_cast<std::int64_t>(draw[1] * spread);
      const auto v = static_cast<std::int32_t>((u + 1 + std::min<std::int64_t>(offset, spread - 1)) % n);
      push(v, child_origin(origin, k), gen + 1);
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
