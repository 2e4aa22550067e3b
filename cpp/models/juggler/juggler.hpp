// Juggler's in-GPU task runtime (Belviranli et al., PPoPP 2018, §5) as a
// scheme on the TB engine.  One kernel launch starts `workers` persistent
// worker TBs, each holding a TB slot of its SM for the whole run and owning a
// task queue.  A worker's cycle (§5.3–5.5):
//   poll   read its queue size IQS[i] (poll_cycles); if empty, pause
//          (sleep_cycles) and read again — reads fall on a fixed grid from
//          the moment it went idle, so an idle worker costs no events;
//   fetch  take every visible task at once (dequeue_cycles);
//   run    the tasks one at a time, each as a TB on the worker's SM;
//   after each task: one parallel resolve round (resolve_cycles), then each
//          freed child is inserted into the queue the policy picks
//          (enqueue_cycles each; under grr the round first reserves its k
//          targets with one atomicAdd on the global counter, which serves one
//          same-address atomic per gpu.amo_cycles), and becomes visible there
//          when its insertion completes.
// No stealing: a task waits in its queue while other workers idle.  The host
// places the initially ready tasks round robin from worker 0.  Termination
// (§5.5): once the last task's bookkeeping is done, the first worker to read
// an empty queue sets every IQS to -1 and each worker exits at its next read;
// the kernel ends with the last exit.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "core/engine.hpp"
#include "core/scheme.hpp"
#include "models/juggler/juggler_params.hpp"

namespace tbdse {

class JugglerScheme : public Scheme {
 public:
  JugglerScheme(const JugglerParams& params, const Workload& workload, const GpuConfig& gpu);

  void start(Engine& engine) override;
  void on_task_finished(Engine& engine, TaskId t) override;
  void on_event(Engine& engine, const Event& event) override;
  void dispatch(Engine& /*engine*/) override {}
  Cycle end_time(const Engine& engine) const override;
  std::string stuck_reason(const Engine& engine, TaskId t) const override;
  void write_stats(const Engine& engine, std::span<double> out) const override;
  void write_values(const Engine& engine, std::vector<Series>& out) const override;
  double min_work_factor() const override { return 1.0 - locality_; }

 private:
  enum Kind : std::int32_t { LAUNCHED = 1, POLL_READ, RUN_NEXT, RESOLVED, VISIBLE };
  struct Worker {
    SmId sm = 0;
    std::int32_t slot = -1;           // the TB slot it holds while not running a task
    std::deque<TaskId> queue;         // visible tasks not yet fetched
    std::vector<TaskId> batch;        // fetched, run in order
    std::size_t next = 0;             // next of batch to run
    bool idle = true;                 // polling (possibly sleeping)
    Cycle poll_start = 0;             // idle: when polling began (first read poll_cycles later)
    Cycle read_at = -1;               // the posted POLL_READ, -1 none
    TaskId running = -1;
    Cycle task_start = 0;
    double demand = 0;                // bytes per cycle the running task moves
    std::int64_t counter = 0;         // lrr
    std::int64_t lf_next = 0;         // lf: children sent to neighbours so far
    std::int64_t tasks = 0;
    double task_cycles = 0, runtime_cycles = 0, idle_cycles = 0;
  };

  Cycle first_read_at_or_after(const Worker& w, Cycle t) const;
  void launch(Engine& engine);
  void poll_read(Engine& engine, std::int32_t w);
  void run_next(Engine& engine, std::int32_t w);
  void resolved(Engine& engine, std::int32_t w);
  void make_visible(Engine& engine, TaskId task, std::int32_t w);
  std::int32_t target(std::int32_t w, std::size_t nth_freed);
  // lrr: worker's counter start under lrr_start = mode (scattered, next, zero).
  static std::int64_t lrr_start(const std::string& mode, std::uint64_t worker,
                                std::uint64_t workers);
  double contention() const;  // multiplier on resolve and enqueue costs now
  Cycle scaled(std::int64_t cycles) const;

  const Workload& workload_;
  const GpuConfig& gpu_;
  enum class Policy { LRR, GRR, LF };
  Policy policy_;  // from the params' name once, not compared per insertion
  Cycle host_;       // §6.1's host-side overhead (inspection, CSR, allocations, copies)
  Cycle launch_at_;  // the runtime kernel's launch: after host_ when host_inclusive_
  bool host_inclusive_;
  std::int64_t poll_, sleep_, dequeue_, resolve_, enqueue_, atomic_;
  double contention_factor_, locality_;
  double bandwidth_;  // bytes per cycle, 0 = unlimited
  TbFootprint footprint_;  // a worker TB's: the largest task kernel's
  double spin_;            // SM issue demand of a worker not running a task: TB units,
                           // or a share of the issue slots when spin_is_share_
  bool spin_is_share_;     // auto spin with per-kernel throughput traits (Engine::add_spin_demand)
  void spin(Engine& engine, SmId sm, double sign) const {
    if (spin_is_share_) engine.add_spin_demand(sm, sign * spin_);
    else engine.add_spin(sm, sign * spin_);
  }
  std::size_t batch_cap_;  // tasks fetched at once: the worker's threads (0: all)

  std::vector<Worker> workers_;
  std::vector<std::int32_t> open_;        // unfinished parents per task
  std::vector<std::int32_t> worker_of_;   // task -> worker that ran it
  std::vector<SmId> parent_sm_;           // task -> SM of the parent that freed it (-1 none)
  std::vector<double> demand_;            // per kernel: bytes per cycle a running task moves
  double running_demand_ = 0;             // of the running tasks
  std::vector<TaskId> freed_;             // scratch: the children one resolve round frees
  std::int64_t grr_counter_ = 0;
  Cycle grr_free_at_ = 0;
  double grr_wait_ = 0;
  std::int64_t polls_ = 0, local_tasks_ = 0;
  std::int32_t finished_ = 0;
  Cycle last_busy_end_ = 0;               // when the last task's bookkeeping ended
};

}  // namespace tbdse
