// Barrier-synchronised baselines (docs/MODELS.md §2; Wireframe §2.1, §5.1).
// The task graph is cut into launch groups (by default one per level, i.e. one
// per wave); group k+1 starts only after every task of group k has finished.
// What separates the three schemes is what a group boundary costs:
//   global_barrier - a host-side kernel launch (host_launch_us) per group
//                    (Code Block 1);
//   cdp            - a device-side launch (device_launch_us) per group from a
//                    parent kernel that the host launches once and that holds
//                    one TB slot for the whole run (Code Block 3, nested CDP);
//   deplinks       - nothing: one host launch, and the barrier expressed as
//                    graph edges (every task of group k+1 depends on every task
//                    of group k), enforced by the TB scheduler (§2.2, Fig. 2).
// TBs of a group are issued in virtual-id order, SMs round robin (§5.1: DepLinks
// "does not change the way TBs are assigned to SMs").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/common/ready_queue.hpp"
#include "core/engine.hpp"
#include "core/params.hpp"
#include "core/scheme.hpp"

namespace tbdse {

struct GroupBarrierParams {
  // How tasks are cut into launch groups:
  //   auto         - the graph's own launch groups when it has them, else levels;
  //   level        - one group per level (wave) of the graph;
  //   launch_group - the graph's launch-group ids (ConfigError if it has none,
  //                  or if an edge does not go from an earlier to a later group).
  // Default auto.  Wireframe §2.1 (one kernel per wave).
  std::string grouping = "auto";

  static const ParamTable<GroupBarrierParams>& params();
};

enum class GroupBoundary { HOST_LAUNCH, DEVICE_LAUNCH, DEPENDENCY_EDGES };

class GroupBarrierScheme : public Scheme {
 public:
  GroupBarrierScheme(const GroupBarrierParams& params, const Workload& workload,
                     const GpuConfig& gpu, GroupBoundary boundary);

  void start(Engine& engine) override;
  void on_task_finished(Engine& engine, TaskId t) override;
  void on_event(Engine& engine, const Event& event) override;
  void dispatch(Engine& engine) override;
  std::string stuck_reason(const Engine& engine, TaskId t) const override;
  void write_stats(const Engine& engine, std::span<double> out) const override;

  static std::vector<StatInfo> stats();

 private:
  static constexpr std::int32_t kReleaseGroup = 1;

  void release_next_group(Engine& engine, Cycle delay);

  GroupBoundary boundary_;
  Cycle host_launch_ = 0;
  Cycle device_launch_ = 0;
  std::vector<std::int32_t> group_start_;  // CSR over members_, one range per group
  std::vector<TaskId> members_;            // tasks of each group in virtual-id order
  std::vector<std::int32_t> group_of_;     // per task
  std::vector<std::int32_t> unfinished_;   // per group
  std::int32_t next_group_ = 0;
  ReadyQueue ready_;
  // statistics
  std::int64_t launches_ = 0;
  Cycle launch_overhead_ = 0;
  // CDP parent kernel: where its TB sits
  SmId parent_sm_ = -1;
  std::int32_t parent_slot_ = -1;
};

}  // namespace tbdse
