#include "run_control.hpp"

#include <cstdio>

namespace tbdse::detail {

constinit thread_local PollState poll_state{};

void poll_slow() {
  PollState& s = poll_state;
  s.countdown = kPollEvery;
  check_cancelled(s.cancel);
  if (s.timeout_s > 0 && std::chrono::steady_clock::now() >= s.deadline) {
    char limit[32];
    std::snprintf(limit, sizeof limit, "%g", s.timeout_s);
    s.timeout_s = 0;  // reported once: clean-up code that polls again runs on
    throw RunTimedOut(std::string("the run passed its time limit (timeout_s = ") + limit +
                      " s) and was stopped");
  }
}

}  // namespace tbdse::detail

namespace tbdse {

RunScope::RunScope(const RunControl& control) : saved_(detail::poll_state) {
  detail::PollState& s = detail::poll_state;
  s.countdown = kPollEvery;
  s.cancel = control.cancel;
  s.timeout_s = control.timeout_s;
  // Beyond ~30 years the limit is none (and the clock arithmetic would overflow).
  s.deadline = control.timeout_s > 0 && control.timeout_s < 1e9
                   ? std::chrono::steady_clock::now() +
                         std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                             std::chrono::duration<double>(control.timeout_s))
                   : std::chrono::steady_clock::time_point::max();
}

RunScope::~RunScope() { detail::poll_state = saved_; }

}  // namespace tbdse
