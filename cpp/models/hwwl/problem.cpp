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

WorklistProblem::WorklistProblem(DigraphPtr graph, OperatorSpec op)
    : graph_(std::move(graph)), op_(op) {
  const bool synthetic = op_.kind == OperatorKind::SYNTHETIC;
  require(op_.node_instructions >= 0 && op_.arc_instructions >= 0,
          "node_instructions and arc_instructions must be >= 0");
  if (!synthetic) {
    require(graph_ != nullptr, "a BFS or SSSP operator needs a graph");
    require(op_.source >= 0 && op_.source < graph_->nodes(),
            "source " + std::to_string(op_.source) + " is not a node (0.." +
                std::to_string(graph_->nodes() - 1) + ")");
  } else {
    require(graph_ == nullptr, "the synthetic operator runs without a graph");
    require(op_.nodes >= 1, "the synthetic operator needs nodes >= 1");
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
  h.add_signed(op_.locality);
  // Version 2 of the synthetic draws (per-activation origins): results kept
  // under the old keys are not reused.
  if (synthetic) h.add_signed(2);
  hash_ = h.digest();
}

std::int32_t WorklistProblem::nodes() const { return graph_ ? graph_->nodes() : op_.nodes; }

double WorklistProblem::weight() const {
  if (graph_) return static_cast<double>(graph_->nodes()) + static_cast<double>(graph_->arcs());
  return static_cast<double>(op_.nodes) * (1.0 + op_.activations * op_.generations);
}

std::map<std::string, double> WorklistProblem::sizes() const {
  std::map<std::string, double> out{{"nodes", nodes()}};
  if (graph_) out["edges"] = static_cast<double>(graph_->arcs());
  return out;
}

std::vector<std::int32_t> WorklistProblem::initial_items() const {
  if (op_.kind != OperatorKind::SYNTHETIC) return {op_.source};
  const auto count = std::max<std::int64_t>(1, std::llround(op_.initial * op_.nodes));
  std::vector<std::int32_t> items;
  items.reserve(static_cast<std::size_t>(count));
  for (std::int64_t i = 0; i < count; ++i)  // evenly spaced over the id space
    items.push_back(static_cast<std::int32_t>(i * op_.nodes / count));
  return items;
}

const std::vector<std::int64_t>& WorklistProblem::reference_distances() const {
  std::call_once(reference_once_, [this] {
    if (!graph_) return;
    reference_ = op_.kind == OperatorKind::BFS ? bfs_levels(*graph_, op_.source)
                                               : dijkstra(*graph_, op_.source);
  });
  return reference_;
}

}  // namespace tbdse::hwwl
