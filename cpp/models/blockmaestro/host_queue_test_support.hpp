// The tiny event loop that drives a HostQueue in its tests (host_queue_test,
// host_queue_launch_test): an Application built call by call, kernels of
// given lengths, and the trace of when each command started and finished.
// Test code only.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "core/application.hpp"
#include "models/blockmaestro/host_queue.hpp"

namespace tbdse::blockmaestro::test_support {

using Kind = HostCommand::Kind;

// Builds an Application call by call (launch i = the i-th launch call).
struct Builder {
  Application app;
  std::int32_t buffer(const std::string& name) {
    app.buffers.push_back(name);
    return static_cast<std::int32_t>(app.buffers.size()) - 1;
  }
  void malloc(std::int32_t b) { app.commands.push_back({Kind::MALLOC, b, 0, -1}); }
  void h2d(std::int32_t b, std::int64_t bytes) { app.commands.push_back({Kind::MEMCPY_H2D, b, bytes, -1}); }
  void d2h(std::int32_t b, std::int64_t bytes) { app.commands.push_back({Kind::MEMCPY_D2H, b, bytes, -1}); }
  void sync() { app.commands.push_back({Kind::SYNC, -1, 0, -1}); }
  void launch(std::vector<std::int32_t> reads, std::vector<std::int32_t> writes) {
    app.commands.push_back({Kind::LAUNCH, -1, 0, app.launches()});
    app.launch_reads.push_back(std::move(reads));
    app.launch_writes.push_back(std::move(writes));
    app.launch_waits_for.push_back(-1);
  }
  Application build() const {
    app.validate();
    return app;
  }
};

// A kernel once resident: `cycles` of work, begun when it is launched or,
// when `after_previous` (its TBs depend on the previous kernel's), once the
// previous kernel completed.  Kernels complete in order.
struct Kernel {
  Cycle cycles = 0;
  bool after_previous = false;
};

inline constexpr Cycle kNever = -1;

struct Trace {
  std::vector<Cycle> start, done;          // per command; syncs finish inside advance(): kNever
  std::vector<Cycle> call_done;            // per command: a launch's API call ended before done
  std::vector<Cycle> launched, completed;  // per launch
  std::vector<Cycle> data_ready;           // per launch, read when launched
  Cycle blocked = 0, copy = 0, launch_total = 0, last_done = 0;
  bool idle = false;
  std::int32_t completed_launches = 0;
  int max_resident = 0;  // kernels launched and not yet complete, at most at once
};

// The event loop: advance(now) -> commands started; the next event is the
// earliest API call end, done_at or scheduled kernel completion; at that time
// first the API call due ends, then every command due is finished (command id
// order), then every kernel due completes (in order), then advance() again.
inline Trace drive(const Application& app, const HostQueue::Options& options, const std::vector<Kernel>& kernels) {
  REQUIRE(kernels.size() == static_cast<std::size_t>(app.launches()));
  HostQueue q(app, options);
  const std::size_t nc = app.commands.size(), nl = kernels.size();
  Trace t;
  t.start.assign(nc, kNever);
  t.done.assign(nc, kNever);
  t.call_done.assign(nc, kNever);
  t.launched.assign(nl, kNever);
  t.completed.assign(nl, kNever);
  t.data_ready.assign(nl, kNever);
  std::vector<Cycle> finish_at(nl, kNever);  // scheduled kernel completions
  std::vector<HostQueue::Started> running, started, calls;
  std::size_t completed = 0;
  Cycle now = 0;
  for (int step = 0; step < 10000; ++step) {
    started.clear();
    q.advance(now, started);
    for (const HostQueue::Started& s : started) {
      CHECK(t.start[static_cast<std::size_t>(s.command)] == kNever);  // started once
      CHECK(s.done_at >= now);
      t.start[static_cast<std::size_t>(s.command)] = now;
      running.push_back(s);
      if (s.call_done_at < s.done_at) {
        CHECK(s.call_done_at > now);
        calls.push_back(s);
      }
    }
    Cycle next = std::numeric_limits<Cycle>::max();
    for (const HostQueue::Started& r : running) next = std::min(next, r.done_at);
    for (const HostQueue::Started& c : calls) next = std::min(next, c.call_done_at);
    if (completed < nl && finish_at[completed] != kNever) next = std::min(next, finish_at[completed]);
    if (next == std::numeric_limits<Cycle>::max()) break;
    now = next;
    for (auto it = calls.begin(); it != calls.end();) {
      if (it->call_done_at != now) {
        ++it;
        continue;
      }
      q.call_done(it->command, now);
      t.call_done[static_cast<std::size_t>(it->command)] = now;
      it = calls.erase(it);
    }
    std::sort(running.begin(), running.end(), [](const HostQueue::Started& a, const HostQueue::Started& b) {
      return a.done_at != b.done_at ? a.done_at < b.done_at : a.command < b.command;
    });
    while (!running.empty() && running.front().done_at == now) {
      const std::int32_t c = running.front().command;
      running.erase(running.begin());
      q.finished(c, now);
      t.done[static_cast<std::size_t>(c)] = now;
      const HostCommand& cmd = app.commands[static_cast<std::size_t>(c)];
      if (cmd.kind != Kind::LAUNCH) continue;
      const auto l = static_cast<std::size_t>(cmd.launch);
      CHECK(q.launch_command(cmd.launch) == c);
      t.launched[l] = now;
      t.data_ready[l] = q.data_ready(cmd.launch);
      const Cycle prev = l > 0 ? finish_at[l - 1] : 0;
      REQUIRE(prev != kNever);  // launches are launched in order
      const Cycle begin = kernels[l].after_previous ? std::max(now, prev) : now;
      finish_at[l] = std::max(begin + kernels[l].cycles, prev);
    }
    while (completed < nl && finish_at[completed] != kNever && finish_at[completed] <= now) {
      q.kernel_completed(static_cast<std::int32_t>(completed), now);
      t.completed[completed++] = now;
    }
  }
  t.blocked = q.host_blocked_cycles();
  t.copy = q.copy_cycles();
  t.launch_total = q.launch_cycles_total();
  t.last_done = q.last_done();
  t.idle = q.idle();
  t.completed_launches = q.completed_launches();
  for (std::size_t i = 0; i < nl; ++i) {
    int resident = 0;
    for (std::size_t j = 0; j < nl; ++j)
      resident += t.launched[j] != kNever && t.launched[j] <= t.launched[i] && t.launched[i] < t.completed[j];
    t.max_resident = std::max(t.max_resident, resident);
  }
  return t;
}

using V = std::vector<Cycle>;

}  // namespace tbdse::blockmaestro::test_support
