// The discrete-event engine that runs one simulation: it owns the clock, the
// event queue, SM resources and per-task state, and asks a Scheme for every
// scheduling decision (SimGrid's EngineImpl::solve loop: take the earliest
// events, advance the clock, let the model react).  The engine enforces the
// run invariants by construction: a task is issued only once and only when the
// scheme has marked it ready, and only onto an SM with room for it.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "event_queue.hpp"
#include "run.hpp"
#include "finish_heap.hpp"
#include "mem_hierarchy.hpp"
#include "scheme.hpp"
#include "sm_pool.hpp"
#include "sm_timing.hpp"
#include "timeline.hpp"
#include "workload.hpp"

namespace tbdse {

enum class TaskState : std::uint8_t { WAITING, READY, RUNNING, DONE };

struct EngineOptions {
  bool record_timeline = false;
  // A run in which this many events pass without a task finishing is declared
  // stuck (a scheme that keeps polling but makes no progress).  0 = automatic.
  std::int64_t max_events_without_progress = 0;
};

struct EngineOutput {
  Cycle makespan = 0;         // cycle at which the last TB finished
  double tb_cycles = 0;       // sum of TB costs (total work at full speed)
  double resident_cycles = 0; // sum of TB residencies, end - start (= tb_cycles under 'fixed')
  double busy_sm_cycles = 0;  // sum over SMs of the time at least one task TB was resident
  Cycle critical_path = 0;    // longest dependency chain of task costs (x Scheme::min_work_factor)
  Cycle work_bound = 0;       // ceil(total work / what the GPU runs at full speed at once),
                              // and under the memory term at least bytes / bandwidth
  std::int64_t events = 0;    // events processed
  std::vector<double> scheme_stats;
  std::optional<MemoryStats> memory;  // with data footprints: the hierarchy's counters
  std::optional<Timeline> timeline;
  std::vector<Series> values;  // the scheme's per-item results, when asked for
};

class Engine {
 public:
  Engine(const Workload& workload, const GpuConfig& gpu, std::span<const Cycle> cost,
         EngineOptions options = {});
  // The engine keeps references to the workload, the GPU and the costs: a
  // temporary workload or GPU would dangle (found by AddressSanitizer).
  Engine(Workload&&, const GpuConfig&, std::span<const Cycle>, EngineOptions = {}) = delete;
  Engine(const Workload&, GpuConfig&&, std::span<const Cycle>, EngineOptions = {}) = delete;

  // Runs `scheme` to completion; DeadlockError if it cannot finish.
  // With `values`, the scheme's Scheme::write_values go to EngineOutput::values.
  EngineOutput run(Scheme& scheme, std::size_t stat_count, bool values = false);

  // ---- what schemes use ----
  Cycle now() const { return now_; }
  const Workload& workload() const { return workload_; }
  const TaskGraph& graph() const { return graph_; }
  const GpuConfig& gpu() const { return gpu_; }
  const SmPool& sms() const { return pool_; }
  Cycle cost(TaskId t) const { return cost_[t]; }
  TaskState state(TaskId t) const { return state_[t]; }
  std::int32_t finished_count() const { return finished_; }

  // Node ids below are TaskGraph node ids (virtual ids); results and messages
  // name tasks by their input ids.

  // Posts a scheme event at `time` >= now().  TB completions at a cycle are
  // handled before scheme events at that cycle, which go by `priority`
  // (>= 1, lower first), then in the order they were posted.
  void post(Cycle time, std::int32_t kind, std::int64_t payload = 0, std::int32_t priority = 1);

  // The task's dependencies are met: it may be issued from now on.
  void mark_ready(TaskId t) {
    if (state_[t] != TaskState::WAITING) bad_transition(t, "marked ready");
    state_[t] = TaskState::READY;
    if (timeline_) timeline_->ready[t] = now_;
  }

  // Records when t's data dependencies were met (<= now), for schemes where
  // that precedes being ready; the timeline's deps_met column.
  void note_dependencies_met(TaskId t, Cycle when) {
    if (!timeline_) return;
    if (timeline_->deps_met.empty()) timeline_->deps_met.assign(timeline_->ready.size(), -1);
    timeline_->deps_met[t] = when;
  }

  // Round-robin SM choice (Wireframe §4.3 "LRR"): the first SM at or after the
  // one following the last issue that has room for t; -1 when none has.
  SmId pick_sm_round_robin(TaskId t) const { return pool_.next_fitting(rr_next_, footprint(t)); }

  // Places ready task t on `sm` now; its TB ends after `work` cycles (default
  // cost(t)) under sm_model 'fixed', or when that work is done under
  // 'shared'.  A scheme giving less than cost(t) must say how much less in
  // Scheme::min_work_factor (the critical-path bound uses it).
  void issue(TaskId t, SmId sm, Cycle work = -1);

  // Issues t on the round-robin SM; false (and nothing changes) if none has room.
  bool issue_round_robin(TaskId t) {
    const SmId sm = pick_sm_round_robin(t);
    if (sm < 0) return false;
    issue(t, sm);
    return true;
  }

  // Resources held by something that is not a task (e.g. a CDP parent kernel).
  std::int32_t hold(SmId sm, const TbFootprint& fp) { return pool_.acquire(sm, fp); }
  void unhold(SmId sm, const TbFootprint& fp, std::int32_t slot) { pool_.release(sm, fp, slot); }
  // A held TB that spins (polls, sleeps, runs a runtime's steps) takes
  // `weight` TBs' worth of `sm`'s issue throughput from now on (negative:
  // gives it back), under sm_model 'shared' (SharedSms::add_spin); nothing
  // under 'fixed', where a TB's time does not depend on its neighbours.
  void add_spin(SmId sm, double weight) {
    if (shared_) shared_->add_spin(sm, weight, now_);
  }
  // The same in the issue-demand accounting of kernels' throughput traits:
  // `demand` is a share of `sm`'s issue slots (sm_timing.hpp issue_demand;
  // e.g. one polling warp issuing every 50 cycles on a 2-wide SM: 1 / 100).
  void add_spin_demand(SmId sm, double demand) {
    if (shared_) shared_->add_spin(sm, shared_->units_of(demand), now_);
  }

 private:
  // A task's TB footprint; no lookup when no kernel of the workload has one.
  const TbFootprint& footprint(TaskId t) const {
    static constexpr TbFootprint kNone{};
    return slot_only_ ? kNone : workload_.footprint(t);
  }
  void finish_task(Scheme& scheme, std::int32_t handle);
  // The TB's duration with its data footprint's reads through the memory
  // hierarchy (docs/simulation.md "Data footprints").
  // `memory_part` receives the hierarchy's part of it.
  Cycle work_with_memory(TaskId t, SmId sm, Cycle work, Cycle* memory_part);
  // The compute part of `work` (all but its kernel's mem_fraction).
  Cycle compute_part(TaskId t, Cycle work) const;
  // `compute` cycles that start when t's first read line is there, beside
  // its footprint's reads sent now: max(compute + first line, reads' time).
  // With `slices` > 1 only slice `slice` of the reads (one load phase).
  Cycle compute_beside_reads(TaskId t, SmId sm, Cycle compute, Cycle* memory_part,
                             std::int32_t slice = 0, std::int32_t slices = 1);
  // Sends t's footprint reads (slice `slice` of `slices` equal runs of each
  // read range's lines) through the hierarchy now; returns when the last arrives and
  // sets `first_line` to when the first does (-1: no bytes).
  Cycle read_footprint(TaskId t, SmId sm, Cycle* first_line, std::int32_t slice = 0,
                       std::int32_t slices = 1);
  // The load phases of each pass over t's reads (docs/simulation.md "Load
  // phases"): ceil(longest read range's lines / warps), in [1,
  // kMaxLoadPhases]; 1 when its
  // kernel states no threads.
  std::int32_t load_phases(TaskId t) const;
  static std::int64_t range_lines(const DataRange& d) {
    return d.bytes <= 0 ? 0
                        : static_cast<std::int64_t>(((d.base + static_cast<std::uint64_t>(d.bytes) - 1) >> 7) -
                                                    (d.base >> 7)) + 1;
  }
  // A TB whose kernel makes reuse > 1 passes (engine_passes.cpp): sets up
  // its passes and returns its first pass's duration (`memory_part`: its
  // hierarchy part); next_pass runs the next one when a pass ends (false
  // when none is left: the TB is done).
  Cycle start_passes(std::int32_t handle, TaskId t, Cycle work, std::int32_t phases,
                     Cycle* memory_part);
  bool next_pass(std::int32_t handle);
  Cycle pass_duration(std::int32_t handle, Cycle* memory_part);
  // Puts the running TB under `handle` on its SM's timing for `work` cycles
  // (`memory_part` >= 0: that much is the hierarchy's), in issue order `seq`.
  void time_tb(std::int32_t handle, Cycle work, Cycle memory_part, std::uint64_t seq, Cycle started);
  void check_data_ranges() const;
  template <bool kShared>
  std::int64_t loop(Scheme& scheme, std::int64_t limit);
  Cycle work_bound() const;
  bool tbs_running() const { return shared_ ? shared_->running() > 0 : !finishing_.empty(); }
  void check_time(Cycle time) const;
  [[noreturn]] void bad_transition(TaskId t, const char* what) const;
  [[noreturn]] void throw_deadlock(const Scheme& scheme, const std::string& why) const;
  std::string default_stuck_reason(TaskId t, const std::vector<std::int32_t>& open_parents) const;

  const Workload& workload_;
  const TaskGraph& graph_;
  const GpuConfig& gpu_;
  std::span<const Cycle> cost_;
  EngineOptions options_;
  bool slot_only_;  // no kernel has a resource footprint: TB slots are all that limit

  Cycle now_ = 0;
  EventQueue queue_;           // scheme events
  struct Running {
    TaskId task;
    SmId sm;
    std::int32_t slot;
  };
  FinishHeap finishing_;                 // running TBs by finish time, by handle
  // Kernels with reuse > 1 (KernelInfo::reuse): each running TB's passes
  // over its footprint, by handle.
  struct Passes {
    Cycle start = 0;        // issued at
    Cycle chunk = 0;        // compute per pass
    Cycle last_chunk = 0;   // the last pass's compute (with the remainder)
    std::int32_t left = 0;  // phases still to make (reuse x phases in all)
    std::int32_t phases = 1;  // load phases per pass
    std::uint64_t seq = 0;  // issue order: age and the finish tie-break
  };
  std::vector<Passes> pass_state_;
  bool reuse_ = false;  // some TB may make more than one pass or load phase
 public:
  // At most this many load phases per pass: a cost bound on the events per
  // TB (beyond it each phase carries more than one line per warp, as if the
  // warps' loads had that much ILP), not a fitted constant.
  static constexpr std::int64_t kMaxLoadPhases = 32;

 private:
  std::vector<Running> running_;         // handle -> what is running where
  std::vector<std::int32_t> free_handles_;
  std::uint64_t issued_ = 0;  // issue sequence: the tie-break among equal finish times
  std::int64_t since_progress_ = 0;  // watchdog: events since a TB was issued or finished
  // sm_model 'shared': the finish times of running TBs (finishing_ then stays empty)
  std::optional<SharedSms> shared_;
  std::vector<SharedSms::Tb> kernel_traits_;
  // Tasks with data footprints: the run's memory hierarchy (else none).
  std::optional<MemoryHierarchy> memory_;  // per kernel: memory fraction and bytes per TB
  SmPool pool_;
  SmId rr_next_ = 0;
  std::vector<TaskState> state_;
  std::int32_t finished_ = 0;

  // statistics
  Cycle last_finish_ = 0;
  double tb_cycles_ = 0;
  double resident_cycles_ = 0;
  double busy_sm_cycles_ = 0;
  std::vector<std::int32_t> task_resident_;  // task TBs per SM
  std::vector<Cycle> busy_since_;
  std::optional<Timeline> timeline_;
};

}  // namespace tbdse
