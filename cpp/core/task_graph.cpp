#include "task_graph.hpp"

#include <algorithm>
#include <numeric>
#include <string>
#include <type_traits>

#include "errors.hpp"
#include "memory.hpp"
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
  require_graph_fits("task graph", n, static_cast<double>(m));
  check_per_node(in.kernel, n, "kernel id");
  check_per_node(in.cost, n, "cost");
  check_per_node(in.launch_group, n, "launch group");

  // CSR in input ids: counting sort on the source, then sorted, de-duplicated child lists.
  std::vector<std::int64_t> start(static_cast<std::size_t>(n) + 1, 0);
  for (std::size_t e = 0; e < m; ++e) ++start[in.edge_src[e] + 1];
  std::partial_sum(start.begin(), start.end(), start.begin());
  std::vector<TaskId> children(m);
  {
    std::vector<std::int64_t> fill(start.begin(), start.end() - 1);
    for (std::size_t e = 0; e < m; ++e) children[fill[in.edge_src[e]]++] = in.edge_dst[e];
  }
  {
    std::vector<TaskId> unique_children;
    unique_children.reserve(m);
    std::int64_t begin = 0;
    for (TaskId u = 0; u < n; ++u) {
      auto first = children.begin() + begin, last = children.begin() + start[u + 1];
      std::sort(first, last);
      last = std::unique(first, last);
      begin = start[u + 1];
      start[u + 1] = start[u] + (last - first);
      unique_children.insert(unique_children.end(), first, last);
    }
    children = std::move(unique_children);
  }

  std::vector<std::int32_t> parents(static_cast<std::size_t>(n), 0);
  for (const TaskId c : children) ++parents[c];

  // Kahn's algorithm in id order: levels (1 + max parent level) and cycle check.
  std::vector<std::int32_t> level(static_cast<std::size_t>(n), 0);
  std::vector<std::int32_t> pending(parents);
  std::vector<TaskId> queue;
  queue.reserve(static_cast<std::size_t>(n));
  for (TaskId u = 0; u < n; ++u)
    if (pending[u] == 0) queue.push_back(u);
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const TaskId u = queue[head];
    for (auto e = start[u]; e < start[u + 1]; ++e) {
      const TaskId c = children[e];
      level[c] = std::max(level[c], level[u] + 1);
      if (--pending[c] == 0) queue.push_back(c);
    }
  }
  if (queue.size() != static_cast<std::size_t>(n)) throw_cycle(n, start, children, pending);

  TaskGraph g;
  g.num_levels_ = *std::max_element(level.begin(), level.end()) + 1;

  // Virtual ids: counting sort by level, stable in input id.
  std::vector<std::int32_t> level_start(static_cast<std::size_t>(g.num_levels_) + 1, 0);
  for (const auto l : level) ++level_start[l + 1];
  std::partial_sum(level_start.begin(), level_start.end(), level_start.begin());
  g.original_.resize(static_cast<std::size_t>(n));
  g.node_of_.resize(static_cast<std::size_t>(n));
  for (TaskId u = 0; u < n; ++u) {
    const std::int32_t v = level_start[level[u]]++;
    g.original_[v] = u;
    g.node_of_[u] = v;
  }

  // The stored graph, renamed.
  const auto permuted = [&](const auto& per_input) {
    std::remove_cvref_t<decltype(per_input)> out(per_input.size());
    for (std::size_t v = 0; v < per_input.size(); ++v) out[v] = per_input[g.original_[v]];
    return out;
  };
  g.edge_start_.assign(static_cast<std::size_t>(n) + 1, 0);
  g.children_.reserve(children.size());
  for (TaskId v = 0; v < n; ++v) {
    const TaskId u = g.original_[v];
    const auto from = g.children_.size();
    for (auto e = start[u]; e < start[u + 1]; ++e) g.children_.push_back(g.node_of_[children[e]]);
    std::sort(g.children_.begin() + static_cast<std::ptrdiff_t>(from), g.children_.end());
    g.edge_start_[v + 1] = static_cast<std::int64_t>(g.children_.size());
  }
  g.parent_count_ = permuted(parents);
  g.level_ = permuted(level);
  g.kernel_ = in.kernel.empty() ? std::vector<KernelId>(static_cast<std::size_t>(n), 0)
                                : permuted(in.kernel);
  g.cost_ = in.cost.empty() ? std::vector<Cycle>(static_cast<std::size_t>(n), 0) : permuted(in.cost);
  if (!in.launch_group.empty()) g.launch_group_ = permuted(in.launch_group);
  g.num_kernels_ = *std::max_element(g.kernel_.begin(), g.kernel_.end()) + 1;

  Hasher h;
  h.add_span<std::int64_t>(g.edge_start_)
      .add_span<TaskId>(g.children_)
      .add_span<KernelId>(g.kernel_)
      .add_span<Cycle>(g.cost_)
      .add_span<std::int32_t>(g.launch_group_)
      .add_span<TaskId>(g.original_);
  g.hash_ = h.digest();
  return g;
}

std::pair<std::vector<std::int64_t>, std::vector<TaskId>> TaskGraph::original_csr() const {
  const std::int32_t n = size();
  std::vector<std::int64_t> start(static_cast<std::size_t>(n) + 1, 0);
  for (TaskId v = 0; v < n; ++v) start[original_[v] + 1] = child_count(v);
  std::partial_sum(start.begin(), start.end(), start.begin());
  std::vector<TaskId> out(children_.size());
  for (TaskId v = 0; v < n; ++v) {
    auto pos = out.begin() + start[original_[v]];
    for (const TaskId c : children(v)) *pos++ = original_[c];
    std::sort(out.begin() + start[original_[v]], pos);
  }
  return {std::move(start), std::move(out)};
}

Cycle TaskGraph::critical_path(std::span<const Cycle> cost) const {
  // Earliest start of each task when every task waits only for its parents.
  std::vector<Cycle> ready(static_cast<std::size_t>(size()), 0);
  Cycle longest = 0;
  for (TaskId t = 0; t < size(); ++t) {  // node ids are in level order: topological
    const Cycle finish = ready[t] + cost[t];
    longest = std::max(longest, finish);
    for (const TaskId c : children(t)) ready[c] = std::max(ready[c], finish);
  }
  return longest;
}

}  // namespace tbdse
