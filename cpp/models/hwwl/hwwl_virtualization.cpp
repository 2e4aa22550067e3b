// HwwlMachine, second half: moving ids between banks and the overflow buffer
// in memory (virtualization, §III-D).  Redistribution between banks (§III-C)
// is in hwwl_redistribute.cpp.
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

std::int64_t HwwlMachine::refill_lines(std::int32_t core, std::int64_t ids) const {
  const CoreState& cs = cores_[core];
  const std::uint64_t first = OperatorMemory::overflow_slot(core, pull_, cs.loaded[pull_]);
  const std::uint64_t last = first + static_cast<std::uint64_t>(std::max<std::int64_t>(ids, 1)) * 4 - 1;
  return static_cast<std::int64_t>((last >> kLineShift) - (first >> kLineShift) + 1);
}

bool HwwlMachine::can_load(std::int32_t core, std::int64_t ids) const {
  const CoreState& cs = cores_[core];
  // §III-D, on demand: "multiple virtualization loads can be issued up to a
  // limit as long as there is space in the load-store unit".
  if (cs.overflow[pull_].empty() || cs.virt_loads >= p_.virt_load_limit) return false;
  return lsu_free(core) >= refill_lines(core, ids);
}

void HwwlMachine::refill_interval(std::int32_t core) {
  CoreState& cs = cores_[core];
  const IdQueue& spilled = cs.overflow[pull_];
  const std::int64_t want = std::min<std::int64_t>(kWarp, spilled.size());
  // One load per interval when every bank has a free entry and the
  // load-store queue has entries free now (§III-D: "as many virtualization
  // requests can be injected as there are free entries").
  if (spilled.empty() ||
      lsu_free(core) < refill_lines(core, want))
    return;
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
  post(refill_access(core, at, n * 4), ARRIVAL, LOAD_DONE, new_request(std::move(r)));
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
  const std::int32_t group = open_group(ARRIVAL, STORE_DONE, new_request({core, -1, ids, {}}));
  range_access(group, core, t, at, n * 4, true, Requester::SPILL);
  close_group(group, now_);
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
  if (warps_done_ == launched_) end_of_kernel();
}

}  // namespace tbdse::hwwl
