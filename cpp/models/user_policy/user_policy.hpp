// user_policy (docs/policies.md): dataflow_ideal's launch and readiness (one
// kernel launch, a task ready the moment its last parent finishes, unlimited
// scheduler buffers) with the issue order and SM choice decided by a user's
// policy (core/policy.hpp): a static priority per task or a priority
// callback (highest first, ties in ready order), an optional placement
// callback, and an optional cap on task TBs per SM.  With a constant
// priority and no placement it issues exactly as dataflow_ideal 'fifo'.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <queue>
#include <string>
#include <vector>

#include "core/engine.hpp"
#include "core/id_set.hpp"
#include "core/params.hpp"
#include "core/policy.hpp"
#include "core/scheme.hpp"

namespace tbdse {

struct UserPolicyParams {
  // Key of the registered policy (core/policy.hpp; set by tbdse.Policy).
  std::int64_t policy = 0;
  // Task TBs an SM may hold at once (throttling); 0 = as many as fit.
  std::int64_t max_tbs_per_sm = 0;
  // The policy's own parameters, params[0..3] in its callbacks.
  double p0 = 0, p1 = 0, p2 = 0, p3 = 0;

  static const ParamTable<UserPolicyParams>& params();
};

class UserPolicyScheme : public Scheme {
 public:
  UserPolicyScheme(const UserPolicyParams& params, const Workload& workload, const GpuConfig& gpu);

  void start(Engine& engine) override;
  void on_task_finished(Engine& engine, TaskId t) override;
  void on_event(Engine& engine, const Event& event) override;
  void dispatch(Engine& engine) override;
  std::string deadlock_cause(const Engine& engine) const override;
  void write_stats(const Engine& engine, std::span<double> out) const override;
  double storage_bytes() const override { return std::numeric_limits<double>::infinity(); }

  static std::vector<StatInfo> stats();

 private:
  static constexpr std::int32_t kLaunched = 1;
  struct Ready {
    double priority;
    std::int64_t order;  // ready order: the tie-break
    TaskId task;
    bool operator<(const Ready& o) const {  // std::priority_queue pops the largest
      return priority != o.priority ? priority < o.priority : order > o.order;
    }
  };

  void make_ready(Engine& engine, TaskId t);
  bool has_ready() const;
  std::pair<TaskId, std::int64_t> first_ready() const;
  void pop_ready();
  // Fills task_ / parents_ for node t (sms_ is kept current).
  void fill_view(const Engine& engine, TaskId t, std::int64_t order);
  bool has_room(const Engine& engine, SmId sm, TaskId t) const;
  SmId round_robin(const Engine& engine, TaskId t) const;
  // The SM for t (-1: none has room; -2: the policy says wait).
  SmId choose_sm(Engine& engine, TaskId t, std::int64_t order);
  [[noreturn]] void fail(const Engine& engine, TaskId t, const std::string& what,
                         const std::string& detail = {}) const;

  UserPolicyPtr policy_;
  std::string who_;  // "policy 'name'"
  Cycle host_launch_;
  std::int64_t max_per_sm_;
  std::vector<double> params_;
  std::vector<std::int32_t> open_parents_;
  // parents by node (CSR, built at start) and the SM each task ran on
  std::vector<std::int64_t> parent_start_;
  std::vector<TaskId> parents_of_;
  std::vector<SmId> sm_of_;
  // the view handed to callbacks
  std::vector<std::int64_t> task_, parents_, sms_;
  // Ready tasks: a FIFO when every priority is equal by construction; static
  // priorities: a FIFO list per priority rank and a bitset of the ranks that
  // have one (first = the highest); a priority callback: a heap.
  enum class Order { FIFO, STATIC, HEAP } mode_;
  std::vector<std::pair<TaskId, std::int64_t>> fifo_;
  std::size_t head_ = 0;
  std::optional<IdSet> ranks_;
  std::vector<TaskId> rank_head_, rank_tail_, next_;
  std::vector<std::int64_t> order_of_;  // STATIC with a place callback: each task's ready order
  // HEAP: the ready tasks of the highest priority seen since it was last
  // empty, in ready order (`best_`, from best_head_), and the rest in a heap
  // whose priorities are all below theirs.  A constant priority (FIFO) then
  // never touches the heap.
  std::vector<Ready> best_;
  std::size_t best_head_ = 0;
  std::priority_queue<Ready> heap_;
  void push_ranked(const Ready& r);
  bool best_empty() const { return best_head_ == best_.size(); }
  std::size_t waiting_count_ = 0;  // ready, not issued (STATIC)
  std::int64_t ready_count_ = 0;
  std::size_t peak_ = 0;
  SmId last_sm_ = -1;  // the engine's round robin resumes after the last issue
  TaskId waiting_ = -1;  // the task the policy last told to wait (deadlock reports)
  std::int64_t waits_ = 0;
};

}  // namespace tbdse
