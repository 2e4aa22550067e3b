// HwwlMachine, third part: work redistribution between banks (HWWL §III-C).
// The planner (redistribution.cpp) decides which ids move in which cycle
// within the bandwidth of the hardware; this file carries the plan out on the
// banks' ports and the inter-core redistribution network (ICRN), and triggers
// it every interval or on demand.  docs/models/hwwl.md, "Redistribution
// bandwidth", gives the reading of the paper.
#include <algorithm>
#include <limits>

#include "models/hwwl/hwwl_machine.hpp"

namespace tbdse::hwwl {

namespace {

template <class T>
std::int32_t take_slot(std::vector<T>& pool, std::vector<std::int32_t>& free, T item) {
  if (free.empty()) {
    pool.push_back(item);
    return static_cast<std::int32_t>(pool.size() - 1);
  }
  const std::int32_t i = free.back();
  free.pop_back();
  pool[i] = item;
  return i;
}

}  // namespace

Cycle HwwlMachine::network_latency(const HwwlParams& params, const GpuConfig& gpu) {
  return params.network_latency == kAuto ? auto_network_latency(Shape::of(gpu).cores)
                                         : params.network_latency;
}

std::int32_t HwwlMachine::per_interval(std::int64_t transfers, std::int64_t interval) {
  return static_cast<std::int32_t>(
      std::min<std::int64_t>(transfers == kAuto ? interval : transfers, INT32_MAX));
}

void HwwlMachine::tick() {
  // Ids in the banks, both partitions (in-flight and reserved ones are not).
  const std::int64_t held = pull_ids_ + push_ids_;
  occupancy_sum_ += static_cast<double>(held) / static_cast<double>(banks_.size());
  ++occupancy_samples_;
  last_tick_ = now_;
  // Fewer than two ids in the pull partitions: no move can help (a donor must
  // hold two more than its receiver), so the plan is skipped.
  if (scheme_ != Redistribution::NONE && !on_demand_redist_ && pull_ids_ >= 2 && !ideal_)
    redistribute(-1);
  // On demand, a sleeping warp's WAIT rounds are pulls to an empty bank while
  // work exists, and each one asks its core's WRU (§III-C); the spin clock
  // says whether the core's sleepers made one in the interval just ended
  // (before: only awake warps' pulls asked, so a core whose warps all slept
  // on empty banks never planned again; audit H5).
  for (std::int32_t c = 0; c < shape_.cores; ++c) {
    advance_spin(c);
    if (on_demand_redist_ && !ideal_ && cores_[c].spin_pulls >= 1.0) redistribute_on_demand(c);
    cores_[c].spin_pulls = 0;
  }
  if (overflow_ids_[pull_] > 0) {
    if (finite_ && !on_demand_)
      for (std::int32_t c = 0; c < shape_.cores; ++c) refill_interval(c);
    if (finite_ && on_demand_)  // spinning warps' pulls are what start refills
      for (std::int32_t c = 0; c < shape_.cores; ++c)
        if (!cores_[c].overflow[pull_].empty()) wake(c);
  }
  post(now_ + p_.interval, INTERVAL, TICK);
}

// §III-C on-demand: a pull that found its bank empty, or a push that found it
// full, in `core`.  The core's WRU plans as one interval would and carries the
// plan out over the interval the plan covers; triggers within it are ignored,
// so on demand the WRU plans at most as often as every interval, only when
// asked (§III-C: on-demand is the more energy-efficient, less balanced one).
// gsorting's and magic's unit is one for the whole GPU.
void HwwlMachine::redistribute_on_demand(std::int32_t core) {
  if (scheme_ == Redistribution::NONE) return;
  const bool global = scheme_ == Redistribution::GSORTING || scheme_ == Redistribution::MAGIC;
  const std::int32_t unit = global ? 0 : core;
  if (wru_free_[unit] > now_) return;
  (void)redistribute(global ? -1 : core);
  wru_free_[unit] = now_ + p_.interval;
}

// Plans and starts the moves of one redistribution; returns the cycles the
// plan spans.  core -1: every core's WRU; otherwise only that core's.
Cycle HwwlMachine::redistribute(std::int32_t core) {
  for (std::size_t b = 0; b < banks_.size(); ++b)
    loads_[b] = static_cast<std::int32_t>(
        std::min<std::int64_t>(banks_[b].part[pull_].size() + banks_[b].reserved, INT32_MAX));
  // A bank's budget is its free port cycles left in the interval (a pull or
  // push already holding the port takes cycles from it), at most
  // transfers_per_bank -- under either trigger: one single-port bank, so
  // on-demand and interval moves meet the same ports (issue 29).
  const Cycle end = now_ + p_.interval;
  for (std::size_t b = 0; b < banks_.size(); ++b) {
    const Cycle free = end - std::max(now_, banks_[b].port_free);
    bank_budget_[b] = static_cast<std::int32_t>(std::clamp<Cycle>(free, 0, per_bank_));
  }
  for (std::int32_t c = 0; c < shape_.cores; ++c)
    core_budget_[c] = core < 0 || c == core ? per_core_ : 0;
  const auto cap = static_cast<std::int32_t>(std::min<std::int64_t>(capacity_, INT32_MAX));
  spilling_.resize(static_cast<std::size_t>(shape_.cores));
  for (std::int32_t c = 0; c < shape_.cores; ++c)
    spilling_[c] = !cores_[c].overflow[pull_].empty();
  const Bandwidth bw{static_cast<std::int32_t>(std::min<std::int64_t>(p_.interval, INT32_MAX)),
                     bank_budget_, core_budget_, spilling_};
  const auto moves = plan_redistribution(scheme_, shape_.cores, shape_.lanes, loads_,
                                         static_cast<std::int32_t>(p_.threshold), cap, bw, rr_);
  ++plans_;
  Cycle span = 0;
  for (const Move& m : moves) {
    if (scheme_ == Redistribution::MAGIC) {  // no ports, no latency, no bandwidth limit
      for (std::int32_t i = 0; i < m.count; ++i) {
        if (banks_[m.from].part[pull_].empty() || room(m.to) <= 0) break;
        banks_[m.to].part[pull_].push_back(banks_[m.from].part[pull_].pop_back());
        track(banks_[m.to]);
        ++(m.from / shape_.lanes == m.to / shape_.lanes ? transfers_ : inter_core_);
      }
      continue;
    }
    span = std::max<Cycle>(span, m.round + m.count);
    const std::int32_t t =
        take_slot(moving_, free_moving_, Transfer{m.from, m.to, m.count, true, end});
    if (m.round == 0) move(t);
    else post(now_ + m.round, INTERVAL, TRANSFER, t);
  }
  return span;
}

// One id of a planned move, then the next one a cycle later.  Under the
// interval trigger a move waits for cycles in which no pull or push uses the
// banks' ports; what the interval has no free cycle left for is dropped
// (skipped_transfers): §III-C "delaying or skipping redistribution".
void HwwlMachine::move(std::int32_t t) {
  Transfer& m = moving_[t];
  const std::int32_t src = m.from / shape_.lanes;
  const bool inter = src != m.to / shape_.lanes;
  Bank& a = banks_[m.from];
  const auto drop = [&](std::int64_t& why) {
    why += m.left;
    free_moving_.push_back(t);
  };
  if (a.part[pull_].empty() || (!inter && room(m.to) <= 0))
    return drop(skipped_empty_);  // nothing to move any more
  Cycle ready = now_;
  if (m.ports) ready = std::max({ready, a.port_free, inter ? now_ : banks_[m.to].port_free});
  if (inter) ready = std::max(ready, net_out_[src]);  // one injection per core per cycle
  if (ready > now_) {
    if (ready < m.until) post(ready, INTERVAL, TRANSFER, t);
    else drop(skipped_port_);  // no free port cycle left in the interval
    return;
  }
  const std::int32_t id = a.part[pull_].pop_back();  // the newest: the donor's FIFO order stays
  if (m.ports) use_port(a);
  if (!inter) {
    Bank& b = banks_[m.to];
    b.part[pull_].push_back(id);
    track(b);
    if (m.ports) use_port(b);
    ++transfers_;
  } else {
    --pull_ids_;
    ++in_flight_;
    ++inter_core_;
    net_out_[src] = now_ + 1;
    const std::int32_t f =
        take_slot(flights_, free_flights_, Flight{id, m.to / shape_.lanes, false});
    post(now_ + network_latency_, ARRIVAL, ARRIVE, f);
  }
  if (--m.left == 0) {
    free_moving_.push_back(t);
  } else if (now_ + 1 < m.until) {
    post(now_ + 1, INTERVAL, TRANSFER, t);
  } else {
    drop(skipped_port_);  // the interval's cycles ran out
  }
}

// An id reaching its core over the network: one per core per cycle through
// the input port, into the core's least-loaded bank (the most free entries),
// or, every bank full, into the core's overflow buffer.
void HwwlMachine::arrive(std::int32_t f) {
  Flight& fl = flights_[f];
  const std::int32_t core = fl.core;
  if (!fl.ejected) {
    if (net_in_[core] > now_) {
      post(net_in_[core], ARRIVAL, ARRIVE, f);
      return;
    }
    net_in_[core] = now_ + 1;
    fl.ejected = true;
  }
  std::int32_t to = -1;
  for (std::int32_t l = 0; l < shape_.lanes; ++l) {
    const std::int32_t b = core * shape_.lanes + l;
    if (room(b) > 0 && (to < 0 || room(b) > room(to))) to = b;
  }
  const bool ports = true;  // the receiving bank's single port, under either trigger
  if (to >= 0 && ports && banks_[to].port_free > now_) {  // wait for the port
    post(banks_[to].port_free, ARRIVAL, ARRIVE, f);
    return;
  }
  --in_flight_;
  if (to < 0) {
    cores_[core].overflow[pull_].push_back(fl.id);
    ++overflow_ids_[pull_];
  } else {
    banks_[to].part[pull_].push_back(fl.id);
    track(banks_[to]);
    if (ports) use_port(banks_[to]);
    ++pull_ids_;
  }
  free_flights_.push_back(f);
}

}  // namespace tbdse::hwwl
