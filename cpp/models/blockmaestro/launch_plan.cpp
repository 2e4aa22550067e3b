#include "models/blockmaestro/launch_plan.hpp"

#include <algorithm>

#include "core/errors.hpp"

namespace tbdse::blockmaestro {

namespace {

// Dense launch index per node: launch groups (ranked) if the graph has them, else levels.
std::vector<std::int32_t> launch_index(const TaskGraph& g) {
  const std::int32_t n = g.size();
  std::vector<std::int32_t> key(static_cast<std::size_t>(n));
  for (TaskId t = 0; t < n; ++t) key[t] = g.has_launch_groups() ? g.launch_group(t) : g.level(t);
  std::vector<std::int32_t> keys(key);
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  for (auto& k : key)
    k = static_cast<std::int32_t>(std::lower_bound(keys.begin(), keys.end(), k) - keys.begin());
  return key;
}

}  // namespace

LaunchPlan LaunchPlan::build(const Workload& workload, std::int64_t parent_counter_bits) {
  const TaskGraph& g = *workload.graph;
  const std::int32_t n = g.size();
  LaunchPlan plan;
  const Application* app = workload.application.get();
  plan.launch_of = launch_index(g);
  const std::int32_t launches =
      n == 0 ? 0 : *std::max_element(plan.launch_of.begin(), plan.launch_of.end()) + 1;
  plan.launches.resize(static_cast<std::size_t>(launches));
  if (app && app->launches() != launches)
    throw ConfigError("workload '" + workload.name + "': its application launches " +
                      std::to_string(workload.application->launches()) + " kernels but its task "
                      "graph has " + std::to_string(launches) + " launch groups");

  // TBs in block order: input ids ascending.
  std::vector<TaskId> by_input(static_cast<std::size_t>(n));
  for (TaskId t = 0; t < n; ++t) by_input[g.original_id(t)] = t;
  plan.block_of.resize(static_cast<std::size_t>(n));
  for (const TaskId t : by_input) {
    auto& tbs = plan.launches[plan.launch_of[t]].tbs;
    plan.block_of[t] = static_cast<std::int32_t>(tbs.size());
    tbs.push_back(t);
  }

  // Edges: to the next launch (tracked per TB) or further (a kernel-level wait).
  plan.prev_parents.assign(static_cast<std::size_t>(n), 0);
  std::vector<std::vector<std::int32_t>> edge_parent(plan.launches.size()), edge_child(plan.launches.size());
  for (TaskId t = 0; t < n; ++t) {
    const std::int32_t a = plan.launch_of[t];
    for (const TaskId c : g.children(t)) {
      const std::int32_t b = plan.launch_of[c];
      if (b <= a)
        throw ConfigError("task " + std::to_string(g.original_id(t)) + " (launch " +
                          std::to_string(a) + ") -> task " + std::to_string(g.original_id(c)) +
                          " (launch " + std::to_string(b) + "): BlockMaestro runs launches in "
                          "order, so every dependency must point to a later launch");
      if (b == a + 1) {
        ++plan.prev_parents[c];
        edge_parent[b].push_back(plan.block_of[t]);
        edge_child[b].push_back(plan.block_of[c]);
      } else {
        plan.launches[b].waits_for = std::max(plan.launches[b].waits_for, a);
      }
    }
  }

  const std::int64_t counter_max =
      parent_counter_bits >= 62 ? INT64_MAX : (std::int64_t{1} << parent_counter_bits) - 1;
  for (std::int32_t i = 0; i < launches; ++i) {
    LaunchInfo& L = plan.launches[i];
    const std::int32_t declared = app ? app->launch_waits_for[i] : -1;
    const bool declared_full = i > 0 && declared == i - 1;
    if (declared >= 0 && declared < i - 1) L.waits_for = std::max(L.waits_for, declared);
    if (i == 0) {
      L.pair = classify(0, static_cast<std::int64_t>(L.tbs.size()), {}, {});
      continue;
    }
    const auto parents = static_cast<std::int64_t>(plan.launches[i - 1].tbs.size());
    const auto children = static_cast<std::int64_t>(L.tbs.size());
    L.pair = classify(parents, children, edge_parent[i], edge_child[i], declared_full);
    L.overflow = L.pair.pattern != Pattern::FULLY_CONNECTED && L.pair.max_parents_per_child > counter_max;
    L.barrier = declared_full || L.overflow || L.pair.pattern == Pattern::FULLY_CONNECTED;
  }
  return plan;
}

}  // namespace tbdse::blockmaestro
