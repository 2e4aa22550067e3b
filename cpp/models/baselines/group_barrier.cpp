#include "models/baselines/group_barrier.hpp"

#include <algorithm>
#include <numeric>

#include "core/errors.hpp"

namespace tbdse {

const ParamTable<GroupBarrierParams>& GroupBarrierParams::params() {
  static const ParamTable<GroupBarrierParams> table = [] {
    ParamTable<GroupBarrierParams> t;
    t.add(&GroupBarrierParams::grouping,
          {.name = "grouping",
           .doc = "how tasks are cut into launch groups: 'auto' (the graph's launch groups if it "
                  "has them, else levels), 'level' (one per wave) or 'launch_group'",
           .paper_ref = "Wireframe §2.1, Code Blocks 1 and 3",
           .choices = {"auto", "level", "launch_group"}});
    return t;
  }();
  return table;
}

std::vector<StatInfo> GroupBarrierScheme::stats() {
  return {
      {"launches", "kernels", "kernel launches (host and device)"},
      {"launch_overhead_cycles", "cycles", "cycles spent launching kernels (all serialised)"},
      {"barriers", "barriers", "group boundaries the run synchronised on"},
  };
}

GroupBarrierScheme::GroupBarrierScheme(const GroupBarrierParams& params, const Workload& workload,
                                       const GpuConfig& gpu, GroupBoundary boundary)
    : boundary_(boundary),
      host_launch_(gpu.us_to_cycles(gpu.host_launch_us)),
      device_launch_(gpu.us_to_cycles(gpu.device_launch_us)),
      ready_(*workload.graph, IssueOrder::FIFO) {
  const TaskGraph& g = *workload.graph;
  const std::int32_t n = g.size();
  const bool by_graph = params.grouping == "launch_group" ||
                        (params.grouping == "auto" && g.has_launch_groups());
  if (by_graph && !g.has_launch_groups())
    throw ConfigError("grouping 'launch_group' needs a task graph with launch groups; workload '" +
                      workload.name + "' has none (use 'level' or 'auto')");

  // Dense group index per task, groups ordered by key.
  std::vector<std::int32_t> key(static_cast<std::size_t>(n));
  for (TaskId t = 0; t < n; ++t) key[t] = by_graph ? g.launch_group(t) : g.level(t);
  std::vector<std::int32_t> keys(key);
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  group_of_.resize(static_cast<std::size_t>(n));
  for (TaskId t = 0; t < n; ++t)
    group_of_[t] = static_cast<std::int32_t>(std::lower_bound(keys.begin(), keys.end(), key[t]) -
                                             keys.begin());
  if (by_graph)
    for (TaskId t = 0; t < n; ++t)
      for (const TaskId c : g.children(t))
        if (group_of_[c] <= group_of_[t])
          throw ConfigError("grouping 'launch_group': edge " + std::to_string(g.original_id(t)) +
                            " -> " + std::to_string(g.original_id(c)) + " goes from launch group " +
                            std::to_string(key[t]) + " to launch group " + std::to_string(key[c]) +
                            "; a barrier baseline needs every dependency to point to a later group");

  const auto groups = static_cast<std::int32_t>(keys.size());
  group_start_.assign(static_cast<std::size_t>(groups) + 1, 0);
  for (TaskId t = 0; t < n; ++t) ++group_start_[group_of_[t] + 1];
  std::partial_sum(group_start_.begin(), group_start_.end(), group_start_.begin());
  unfinished_.resize(static_cast<std::size_t>(groups));
  for (std::int32_t k = 0; k < groups; ++k) unfinished_[k] = group_start_[k + 1] - group_start_[k];
  members_.resize(static_cast<std::size_t>(n));
  std::vector<std::int32_t> fill(group_start_.begin(), group_start_.end() - 1);
  for (TaskId t = 0; t < n; ++t) members_[fill[group_of_[t]]++] = t;  // virtual-id order

  if (boundary_ == GroupBoundary::DEVICE_LAUNCH && gpu.sms == 1 && gpu.tb_slots == 1)
    throw ConfigError("scheme 'cdp' cannot run on a GPU with one SM of one TB slot: the parent "
                      "kernel's TB holds that slot, so no child TB could ever run (tb_slots >= 2 "
                      "or sms >= 2 needed)");
}

void GroupBarrierScheme::start(Engine& engine) {
  // The host launches the first kernel, or the CDP parent kernel, which then
  // launches the first child from the device.
  launches_ = 1;
  launch_overhead_ = host_launch_;
  if (boundary_ == GroupBoundary::DEVICE_LAUNCH) {
    // The parent kernel's TB stays resident on SM 0 for the whole run.
    parent_sm_ = 0;
    parent_slot_ = engine.hold(parent_sm_, TbFootprint{});
    ++launches_;
    launch_overhead_ += device_launch_;
  }
  release_next_group(engine, launch_overhead_);
}

void GroupBarrierScheme::release_next_group(Engine& engine, Cycle delay) {
  engine.post(engine.now() + delay, kReleaseGroup, next_group_);
}

void GroupBarrierScheme::on_event(Engine& engine, const Event& event) {
  const auto k = static_cast<std::int32_t>(event.payload);
  for (std::int32_t i = group_start_[k]; i < group_start_[k + 1]; ++i) {
    engine.mark_ready(members_[i]);
    ready_.push(members_[i]);
  }
  next_group_ = k + 1;
}

void GroupBarrierScheme::on_task_finished(Engine& engine, TaskId t) {
  const std::int32_t k = group_of_[t];
  if (--unfinished_[k] > 0) return;
  if (k + 1 == static_cast<std::int32_t>(unfinished_.size())) {
    if (parent_sm_ >= 0) engine.unhold(parent_sm_, TbFootprint{}, parent_slot_);
    return;
  }
  Cycle delay = 0;
  if (boundary_ == GroupBoundary::HOST_LAUNCH) delay = host_launch_;
  if (boundary_ == GroupBoundary::DEVICE_LAUNCH) delay = device_launch_;
  if (boundary_ != GroupBoundary::DEPENDENCY_EDGES) {
    ++launches_;
    launch_overhead_ += delay;
  }
  release_next_group(engine, delay);
}

void GroupBarrierScheme::dispatch(Engine& engine) {
  while (!ready_.empty() && engine.issue_round_robin(ready_.front())) ready_.pop();
}

std::string GroupBarrierScheme::stuck_reason(const Engine& engine, TaskId t) const {
  if (engine.state(t) == TaskState::WAITING && group_of_[t] >= next_group_)
    return "its launch group " + std::to_string(group_of_[t]) + " was never released";
  return {};
}

void GroupBarrierScheme::write_stats(const Engine& /*engine*/, std::span<double> out) const {
  out[0] = static_cast<double>(launches_);
  out[1] = static_cast<double>(launch_overhead_);
  out[2] = static_cast<double>(unfinished_.size() - 1);
}

}  // namespace tbdse
