// The worklist machine's memory instructions (warp_machine.hpp): grouped,
// issued to the memory hierarchy when they leave the core and their
// load-store queue entries are free, so every hierarchy call is made at the
// simulated cycle it happens (hwwl_audit.md 2026-11-29, "Proposed fix" 2).
#include <algorithm>
#include <utility>
#include <vector>

#include "models/hwwl/warp_machine.hpp"

namespace tbdse::hwwl {

namespace {

// A slot of `slab` for `value`: a freed one if any, else a new one.
template <class T>
std::int32_t take(std::vector<T>& slab, std::vector<std::int32_t>& freed, T value) {
  if (freed.empty()) {
    slab.push_back(std::move(value));
    return static_cast<std::int32_t>(slab.size() - 1);
  }
  const std::int32_t i = freed.back();
  freed.pop_back();
  slab[static_cast<std::size_t>(i)] = std::move(value);
  return i;
}

}  // namespace

std::int32_t WarpMachine::open_group(Priority priority, std::int32_t kind, std::int64_t payload) {
  return take(groups_, free_groups_, MemGroup{0, 0, true, priority, kind, payload});
}

void WarpMachine::close_group(std::int32_t group, Cycle floor) {
  MemGroup& g = groups_[static_cast<std::size_t>(group)];
  g.open = false;
  g.done = std::max(g.done, floor);
  finish(group, -1);
}

// One instruction of the group has issued (done: when it returns), or the
// group has closed (done < 0): the group's event once nothing is left.
void WarpMachine::finish(std::int32_t group, Cycle done) {
  MemGroup& g = groups_[static_cast<std::size_t>(group)];
  if (done >= 0) {
    g.done = std::max(g.done, done);
    --g.left;
  }
  if (g.open || g.left > 0) return;
  if (g.kind >= 0) post(g.done, static_cast<Priority>(g.priority), g.kind, g.payload);
  free_groups_.push_back(group);
}

void WarpMachine::warp_access(std::int32_t group, std::int32_t core, Cycle t,
                              const std::uint64_t* addresses, std::uint32_t active,
                              std::int64_t bytes, bool is_write) {
  submit(group, core, t, coalesce(addresses, active, bytes), is_write, Requester::OPERATOR);
}

namespace {

// The line requests of a byte range, in parts of at most 64 lines (one
// instruction each): `send(lines)` per part.
template <class Send>
void in_parts(std::uint64_t base, std::int64_t bytes, Send send) {
  CoalescedWarp lines;
  for_each_line(base, bytes, [&](std::uint64_t line, std::uint8_t sectors) {
    if (lines.count == static_cast<int>(lines.lines.size())) {
      send(lines);
      lines.count = 0;
    }
    lines.lines[static_cast<std::size_t>(lines.count++)] = {line, sectors};  // distinct lines
  });
  send(lines);
}

}  // namespace

void WarpMachine::range_access(std::int32_t group, std::int32_t core, Cycle t,
                               std::uint64_t base, std::int64_t bytes, bool is_write,
                               Requester who) {
  in_parts(base, bytes, [&](const CoalescedWarp& lines) {
    submit(group, core, t, lines, is_write, who);
  });
}

Cycle WarpMachine::refill_access(std::int32_t core, std::uint64_t base, std::int64_t bytes) {
  Cycle done = now_;
  in_parts(base, bytes, [&](const CoalescedWarp& lines) {
    done = std::max(done, issue(core, lines, false, Requester::REFILL, now_));
  });
  return done;
}

void WarpMachine::submit(std::int32_t group, std::int32_t core, Cycle t,
                         const CoalescedWarp& lines, bool is_write, Requester who) {
  ++groups_[static_cast<std::size_t>(group)].left;
  const auto c = static_cast<std::size_t>(core);
  // Left the core now, nothing waiting before it, entries free: at once.
  if (t <= now_ && lsu_fifo_[c].empty() && lsu_[c].free_at(now_) >= entries(lines, lsu_[c])) {
    finish(group, issue(core, lines, is_write, who, now_));
    return;
  }
  const std::int32_t r =
      take(waiting_, free_waiting_, MemRequest{group, core, std::max(t, now_), is_write, who, lines});
  if (t > now_) {
    post(t, WARP, kMemReady, r);
  } else {
    lsu_fifo_[c].push_back(r);
    pump(core);
  }
}

void WarpMachine::handle_memory(const Event& e) {
  if (e.kind == kMemReady) {  // the instruction left its core: in line for entries
    const auto r = static_cast<std::int32_t>(e.payload);
    const std::int32_t core = waiting_[static_cast<std::size_t>(r)].core;
    lsu_fifo_[static_cast<std::size_t>(core)].push_back(r);
    pump(core);
    return;
  }
  const auto core = static_cast<std::int32_t>(e.payload);
  Cycle& retry = lsu_retry_[static_cast<std::size_t>(core)];
  if (retry != e.time) return;  // superseded by an earlier retry
  retry = kNoRetry;
  pump(core);
}

void WarpMachine::pump(std::int32_t core) {
  const auto c = static_cast<std::size_t>(core);
  LsuQueue& lsu = lsu_[c];
  std::deque<std::int32_t>& fifo = lsu_fifo_[c];
  lsu.release(now_);
  while (!fifo.empty()) {
    const std::int32_t r = fifo.front();
    const MemRequest& m = waiting_[static_cast<std::size_t>(r)];
    if (lsu.free_at(now_) < entries(m.lines, lsu)) break;
    fifo.pop_front();
    finish(m.group, issue(core, m.lines, m.is_write, m.who, m.ready));
    free_waiting_.push_back(r);
  }
  if (fifo.empty()) return;
  // When the entries the first in line needs are free (virtualization loads
  // taking entries meanwhile may push it later: the retry tries again).
  const Cycle at =
      lsu.earliest(now_, entries(waiting_[static_cast<std::size_t>(fifo.front())].lines, lsu));
  Cycle& retry = lsu_retry_[c];
  if (retry == kNoRetry || at < retry) {
    retry = at;
    post(at, WARP, kLsuRetry, core);
  }
}

Cycle WarpMachine::issue(std::int32_t core, const CoalescedWarp& lines, bool is_write,
                         Requester who, Cycle ready) {
  LsuQueue& lsu = lsu_[static_cast<std::size_t>(core)];
  lsu.release(now_);
  memory_.advance(now_);  // no later call comes earlier: bookings behind now_ go
  const Cycle done = memory_.access_lines(core, now_, lines, is_write);
  const Cycle until = std::max(done, now_ + 1);
  lsu.book(lines.count, until);
  LsuUse& use = lsu_use_[static_cast<std::size_t>(who)];
  use.requests += lines.count;
  use.entry_cycles += entries(lines, lsu) * (until - now_);
  use.wait_cycles += static_cast<std::int64_t>(lines.count) * (now_ - ready);
  lines_ += lines.count;
  if (!is_write) {
    ++loads_;
    load_lines_ += lines.count;
  }
  return done;
}

}  // namespace tbdse::hwwl
