#include "engine.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "errors.hpp"
#include "run_control.hpp"

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
  if (gpu.shared_sms()) {
    shared_.emplace(gpu);
    for (const KernelInfo& k : workload.kernels)
      kernel_traits_.push_back(SharedSms::Tb{
          .mem_fraction = k.mem_fraction,
          .bytes = 128.0 * static_cast<double>(k.mem_requests),
          .units = k.issue_interval > 0
                       ? shared_->units_of(issue_demand(gpu, k.footprint.threads, k.issue_interval))
                       : 1.0});
  }
  if (workload.has_data_ranges()) {
    check_data_ranges();
    // A TB's footprint goes through at its issue, its lines spread into the
    // future; the next TB's come at the same or a later cycle but earlier
    // than those: the shared resources fill gaps, writes drain behind reads.
    MemoryConfig mc = memory_config(gpu);
    mc.booking = Booking::gap_filling;
    mc.dram_write_queue = kDramWriteQueueSectors;
    mc.sample_cycles = 0;  // no DRAM backlog samples: the engine reports none
    memory_.emplace(mc);
    reuse_ = std::any_of(workload.kernels.begin(), workload.kernels.end(),
                         [](const KernelInfo& k) { return k.reuse > 1 || k.footprint.threads > 0; });
  }
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

void Engine::issue(TaskId t, SmId sm, Cycle work) {
  if (state_[t] != TaskState::READY) bad_transition(t, "issued");
  if (work < 0) work = cost_[t];
  else if (work > kMaxDelay) throw SimulationError("internal: a TB's work is above 2^48 cycles");
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
  if (timeline_) {
    timeline_->sm[t] = sm;
    timeline_->slot[t] = slot;
    timeline_->start[t] = now_;
  }
  Cycle memory_part = -1;  // with a footprint: the hierarchy's part of `work`
  std::int32_t phases = 1;
  if (reuse_) [[unlikely]] phases = load_phases(t);
  if (reuse_ && (phases > 1 || workload_.kernels[static_cast<std::size_t>(graph_.kernel(t))].reuse > 1))
    [[unlikely]] work = start_passes(handle, t, work, phases, &memory_part);
  else if (memory_) [[unlikely]] work = work_with_memory(t, sm, work, &memory_part);
  time_tb(handle, work, memory_part, issued_++, now_);
}

void Engine::time_tb(std::int32_t handle, Cycle work, Cycle memory_part, std::uint64_t seq,
                     Cycle started) {
  const Running& r = running_[static_cast<std::size_t>(handle)];
  tb_cycles_ += static_cast<double>(work);
  if (shared_) [[unlikely]] {
    SharedSms::Tb tb = kernel_traits_[static_cast<std::size_t>(graph_.kernel(r.task))];
    tb.cost = work;
    if (memory_part >= 0) {  // the hierarchy's time, not slowed by issue sharing, no second
                             // bandwidth term (its DRAM channels already limit it)
      tb.mem_fraction = work > 0 ? static_cast<double>(memory_part) / static_cast<double>(work) : 0.0;
      tb.bytes = 0.0;
      tb.hierarchy = true;
    }
    tb.level = graph_.level(r.task);
    tb.seq = seq;
    tb.started = started;
    shared_->start(handle, r.sm, tb, now_);
  } else {
    check_time(now_ + work);
    finishing_.push(now_ + work, seq, handle);
  }
}

// A TB's nominal work has a memory part, mem_fraction x work (its kernel's),
// measured on a cold-ish GPU; with a footprint that part is replaced by the
// time its reads actually take through the hierarchy from its start on its
// SM.  The reads overlap the compute, as a TB's warps hide one another's
// loads: compute = work - round(mem_fraction x work) starts when the first
// line arrives (the exposed latency) and the TB ends when both it and the
// last read are done: duration = max(compute + first line's latency,
// last read's completion - now).  Hits (a producer's lines still in L2, a
// neighbour's in L1) shorten a memory-bound TB; misses to DRAM lengthen it;
// a compute-bound TB pays one access latency.  No per-policy term: the order
// the scheme issues in decides the hits.
Cycle Engine::work_with_memory(TaskId t, SmId sm, Cycle work, Cycle* memory_part) {
  return compute_beside_reads(t, sm, compute_part(t, work), memory_part);
}

Cycle Engine::compute_part(TaskId t, Cycle work) const {
  const double f = workload_.kernels[static_cast<std::size_t>(graph_.kernel(t))].mem_fraction;
  return work - static_cast<Cycle>(std::llround(f * static_cast<double>(work)));
}

Cycle Engine::compute_beside_reads(TaskId t, SmId sm, Cycle compute, Cycle* memory_part,
                                   std::int32_t slice, std::int32_t slices) {
  Cycle first_line = -1;  // when the TB's first read line arrives
  const Cycle done = read_footprint(t, sm, &first_line, slice, slices);
  const Cycle exposed = first_line < 0 ? 0 : first_line - now_;
  const Cycle out = std::max(compute + exposed, done - now_);
  if (out > kMaxDelay) throw SimulationError("a TB's work with its memory time is above 2^48 cycles");
  *memory_part = out - compute;
  return out;
}

Cycle Engine::read_footprint(TaskId t, SmId sm, Cycle* first_line, std::int32_t slice,
                             std::int32_t slices) {
  Cycle done = now_;
  *first_line = -1;
  memory_->advance(now_);
  const auto first = static_cast<std::size_t>(workload_.data_start[t]);
  const auto last = static_cast<std::size_t>(workload_.data_start[t + 1]);
  for (std::size_t i = first; i < last; ++i) {
    const DataRange& d = workload_.data_ranges[i];
    if (d.is_write) continue;
    std::uint64_t base = d.base;
    std::int64_t bytes = d.bytes;
    if (slices > 1) {  // a slice: lines [n x slice / slices, n x (slice + 1) / slices) of each range
      const std::int64_t n = range_lines(d);
      const std::int64_t a = n * slice / slices, b = n * (slice + 1) / slices;
      if (a == b) continue;  // a range shorter than the phases: none in this one
      const std::uint64_t line0 = d.base >> 7;
      const std::uint64_t from = std::max(d.base, (line0 + static_cast<std::uint64_t>(a)) << 7);
      const std::uint64_t to = std::min(d.base + static_cast<std::uint64_t>(d.bytes),
                                        (line0 + static_cast<std::uint64_t>(b)) << 7);
      base = from;
      bytes = static_cast<std::int64_t>(to - from);
    }
    Cycle arrives = now_;
    done = std::max(done, memory_->access_range(sm, now_, base, bytes, false, &arrives));
    if (*first_line < 0 && bytes > 0) *first_line = arrives;
  }
  return done;
}

void Engine::check_data_ranges() const {
  const auto n = static_cast<std::size_t>(graph_.size());
  const std::vector<std::int64_t>& s = workload_.data_start;
  if (s.size() != n + 1 || s.front() != 0 ||
      s.back() != static_cast<std::int64_t>(workload_.data_ranges.size()))
    throw ConfigError("data_start must have one entry per task plus one, from 0 to the number of "
                      "data_ranges (" + std::to_string(workload_.data_ranges.size()) + ")");
  for (std::size_t t = 0; t < n; ++t)
    if (s[t + 1] < s[t])
      throw ConfigError("data_start decreases at task " + std::to_string(graph_.original_id(
                            static_cast<TaskId>(t))));
  for (const DataRange& d : workload_.data_ranges)
    if (d.bytes < 0 || d.bytes > (std::int64_t{1} << 40))
      throw ConfigError("data_ranges: a range of " + std::to_string(d.bytes) +
                        " bytes is outside [0, 2^40]");
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
  if (shared_) [[unlikely]]
    resident_cycles_ += static_cast<double>(now_ - shared_->stop(handle, now_));
  pool_.release(sm, footprint(t), r.slot);
  if (memory_) [[unlikely]] {  // stores drain to L2 after the TB: they leave lines there
    const auto first = static_cast<std::size_t>(workload_.data_start[t]);
    const auto last = static_cast<std::size_t>(workload_.data_start[t + 1]);
    for (std::size_t i = first; i < last; ++i) {
      const DataRange& d = workload_.data_ranges[i];
      if (d.is_write) memory_->access_range(sm, now_, d.base, d.bytes, true);
    }
  }
  state_[t] = TaskState::DONE;
  ++finished_;
  last_finish_ = now_;
  if (--task_resident_[sm] == 0) busy_sm_cycles_ += static_cast<double>(now_ - busy_since_[sm]);
  if (timeline_) timeline_->end[t] = now_;
  scheme.on_task_finished(*this, t);
}

// The event loop, compiled once per timing model so that 'fixed' runs keep
// their plain finish heap.
template <bool kShared>
std::int64_t Engine::loop(Scheme& scheme, std::int64_t limit) {
  std::int64_t events = 0;
  Cycle last_event_time = -1;
  for (;;) {
    Cycle next_finish;
    if constexpr (kShared) next_finish = shared_->next_finish(now_);
    else next_finish = finishing_.first_time();
    const Cycle next_event = queue_.empty() ? FinishHeap::kNever : queue_.top().time;
    if (next_finish == FinishHeap::kNever && next_event == FinishHeap::kNever) break;
    poll_run();  // Ctrl-C and the run's time limit
    now_ = std::min(next_finish, next_event);
    // Every TB completion at this cycle first, in issue order ...
    for (;;) {
      std::int32_t handle;
      if constexpr (kShared) {
        if (shared_->first_time() != now_) break;
        handle = shared_->pop_first();
      } else {
        if (finishing_.first_time() != now_) break;
        handle = finishing_.first();
        finishing_.pop();
      }
      if (reuse_ && next_pass(handle)) [[unlikely]] continue;  // a pass ended, not the TB
      finish_task(scheme, handle);
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
      if (tbs_running() && now_ > last_event_time) {
        since_progress_ = 0;
      } else if (++since_progress_ > limit) {
        throw_deadlock(scheme, "the scheme kept handling events for " + std::to_string(limit) +
                                   " events without issuing or finishing a TB");
      }
      last_event_time = now_;
    }
    scheme.dispatch(*this);
  }
  return events;
}

EngineOutput Engine::run(Scheme& scheme, std::size_t stat_count, bool values) {
  const std::int32_t n = graph_.size();
  const std::int64_t limit = options_.max_events_without_progress > 0
                                 ? options_.max_events_without_progress
                                 : std::max<std::int64_t>(10'000'000, 100LL * n);
  scheme.start(*this);
  scheme.dispatch(*this);
  const std::int64_t events = shared_ ? loop<true>(scheme, limit) : loop<false>(scheme, limit);
  if (finished_ != n) throw_deadlock(scheme, "nothing is left to happen");

  EngineOutput out;
  out.makespan = std::max(last_finish_, scheme.end_time(*this));
  out.tb_cycles = tb_cycles_;
  out.resident_cycles = shared_ ? resident_cycles_ : tb_cycles_;  // 'fixed': end - start = cost
  out.busy_sm_cycles = busy_sm_cycles_;
  out.critical_path = graph_.critical_path(cost_);
  if (const double f = scheme.min_work_factor(); f < 1.0)
    out.critical_path = static_cast<Cycle>(std::floor(static_cast<double>(out.critical_path) * f));
  if (memory_) {  // all-hit TBs may take only their compute part
    double f = 0;
    for (const KernelInfo& k : workload_.kernels) f = std::max(f, k.mem_fraction);
    out.critical_path = static_cast<Cycle>(std::floor(static_cast<double>(out.critical_path) * (1 - f)));
  }
  out.work_bound = work_bound();
  out.events = events;
  out.scheme_stats.assign(stat_count, 0.0);
  scheme.write_stats(*this, out.scheme_stats);
  if (memory_) out.memory = memory_->stats();
  if (values) scheme.write_values(*this, out.values);
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

Cycle Engine::work_bound() const {
  const double slots = static_cast<double>(workload_.tb_capacity(gpu_));
  if (!shared_) return static_cast<Cycle>(std::ceil(tb_cycles_ / slots));
  // Under 'shared' a TB still holds a slot for at least its cost, an SM does
  // at most sm_saturation TB units' compute work per cycle (a TB of u units
  // demands u / sm_saturation of its issue slots; memory time takes none), and
  // the bytes of TBs with memory time pass at most at mem_bandwidth.
  double compute = 0, bytes = 0;
  for (TaskId t = 0; t < graph_.size(); ++t) {
    const SharedSms::Tb& k = kernel_traits_[static_cast<std::size_t>(graph_.kernel(t))];
    compute += (1.0 - k.mem_fraction) * static_cast<double>(cost_[t]) * k.units;
    if (k.mem_fraction > 0 && cost_[t] > 0) bytes += k.bytes;
  }
  double bound = std::max(tb_cycles_ / slots,
                          compute / (static_cast<double>(gpu_.sms) * gpu_.sm_saturation));
  if (gpu_.mem_bandwidth > 0 && !memory_)  // with footprints the hierarchy's channels limit
    bound = std::max(bound, bytes * gpu_.clock_mhz / (gpu_.mem_bandwidth * 1000.0));
  // a hair below the exact bound: the finish times' rounding must not cross it
  return static_cast<Cycle>(std::ceil(bound * (1 - 1e-12)));
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
