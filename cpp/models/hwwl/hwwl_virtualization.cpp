// HwwlMachine, second half: moving ids between banks and the overflow buffer
// in memory (virtualization, §III-D).  Redistribution between banks (§III-C)
// is in hwwl_redistribute.cpp.
#include <algorithm>
#include <limits>

#include "core/errors.hpp"
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

void HwwlMachine::refill_interval(std::int32_t core) {
  CoreState& cs = cores_[core];
  const IdQueue& spilled = cs.overflow[pull_];
  if (spilled.empty() || cs.lsu_busy >= p_.lsu_queue) return;
  for (std::int32_t l = 0; l < shape_.lanes; ++l)
    if (room(core * shape_.lanes + l) < 1) return;  // only when every bank has a free entry
  // A warp's worth of ids into reserved entries, one per bank in turn.
  std::vector<std::int64_t> left(static_cast<std::size_t>(shape_.lanes));
  for (std::int32_t l = 0; l < shape_.lanes; ++l) left[l] = room(core * shape_.lanes + l);
  const std::int64_t want = std::min<std::int64_t>(kWarp, spilled.size());
  std::vector<std::int32_t> targets;
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
  load(core, std::move(targets), -1);
}

bool HwwlMachine::refill_on_demand(std::int32_t w, const std::vector<std::int32_t>& empty_banks) {
  Warp& warp = warps_[w];
  CoreState& cs = cores_[warp.core];
  if (cs.lsu_busy >= p_.lsu_queue || cs.overflow[pull_].empty()) return false;
  // Up to a warp's worth: the banks this warp found empty first, then the
  // core's others with room, least loaded first.
  const std::int64_t want = std::min<std::int64_t>(kWarp, cs.overflow[pull_].size());
  std::vector<std::int32_t> order(empty_banks);
  std::sort(order.begin(), order.end());
  order.erase(std::unique(order.begin(), order.end()), order.end());
  std::vector<std::int32_t> others;
  for (std::int32_t l = 0; l < shape_.lanes; ++l) {
    const std::int32_t b = warp.core * shape_.lanes + l;
    if (!std::binary_search(order.begin(), order.end(), b)) others.push_back(b);
  }
  std::stable_sort(others.begin(), others.end(),
                   [&](std::int32_t x, std::int32_t y) { return room(x) > room(y); });
  order.insert(order.end(), others.begin(), others.end());
  std::vector<std::int32_t> targets;
  for (const std::int32_t b : order)
    for (std::int64_t k = room(b); k > 0 && static_cast<std::int64_t>(targets.size()) < want; --k)
      targets.push_back(b);
  if (targets.empty()) return false;
  load(warp.core, std::move(targets), w);
  warp.phase = Phase::REFILL_WAIT;
  return true;
}

void HwwlMachine::load(std::int32_t core, std::vector<std::int32_t> targets, std::int32_t warp) {
  CoreState& cs = cores_[core];
  Request r{core, warp, {}, std::move(targets)};
  for (const std::int32_t b : r.banks) {
    r.ids.push_back(cs.overflow[pull_].pop_front());
    ++banks_[b].reserved;  // occupied for redistribution and pushes until it arrives
    track(banks_[b]);
  }
  const auto n = static_cast<std::int64_t>(r.ids.size());
  overflow_ids_[pull_] -= n;
  in_flight_ += n;
  ++cs.lsu_busy;
  ++virt_loads_;
  post(memory_.access(now_, 1), ARRIVAL, LOAD_DONE, new_request(std::move(r)));  // coalesced
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
  --cores_[req.core].lsu_busy;
  const std::int32_t warp = req.warp, core = req.core;
  free_requests_.push_back(r);
  release_lsu(core);
  if (warp >= 0) {  // the stalled warp pulls again
    warps_[warp].phase = Phase::PULL_REQ;
    step(warp);
  }
}

void HwwlMachine::spill(std::int32_t core, std::vector<std::int32_t> ids, Cycle t) {
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
  const std::int32_t r = new_request({core, -1, std::move(ids), {}});
  if (cs.lsu_busy < p_.lsu_queue) issue_store(r, t);
  else cs.waiting.push_back(r);
}

void HwwlMachine::issue_store(std::int32_t r, Cycle t) {
  ++cores_[requests_[r].core].lsu_busy;
  ++virt_stores_;
  post(memory_.access(std::max(t, now_), 1), ARRIVAL, STORE_DONE, r);  // one coalesced store
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
  --cs.lsu_busy;
  const std::int32_t core = req.core;
  free_requests_.push_back(r);
  release_lsu(core);
  if (warps_done_ == shape_.warps()) end_of_kernel();
}

void HwwlMachine::release_lsu(std::int32_t core) {
  CoreState& cs = cores_[core];
  while (!cs.waiting.empty() && cs.lsu_busy < p_.lsu_queue) {
    const std::int32_t r = cs.waiting.front();
    cs.waiting.erase(cs.waiting.begin());
    issue_store(r, now_);
  }
}

}  // namespace tbdse::hwwl
