#include "task_graph.hpp"

#include <algorithm>
#include <numeric>
#include <string>

#include "errors.hpp"
#include "hash.hpp"

namespace tbdse {

namespace {

std::string node_str(TaskId t) { return "node " + std::to_string(t); }

template <class T>
void check_per_node(const std::vector<T>& values, std::int32_t n, const char* what) {
  if (!values.empty() && values.size() != static_cast<std::size_t>(n))
    throw ConfigError(std::string("task graph: '") + what + "' has " +
                      std::to_string(values.size()) + " entries but the graph has " +
                      std::to_string(n) + " nodes");
  for (std::size_t i = 0; i < values.size(); ++i)
    if (values[i] < 0)
      throw ConfigError(std::string("task graph: ") + node_str(static_cast<TaskId>(i)) +
                        " has negative " + what + " " + std::to_string(values[i]) +
                        " (must be >= 0)");
}

// Called when Kahn's algorithm left `remaining` nodes unprocessed: each of them
// has an unprocessed parent, so walking parents backwards must revisit a node.
[[noreturn]] void throw_cycle(std::int32_t n, const std::vector<std::int64_t>& start,
                              const std::vector<TaskId>& children,
                              const std::vector<std::int32_t>& pending) {
  std::vector<TaskId> some_parent(static_cast<std::size_t>(n), -1);
  for (TaskId u = 0; u < n; ++u) {
    if (pending[u] == 0) continue;
    for (auto e = start[u]; e < start[u + 1]; ++e)
      if (pending[children[e]] > 0 && some_parent[children[e]] < 0) some_parent[children[e]] = u;
  }
  TaskId first = 0;
  while (pending[first] == 0) ++first;
  std::vector<std::int32_t> seen_at(static_cast<std::size_t>(n), -1);
  std::vector<TaskId> walk;
  TaskId x = first;
  while (seen_at[x] < 0) {
    seen_at[x] = static_cast<std::int32_t>(walk.size());
    walk.push_back(x);
    x = some_parent[x];
  }
  // walk[seen_at[x]..] is the cycle traversed child -> parent; print it forwards.
  std::vector<TaskId> cycle(walk.begin() + seen_at[x], walk.end());
  std::reverse(cycle.begin(), cycle.end());
  std::rotate(cycle.begin(), std::min_element(cycle.begin(), cycle.end()), cycle.end());
  std::string path;
  const std::size_t shown = std::min<std::size_t>(cycle.size(), 12);
  for (std::size_t i = 0; i < shown; ++i) path += std::to_string(cycle[i]) + " -> ";
  path += shown < cycle.size() ? "... -> " + std::to_string(cycle[0]) : std::to_string(cycle[0]);
  throw ConfigError("task graph has a cycle through " + node_str(cycle[0]) + ": " + path +
                    " (a dependency graph must be acyclic)");
}

}  // namespace

TaskGraph TaskGraph::build(TaskGraphInput in) {
  const std::int32_t n = in.nodes;
  if (n <= 0) throw ConfigError("task graph is empty: it needs at least one node");
  if (in.edge_src.size() != in.edge_dst.size())
    throw ConfigError("task graph: edge source and destination lists differ in length");
  const std::size_t m = in.edge_src.size();
  for (std::size_t e = 0; e < m; ++e) {
    const TaskId s = in.edge_src[e], d = in.edge_dst[e];
    for (const TaskId v : {s, d})
      if (v < 0 || v >= n)
        throw ConfigError("task graph: edge " + std::to_string(s) + " -> " + std::to_string(d) +
                          " refers to " + node_str(v) + ", but the graph has " +
                          std::to_string(n) + " nodes (valid ids 0.." + std::to_string(n - 1) +
                          ")");
    if (s == d) throw ConfigError("task graph: edge " + std::to_string(s) + " -> " +
                                  std::to_string(d) + " is a self loop on " + node_str(s));
  }
  check_per_node(in.kernel, n, "kernel id");
  check_per_node(in.cost, n, "cost");
  check_per_node(in.launch_group, n, "launch group");

  TaskGraph g;
  // CSR by counting sort on the source, then sorted, de-duplicated child lists.
  std::vector<std::int64_t> start(static_cast<std::size_t>(n) + 1, 0);
  for (std::size_t e = 0; e < m; ++e) ++start[in.edge_src[e] + 1];
  std::partial_sum(start.begin(), start.end(), start.begin());
  std::vector<TaskId> raw(m);
  {
    std::vector<std::int64_t> fill(start.begin(), start.end() - 1);
    for (std::size_t e = 0; e < m; ++e) raw[fill[in.edge_src[e]]++] = in.edge_dst[e];
  }
  g.edge_start_.assign(static_cast<std::size_t>(n) + 1, 0);
  g.children_.reserve(m);
  for (TaskId u = 0; u < n; ++u) {
    auto first = raw.begin() + start[u], last = raw.begin() + start[u + 1];
    std::sort(first, last);
    last = std::unique(first, last);
    g.children_.insert(g.children_.end(), first, last);
    g.edge_start_[u + 1] = static_cast<std::int64_t>(g.children_.size());
  }
  raw = {};

  g.parent_count_.assign(static_cast<std::size_t>(n), 0);
  for (const TaskId c : g.children_) ++g.parent_count_[c];

  // Kahn's algorithm in id order: levels (1 + max parent level) and cycle check.
  g.level_.assign(static_cast<std::size_t>(n), 0);
  std::vector<std::int32_t> pending(g.parent_count_);
  std::vector<TaskId> queue;
  queue.reserve(static_cast<std::size_t>(n));
  for (TaskId u = 0; u < n; ++u)
    if (pending[u] == 0) queue.push_back(u);
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const TaskId u = queue[head];
    for (auto e = g.edge_start_[u]; e < g.edge_start_[u + 1]; ++e) {
      const TaskId c = g.children_[e];
      g.level_[c] = std::max(g.level_[c], g.level_[u] + 1);
      if (--pending[c] == 0) queue.push_back(c);
    }
  }
  if (queue.size() != static_cast<std::size_t>(n))
    throw_cycle(n, g.edge_start_, g.children_, pending);

  g.num_levels_ = *std::max_element(g.level_.begin(), g.level_.end()) + 1;

  // Virtual ids: counting sort by level, stable in id.
  std::vector<std::int32_t> level_start(static_cast<std::size_t>(g.num_levels_) + 1, 0);
  for (const auto l : g.level_) ++level_start[l + 1];
  std::partial_sum(level_start.begin(), level_start.end(), level_start.begin());
  g.level_order_.resize(static_cast<std::size_t>(n));
  g.vid_.resize(static_cast<std::size_t>(n));
  for (TaskId u = 0; u < n; ++u) {
    const std::int32_t v = level_start[g.level_[u]]++;
    g.level_order_[v] = u;
    g.vid_[u] = v;
  }

  g.kernel_ = in.kernel.empty() ? std::vector<KernelId>(static_cast<std::size_t>(n), 0)
                                : std::move(in.kernel);
  g.cost_ = in.cost.empty() ? std::vector<Cycle>(static_cast<std::size_t>(n), 0)
                            : std::move(in.cost);
  g.launch_group_ = std::move(in.launch_group);
  g.num_kernels_ = *std::max_element(g.kernel_.begin(), g.kernel_.end()) + 1;

  Hasher h;
  h.add_span<std::int64_t>(g.edge_start_)
      .add_span<TaskId>(g.children_)
      .add_span<KernelId>(g.kernel_)
      .add_span<Cycle>(g.cost_)
      .add_span<std::int32_t>(g.launch_group_);
  g.hash_ = h.digest();
  return g;
}

Cycle TaskGraph::critical_path(std::span<const Cycle> cost) const {
  // Earliest start of each task when every task waits only for its parents.
  std::vector<Cycle> ready(static_cast<std::size_t>(size()), 0);
  Cycle longest = 0;
  for (const TaskId t : level_order_) {
    const Cycle finish = ready[t] + cost[t];
    longest = std::max(longest, finish);
    for (const TaskId c : children(t)) ready[c] = std::max(ready[c], finish);
  }
  return longest;
}

}  // namespace tbdse
