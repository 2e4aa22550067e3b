// Stopping a run from outside: Ctrl-C (a cancel flag the caller sets from
// another thread) and a per-run time limit.  The caller makes a RunControl
// current for the thread that simulates (RunScope; one run executes on one
// thread), and every simulator calls poll_run() in its main loop.  poll_run()
// only counts down; every kPollEvery calls it reads the flag and the clock, so
// the loops pay one decrement per step and a run stops within milliseconds.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

#include "errors.hpp"

namespace tbdse {

// Thrown by poll_run() when the caller cancelled the run (Ctrl-C): not a
// result; whoever set the flag discards the runs it cut short.
class RunCancelled : public std::exception {
 public:
  const char* what() const noexcept override { return "the run was cancelled"; }
};

// Thrown by poll_run() when a run passes its time limit (status timed_out).
class RunTimedOut : public SimulationError {
 public:
  using SimulationError::SimulationError;
};

struct RunControl {
  const std::atomic<bool>* cancel = nullptr;  // set (by another thread) to stop
  double timeout_s = 0;                       // per run; 0 = no limit
};

namespace detail {
struct PollState {
  std::int32_t countdown = 0;
  const std::atomic<bool>* cancel = nullptr;
  double timeout_s = 0;
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
};
extern constinit thread_local PollState poll_state;
void poll_slow();
}  // namespace detail

// Calls between two looks at the flag and the clock (a few microseconds of
// simulation at the slowest loop).
inline constexpr std::int32_t kPollEvery = 4096;

// Throws RunCancelled or RunTimedOut when the current run must stop.
inline void poll_run() {
  if (--detail::poll_state.countdown <= 0) [[unlikely]] detail::poll_slow();
}

// Makes `control` current for this thread (its deadline starts now) until the
// scope ends; the previous one is restored (a nested run on a TBB worker).
class RunScope {
 public:
  explicit RunScope(const RunControl& control);
  ~RunScope();
  RunScope(const RunScope&) = delete;
  RunScope& operator=(const RunScope&) = delete;

 private:
  detail::PollState saved_;
};

// Throws RunCancelled when `cancel` is set (for loops outside a RunScope).
inline void check_cancelled(const std::atomic<bool>* cancel) {
  if (cancel && cancel->load(std::memory_order_relaxed)) throw RunCancelled();
}

}  // namespace tbdse
