// The multi-kernel schemes of BlockMaestro (Abdolrashidi et al., ISCA 2021)
// and its baselines (§IV-B, Fig. 9), one class in four modes:
//   baseline        kernels serialised by the stream: each launch
//                   (host_launch_us) starts after the previous kernel has
//                   completed; allocations and copies block the host;
//   ideal_baseline  the same without launch overhead;
//   prelaunch       up to prelaunch_depth kernels launched while the oldest
//                   runs (§III-C), their launches pipelined at one per API
//                   call (HostQueue); a kernel's TBs still wait until the
//                   whole previous kernel has completed — unless it does not
//                   depend on it: an independent kernel starts once resident
//                   ("can begin executing right away", §III-C);
//   blockmaestro    pre-launching plus TB-level dependency resolution between
//                   consecutive kernels (§III-D): a TB starts once its parent
//                   TBs have finished, tracked in the Dependency List and
//                   Parent Counter Buffers; producer or consumer priority;
//                   kernels may run out of order but complete in order.
// reorder_queue (prelaunch, blockmaestro) reorders the command queue and
// makes calls non-blocking (Fig. 5c).  A workload without an application is
// run as one launch per launch group (or level) with nothing in between.
// docs/models/blockmaestro.md lists the interpretations.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/engine.hpp"
#include "core/id_set.hpp"
#include "core/params.hpp"
#include "core/scheme.hpp"
#include "models/blockmaestro/dependency_buffers.hpp"
#include "models/blockmaestro/host_queue.hpp"
#include "models/blockmaestro/launch_plan.hpp"

namespace tbdse {

// baseline and ideal_baseline have no parameters.
struct BaselineParams {
  static const ParamTable<BaselineParams>& params();
};

struct PrelaunchParams {
  // Kernels launched ahead of the oldest running one: d + 1 kernels resident.
  // Default 1 (§IV-B "Kernel Pre-launching").
  std::int64_t prelaunch_depth = 1;
  // Reorder the command queue and treat blocking calls as non-blocking
  // (§III-C, Fig. 5c).  Default false.
  bool reorder_queue = false;
  // A kernel independent of the previous one (no TB-level dependency, no
  // kernel-level wait) starts once resident (§III-C: it "can begin executing
  // right away"; the default), or — false — waits for the whole previous
  // kernel like every other (§IV-B's Fig. 9 bar: pre-launching "enforces the
  // dependency by not allowing any consumer kernel TBs to schedule until all
  // of the producer kernel TBs have completed").
  bool independent_start = true;

  static const ParamTable<PrelaunchParams>& params();
};

struct BlockMaestroParams {
  // Kernels launched ahead of the oldest running one (d + 1 resident).
  // Default 1; Fig. 9 uses 1, 2, 3.
  std::int64_t prelaunch_depth = 1;
  // Which ready TBs go first (§III-D1 "Scheduling policies"): 'producer' — a
  // kernel's TBs only once every TB of the kernels before it has been
  // scheduled, or while the older kernel's next TB waits for buffer entries
  // (the default); 'consumer' — the newest kernel's first.
  std::string priority = "producer";
  // Reorder the command queue, non-blocking calls (§III-C, Fig. 5c).  Default false.
  bool reorder_queue = false;
  // Dependency List Buffer entries; auto = sms x tb_slots (896 on the Titan X
  // Pascal preset, §IV-C), or what the widest TB needs if that is more.
  std::int64_t dependency_list_entries = kAuto;
  // Child TB ids per dependency-list entry; wider lists take several entries.
  // Default 4 (§IV-C).
  std::int64_t children_per_entry = 4;
  // Parent Counter Buffer entries; auto = sms x tb_slots (§IV-C), or the
  // most child TBs one TB has if that is more.
  std::int64_t parent_counter_entries = kAuto;
  // Bits of a parent counter: a pair with a child of more parents is tracked
  // as fully connected.  Default 6 (§IV-C).
  std::int64_t parent_counter_bits = 6;
  // A TB whose entries cannot be allocated: 'bypass' (the default) — it is
  // scheduled in its turn without buffering (its dependency list stays in
  // memory and its children's counters are updated there); 'wait' — it waits
  // while any TB runs and goes unbuffered only when the GPU would otherwise
  // stop (the strict reading; a buffer that fills serialises the run).
  // docs/models/blockmaestro.md.
  std::string when_full = "bypass";
  // Not a parameter of `blockmaestro` (its TB-level dependencies decide):
  // `prelaunch`'s independent_start, passed through.
  bool independent_start = true;

  static const ParamTable<BlockMaestroParams>& params();
};

class BlockMaestroScheme : public Scheme {
 public:
  enum class Mode { BASELINE, IDEAL_BASELINE, PRELAUNCH, BLOCKMAESTRO };

  BlockMaestroScheme(Mode mode, const BlockMaestroParams& params, const Workload& workload,
                     const GpuConfig& gpu);

  void start(Engine& engine) override;
  void on_task_finished(Engine& engine, TaskId t) override;
  void on_event(Engine& engine, const Event& event) override;
  void dispatch(Engine& engine) override;
  std::string stuck_reason(const Engine& engine, TaskId t) const override;
  Cycle end_time(const Engine& engine) const override;
  void write_stats(const Engine& engine, std::span<double> out) const override;
  // blockmaestro: the Dependency List and Parent Counter Buffers (§IV-C), as
  // buffer_bytes; the other modes add no hardware (0).
  double storage_bytes() const override;

  static std::vector<StatInfo> stats();

 private:
  static constexpr std::int32_t kCommandDone = 1;  // HostQueue::finished
  static constexpr std::int32_t kCallDone = 2;     // HostQueue::call_done

  struct Need {  // buffer entries a TB takes when scheduled
    std::int64_t list = 0, counters = 0, children = 0;
    bool tracked = false;  // its child kernel is resident: resolved through the buffers
  };

  bool tb_level() const { return mode_ == Mode::BLOCKMAESTRO; }
  bool waits_for_previous(std::int32_t launch) const;
  void pump_host(Engine& engine);
  void try_open(Engine& engine, std::int32_t launch);
  void make_ready(Engine& engine, TaskId t);
  void complete_in_order(Engine& engine);
  Need need_of(const Engine& engine, TaskId t) const;
  enum class Held { NONE, SLOTS, ENTRIES };  // what stopped issue_from
  Held issue_from(Engine& engine, std::int32_t launch);
  void issue_by_priority(Engine& engine);

  Mode mode_;
  bool consumer_first_;
  bool strict_wait_;  // when_full == "wait"
  bool independent_start_;  // prelaunch: an independent kernel starts once resident
  const Workload& workload_;
  blockmaestro::LaunchPlan plan_;
  std::shared_ptr<const Application> app_;  // the workload's, or one launch per group
  blockmaestro::HostQueue host_;
  blockmaestro::DependencyBuffers buffers_;
  std::int64_t children_per_entry_, counter_bits_, kernel_id_bits_;
  // per launch
  std::vector<std::uint8_t> resident_, open_, complete_;
  std::vector<std::int32_t> unissued_, unfinished_;
  std::vector<Cycle> all_done_;            // when its last TB finished
  std::vector<IdSet> ready_;               // ready TBs by block index
  std::vector<std::vector<std::int32_t>> opened_by_;  // launch j -> launches that wait for it
  std::int32_t oldest_ = 0, newest_ = -1;  // incomplete, resident
  // per node
  std::vector<std::int32_t> parents_left_;
  std::vector<Cycle> parent_end_, deps_met_, tb_start_;
  std::vector<std::uint8_t> has_counter_, tracked_, waited_for_entries_;
  std::vector<std::int64_t> list_held_;
  std::vector<double> stall_;              // (start - deps met) / (end - start), once finished
  std::vector<blockmaestro::HostQueue::Started> started_;
  // statistics
  std::int64_t running_ = 0;      // TBs issued and not finished
  bool bypass_next_ = false;      // a TB held by entries goes unbuffered (one, under 'wait')
  std::vector<TaskId> held_now_;  // found the buffers full during this dispatch
  std::int64_t requests_ = 0, entry_stalls_ = 0, bypasses_ = 0, max_resident_ = 0;
};

}  // namespace tbdse
