// HwwlMachine, second half: moving ids between banks (redistribution every
// interval, HWWL §III-C) and between banks and the overflow buffer in memory
// (virtualization, §III-D).
#include <algorithm>
#include <limits>

#include "core/errors.hpp"
#include "core/sector_cache.hpp"
#include "models/hwwl/hwwl_machine.hpp"

namespace tbdse::hwwl {

std::int32_t HwwlMachine::new_request(Request r) {
  if (free_requests_.empty()) {
    requests_.push_back(std::move(r));
    return static_cast<std::int32_t>(requests_.size() - 1);
  }
  const std::int32_t i = free_requests_.back();
  free_requests_.pop_back();
  requests_[i] = std::move(r);
  return i;
}

void HwwlMachine::tick() {
  std::int64_t held = 0;
  for (const auto& b : banks_) held += b.part[0].size() + b.part[1].size();
  occupancy_sum_ += static_cast<double>(held) / static_cast<double>(banks_.size());
  ++occupancy_samples_;
  last_tick_ = now_;
  if (scheme_ != Redistribution::NONE) redistribute();
  if (finite_ && !on_demand_)
    for (std::int32_t c = 0; c < shape_.cores; ++c) refill_interval(c);
  if (finite_ && on_demand_)  // spinning warps' pulls are what start refills
    for (std::int32_t c = 0; c < shape_.cores; ++c)
      if (!cores_[c].overflow[pull_].empty()) wake(c);
  post(now_ + p_.interval, INTERVAL, TICK);
}

void HwwlMachine::redistribute() {
  for (std::size_t b = 0; b < banks_.size(); ++b)
    loads_[b] = static_cast<std::int32_t>(
        std::min<std::int64_t>(banks_[b].part[pull_].size() + banks_[b].reserved, INT32_MAX));
  const auto cap = static_cast<std::int32_t>(std::min<std::int64_t>(capacity_, INT32_MAX));
  const auto moves = plan_redistribution(scheme_, shape_.cores, shape_.lanes, loads_,
                                         static_cast<std::int32_t>(p_.threshold), cap, rr_);
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
    move(new_request({m.from / shape_.lanes, -1, {}, {m.from, m.to}}));
  }
}

void HwwlMachine::move(std::int32_t r) {
  const std::int32_t from = requests_[r].banks[0], to = requests_[r].banks[1];
  Bank& a = banks_[from];
  Bank& b = banks_[to];
  const bool inter = from / shape_.lanes != to / shape_.lanes;
  if (a.part[pull_].empty() || (!inter && room(to) <= 0)) {  // nothing to move any more
    ++skipped_;
    free_requests_.push_back(r);
    return;
  }
  // Single-port banks: the move waits for cycles in which no pull or push uses
  // them, until the next interval (then it is dropped).
  const Cycle ready = std::max({now_, a.port_free, inter ? now_ : b.port_free});
  if (ready > now_) {
    if (ready < last_tick_ + p_.interval) {
      post(ready, INTERVAL, TRANSFER, r);
    } else {
      ++skipped_;
      free_requests_.push_back(r);
    }
    return;
  }
  const std::int32_t id = a.part[pull_].pop_back();
  use_port(a);
  if (!inter) {
    b.part[pull_].push_back(id);
    track(b);
    use_port(b);
    ++transfers_;
    free_requests_.push_back(r);
    return;
  }
  // Over the inter-core network: two hops through the hub (§III-C).
  --pull_ids_;
  ++in_flight_;
  ++inter_core_;
  requests_[r].ids = {id};
  post(now_ + 2, ARRIVAL, ARRIVE, r);
}

void HwwlMachine::arrive(std::int32_t r) {
  const std::int32_t id = requests_[r].ids[0];
  std::int32_t to = requests_[r].banks[1];
  const std::int32_t core = to / shape_.lanes;
  if (room(to) <= 0) {  // filled meanwhile: the core's least-loaded bank with room
    to = -1;
    for (std::int32_t l = 0; l < shape_.lanes; ++l) {
      const std::int32_t b = core * shape_.lanes + l;
      if (room(b) > 0 && (to < 0 || room(b) > room(to))) to = b;
    }
  }
  if (to >= 0 && banks_[to].port_free > now_) {  // wait for the port
    requests_[r].banks[1] = to;
    post(banks_[to].port_free, ARRIVAL, ARRIVE, r);
    return;
  }
  --in_flight_;
  if (to < 0) {  // every bank full: into the overflow buffer
    cores_[core].overflow[pull_].push_back(id);
    ++overflow_ids_[pull_];
  } else {
    banks_[to].part[pull_].push_back(id);
    track(banks_[to]);
    use_port(banks_[to]);
    ++pull_ids_;
  }
  free_requests_.push_back(r);
}

bool HwwlMachine::can_load(std::int32_t core, std::int64_t ids) const {
  const CoreState& cs = cores_[core];
  if (cs.overflow[pull_].empty() || cs.virt_loads >= p_.virt_load_limit) return false;
  const std::uint64_t first = OperatorMemory::overflow_slot(core, pull_, cs.loaded[pull_]);
  const std::uint64_t last = first + static_cast<std::uint64_t>(std::max<std::int64_t>(ids, 1)) * 4 - 1;
  const auto lines = static_cast<std::int64_t>((last >> kLineShift) - (first >> kLineShift) + 1);
  return lsu_[static_cast<std::size_t>(core)].free_at(now_) >= lines;
}

void HwwlMachine::refill_interval(std::int32_t core) {
  CoreState& cs = cores_[core];
  const IdQueue& spilled = cs.overflow[pull_];
  const std::int64_t want = std::min<std::int64_t>(kWarp, spilled.size());
  if (!can_load(core, want)) return;
  for (std::int32_t l = 0; l < shape_.lanes; ++l)
    if (room(core * shape_.lanes + l) < 1) return;  // only when every bank has a free entry
  // A warp's worth of ids into reserved entries, one per bank in turn.
  std::vector<std::int64_t>& left = left_;
  left.resize(static_cast<std::size_t>(shape_.lanes));
  for (std::int32_t l = 0; l < shape_.lanes; ++l) left[l] = room(core * shape_.lanes + l);
  std::vector<std::int32_t>& targets = targets_;
  targets.clear();
  for (std::int32_t i = 0; static_cast<std::int64_t>(targets.size()) < want; ++i) {
    const std::int32_t l = (cs.refill_rr + i) % shape_.lanes;
    if (left[l] > 0) {
      --left[l];
      targets.push_back(core * shape_.lanes + l);
    } else if (std::all_of(left.begin(), left.end(), [](std::int64_t x) { return x == 0; })) {
      break;
    }
  }
  cs.refill_rr = (cs.refill_rr + 1) % shape_.lanes;
  load(core, targets, -1);
}

bool HwwlMachine::refill_on_demand(std::int32_t w, const std::vector<std::int32_t>& empty_banks) {
  Warp& warp = warps_[w];
  CoreState& cs = cores_[warp.core];
  const std::int64_t want = std::min<std::int64_t>(kWarp, cs.overflow[pull_].size());
  if (!can_load(warp.core, want)) return false;
  // §III-D: a load on a pull to an empty bank refills that bank — up to a
  // warp's worth, shared in turn among the banks this warp found empty.
  std::vector<std::int32_t> order(empty_banks);
  std::sort(order.begin(), order.end());
  order.erase(std::unique(order.begin(), order.end()), order.end());
  std::vector<std::int64_t>& left = left_;
  left.resize(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) left[i] = room(order[i]);
  std::vector<std::int32_t>& targets = targets_;
  targets.clear();
  for (bool any = true; any && static_cast<std::int64_t>(targets.size()) < want;) {
    any = false;
    for (std::size_t i = 0; i < order.size() && static_cast<std::int64_t>(targets.size()) < want; ++i)
      if (left[i] > 0) {
        --left[i];
        targets.push_back(order[i]);
        any = true;
      }
  }
  if (targets.empty()) return false;
  load(warp.core, targets, w);
  warp.phase = Phase::REFILL_WAIT;
  return true;
}

void HwwlMachine::load(std::int32_t core, const std::vector<std::int32_t>& targets,
                       std::int32_t warp) {
  CoreState& cs = cores_[core];
  Request r{core, warp, {}, targets};
  for (const std::int32_t b : r.banks) {
    r.ids.push_back(cs.overflow[pull_].pop_front());
    ++banks_[b].reserved;  // occupied for redistribution and pushes until it arrives
    track(banks_[b]);
  }
  const auto n = static_cast<std::int64_t>(r.ids.size());
  overflow_ids_[pull_] -= n;
  in_flight_ += n;
  ++cs.virt_loads;
  ++virt_loads_;
  // The ids lie at consecutive words of the buffer: one coalesced load.
  const std::uint64_t at = OperatorMemory::overflow_slot(core, pull_, cs.loaded[pull_]);
  cs.loaded[pull_] += n;
  post(range_access(core, now_, at, n * 4, false), ARRIVAL, LOAD_DONE, new_request(std::move(r)));
}

void HwwlMachine::load_done(std::int32_t r) {
  Request& req = requests_[r];
  for (std::size_t i = 0; i < req.ids.size(); ++i) {
    Bank& bank = banks_[req.banks[i]];
    --bank.reserved;
    bank.part[pull_].push_back(req.ids[i]);
  }
  const auto n = static_cast<std::int64_t>(req.ids.size());
  in_flight_ -= n;
  pull_ids_ += n;
  --cores_[req.core].virt_loads;
  wake(req.core);
  const std::int32_t warp = req.warp;
  free_requests_.push_back(r);
  if (warp >= 0) {  // the stalled warp pulls again
    warps_[warp].phase = Phase::PULL_REQ;
    step(warp);
  }
}

void HwwlMachine::spill(std::int32_t core, const std::vector<std::int32_t>& ids, Cycle t) {
  CoreState& cs = cores_[core];
  const auto n = static_cast<std::int64_t>(ids.size());
  const std::int64_t held = cs.overflow[0].size() + cs.overflow[1].size() + cs.storing;
  if (p_.overflow_entries != kUnbounded && held + n > p_.overflow_entries)
    throw SimulationError(
        "the overflow buffer of core " + std::to_string(core) + " is full at cycle " +
        std::to_string(t) + ": its " + std::to_string(p_.overflow_entries) +
        " entries (overflow_entries) hold " + std::to_string(held) + " spilled work ids and " +
        std::to_string(n) + " more do not fit (HWWL §III-A: the push raises an exception); "
        "give it more entries or the banks more (bank_entries)");
  cs.storing += n;
  spilled_ += n;
  ++virt_stores_;
  // One coalesced store to the buffer's tail; it waits for load-store queue
  // entries behind the warps' own requests.
  const std::int32_t side = push_side();
  const std::uint64_t at = OperatorMemory::overflow_slot(core, side, cs.stored[side]);
  cs.stored[side] += n;
  const Cycle done = range_access(core, t, at, n * 4, true);
  post(std::max(done, now_), ARRIVAL, STORE_DONE, new_request({core, -1, ids, {}}));
}

void HwwlMachine::store_done(std::int32_t r) {
  Request& req = requests_[r];
  CoreState& cs = cores_[req.core];
  const std::int32_t side = push_side();  // the kernel that spilled them has not ended
  for (const std::int32_t id : req.ids) cs.overflow[side].push_back(id);
  const auto n = static_cast<std::int64_t>(req.ids.size());
  overflow_ids_[side] += n;
  cs.storing -= n;
  peak_overflow_ = std::max(peak_overflow_, cs.overflow[0].size() + cs.overflow[1].size());
  free_requests_.push_back(r);
  if (warps_done_ == shape_.warps()) end_of_kernel();
}

}  // namespace tbdse::hwwl
