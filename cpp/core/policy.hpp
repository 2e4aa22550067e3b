// A user's TB scheduling policy (docs/policies.md): the decisions a TB
// scheduler makes, supplied from outside the simulator.  The interface is a
// plain C ABI so that any compiled function can be one: a Numba @cfunc, a
// ctypes/cffi function pointer, a C library.  Two decisions:
//
//   priority(task, parents, sms, params, user) -> double
//       called once, when the task becomes ready; the ready task with the
//       HIGHEST priority is issued first, ties in the order they became ready
//       (a constant priority is FIFO).  NaN is an error.
//   place(task, parents, sms, params, user) -> int64
//       called when the task is next to issue and some SM has room for it:
//       an SM with room (sms[n_sms + s] == 1), TBDSE_PLACE_ROUND_ROBIN (-1:
//       the engine's round robin), or TBDSE_PLACE_WAIT (-2: issue nothing
//       more until the next event, e.g. a throttle).  Anything else is an error.
//
// The read-only view, all int64 so that Numba reads it with carray:
//   task[TBDSE_TASK_*]         the task's input id, kernel, level, cost
//                              estimate (cycles), the current cycle, its
//                              parent count, the SM count, the parameter
//                              count and its ready order (0, 1, ...)
//   parents[2 i], [2 i + 1]    parent i's input id and the SM it ran on
//   sms[s]                     task TBs resident on SM s now
//   sms[n_sms + s]             place only: 1 if SM s has room for this task
//                              now (within max_tbs_per_sm), else 0
//   params[0 .. n_params)      the policy's parameters (sweepable)
//
// `error(user)`, when given, is asked after a callback returned NaN or an
// invalid SM: a non-null message says why (a Python callable that raised).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

extern "C" {

enum {
  TBDSE_TASK_ID = 0,
  TBDSE_TASK_KERNEL = 1,
  TBDSE_TASK_LEVEL = 2,
  TBDSE_TASK_COST = 3,
  TBDSE_TASK_NOW = 4,
  TBDSE_TASK_PARENTS = 5,
  TBDSE_TASK_SMS = 6,
  TBDSE_TASK_PARAMS = 7,
  TBDSE_TASK_READY_ORDER = 8,
  TBDSE_TASK_FIELDS = 9
};

enum { TBDSE_PLACE_ROUND_ROBIN = -1, TBDSE_PLACE_WAIT = -2 };

typedef double (*tbdse_priority_fn)(const std::int64_t* task, const std::int64_t* parents,
                                    const std::int64_t* sms, const double* params, void* user);
typedef std::int64_t (*tbdse_place_fn)(const std::int64_t* task, const std::int64_t* parents,
                                       const std::int64_t* sms, const double* params, void* user);
typedef const char* (*tbdse_error_fn)(void* user);

}  // extern "C"

namespace tbdse {

// One policy: at most one of `priorities` (static, by input task id) and
// `priority`; `place` optional.  Immutable once registered.
struct UserPolicy {
  std::string name;                // for messages: "policy 'critical_path'"
  std::vector<double> priorities;  // static priority per input task id; empty = none
  // Set by register_policy: each task's dense rank among the distinct static
  // priorities, 0 = the highest (computed once, shared by every run).
  std::vector<std::int32_t> priority_rank;
  std::int32_t priority_ranks = 0;  // distinct static priorities
  tbdse_priority_fn priority = nullptr;
  tbdse_place_fn place = nullptr;
  tbdse_error_fn error = nullptr;
  void* user = nullptr;
  std::shared_ptr<void> owner;  // keeps whatever `user` points to alive
};

using UserPolicyPtr = std::shared_ptr<const UserPolicy>;

// Policies are found by key (the scheme 'user_policy''s parameter 'policy'):
// the caller's stable identity of the policy (a hash of its code or array),
// below 2^53 so that it travels exactly as a parameter value.  Registering
// a key again replaces the policy (the same identity: the same decisions).
// Thread-safe.  ConfigError for a NaN static priority.
inline constexpr std::uint64_t kMaxPolicyKey = (std::uint64_t{1} << 53) - 1;
void register_policy(std::uint64_t key, std::shared_ptr<UserPolicy> policy);
// The policy under `key`; ConfigError when none is registered.
UserPolicyPtr find_policy(std::uint64_t key);

}  // namespace tbdse
