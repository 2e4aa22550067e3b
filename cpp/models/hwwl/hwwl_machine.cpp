#include "models/hwwl/hwwl_machine.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "core/errors.hpp"

namespace tbdse::hwwl {

namespace {

constexpr std::uint32_t kAllThreads = 0xFFFFFFFFu;
constexpr std::int64_t kUnlimited = std::numeric_limits<std::int64_t>::max() / 4;

}  // namespace

Cycle HwwlMachine::relaunch_cycles(const HwwlParams& params, const GpuConfig& gpu) {
  return params.relaunch_cycles == kAuto ? gpu.us_to_cycles(gpu.host_launch_us)
                                         : params.relaunch_cycles;
}

HwwlMachine::HwwlMachine(const HwwlParams& params, const WorklistProblem& problem,
                         const GpuConfig& gpu, const ResolvedRun& run, bool record)
    : WarpMachine(problem, gpu, run, record, params.sample_every, params.lsu_queue),
      p_(params),
      scheme_(redistribution_from(params.redistribution)),
      double_(params.buffering == "double"),
      on_demand_(params.refill == "on_demand"),
      finite_(params.bank_entries != kUnbounded && params.worklist == "banks"),
      capacity_(!finite_ ? kUnlimited : double_ ? params.bank_entries / 2 : params.bank_entries),
      relaunch_(relaunch_cycles(params, gpu)),
      banks_(static_cast<std::size_t>(shape_.cores * shape_.lanes)),
      cores_(static_cast<std::size_t>(shape_.cores)),
      ideal_(params.worklist == "banks"
                 ? std::nullopt
                 : std::optional<IdealWorklist>(std::in_place, params.worklist == "ideal_sorted")),
      spinning_(static_cast<std::size_t>(shape_.cores)),
      on_demand_redist_(params.redistribution_trigger == "on_demand"),
      network_latency_(network_latency(params, gpu)),
      per_bank_(per_interval(params.transfers_per_bank, params.interval)),
      per_core_(per_interval(params.transfers_per_core, params.interval)),
      net_out_(static_cast<std::size_t>(shape_.cores), 0),
      net_in_(static_cast<std::size_t>(shape_.cores), 0),
      wru_free_(static_cast<std::size_t>(shape_.cores), 0),
      bank_budget_(banks_.size()),
      core_budget_(static_cast<std::size_t>(shape_.cores)) {
  check_redistribution(params);
  warps_.resize(static_cast<std::size_t>(shape_.warps()));
  for (std::int32_t w = 0; w < shape_.warps(); ++w) {
    warps_[w].core = w / shape_.warps_per_core;
    warps_[w].slot = w % shape_.warps_per_core;
    warps_[w].item.fill(-1);
  }
  loads_.resize(banks_.size());
  bank_pushes_.assign(banks_.size(), 0);
}

std::int64_t HwwlMachine::room(std::int32_t b) const {
  const Bank& bank = banks_[b];
  return capacity_ - bank.part[pull_].size() - bank.reserved;
}

bool HwwlMachine::work_exists() const {
  const std::int64_t pull_work = pull_ids_ + overflow_ids_[pull_] + in_flight_;
  if (double_) return pull_work > 0;
  std::int64_t storing = 0;
  for (const auto& c : cores_) storing += c.storing;
  return pull_work > 0 || storing > 0 || holding() > 0;
}

void HwwlMachine::start() {
  // The initialisation kernel (Fig. 1b, init_wl) is an ordinary kernel: one
  // thread per initial item, warps dealt to the cores in turn, each thread
  // pushing its item to its own lane's bank (so a warp's 32 consecutive
  // items land two per bank of one core, and come out together again).
  // What does not fit goes to the overflow buffer.
  std::int64_t next = 0;
  for (const std::int32_t id : problem_.initial_items()) {
    const std::int64_t i = next++;
    if (ideal_) {
      ideal_->push(pull_, id);
      ++pull_ids_;
      continue;
    }
    const auto core = static_cast<std::int32_t>((i / kWarp) % shape_.cores);
    const std::int32_t b = core * shape_.lanes + static_cast<std::int32_t>(i % kWarp) % shape_.lanes;
    if (room(b) > 0) {
      banks_[b].part[pull_].push_back(id);
      track(banks_[b]);
      ++pull_ids_;
    } else {
      CoreState& cs = cores_[b / shape_.lanes];
      const std::int64_t held = cs.overflow[pull_].size();
      if (p_.overflow_entries != kUnbounded && held >= p_.overflow_entries)
        throw SimulationError("the " + std::to_string(problem_.initial_items().size()) +
                              " initial work ids fit neither the banks nor the overflow buffers "
                              "(overflow_entries = " + std::to_string(p_.overflow_entries) +
                              " per core); give them more entries");
      cs.overflow[pull_].push_back(id);
      ++overflow_ids_[pull_];
      peak_overflow_ = std::max(peak_overflow_, held + 1);
    }
  }
  supersteps_ = 1;
  launch();
  post(0, INTERVAL, TICK);
}

void HwwlMachine::handle(const Event& e) {
  const auto payload = static_cast<std::int32_t>(e.payload);
  switch (e.kind) {
    case WARP_STEP: step(payload); break;
    case TICK: tick(); break;
    case TRANSFER: move(payload); break;
    case ARRIVE: arrive(payload); break;
    case LOAD_DONE: load_done(payload); break;
    case STORE_DONE: store_done(payload); break;
    case RELAUNCH: relaunch(); break;
    default: throw SimulationError("internal: unknown worklist machine event");
  }
  if (asleep_ > 0 && !work_exists()) wake_all();  // they pull DONE
}

void HwwlMachine::spin(std::int32_t w) {
  Warp& warp = warps_[w];
  advance_spin(warp.core);  // the sleepers so far made their rounds at the old rate
  auto& asleep = spinning_[static_cast<std::size_t>(warp.core)];
  const Cycle turn = p_.wait_spin + 1;
  warp.spin_mark = cores_[warp.core].spin_clock;
  warp.phase = Phase::SPIN;
  asleep.push_back(w);
  ++asleep_;
  issue_[warp.core].set_background(static_cast<std::int64_t>(asleep.size()) * turn);
}

double HwwlMachine::spin_rate(std::int64_t n) const {
  // One round of the WAIT loop is wait_spin instructions and a pull (turn
  // issue slots); alone a warp makes one per turn + 1 cycles, and n sleepers
  // share the core's issue_width slots per cycle in turn.
  const auto turn = static_cast<double>(p_.wait_spin + 1);
  return std::min(1.0 / (turn + 1.0), shape_.issue_width / (static_cast<double>(n) * turn));
}

void HwwlMachine::advance_spin(std::int32_t core) {
  // The sleepers get the issue slots the awake warps did not reserve since
  // the last advance (slots reserved ahead of time are a debt carried on),
  // so WAIT loops and work together never issue more than the core can
  // (audit H2: a period fixed when a warp fell asleep charged up to 3x that).
  CoreState& cs = cores_[core];
  const auto n = static_cast<std::int64_t>(spinning_[static_cast<std::size_t>(core)].size());
  const std::int64_t reserved = issue_[core].reserved();
  const Cycle dt = now_ - cs.spin_at;
  const std::int64_t want = cs.spin_debt + (reserved - cs.spin_seen);
  const std::int64_t capacity = static_cast<std::int64_t>(shape_.issue_width) * dt;
  const std::int64_t free = std::max<std::int64_t>(0, capacity - want);
  cs.spin_debt = std::max<std::int64_t>(0, want - capacity);
  if (n > 0 && dt > 0) {
    const auto turn = static_cast<double>(p_.wait_spin + 1);
    const double rounds = std::min(static_cast<double>(dt) * spin_rate(1),
                                   static_cast<double>(free) / (static_cast<double>(n) * turn));
    cs.spin_clock += rounds;
    cs.spin_pulls += rounds * static_cast<double>(n);
  }
  cs.spin_at = now_;
  cs.spin_seen = reserved;
}

void HwwlMachine::wake(std::int32_t core) {
  auto& asleep = spinning_[static_cast<std::size_t>(core)];
  if (asleep.empty()) return;
  advance_spin(core);
  const double clock = cores_[core].spin_clock;
  const double rate = spin_rate(static_cast<std::int64_t>(asleep.size()));
  for (const std::int32_t w : asleep) {
    Warp& warp = warps_[w];
    // Rounds made by the next pull: the one under way when it fell asleep,
    // and every one begun since; it pulls again at the end of the last.
    const double made = clock - warp.spin_mark;
    const auto rounds = std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(made - 1e-9)));
    const std::int64_t threads = std::popcount(warp.live);
    wait_instructions_ += rounds * p_.wait_spin * threads;
    dynamic_instructions_ += (rounds * p_.wait_spin + (rounds - 1)) * threads;
    pulls_ += (rounds - 1) * threads;  // the skipped rounds' pulls, all WAIT
    wait_pulls_ += (rounds - 1) * threads;
    warp.phase = Phase::PULL_REQ;
    const auto left = static_cast<Cycle>((static_cast<double>(rounds) - made) / rate);
    post(now_ + left, WARP, WARP_STEP, w);
  }
  asleep_ -= static_cast<std::int64_t>(asleep.size());
  asleep.clear();
  issue_[core].set_background(0);
}

void HwwlMachine::wake_all() {
  for (std::int32_t c = 0; c < shape_.cores; ++c) wake(c);
}

void HwwlMachine::step(std::int32_t w) {
  Warp& warp = warps_[w];
  switch (warp.phase) {
    case Phase::PULL_REQ: {
      const Cycle at = issue_[warp.core].reserve(now_, 1);
      warp.phase = Phase::PULL;
      if (at == now_) pull(w);
      else post(at, WARP, WARP_STEP, w);
      break;
    }
    case Phase::PULL: pull(w); break;
    case Phase::COMPUTE: compute_round(w); break;
    case Phase::PUSH_REQ: {
      std::int32_t most = 0;
      for (std::int32_t k = 0; k < kWarp; ++k)
        most = std::max(most, warp.push_start[k + 1] - warp.push_start[k]);
      if (most == 0) {
        push(w);
        break;
      }
      const Cycle at = issue_[warp.core].reserve(now_, most);
      warp.phase = Phase::PUSH;
      post(at, WARP, WARP_STEP, w);
      break;
    }
    case Phase::PUSH: push(w); break;
    case Phase::REFILL_WAIT:
    case Phase::SPIN:
    case Phase::DONE: break;
  }
}

void HwwlMachine::pull(std::int32_t w) {
  Warp& warp = warps_[w];
  std::uint32_t waiting = 0;
  std::vector<std::int32_t>& empty_banks = empty_banks_;  // scratch: no allocation per pull
  empty_banks.clear();
  const bool exists = work_exists();
  const std::int32_t held_before = std::popcount(warp.holding);  // kept through a refill stall
  bool demand = false;
  for (std::int32_t k = 0; k < kWarp; ++k) {
    const std::uint32_t bit = 1u << k;
    if (!(warp.live & bit) || warp.item[k] >= 0) continue;
    // Fig. 5's ideal worklist: one shared queue, no banks (and no ports).
    const std::int32_t b = ideal_ ? -1 : bank_of(warp, k);
    Bank* bank = ideal_ ? nullptr : &banks_[b];
    const bool has = bank ? !bank->part[pull_].empty() : !ideal_->empty(pull_);
    demand |= bank && exists && !has;  // on-demand redistribution trigger
    ++pulls_;
    ++dynamic_instructions_;
    if (has) {
      if (bank) use_port(*bank);  // a WAIT or DONE comes from the empty bits, not the SRAM
      warp.item[k] = bank ? bank->part[pull_].pop_front() : ideal_->pop(pull_);
      warp.holding |= bit;
      --pull_ids_;
    } else if (bank && bank->reserved > 0) {  // its refill is on the way: wait for it
      waiting |= bit;
      ++wait_pulls_;
    } else if (bank && finite_ && on_demand_ && !cores_[warp.core].overflow[pull_].empty()) {
      // The bank is empty while work exists: the HWWL answers WAIT (§III-C),
      // and the HVU turns it into a pending load (§III-D).  A refill stall is
      // a WAIT pull, as Fig. 7's "factor of five" counts them.
      empty_banks.push_back(b);
      waiting |= bit;
      ++wait_pulls_;
    } else if (exists) {
      waiting |= bit;
      ++wait_pulls_;
    } else {
      warp.live &= ~bit;
      ++done_pulls_;
    }
  }
  hold(std::popcount(warp.holding) - held_before);
  if (demand && on_demand_redist_) redistribute_on_demand(warp.core);
  if (!empty_banks.empty()) {
    if (refill_on_demand(w, empty_banks)) return;  // the whole warp waits for the refill
  }
  if (warp.holding) {
    // Apply the operator to every item now; the warp then issues the longest
    // thread's instructions and waits for the most load round trips.
    warp.pushes.clear();
    warp.compute.begin();
    for (std::int32_t k = 0; k < kWarp; ++k) {
      warp.push_start[k] = static_cast<std::int32_t>(warp.pushes.size());
      if (warp.item[k] < 0) continue;
      activated_.clear();
      apply(warp.compute, k, warp.item[k]);
      warp.pushes.insert(warp.pushes.end(), activated_.begin(), activated_.end());
    }
    warp.push_start[kWarp] = static_cast<std::int32_t>(warp.pushes.size());
    warp.phase = Phase::COMPUTE;
    progress();
    compute_round(w);
    return;
  }
  if (!warp.live) {
    warp_done(w);
    return;
  }
  // Every live thread pulled WAIT: spin until something changes.
  spin(w);
}

void HwwlMachine::compute_round(std::int32_t w) {
  Warp& warp = warps_[w];
  bool done = false;
  compute_step(warp.core, warp.compute, done, WARP_STEP, w);
  if (done) warp.phase = Phase::PUSH_REQ;
}

void HwwlMachine::push(std::int32_t w) {
  Warp& warp = warps_[w];
  // Push instruction j: every thread with a j-th activated id pushes it to its
  // own bank; ids finding the partition full are coalesced into one store.
  const std::int32_t side = push_side();
  std::int32_t instructions = 0;
  bool full = false;  // a push found its pull-partition bank full: on-demand trigger
  for (std::int32_t j = 0;; ++j) {
    bool any = false;
    std::vector<std::int32_t>& spills = spills_;  // scratch
    spills.clear();
    for (std::int32_t k = 0; k < kWarp; ++k) {
      if (warp.push_start[k] + j >= warp.push_start[k + 1]) continue;
      any = true;
      const std::int32_t id = warp.pushes[static_cast<std::size_t>(warp.push_start[k] + j)];
      ++pushed_;
      if (ideal_) {
        ++dynamic_instructions_;
        ideal_->push(side, id);
        ++(side == pull_ ? pull_ids_ : push_ids_);
        continue;
      }
      Bank& bank = banks_[bank_of(warp, k)];
      ++bank_pushes_[static_cast<std::size_t>(bank_of(warp, k))];
      use_port(bank);
      ++dynamic_instructions_;
      const std::int64_t used = bank.part[side].size() + (side == pull_ ? bank.reserved : 0);
      if (used < capacity_) {
        bank.part[side].push_back(id);
        peak_bank_ = std::max(peak_bank_, used + 1);
        ++(side == pull_ ? pull_ids_ : push_ids_);
      } else {
        spills.push_back(id);
        full |= side == pull_;
      }
    }
    if (!any) break;
    if (side == pull_) {  // single-buffered: pullable at once
      if (ideal_) wake_all();
      else wake(warp.core);
    }
    instructions = j + 1;
    if (!spills.empty()) spill(warp.core, spills, now_ + j);
  }
  if (full && on_demand_redist_) redistribute_on_demand(warp.core);
  const auto finished_items = std::popcount(warp.holding);
  warp.item.fill(-1);
  warp.holding = 0;
  hold(-finished_items);
  warp.phase = Phase::PULL_REQ;
  post(now_ + instructions, WARP, WARP_STEP, w);
}

void HwwlMachine::warp_done(std::int32_t w) {
  warps_[w].phase = Phase::DONE;
  if (++warps_done_ == launched_) end_of_kernel();
}

void HwwlMachine::end_of_kernel() {
  for (const auto& c : cores_)
    if (c.storing > 0) return;  // the kernel ends once its spills are stored
  const std::int64_t next = double_ ? push_ids_ + overflow_ids_[push_side()] : 0;
  if (next == 0) {
    end_ = now_;
    done_ = true;
  } else if (!relaunch_posted_) {
    relaunch_posted_ = true;
    post(now_ + relaunch_, WARP, RELAUNCH);
  }
}

void HwwlMachine::relaunch() {
  // The push partitions (banks and overflow regions) become the pull ones.
  pull_ = 1 - pull_;
  pull_ids_ = push_ids_;
  push_ids_ = 0;
  relaunch_posted_ = false;
  ++supersteps_;
  launch();
}

void HwwlMachine::launch() {
  // §III-A: a software data-driven benchmark becomes a HWWL one by linking
  // another worklist implementation, so its kernel keeps the variable
  // configuration of the software version (Table I): as many threads as the
  // pull worklist holds ids, at most the GPU's.  Threads beyond the frontier
  // would only spin.  A warp covers every lane of its core, so one warp per
  // core keeps every bank reachable (without redistribution an id in a core
  // with no warp would never be pulled).  Single-buffered: one kernel for
  // the whole run, which needs every thread as the work grows.
  std::int32_t n = shape_.warps();
  if (double_) {
    const std::int64_t ids = pull_ids_ + overflow_ids_[pull_] + in_flight_;
    const std::int64_t want = std::max<std::int64_t>(shape_.cores, (ids + kWarp - 1) / kWarp);
    n = static_cast<std::int32_t>(std::min<std::int64_t>(want, shape_.warps()));
  }
  launched_ = n;
  warps_done_ = 0;
  for (std::int32_t w = 0; w < shape_.warps(); ++w) {
    warps_[w].live = 0;
    warps_[w].phase = Phase::DONE;
  }
  // The block scheduler deals warps to the cores in turn.
  for (std::int32_t i = 0; i < n; ++i) {
    const std::int32_t w = (i % shape_.cores) * shape_.warps_per_core + i / shape_.cores;
    warps_[w].live = kAllThreads;
    warps_[w].phase = Phase::PULL_REQ;
    post(now_, WARP, WARP_STEP, w);
  }
}

}  // namespace tbdse::hwwl
