// A task graph in compressed sparse row form (Wireframe §3.2, Fig. 6): per
// node the edge start, parent count, level, kernel id and nominal cost; one
// edge array of child ids.  Immutable once built; built only through
// TaskGraph::build, which validates the input (ids in range, no self loops,
// no cycles, not empty) and computes levels.
//
// Node ids are *virtual ids* (Wireframe §3.2.2): the graph is stored renamed
// level by level (by original id within a level), as the paper's hardware
// sees it.  Simulations then walk memory almost sequentially, since a level's
// tasks and their children sit together.  original_id() maps a node back to
// the id the caller built it with; every result that names tasks uses those.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "types.hpp"

namespace tbdse {

struct TaskGraphInput {
  std::int32_t nodes = 0;
  std::vector<TaskId> edge_src;       // parent of each edge
  std::vector<TaskId> edge_dst;       // child of each edge
  std::vector<KernelId> kernel;       // per node, empty = all kernel 0
  std::vector<Cycle> cost;            // nominal cost per node, empty = all 0
  std::vector<std::int32_t> launch_group;  // per node, empty = none (baselines group by level)
};

class TaskGraph {
 public:
  // Validates and builds; throws ConfigError naming the offending node/edge.
  // Duplicate edges are merged (a dependency is a set relation).
  static TaskGraph build(TaskGraphInput input);

  std::int32_t size() const { return static_cast<std::int32_t>(level_.size()); }
  std::int64_t edge_count() const { return static_cast<std::int64_t>(children_.size()); }
  std::int32_t num_levels() const { return num_levels_; }
  std::int32_t num_kernels() const { return num_kernels_; }

  std::span<const TaskId> children(TaskId t) const {
    return {children_.data() + edge_start_[t],
            static_cast<std::size_t>(edge_start_[t + 1] - edge_start_[t])};
  }
  std::int32_t child_count(TaskId t) const {
    return static_cast<std::int32_t>(edge_start_[t + 1] - edge_start_[t]);
  }
  std::int32_t parent_count(TaskId t) const { return parent_count_[t]; }
  std::int32_t level(TaskId t) const { return level_[t]; }
  KernelId kernel(TaskId t) const { return kernel_[t]; }
  Cycle cost(TaskId t) const { return cost_[t]; }

  // The id node t had in the input, and the node of an input id.
  TaskId original_id(TaskId t) const { return original_[t]; }
  TaskId node_of(TaskId original) const { return node_of_[original]; }

  bool has_launch_groups() const { return !launch_group_.empty(); }
  std::int32_t launch_group(TaskId t) const { return launch_group_[t]; }

  // Raw arrays (for bindings and bulk algorithms).
  std::span<const std::int64_t> edge_starts() const { return edge_start_; }
  std::span<const TaskId> edges() const { return children_; }
  std::span<const std::int32_t> parent_counts() const { return parent_count_; }
  std::span<const std::int32_t> levels() const { return level_; }
  std::span<const KernelId> kernels() const { return kernel_; }
  std::span<const Cycle> costs() const { return cost_; }
  std::span<const std::int32_t> launch_groups() const { return launch_group_; }
  std::span<const TaskId> original_ids() const { return original_; }  // node -> input id

  // A per-node array in input-id order (values[node_of(i)] at position i).
  template <class T>
  std::vector<T> in_original_order(std::span<const T> values) const {
    std::vector<T> out(values.size());
    for (std::size_t v = 0; v < values.size(); ++v) out[original_[v]] = values[v];
    return out;
  }
  // The CSR (edge starts, children) in input ids, children sorted.
  std::pair<std::vector<std::int64_t>, std::vector<TaskId>> original_csr() const;

  // Stable digest of the whole graph (structure, kernels, costs, groups).
  std::uint64_t content_hash() const { return hash_; }

  // Longest path when task t takes cost[t] cycles (cost.size() == size()).
  Cycle critical_path(std::span<const Cycle> cost) const;

 private:
  TaskGraph() = default;

  std::vector<std::int64_t> edge_start_;  // size()+1 offsets into children_
  std::vector<TaskId> children_;
  std::vector<std::int32_t> parent_count_;
  std::vector<std::int32_t> level_;
  std::vector<KernelId> kernel_;
  std::vector<Cycle> cost_;
  std::vector<std::int32_t> launch_group_;
  std::vector<TaskId> original_;  // node -> input id
  std::vector<TaskId> node_of_;   // input id -> node
  std::int32_t num_levels_ = 0;
  std::int32_t num_kernels_ = 0;
  std::uint64_t hash_ = 0;
};

using TaskGraphPtr = std::shared_ptr<const TaskGraph>;

}  // namespace tbdse
