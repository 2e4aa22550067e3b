#include "models/user_policy/user_policy.hpp"

#include <cmath>
#include <sstream>

#include "core/errors.hpp"

namespace tbdse {

namespace {

// Key 0: no user policy, first ready first issued on round-robin SMs
// (dataflow_ideal 'fifo'), so that the scheme's defaults run.
UserPolicyPtr fifo_policy() {
  static const UserPolicyPtr none = [] {
    auto p = std::make_shared<UserPolicy>();
    p->name = "fifo";
    return p;
  }();
  return none;
}

}  // namespace

const ParamTable<UserPolicyParams>& UserPolicyParams::params() {
  static const ParamTable<UserPolicyParams> table = [] {
    ParamTable<UserPolicyParams> t;
    t.add(&UserPolicyParams::policy,
          {.name = "policy",
           .doc = "key of the registered user policy that decides issue order and SM "
                  "(set by tbdse.Policy from the policy's identity; 0 = none: first ready, first "
                  "issued, SMs round robin)",
           .paper_ref = "docs/policies.md",
           .min_value = 0,
           .max_value = static_cast<double>(kMaxPolicyKey)});
    t.add(&UserPolicyParams::max_tbs_per_sm,
          {.name = "max_tbs_per_sm",
           .unit = "TBs",
           .doc = "task TBs an SM may hold at once (throttling); 0 = as many as fit",
           .paper_ref = "docs/policies.md",
           .min_value = 0,
           .max_value = 1e9});
    for (auto [member, name] : {std::pair{&UserPolicyParams::p0, "p0"},
                                std::pair{&UserPolicyParams::p1, "p1"},
                                std::pair{&UserPolicyParams::p2, "p2"},
                                std::pair{&UserPolicyParams::p3, "p3"}})
      t.add(member, {.name = name,
                     .doc = std::string("the policy's parameter ") + name + " (params[" +
                            name[1] + "] in its callbacks; tbdse.Policy names it)",
                     .paper_ref = "docs/policies.md"});
    return t;
  }();
  return table;
}

std::vector<StatInfo> UserPolicyScheme::stats() {
  return {{"peak_ready_tasks", "tasks", "most tasks ready but not yet issued at one time"},
          {"policy_waits", "decisions", "times the policy's place returned wait (-2)"}};
}

UserPolicyScheme::UserPolicyScheme(const UserPolicyParams& params, const Workload& workload,
                                   const GpuConfig& gpu)
    : policy_(params.policy == 0 ? fifo_policy()
                                 : find_policy(static_cast<std::uint64_t>(params.policy))),
      who_("policy '" + policy_->name + "'"),
      host_launch_(gpu.us_to_cycles(gpu.host_launch_us)),
      max_per_sm_(params.max_tbs_per_sm),
      params_{params.p0, params.p1, params.p2, params.p3},
      open_parents_(workload.graph->parent_counts().begin(), workload.graph->parent_counts().end()),
      mode_(!policy_->priorities.empty() ? Order::STATIC
            : policy_->priority          ? Order::HEAP
                                         : Order::FIFO) {
  workload.require_edges_complete("user_policy");
  const auto n = static_cast<std::size_t>(workload.graph->size());
  if (!policy_->priorities.empty() && policy_->priorities.size() != n)
    throw ConfigError(who_ + ": has " + std::to_string(policy_->priorities.size()) +
                      " static priorities; workload '" + workload.name + "' has " +
                      std::to_string(n) + " tasks (one priority per task, by task id)");
}

void UserPolicyScheme::start(Engine& engine) {
  const TaskGraph& g = engine.graph();
  const auto n = static_cast<std::size_t>(g.size());
  sm_of_.assign(n, -1);
  task_.assign(TBDSE_TASK_FIELDS, 0);
  sms_.assign(2 * static_cast<std::size_t>(engine.sms().size()), 0);
  if (mode_ == Order::STATIC) {
    const auto ranks = static_cast<std::size_t>(policy_->priority_ranks);
    ranks_.emplace(ranks);
    rank_head_.assign(ranks, -1);
    rank_tail_.assign(ranks, -1);
    next_.assign(n, -1);
    if (policy_->place) order_of_.assign(n, -1);  // the view's ready order
  }
  engine.post(host_launch_, kLaunched);
  if (!policy_->priority && !policy_->place) return;  // nothing reads parents
  parent_start_.assign(n + 1, 0);
  for (TaskId t = 0; t < g.size(); ++t)
    parent_start_[static_cast<std::size_t>(t) + 1] = parent_start_[static_cast<std::size_t>(t)] +
                                                     g.parent_count(t);
  parents_of_.resize(static_cast<std::size_t>(parent_start_.back()));
  std::vector<std::int64_t> fill(parent_start_.begin(), parent_start_.end() - 1);
  for (TaskId t = 0; t < g.size(); ++t)
    for (const TaskId c : g.children(t))
      parents_of_[static_cast<std::size_t>(fill[static_cast<std::size_t>(c)]++)] = t;
}

void UserPolicyScheme::on_event(Engine& engine, const Event& /*event*/) {
  const TaskGraph& g = engine.graph();  // the single kernel's roots: level 0, the first ids
  for (TaskId t = 0; t < g.size() && g.level(t) == 0; ++t) make_ready(engine, t);
}

void UserPolicyScheme::on_task_finished(Engine& engine, TaskId t) {
  --sms_[static_cast<std::size_t>(sm_of_[static_cast<std::size_t>(t)])];
  for (const TaskId c : engine.graph().children(t))
    if (--open_parents_[c] == 0) make_ready(engine, c);
}

void UserPolicyScheme::fill_view(const Engine& engine, TaskId t, std::int64_t order) {
  const TaskGraph& g = engine.graph();
  const auto first = static_cast<std::size_t>(parent_start_[static_cast<std::size_t>(t)]);
  const auto last = static_cast<std::size_t>(parent_start_[static_cast<std::size_t>(t) + 1]);
  task_[TBDSE_TASK_ID] = g.original_id(t);
  task_[TBDSE_TASK_KERNEL] = g.kernel(t);
  task_[TBDSE_TASK_LEVEL] = g.level(t);
  task_[TBDSE_TASK_COST] = g.cost(t);
  task_[TBDSE_TASK_NOW] = engine.now();
  task_[TBDSE_TASK_PARENTS] = static_cast<std::int64_t>(last - first);
  task_[TBDSE_TASK_SMS] = engine.sms().size();
  task_[TBDSE_TASK_PARAMS] = static_cast<std::int64_t>(params_.size());
  task_[TBDSE_TASK_READY_ORDER] = order;
  parents_.resize(2 * (last - first) + 1);  // never empty: data() is a valid pointer
  for (std::size_t i = first; i < last; ++i) {
    const TaskId p = parents_of_[i];
    parents_[2 * (i - first)] = g.original_id(p);
    parents_[2 * (i - first) + 1] = sm_of_[static_cast<std::size_t>(p)];
  }
}

void UserPolicyScheme::make_ready(Engine& engine, TaskId t) {
  engine.mark_ready(t);
  const std::int64_t order = ready_count_++;
  std::size_t waiting = 0;
  switch (mode_) {
    case Order::FIFO:
      fifo_.emplace_back(t, order);
      waiting = fifo_.size() - head_;
      break;
    case Order::STATIC: {
      const auto r = static_cast<std::size_t>(
          policy_->priority_rank[static_cast<std::size_t>(engine.graph().original_id(t))]);
      if (rank_head_[r] < 0) {
        rank_head_[r] = t;
        ranks_->insert(static_cast<std::uint32_t>(r));
      } else {
        next_[static_cast<std::size_t>(rank_tail_[r])] = t;
      }
      rank_tail_[r] = t;
      if (!order_of_.empty()) order_of_[static_cast<std::size_t>(t)] = order;
      waiting = ++waiting_count_;
      break;
    }
    case Order::HEAP: {
      fill_view(engine, t, order);
      const double priority = policy_->priority(task_.data(), parents_.data(), sms_.data(),
                                                params_.data(), policy_->user);
      if (std::isnan(priority)) fail(engine, t, "returned a NaN priority");
      push_ranked(Ready{priority, order, t});
      waiting = heap_.size() + best_.size() - best_head_;
      break;
    }
  }
  peak_ = std::max(peak_, waiting);
}

// Every task in best_ has the same priority, above all of the heap's, and
// came later than any heap task of that priority (there is none): so the
// issue order is best_ in order, then the heap.
void UserPolicyScheme::push_ranked(const Ready& r) {
  if (best_empty()) {
    if (heap_.empty() || r.priority > heap_.top().priority) best_.push_back(r);
    else heap_.push(r);
    return;
  }
  const double top = best_[best_head_].priority;
  if (r.priority == top) {
    best_.push_back(r);
  } else if (r.priority < top) {
    heap_.push(r);
  } else {  // a new highest priority: the old best go below it
    for (std::size_t i = best_head_; i < best_.size(); ++i) heap_.push(best_[i]);
    best_.assign(1, r);
    best_head_ = 0;
  }
}

bool UserPolicyScheme::has_ready() const {
  switch (mode_) {
    case Order::FIFO: return head_ < fifo_.size();
    case Order::STATIC: return !ranks_->empty();
    case Order::HEAP: return !best_empty() || !heap_.empty();
  }
  return false;
}

// (task, ready order); the ready order is only read by callbacks (HEAP, or place).
std::pair<TaskId, std::int64_t> UserPolicyScheme::first_ready() const {
  switch (mode_) {
    case Order::FIFO: return fifo_[head_];
    case Order::STATIC: {
      const TaskId t = rank_head_[ranks_->min()];
      return {t, order_of_.empty() ? -1 : order_of_[static_cast<std::size_t>(t)]};
    }
    case Order::HEAP: {
      const Ready& r = best_empty() ? heap_.top() : best_[best_head_];
      return {r.task, r.order};
    }
  }
  return {-1, -1};
}

void UserPolicyScheme::pop_ready() {
  switch (mode_) {
    case Order::FIFO:
      if (++head_ == fifo_.size()) fifo_.clear(), head_ = 0;
      break;
    case Order::STATIC: {
      const std::uint32_t r = ranks_->min();
      const TaskId t = rank_head_[r];
      rank_head_[r] = next_[static_cast<std::size_t>(t)];
      next_[static_cast<std::size_t>(t)] = -1;
      if (rank_head_[r] < 0) ranks_->erase(r);
      --waiting_count_;
      break;
    }
    case Order::HEAP:
      if (best_empty()) {
        heap_.pop();
      } else if (++best_head_ == best_.size()) {
        best_.clear();
        best_head_ = 0;
      }
      break;
  }
}

bool UserPolicyScheme::has_room(const Engine& engine, SmId sm, TaskId t) const {
  return engine.sms().fits(sm, engine.workload().footprint(t)) &&
         (max_per_sm_ == 0 || sms_[static_cast<std::size_t>(sm)] < max_per_sm_);
}

SmId UserPolicyScheme::round_robin(const Engine& engine, TaskId t) const {
  const SmId n = engine.sms().size();
  const SmId start = last_sm_ + 1 == n ? 0 : last_sm_ + 1;
  if (max_per_sm_ == 0) return engine.sms().next_fitting(start, engine.workload().footprint(t));
  for (SmId i = 0; i < n; ++i) {
    const SmId sm = (start + i) % n;
    if (has_room(engine, sm, t)) return sm;
  }
  return -1;
}

SmId UserPolicyScheme::choose_sm(Engine& engine, TaskId t, std::int64_t order) {
  const SmId rr = round_robin(engine, t);
  if (rr < 0 || !policy_->place) return rr;
  fill_view(engine, t, order);
  const SmId n = engine.sms().size();
  for (SmId sm = 0; sm < n; ++sm)
    sms_[static_cast<std::size_t>(n + sm)] = has_room(engine, sm, t) ? 1 : 0;
  const std::int64_t choice =
      policy_->place(task_.data(), parents_.data(), sms_.data(), params_.data(), policy_->user);
  if (choice == TBDSE_PLACE_ROUND_ROBIN) return rr;
  if (choice == TBDSE_PLACE_WAIT) {
    waiting_ = t;
    ++waits_;
    return -2;
  }
  if (choice < 0 || choice >= n)
    fail(engine, t, "returned SM " + std::to_string(choice),
         "out of range (valid: an SM in 0.." + std::to_string(n - 1) +
             " with room, -1 = round robin, -2 = wait)");
  if (sms_[static_cast<std::size_t>(n + choice)] == 0)
    fail(engine, t, "returned SM " + std::to_string(choice),
         "it has no room for the task (" + std::to_string(sms_[static_cast<std::size_t>(choice)]) +
             " task TBs resident; SMs with room have sms[n_sms + s] == 1)");
  return static_cast<SmId>(choice);
}

void UserPolicyScheme::dispatch(Engine& engine) {
  while (has_ready()) {
    const auto [t, order] = first_ready();
    const SmId sm = choose_sm(engine, t, order);
    if (sm < 0) return;  // no room, or the policy waits
    pop_ready();
    engine.issue(t, sm);
    sm_of_[static_cast<std::size_t>(t)] = sm;
    ++sms_[static_cast<std::size_t>(sm)];
    last_sm_ = sm;
    waiting_ = -1;
  }
}

std::string UserPolicyScheme::deadlock_cause(const Engine& engine) const {
  if (waiting_ < 0) return {};
  return who_ + " never issued task " + std::to_string(engine.graph().original_id(waiting_)) +
         ": its place returned wait (-2) with nothing running, so no later event could change "
         "its decision";
}

void UserPolicyScheme::fail(const Engine& engine, TaskId t, const std::string& what,
                            const std::string& detail) const {
  std::string message = who_ + " " + what + " for task " +
                        std::to_string(engine.graph().original_id(t)) + " at cycle " +
                        std::to_string(engine.now()) + (detail.empty() ? "" : ": " + detail);
  if (policy_->error)
    if (const char* why = policy_->error(policy_->user); why != nullptr && *why != '\0')
      message = who_ + " raised for task " + std::to_string(engine.graph().original_id(t)) +
                " at cycle " + std::to_string(engine.now()) + ": " + why;
  throw SimulationError(message);
}

void UserPolicyScheme::write_stats(const Engine& /*engine*/, std::span<double> out) const {
  out[0] = static_cast<double>(peak_);
  out[1] = static_cast<double>(waits_);
}

}  // namespace tbdse
