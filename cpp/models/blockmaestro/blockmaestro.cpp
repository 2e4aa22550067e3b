#include "models/blockmaestro/blockmaestro.hpp"

#include <algorithm>
#include <cmath>
#include <tuple>
#include <utility>

#include "core/errors.hpp"

namespace tbdse {

using blockmaestro::HostQueue;
using blockmaestro::LaunchPlan;
using blockmaestro::Pattern;

namespace {

// One launch per launch group with nothing in between, for a plain task graph.
std::shared_ptr<const Application> launches_only(std::int32_t launches) {
  auto app = std::make_shared<Application>();
  for (std::int32_t i = 0; i < launches; ++i)
    app->commands.push_back({HostCommand::Kind::LAUNCH, -1, 0, i});
  app->launch_reads.resize(static_cast<std::size_t>(launches));
  app->launch_writes.resize(static_cast<std::size_t>(launches));
  app->launch_waits_for.assign(static_cast<std::size_t>(launches), -1);
  return app;
}

HostQueue::Options queue_options(BlockMaestroScheme::Mode mode, const BlockMaestroParams& p,
                                 const GpuConfig& gpu) {
  using Mode = BlockMaestroScheme::Mode;
  HostQueue::Options o;
  const bool ahead = mode == Mode::PRELAUNCH || mode == Mode::BLOCKMAESTRO;
  o.depth = ahead ? p.prelaunch_depth : 0;
  o.reorder = ahead && p.reorder_queue;
  if (mode != Mode::IDEAL_BASELINE) {
    o.launch_api = gpu.launch_api_cycles();
    o.launch_latency = gpu.launch_latency_cycles();
  }
  o.malloc_cycles = gpu.us_to_cycles(gpu.malloc_us);
  o.copy_latency = gpu.us_to_cycles(gpu.copy_latency_us);
  o.copy_bytes_per_cycle = gpu.copy_gbps * 1e3 / gpu.clock_mhz;  // 1e9 B/s over 1e6 cycles/s
  return o;
}

std::int64_t sized(std::int64_t value, const GpuConfig& gpu) {
  return value == kAuto ? gpu.sms * gpu.tb_slots : value;
}

bool encoded(Pattern p) {
  return p == Pattern::ONE_TO_ONE || p == Pattern::ONE_TO_N || p == Pattern::N_TO_ONE ||
         p == Pattern::N_GROUP;
}

}  // namespace

BlockMaestroScheme::BlockMaestroScheme(Mode mode, const BlockMaestroParams& params,
                                       const Workload& workload, const GpuConfig& gpu)
    : mode_(mode),
      consumer_first_(mode == Mode::BLOCKMAESTRO && params.priority == "consumer"),
      strict_wait_(params.when_full == "wait"),
      independent_start_(params.independent_start),
      workload_(workload),
      plan_(LaunchPlan::build(workload, params.parent_counter_bits)),
      app_(workload.application ? workload.application : launches_only(plan_.size())),
      host_(*app_, queue_options(mode, params, gpu)),
      buffers_(sized(params.dependency_list_entries, gpu), params.children_per_entry,
               sized(params.parent_counter_entries, gpu)),
      children_per_entry_(params.children_per_entry),
      counter_bits_(params.parent_counter_bits),
      kernel_id_bits_(std::max<std::int64_t>(
          1, static_cast<std::int64_t>(std::ceil(std::log2(static_cast<double>(params.prelaunch_depth) + 1))))) {
  const TaskGraph& g = *workload.graph;
  const auto n = static_cast<std::size_t>(g.size());
  const auto launches = static_cast<std::size_t>(plan_.size());
  resident_.assign(launches, 0);
  open_.assign(launches, 0);
  complete_.assign(launches, 0);
  all_done_.assign(launches, 0);
  opened_by_.resize(launches);
  for (std::int32_t i = 0; i < plan_.size(); ++i) {
    const auto size = static_cast<std::int32_t>(plan_.launches[i].tbs.size());
    unissued_.push_back(size);
    unfinished_.push_back(size);
    ready_.emplace_back(static_cast<std::size_t>(size));
    if (plan_.launches[i].waits_for >= 0) opened_by_[plan_.launches[i].waits_for].push_back(i);
  }
  parents_left_ = plan_.prev_parents;
  parent_end_.assign(n, 0);
  deps_met_.assign(n, 0);
  tb_start_.assign(n, 0);
  has_counter_.assign(n, 0);
  tracked_.assign(n, 0);
  waited_for_entries_.assign(n, 0);
  list_held_.assign(n, 0);
  stall_.assign(n, 0.0);
  if (!tb_level()) return;
  // The most entries one TB takes.  `auto` sizes a buffer to the paper's one
  // entry per TB slot, raised to that; a TB needing more entries than a
  // buffer given explicitly has could never be scheduled.
  std::int64_t most_list = 0, most_counters = 0;
  TaskId widest_list = -1, widest_counters = -1;
  for (std::int32_t i = 0; i + 1 < plan_.size(); ++i) {
    const auto& next = plan_.launches[i + 1];
    if (next.barrier) continue;
    for (const TaskId t : plan_.launches[i].tbs) {
      std::int64_t k = 0;
      for (const TaskId c : g.children(t)) k += plan_.launch_of[c] == i + 1 ? 1 : 0;
      const std::int64_t list = buffers_.list_entries_for(k, encoded(next.pair.pattern));
      if (list > most_list) std::tie(most_list, widest_list) = std::pair{list, t};
      if (k > most_counters) std::tie(most_counters, widest_counters) = std::pair{k, t};
    }
  }
  const auto fit = [&](std::int64_t given, bool is_auto, std::int64_t most, TaskId widest, const char* name,
                       const char* what) {
    if (is_auto) return std::max(given, most);
    if (most > given)
      throw ConfigError("scheme 'blockmaestro': " + std::string(name) + " is " + std::to_string(given) +
                        ", but task " + std::to_string(g.original_id(widest)) + " (launch " +
                        std::to_string(plan_.launch_of[widest]) + ") needs " + std::to_string(most) + " " +
                        what + " entries for its child TBs in the next launch, so it could never be "
                        "scheduled; give at least " + std::to_string(most) + " or 'auto'");
    return given;
  };
  buffers_.set_capacity(fit(buffers_.list_entries(), params.dependency_list_entries == kAuto, most_list,
                            widest_list, "dependency_list_entries", "dependency list"),
                        fit(buffers_.counter_entries(), params.parent_counter_entries == kAuto, most_counters,
                            widest_counters, "parent_counter_entries", "parent counter"));
}

// Whether a launch's TBs wait for the whole previous kernel: always in the
// baselines (they run one kernel at a time anyway), per kernel when the pair
// is tracked so (blockmaestro), and under prelaunch unless the kernel does not
// depend on the previous one (§III-C: an independent kernel "can begin
// executing right away"; a wait on a kernel further back stays, try_open) —
// unless independent_start is false (§IV-B's Fig. 9 bar orders every pair).
bool BlockMaestroScheme::waits_for_previous(std::int32_t launch) const {
  if (launch <= 0) return false;
  const auto& L = plan_.launches[launch];
  if (L.barrier) return true;
  if (tb_level()) return false;
  return mode_ != Mode::PRELAUNCH || !independent_start_ ||
         L.pair.pattern != Pattern::INDEPENDENT;
}

void BlockMaestroScheme::start(Engine& engine) { pump_host(engine); }

void BlockMaestroScheme::pump_host(Engine& engine) {
  started_.clear();
  host_.advance(engine.now(), started_);
  for (const auto& s : started_) {
    if (s.call_done_at < s.done_at) engine.post(s.call_done_at, kCallDone, s.command);
    engine.post(s.done_at, kCommandDone, s.command);
  }
}

void BlockMaestroScheme::on_event(Engine& engine, const Event& event) {
  const auto c = static_cast<std::int32_t>(event.payload);
  if (event.kind == kCallDone) {  // the host and the next launch's call may go
    host_.call_done(c, engine.now());
    pump_host(engine);
    return;
  }
  host_.finished(c, engine.now());
  const HostCommand& cmd = host_.command(c);
  if (cmd.kind == HostCommand::Kind::LAUNCH) {
    resident_[cmd.launch] = 1;
    newest_ = std::max(newest_, cmd.launch);
    max_resident_ = std::max<std::int64_t>(max_resident_, newest_ - oldest_ + 1);
    try_open(engine, cmd.launch);
  }
  pump_host(engine);
}

// A launch's TBs may go once it is resident and its kernel-level waits are
// over; those without TB-level parents left become ready now, the others as
// their parents finish.
void BlockMaestroScheme::try_open(Engine& engine, std::int32_t i) {
  if (open_[i] || !resident_[i]) return;
  if (waits_for_previous(i) && !complete_[i - 1]) return;
  const std::int32_t skip = plan_.launches[i].waits_for;
  if (skip >= 0 && !complete_[skip]) return;
  open_[i] = 1;
  const bool by_kernel = waits_for_previous(i);
  for (const TaskId t : plan_.launches[i].tbs)
    if (by_kernel || parents_left_[t] == 0) make_ready(engine, t);
}

void BlockMaestroScheme::make_ready(Engine& engine, TaskId t) {
  const std::int32_t i = plan_.launch_of[t];
  // When its data was there: its parents' results, its inputs' copies, and for
  // per-kernel waits every TB of the kernel waited for.
  Cycle met = std::max(parent_end_[t], host_.data_ready(i));
  if (i > 0 && plan_.launches[i].barrier) met = std::max(met, all_done_[i - 1]);
  if (plan_.launches[i].waits_for >= 0) met = std::max(met, all_done_[plan_.launches[i].waits_for]);
  deps_met_[t] = met;
  engine.note_dependencies_met(t, met);
  engine.mark_ready(t);
  ready_[i].insert(static_cast<std::uint32_t>(plan_.block_of[t]));
}

void BlockMaestroScheme::on_task_finished(Engine& engine, TaskId t) {
  const TaskGraph& g = engine.graph();
  const std::int32_t i = plan_.launch_of[t];
  const Cycle now = engine.now();
  --running_;
  // Fig. 11's stall in units of the TB's own run, as it ran (a shared SM
  // stretches it past its cost); Result.dependency_stalls() divides the same way.
  const Cycle run = now - tb_start_[t];
  stall_[t] = run > 0 ? static_cast<double>(tb_start_[t] - deps_met_[t]) / static_cast<double>(run) : 0.0;
  buffers_.free_list(list_held_[t]);
  list_held_[t] = 0;
  const bool next_by_tb = tb_level() && i + 1 < plan_.size() && !plan_.launches[i + 1].barrier;
  for (const TaskId c : g.children(t)) {
    parent_end_[c] = std::max(parent_end_[c], now);
    if (!next_by_tb || plan_.launch_of[c] != i + 1) continue;
    if (!tracked_[t]) ++requests_;  // no buffered entry: the counter is updated in memory
    if (--parents_left_[c] == 0 && open_[i + 1]) make_ready(engine, c);
  }
  if (--unfinished_[i] == 0) {
    all_done_[i] = now;
    complete_in_order(engine);
  }
}

void BlockMaestroScheme::complete_in_order(Engine& engine) {
  while (oldest_ < plan_.size() && resident_[oldest_] && unfinished_[oldest_] == 0) {
    const std::int32_t k = oldest_++;
    complete_[k] = 1;
    host_.kernel_completed(k, engine.now());
    if (k + 1 < plan_.size()) try_open(engine, k + 1);
    for (const std::int32_t d : opened_by_[k]) try_open(engine, d);
  }
  pump_host(engine);
}

BlockMaestroScheme::Need BlockMaestroScheme::need_of(const Engine& engine, TaskId t) const {
  Need need;
  const std::int32_t i = plan_.launch_of[t];
  if (!tb_level() || i + 1 >= plan_.size() || plan_.launches[i + 1].barrier || !resident_[i + 1])
    return need;
  need.tracked = true;
  for (const TaskId c : engine.graph().children(t)) {
    if (plan_.launch_of[c] != i + 1) continue;
    ++need.children;
    need.counters += has_counter_[c] ? 0 : 1;
  }
  need.list = buffers_.list_entries_for(need.children, encoded(plan_.launches[i + 1].pair.pattern));
  return need;
}

// Issues ready TBs of one launch in block order until none is left or the
// next one is held back by SM room or by buffer entries.
BlockMaestroScheme::Held BlockMaestroScheme::issue_from(Engine& engine, std::int32_t i) {
  const auto& tbs = plan_.launches[i].tbs;
  while (!ready_[i].empty()) {
    const auto block = static_cast<std::int32_t>(ready_[i].min());
    const TaskId t = tbs[block];
    Need need = need_of(engine, t);
    const bool fits = buffers_.fits(need.list, need.counters, has_counter_[t]);
    if (!fits) {
      if (!bypass_next_) {
        held_now_.push_back(t);
        return Held::ENTRIES;
      }
      need = Need{};  // goes unbuffered: its children's counters are updated in memory
    }
    if (!engine.issue_round_robin(t)) return Held::SLOTS;
    ++running_;
    if (!fits) {
      if (strict_wait_) bypass_next_ = false;  // one at a time
      ++bypasses_;
    }
    ready_[i].erase(static_cast<std::uint32_t>(block));
    --unissued_[i];
    if (has_counter_[t]) buffers_.free_counter();
    has_counter_[t] = 0;
    if (need.tracked) {
      tracked_[t] = 1;
      buffers_.take(need.list, need.counters);
      list_held_[t] = need.list;
      if (need.list > 0) {  // fetch the list entry and the new counters
        const bool enc = encoded(plan_.launches[i + 1].pair.pattern);
        requests_ += enc ? 1 : (4 * (1 + need.children) + 127) / 128;
        requests_ += need.counters;
      }
      for (const TaskId c : engine.graph().children(t))
        if (plan_.launch_of[c] == i + 1) has_counter_[c] = 1;
    }
    tb_start_[t] = engine.now();
  }
  return Held::NONE;
}

void BlockMaestroScheme::dispatch(Engine& engine) {
  if (newest_ < oldest_) return;
  // 'bypass': a TB whose entries cannot be allocated goes unbuffered, in its
  // turn.  'wait': it waits; only when nothing runs (so nothing could ever
  // free an entry) does the first in line go unbuffered, one TB at a time.
  // docs/models/blockmaestro.md.
  bypass_next_ = tb_level() && !strict_wait_;
  issue_by_priority(engine);
  if (tb_level() && strict_wait_ && running_ == 0) {
    bypass_next_ = true;
    issue_by_priority(engine);
  }
  bypass_next_ = false;
  // A TB waited for entries if it is still ready once this cycle's issuing is over.
  for (const TaskId t : held_now_)
    if (engine.state(t) == TaskState::READY && !waited_for_entries_[t]) {
      waited_for_entries_[t] = 1;
      ++entry_stalls_;
    }
  held_now_.clear();
}

void BlockMaestroScheme::issue_by_priority(Engine& engine) {
  if (consumer_first_) {
    for (std::int32_t i = newest_; i >= oldest_; --i) issue_from(engine, i);
    return;
  }
  // Oldest first; under producer priority a kernel's TBs wait until every TB
  // of the kernels before it has been scheduled — unless the older kernel's
  // next TB waits for buffer entries: only scheduling the child TBs that hold
  // parent counters frees them.
  for (std::int32_t i = oldest_; i <= newest_; ++i) {
    const Held held = issue_from(engine, i);
    if (unissued_[i] > 0 && held != Held::ENTRIES) break;
  }
}

Cycle BlockMaestroScheme::end_time(const Engine& /*engine*/) const { return host_.last_done(); }

std::string BlockMaestroScheme::stuck_reason(const Engine& engine, TaskId t) const {
  const std::int32_t i = plan_.launch_of[t];
  const std::string launch = "launch " + std::to_string(i);
  if (!resident_[i]) return launch + " is " + host_.explain_launch(i);
  if (!open_[i]) {
    const std::int32_t skip = plan_.launches[i].waits_for;
    if (waits_for_previous(i) && !complete_[i - 1])
      return launch + " waits for launch " + std::to_string(i - 1) + " to complete";
    return launch + " waits for launch " + std::to_string(skip) + " to complete";
  }
  if (engine.state(t) == TaskState::WAITING)
    return "waits for " + std::to_string(parents_left_[t]) + " parent TB(s) in launch " +
           std::to_string(i - 1);
  if (engine.state(t) == TaskState::READY && tb_level()) {
    const Need need = need_of(engine, t);
    if (!buffers_.fits(need.list, need.counters, has_counter_[t]))
      return "ready, but needs " + std::to_string(need.list) + " dependency list and " +
             std::to_string(need.counters) + " parent counter entries (" +
             std::to_string(buffers_.list_used()) + " of " + std::to_string(buffers_.list_entries()) +
             " and " + std::to_string(buffers_.counter_used()) + " of " +
             std::to_string(buffers_.counter_entries()) + " in use)";
  }
  return {};
}

}  // namespace tbdse
