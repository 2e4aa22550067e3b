#include "models/blockmaestro/host_queue.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/errors.hpp"

namespace tbdse::blockmaestro {

namespace {

using Kind = HostCommand::Kind;

bool contains(const std::vector<std::int32_t>& set, std::int32_t v) {
  return std::find(set.begin(), set.end(), v) != set.end();
}

}  // namespace

HostQueue::HostQueue(const Application& app, const Options& options)
    : app_(app),
      options_(options),
      launch_command_(static_cast<std::size_t>(app.launches()), -1),
      issued_(app.commands.size(), 0),
      started_(app.commands.size(), 0),
      done_(app.commands.size(), 0),
      done_time_(app.commands.size(), 0) {
  // Every command one after another must fit the simulated time (2^60 cycles).
  double total = 0;
  for (std::size_t c = 0; c < app.commands.size(); ++c) {
    const HostCommand& cmd = app.commands[c];
    if (cmd.kind == Kind::LAUNCH) launch_command_[cmd.launch] = static_cast<std::int32_t>(c);
    const bool copy = cmd.kind == Kind::MEMCPY_H2D || cmd.kind == Kind::MEMCPY_D2H;
    total += copy ? static_cast<double>(options_.copy_latency) +
                        static_cast<double>(cmd.bytes) / options_.copy_bytes_per_cycle
                  : static_cast<double>(duration(cmd));
    if (total > 0x1p60)
      throw ConfigError("command " + std::to_string(c) + " (" + command_kind_name(cmd.kind) + " of " +
                        std::to_string(cmd.bytes) + " bytes): the application's calls would take more than "
                        "2^60 cycles at this GPU's copy_gbps and clock; use fewer bytes or a faster copy");
  }
  build_order();
  build_waits();
}

// Whether the call `later` may move ahead of `earlier` (reordering): they
// touch no common buffer in a conflicting way.  Launches keep their order, and
// so do the calls that feed kernels (allocations, copies to the device).
bool HostQueue::may_pass(const HostCommand& later, const HostCommand& earlier) const {
  const auto uses = [&](const HostCommand& launch, std::int32_t b) {
    return contains(app_.launch_reads[launch.launch], b) || contains(app_.launch_writes[launch.launch], b);
  };
  const auto writes = [&](const HostCommand& launch, std::int32_t b) {
    return contains(app_.launch_writes[launch.launch], b);
  };
  const bool feeds = [](const HostCommand& c) {
    return c.kind == Kind::MALLOC || c.kind == Kind::MEMCPY_H2D;
  }(earlier);
  if (earlier.kind == Kind::SYNC) return true;  // dropped when reordering
  if (later.kind == Kind::LAUNCH) {
    if (earlier.kind == Kind::LAUNCH) return false;
    if (feeds) return !uses(later, earlier.buffer);
    return !writes(later, earlier.buffer);  // a copy to the host of what it would overwrite
  }
  // An allocation or a copy to the device moving ahead of a launch or a copy to the host.
  if (feeds) return false;
  if (earlier.kind == Kind::LAUNCH) return later.kind == Kind::MALLOC || !uses(earlier, later.buffer);
  return earlier.buffer != later.buffer;  // after a copy to the host of the same buffer: WAR
}

void HostQueue::build_order() {
  const auto n = static_cast<std::int32_t>(app_.commands.size());
  order_.resize(static_cast<std::size_t>(n));
  for (std::int32_t c = 0; c < n; ++c) order_[c] = c;
  if (!options_.reorder) return;
  // Fig. 5c: the calls that feed kernels move ahead of the launches and copies
  // to the host they do not depend on, then each launch ahead of what it does
  // not depend on — so no launch waits behind a call it does not need.  (In
  // Fig. 5 this keeps K1 ahead of cudaMalloc(B) and cudaMemcpy(B), where the
  // paper's Fig. 5c puts them first: the same timing with free allocations,
  // and K1 is launched earlier when an allocation takes time.)
  const auto bubble = [&](bool (*moves)(Kind)) {
    for (std::size_t i = 1; i < order_.size(); ++i) {
      if (!moves(app_.commands[order_[i]].kind)) continue;
      for (std::size_t pos = i; pos > 0; --pos) {
        if (!may_pass(app_.commands[order_[pos]], app_.commands[order_[pos - 1]])) break;
        std::swap(order_[pos - 1], order_[pos]);
      }
    }
  };
  bubble([](Kind k) { return k == Kind::MALLOC || k == Kind::MEMCPY_H2D; });
  bubble([](Kind k) { return k == Kind::LAUNCH; });
}

void HostQueue::build_waits() {
  const std::size_t nbuf = app_.buffers.size();
  wait_.assign(app_.commands.size(), Wait{});
  data_preds_.assign(static_cast<std::size_t>(app_.launches()), {});
  std::vector<std::int32_t> malloc_of(nbuf, -1), last_h2d(nbuf, -1), last_d2h(nbuf, -1);
  std::vector<std::int32_t> last_reader(nbuf, -1), last_writer(nbuf, -1);  // launches
  std::int32_t last_stream = -1;
  const auto add = [](Wait& w, std::int32_t c) {
    if (c >= 0) w.commands.push_back(c);
  };
  for (const std::int32_t c : order_) {
    const HostCommand& cmd = app_.commands[c];
    Wait& w = wait_[c];
    const std::int32_t b = cmd.buffer;
    if (cmd.kind == Kind::LAUNCH) {
      const std::int32_t i = cmd.launch;
      auto& preds = data_preds_[i];
      for (const auto* set : {&app_.launch_reads[i], &app_.launch_writes[i]})
        for (const std::int32_t u : *set) {
          if (malloc_of[u] >= 0) preds.push_back(malloc_of[u]);
          if (last_h2d[u] >= 0) preds.push_back(last_h2d[u]);
        }
      for (const std::int32_t u : app_.launch_writes[i])
        if (last_d2h[u] >= 0) preds.push_back(last_d2h[u]);
      w.kernel = static_cast<std::int32_t>(std::max<std::int64_t>(-1, i - 1 - options_.depth));
      // After the previous launch's API call: the calls go one at a time in
      // issue order (start_pending), so that needs no wait here.
      const bool after_launch = last_stream >= 0 && app_.commands[last_stream].kind == Kind::LAUNCH;
      if (options_.reorder) w.commands = preds;
      else if (!after_launch) add(w, last_stream);  // the copy before it done
      for (const std::int32_t u : app_.launch_reads[i]) last_reader[u] = i;
      for (const std::int32_t u : app_.launch_writes[i]) last_writer[u] = i;
    } else if (cmd.kind == Kind::MEMCPY_H2D || cmd.kind == Kind::MEMCPY_D2H) {
      const bool to_device = cmd.kind == Kind::MEMCPY_H2D;
      if (options_.reorder) {
        add(w, malloc_of[b]);
        add(w, last_h2d[b]);
        if (to_device) add(w, last_d2h[b]);
        w.kernel = to_device ? std::max(last_reader[b], last_writer[b]) : last_writer[b];
      } else if (last_stream >= 0) {
        const HostCommand& prev = app_.commands[last_stream];
        if (prev.kind == Kind::LAUNCH) w.kernel = prev.launch;  // the stream drains first
        else add(w, last_stream);
      }
      (to_device ? last_h2d : last_d2h)[b] = c;
    } else if (cmd.kind == Kind::SYNC && last_stream >= 0) {  // stream order only
      const HostCommand& prev = app_.commands[last_stream];
      if (prev.kind == Kind::LAUNCH) w.kernel = prev.launch;
      else add(w, last_stream);
    } else if (cmd.kind == Kind::MALLOC) {
      malloc_of[b] = c;
    }
    if (cmd.kind == Kind::LAUNCH || cmd.kind == Kind::MEMCPY_H2D || cmd.kind == Kind::MEMCPY_D2H)
      last_stream = c;
  }
}

bool HostQueue::blocks_host(const HostCommand& c) const {
  switch (c.kind) {
    case Kind::MALLOC:
    case Kind::MEMCPY_D2H: return true;
    case Kind::MEMCPY_H2D:
    case Kind::SYNC: return !options_.reorder;
    case Kind::LAUNCH: return false;
  }
  return false;
}

HostQueue::Engine HostQueue::engine_of(const HostCommand& c) const {
  switch (c.kind) {
    case Kind::MALLOC: return Engine::HOST;
    case Kind::MEMCPY_H2D:
    case Kind::MEMCPY_D2H: return Engine::COPY;
    case Kind::LAUNCH: return Engine::LAUNCH;
    case Kind::SYNC: return Engine::NONE;
  }
  return Engine::NONE;
}

Cycle HostQueue::duration(const HostCommand& c) const {
  switch (c.kind) {
    case Kind::MALLOC: return options_.malloc_cycles;
    case Kind::MEMCPY_H2D:
    case Kind::MEMCPY_D2H:
      return options_.copy_latency +
             static_cast<Cycle>(std::ceil(static_cast<double>(c.bytes) / options_.copy_bytes_per_cycle));
    case Kind::LAUNCH: return options_.launch_api + options_.launch_latency;
    case Kind::SYNC: return 0;
  }
  return 0;
}

bool HostQueue::can_start(std::int32_t c) const {
  const Wait& w = wait_[c];
  if (completed_ <= w.kernel) return false;
  return std::all_of(w.commands.begin(), w.commands.end(), [&](std::int32_t p) { return done_[p] != 0; });
}

void HostQueue::advance(Cycle now, std::vector<Started>& started) {
  // Issue and start in turns: a launch just issued may start its API call at
  // once, which keeps the host from issuing what follows it.
  for (bool progress = true; progress;) {
    progress = issue_next(now);
    progress = start_pending(now, started) || progress;
  }
}

// The host issues commands in order until one blocks it, an API call occupies
// it, or it has issued a launch whose call may start now; true if it issued any.
bool HostQueue::issue_next(Cycle now) {
  bool issued = false;
  while (host_blocked_on_ < 0 && in_call_ < 0 && next_ < order_.size()) {
    const std::int32_t c = order_[next_++];
    const HostCommand& cmd = app_.commands[c];
    issued = true;
    issued_[c] = 1;
    if (options_.reorder && cmd.kind == Kind::SYNC) {  // dropped
      started_[c] = done_[c] = 1;
      done_time_[c] = now;
      continue;
    }
    pending_.push_back(c);
    if (blocks_host(cmd)) {
      host_blocked_on_ = c;
      blocked_since_ = now;
    }
    if (cmd.kind == Kind::LAUNCH && can_start(c)) break;  // its call may start now
  }
  return issued;
}

// Starts the pending commands that may go now; true if a sync finished (the
// host may go on).  Engines take their commands in issue order: one that must
// wait holds back the later ones of the same engine.
bool HostQueue::start_pending(Cycle now, std::vector<Started>& started) {
  bool synced = false;
  bool copy_held = copy_busy_, launch_held = in_call_ >= 0;
  for (auto it = pending_.begin(); it != pending_.end();) {
    const std::int32_t c = *it;
    const HostCommand& cmd = app_.commands[c];
    const Engine e = engine_of(cmd);
    bool& held = e == Engine::COPY ? copy_held : launch_held;
    if ((e == Engine::COPY || e == Engine::LAUNCH) && held) {
      ++it;
      continue;
    }
    if (!can_start(c)) {
      if (e == Engine::COPY || e == Engine::LAUNCH) held = true;
      ++it;
      continue;
    }
    started_[c] = 1;
    it = pending_.erase(it);
    const Cycle done = now + duration(cmd);
    if (e == Engine::COPY) copy_busy_ = copy_held = true;
    if (e == Engine::LAUNCH) {
      // The API call occupies the host and the next call; the device-side
      // latency overlaps whatever follows.  launch_total_: the union of the
      // launches' spans (they start in order and last equally long).
      if (options_.launch_api > 0) {
        in_call_ = c;
        launch_held = true;
      }
      ++launching_;
      if (done > launch_covered_) launch_total_ += done - std::max(now, launch_covered_);
      launch_covered_ = std::max(launch_covered_, done);
      started.push_back({c, done, options_.launch_api > 0 ? now + options_.launch_api : done});
    } else if (e == Engine::NONE) {  // a sync whose stream has drained
      finished(c, now);
      synced = true;
    } else {
      started.push_back({c, done, done});
    }
  }
  return synced;
}

void HostQueue::finished(std::int32_t c, Cycle now) {
  const HostCommand& cmd = app_.commands[c];
  done_[c] = 1;
  done_time_[c] = now;
  last_done_ = std::max(last_done_, now);
  const Engine e = engine_of(cmd);
  if (e == Engine::COPY) {
    copy_busy_ = false;
    copy_cycles_ += duration(cmd);
  }
  if (e == Engine::LAUNCH) {
    if (in_call_ == c) in_call_ = -1;  // no device-side latency: the call ends now
    --launching_;
  }
  if (host_blocked_on_ == c) {
    blocked_cycles_ += now - blocked_since_;
    host_blocked_on_ = -1;
  }
}

void HostQueue::call_done(std::int32_t c, Cycle /*now*/) {
  if (in_call_ != c) throw SimulationError("internal: an API call ended that was not running");
  in_call_ = -1;
}

void HostQueue::kernel_completed(std::int32_t launch, Cycle now) {
  if (launch != completed_) throw SimulationError("internal: kernels must complete in order");
  ++completed_;
  last_done_ = std::max(last_done_, now);
}

Cycle HostQueue::data_ready(std::int32_t launch) const {
  Cycle t = 0;
  for (const std::int32_t p : data_preds_[launch]) t = std::max(t, done_time_[p]);
  return t;
}

bool HostQueue::idle() const {
  return next_ == order_.size() && pending_.empty() && host_blocked_on_ < 0 && !copy_busy_ &&
         in_call_ < 0 && launching_ == 0;
}

std::string HostQueue::explain_launch(std::int32_t launch) const {
  const std::int32_t c = launch_command_[launch];
  const auto name = [&](std::int32_t k) {
    const HostCommand& cmd = app_.commands[k];
    std::string s = "command ";  // appended piece by piece (GCC 12 -Wrestrict false positive)
    s += std::to_string(k);
    s += " (";
    s += command_kind_name(cmd.kind);
    if (cmd.buffer >= 0) s.append(" of '").append(app_.buffers[cmd.buffer]).append("'");
    if (cmd.kind == Kind::LAUNCH) s.append(" ").append(std::to_string(cmd.launch));
    return s + ")";
  };
  if (done_[c]) return "launched";
  if (in_call_ == c) return "in its launch API call";
  if (started_[c]) return "being launched (device side)";
  if (!issued_[c])
    return host_blocked_on_ >= 0 ? "not issued: the host waits for " + name(host_blocked_on_)
           : in_call_ >= 0       ? "not issued: the host is in the API call of " + name(in_call_)
                                 : "not issued yet";
  const Wait& w = wait_[c];
  if (completed_ <= w.kernel)
    return "waits for launch " + std::to_string(w.kernel) + " to complete (" +
           std::to_string(completed_) + " launches completed; prelaunch_depth " +
           std::to_string(options_.depth) + ")";
  for (const std::int32_t p : w.commands)
    if (!done_[p]) return "waits for " + name(p);
  return "waits for an earlier launch's API call";
}

}  // namespace tbdse::blockmaestro
