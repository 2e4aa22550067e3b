#include "engine.hpp"

#include <algorithm>
#include <cmath>

#include "errors.hpp"

namespace tbdse {

namespace {

const char* state_name(TaskState s) {
  switch (s) {
    case TaskState::WAITING: return "waiting";
    case TaskState::READY: return "ready";
    case TaskState::RUNNING: return "running";
    case TaskState::DONE: return "done";
  }
  return "?";
}

}  // namespace

Engine::Engine(const Workload& workload, const GpuConfig& gpu, std::span<const Cycle> cost,
               EngineOptions options)
    : workload_(workload),
      graph_(*workload.graph),
      gpu_(gpu),
      cost_(cost),
      options_(options),
      slot_only_(std::all_of(workload.kernels.begin(), workload.kernels.end(),
                             [](const KernelInfo& k) { return k.footprint == TbFootprint{}; })),
      finishing_(static_cast<std::size_t>(
          std::min<std::int64_t>(gpu.sms * gpu.tb_slots, workload.graph->size()))),
      pool_(gpu),
      state_(static_cast<std::size_t>(graph_.size()), TaskState::WAITING),
      task_resident_(static_cast<std::size_t>(gpu.sms), 0),
      busy_since_(static_cast<std::size_t>(gpu.sms), 0) {
  if (cost.size() != static_cast<std::size_t>(graph_.size()))
    throw SimulationError("internal: cost vector does not match the task graph");
  for (const Cycle c : cost)
    if (c < 0 || c > kMaxDelay)
      throw ConfigError("a task cost of " + std::to_string(c) + " cycles is outside [0, 2^48]");
  if (options_.record_timeline) {
    const auto n = static_cast<std::size_t>(graph_.size());
    timeline_ = Timeline{std::vector<SmId>(n, -1), std::vector<std::int32_t>(n, -1),
                         std::vector<Cycle>(n, -1), std::vector<Cycle>(n, -1),
                         std::vector<Cycle>(n, -1), {}};
  }
}

void Engine::post(Cycle time, std::int32_t kind, std::int64_t payload, std::int32_t priority) {
  if (priority < 1) throw SimulationError("internal: scheme events need priority >= 1");
  if (time < now_)
    throw SimulationError("internal: event posted at cycle " + std::to_string(time) +
                          ", before the current cycle " + std::to_string(now_));
  check_time(time);
  queue_.push(time, priority, kind, payload);
}

void Engine::bad_transition(TaskId t, const char* what) const {
  throw SimulationError("internal: task " + std::to_string(graph_.original_id(t)) + " " + what +
                        " while " + state_name(state_[t]));
}

void Engine::issue(TaskId t, SmId sm) {
  if (state_[t] != TaskState::READY) bad_transition(t, "issued");
  since_progress_ = 0;
  const std::int32_t slot = pool_.acquire(sm, footprint(t));
  state_[t] = TaskState::RUNNING;
  if (task_resident_[sm]++ == 0) busy_since_[sm] = now_;
  rr_next_ = sm + 1 == pool_.size() ? 0 : sm + 1;
  std::int32_t handle;
  if (free_handles_.empty()) {
    handle = static_cast<std::int32_t>(running_.size());
    running_.push_back(Running{t, sm, slot});
  } else {
    handle = free_handles_.back();
    free_handles_.pop_back();
    running_[static_cast<std::size_t>(handle)] = Running{t, sm, slot};
  }
  check_time(now_ + cost_[t]);
  finishing_.push(now_ + cost_[t], issued_++, handle);
  if (timeline_) {
    timeline_->sm[t] = sm;
    timeline_->slot[t] = slot;
    timeline_->start[t] = now_;
  }
}

void Engine::check_time(Cycle time) const {
  if (time >= kMaxTime)
    throw SimulationError("the run passes cycle 2^62 (" + std::to_string(kMaxTime) +
                          "), the longest the simulator can represent");
}

void Engine::finish_task(Scheme& scheme, std::int32_t handle) {
  const Running r = running_[static_cast<std::size_t>(handle)];
  free_handles_.push_back(handle);
  const TaskId t = r.task;
  const SmId sm = r.sm;
  pool_.release(sm, footprint(t), r.slot);
  state_[t] = TaskState::DONE;
  ++finished_;
  last_finish_ = now_;
  tb_cycles_ += static_cast<double>(cost_[t]);
  if (--task_resident_[sm] == 0) busy_sm_cycles_ += static_cast<double>(now_ - busy_since_[sm]);
  if (timeline_) timeline_->end[t] = now_;
  scheme.on_task_finished(*this, t);
}

EngineOutput Engine::run(Scheme& scheme, std::size_t stat_count) {
  const std::int32_t n = graph_.size();
  const std::int64_t limit = options_.max_events_without_progress > 0
                                 ? options_.max_events_without_progress
                                 : std::max<std::int64_t>(10'000'000, 100LL * n);
  std::int64_t events = 0;
  Cycle last_event_time = -1;

  scheme.start(*this);
  scheme.dispatch(*this);
  for (;;) {
    const Cycle next_finish = finishing_.first_time();
    const Cycle next_event = queue_.empty() ? FinishHeap::kNever : queue_.top().time;
    if (next_finish == FinishHeap::kNever && next_event == FinishHeap::kNever) break;
    now_ = std::min(next_finish, next_event);
    // Every TB completion at this cycle first, in issue order ...
    while (finishing_.first_time() == now_) {
      const std::int32_t slot = finishing_.first();
      finishing_.pop();
      finish_task(scheme, slot);
      ++events;
      since_progress_ = 0;
    }
    // ... then the scheme's events at this cycle (they may post more at it).
    while (!queue_.empty() && queue_.top().time == now_) {
      scheme.on_event(*this, queue_.pop());
      ++events;
      // Watchdog: events while TBs run and time moves on are progress towards
      // their completion; events while nothing runs, or that keep time still,
      // are not.  Issuing or finishing a TB resets the count.
      if (!finishing_.empty() && now_ > last_event_time) {
        since_progress_ = 0;
      } else if (++since_progress_ > limit) {
        throw_deadlock(scheme, "the scheme kept handling events for " + std::to_string(limit) +
                                   " events without issuing or finishing a TB");
      }
      last_event_time = now_;
    }
    scheme.dispatch(*this);
  }
  if (finished_ != n) throw_deadlock(scheme, "nothing is left to happen");

  EngineOutput out;
  out.makespan = std::max(last_finish_, scheme.end_time(*this));
  out.tb_cycles = tb_cycles_;
  out.busy_sm_cycles = busy_sm_cycles_;
  out.critical_path = graph_.critical_path(cost_);
  const std::int64_t capacity = workload_.tb_capacity(gpu_);
  out.work_bound = static_cast<Cycle>(std::ceil(tb_cycles_ / static_cast<double>(capacity)));
  out.events = events;
  out.scheme_stats.assign(stat_count, 0.0);
  scheme.write_stats(*this, out.scheme_stats);
  if (timeline_) {  // rows by input task id, one column at a time (a 10M-task
                    // timeline is 320 MB: never hold two copies of it)
    Timeline& tl = *timeline_;
    for (std::size_t t = 0; t < tl.deps_met.size(); ++t)
      if (tl.deps_met[t] < 0) tl.deps_met[t] = tl.ready[t];
    const auto reorder = [&](auto& column) {
      using T = typename std::decay_t<decltype(column)>::value_type;
      if (!column.empty()) column = graph_.in_original_order<T>(column);
    };
    reorder(tl.sm);
    reorder(tl.slot);
    reorder(tl.ready);
    reorder(tl.start);
    reorder(tl.end);
    reorder(tl.deps_met);
    out.timeline = std::move(tl);
    timeline_.reset();
  }
  return out;
}

std::string Engine::default_stuck_reason(TaskId t,
                                         const std::vector<std::int32_t>& open_parents) const {
  switch (state_[t]) {
    case TaskState::WAITING:
      if (open_parents[t] > 0)
        return "waiting for " + std::to_string(open_parents[t]) + " unfinished parent(s)";
      return "all parents finished but the scheme never made it ready";
    case TaskState::READY: return "ready, but never issued to an SM";
    default: return std::string("left ") + state_name(state_[t]);
  }
}

void Engine::throw_deadlock(const Scheme& scheme, const std::string& why) const {
  const std::int32_t n = graph_.size();
  std::vector<std::int32_t> open_parents(static_cast<std::size_t>(n), 0);
  for (TaskId u = 0; u < n; ++u)
    if (state_[u] != TaskState::DONE)
      for (const TaskId c : graph_.children(u)) ++open_parents[c];

  // Most telling first: ready tasks, then waiting tasks with no open parent,
  // then the earliest (by virtual id) waiting ones.
  std::vector<TaskId> stuck;
  for (int pass = 0; pass < 3 && stuck.size() < 100; ++pass)
    for (TaskId t = 0; t < n && stuck.size() < 100; ++t) {
      if (state_[t] == TaskState::DONE) continue;
      const bool ready = state_[t] == TaskState::READY;
      const bool unblocked = !ready && open_parents[t] == 0;
      if ((pass == 0 && ready) || (pass == 1 && unblocked) || (pass == 2 && !ready && !unblocked))
        stuck.push_back(t);
    }

  std::string message = "deadlock at cycle " + std::to_string(now_) + " (" + why + "): " +
                        std::to_string(n - finished_) + " of " + std::to_string(n) +
                        " tasks can never finish.";
  if (const std::string cause = scheme.deadlock_cause(*this); !cause.empty())
    message += " Cause: " + cause + ".";
  message += " Stuck:";
  const std::size_t shown = std::min<std::size_t>(stuck.size(), 5);
  for (std::size_t i = 0; i < shown; ++i) {
    const TaskId t = stuck[i];
    std::string reason = scheme.stuck_reason(*this, t);
    if (reason.empty()) reason = default_stuck_reason(t, open_parents);
    message += (i ? "; " : " ") + std::string("task ") + std::to_string(graph_.original_id(t)) + " (" +
               state_name(state_[t]) + "): " + reason;
  }
  if (stuck.size() > shown) message += "; ...";
  for (TaskId& t : stuck) t = graph_.original_id(t);
  throw DeadlockError(message, std::move(stuck));
}

}  // namespace tbdse
