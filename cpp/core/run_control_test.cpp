// The run control: poll_run() stops a run when its cancel flag is set or its
// time limit passed, only inside a RunScope, within kPollEvery calls.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "core/run_control.hpp"

using namespace tbdse;

namespace {

// Calls poll_run() up to `calls` times; how many it made before a throw.
template <class E>
std::int64_t calls_until(std::int64_t calls) {
  for (std::int64_t i = 0; i < calls; ++i) {
    try {
      poll_run();
    } catch (const E&) {
      return i + 1;
    }
  }
  return -1;
}

}  // namespace

TEST_CASE("poll_run without a scope never stops anything") {
  CHECK(calls_until<std::exception>(3 * kPollEvery) == -1);
}

TEST_CASE("a set cancel flag stops the run within kPollEvery polls") {
  std::atomic<bool> cancel{false};
  const RunScope scope(RunControl{.cancel = &cancel});
  CHECK(calls_until<RunCancelled>(2 * kPollEvery) == -1);
  cancel = true;
  const std::int64_t n = calls_until<RunCancelled>(2 * kPollEvery);
  CHECK(n > 0);
  CHECK(n <= kPollEvery);
}

TEST_CASE("a run past its time limit throws RunTimedOut naming the limit") {
  // 0.5 s: the first polls must end before it even on a loaded machine (CI
  // runs these tests beside the Python suite).
  const RunScope scope(RunControl{.timeout_s = 0.5});
  CHECK(calls_until<RunTimedOut>(2 * kPollEvery) == -1);
  std::this_thread::sleep_for(std::chrono::milliseconds(550));
  try {
    for (std::int64_t i = 0; i <= kPollEvery; ++i) poll_run();
    FAIL("no RunTimedOut");
  } catch (const RunTimedOut& e) {
    CHECK(std::string(e.what()).find("timeout_s = 0.5 s") != std::string::npos);
  }
}

TEST_CASE("a scope restores the control it replaced; other threads are unaffected") {
  std::atomic<bool> outer{false}, inner{false};
  const RunScope a(RunControl{.cancel = &outer});
  {
    const RunScope b(RunControl{.cancel = &inner});
    outer = true;
    CHECK(calls_until<RunCancelled>(2 * kPollEvery) == -1);  // b's flag is current
  }
  CHECK(calls_until<RunCancelled>(2 * kPollEvery) > 0);  // a's again
  std::int64_t other = 0;
  std::thread([&] { other = calls_until<RunCancelled>(2 * kPollEvery); }).join();
  CHECK(other == -1);
}

TEST_CASE("an enormous time limit is no limit") {
  const RunScope scope(RunControl{.timeout_s = 1e300});
  CHECK(calls_until<RunTimedOut>(2 * kPollEvery) == -1);
}
