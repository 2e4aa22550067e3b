#include "models/hwwl/software_machine.hpp"

#include <algorithm>
#include <bit>

#include "core/errors.hpp"

namespace tbdse::hwwl {

const std::vector<StatInfo>& SoftwareMachine::stat_info() {
  static const std::vector<StatInfo> list = {
      {"amos", "atomics",
       "atomics on the worklist tail (data: one per warp iteration when the operator can push)"},
      {"overhead_instructions", "instructions",
       "thread instructions beside the operator: reading work ids, active checks, push "
       "prefix sums and stores"},
      {"node_checks", "checks", "topology: nodes checked for being active"},
      // Shown as relaunch_cycles_resolved beside the parameter column (results.py).
      {"relaunch_cycles", "cycles", "kernel relaunch cost the run used ('auto' resolved)"},
  };
  return list;
}

SoftwareMachine::SoftwareMachine(Mode mode, const SoftwareParams& params,
                                 const WorklistProblem& problem, const GpuConfig& gpu,
                                 const ResolvedRun& run, bool record)
    : WarpMachine(problem, gpu, run, record, params.sample_every, params.lsu_queue),
      mode_(mode),
      p_(params),
      relaunch_(params.relaunch_cycles == kAuto ? gpu.us_to_cycles(gpu.host_launch_us)
                                                : params.relaunch_cycles),
      resident_(static_cast<std::size_t>(shape_.cores), 0) {
  warps_per_block_ = static_cast<std::int32_t>((params.block_threads + kWarp - 1) / kWarp);
  const std::int64_t fit = gpu.threads_per_sm / (std::int64_t{warps_per_block_} * kWarp);
  if (fit < 1)
    throw ConfigError("block_threads = " + std::to_string(params.block_threads) +
                      " does not fit a core of GPU '" + gpu.name + "' (threads_per_sm = " +
                      std::to_string(gpu.threads_per_sm) + ")");
  blocks_per_core_ = static_cast<std::int32_t>(std::min<std::int64_t>(fit, gpu.tb_slots));
  const OperatorSpec& op = problem.op();
  can_push_ = op.kind != OperatorKind::SYNTHETIC ||
              ((op.activations > 0 || op.arc_activation > 0 || problem.formula() != nullptr) &&
               op.generations > 1);
}

void SoftwareMachine::start() {
  // The initialisation kernel is not timed (as for the hardware worklist).
  if (mode_ == Mode::DATA) {
    next_list_ = problem_.initial_items();
  } else {
    next_active_.assign(static_cast<std::size_t>(problem_.nodes()), 0);
    for (const std::int32_t id : problem_.initial_items())
      if (!next_active_[id]) {
        next_active_[id] = 1;
        ++next_count_;
      }
  }
  launch();
}

void SoftwareMachine::launch() {
  ++supersteps_;
  if (mode_ == Mode::DATA) {
    list_ = std::move(next_list_);
    next_list_.clear();
    threads_ = static_cast<std::int32_t>(
        std::min<std::int64_t>(static_cast<std::int64_t>(list_.size()), shape_.threads()));
  } else {
    active_ = std::move(next_active_);
    next_active_.assign(active_.size(), 0);
    // A flag per node: activations of one node in a super-step are one item.
    if (problem_.op().kind == OperatorKind::SYNTHETIC)
      for (std::int32_t v = 0; v < static_cast<std::int32_t>(active_.size()); ++v)
        if (active_[v]) op_.merge_pending(v);
    next_count_ = 0;
    threads_ = problem_.nodes();
  }
  parity_ = 1 - parity_;
  const std::int32_t warps = (threads_ + kWarp - 1) / kWarp;
  warps_.assign(static_cast<std::size_t>(warps), Warp{});
  for (std::int32_t w = 0; w < warps; ++w) {
    warps_[w].block = w / warps_per_block_;
    warps_[w].first = w * kWarp;
    warps_[w].item.fill(-1);
  }
  blocks_ = (warps + warps_per_block_ - 1) / warps_per_block_;
  block_warps_.assign(static_cast<std::size_t>(blocks_), 0);
  for (std::int32_t w = 0; w < warps; ++w) ++block_warps_[warps_[w].block];
  next_block_ = 0;
  warps_left_ = warps;
  if (mode_ == Mode::DATA && p_.work_donating) {  // the block's threads' shares, pooled
    const auto n = static_cast<std::int64_t>(list_.size());
    const std::int64_t per_block = std::int64_t{warps_per_block_} * kWarp;
    block_next_.assign(static_cast<std::size_t>(blocks_), 0);
    block_end_.assign(static_cast<std::size_t>(blocks_), 0);
    for (std::int32_t b = 0; b < blocks_; ++b) {
      block_next_[b] = b * per_block * n / threads_;
      block_end_[b] = std::min<std::int64_t>(threads_, (b + 1) * per_block) * n / threads_;
    }
  }
  // The block scheduler fills the cores in turn, then gives each freed place
  // the next block.
  for (std::int32_t round = 0; round < blocks_per_core_; ++round)
    for (std::int32_t c = 0; c < shape_.cores && next_block_ < blocks_; ++c) dispatch(c);
}

void SoftwareMachine::dispatch(std::int32_t core) {
  if (resident_[core] >= blocks_per_core_ || next_block_ >= blocks_) return;
  ++resident_[core];
  const std::int32_t block = next_block_++;
  const std::int32_t last = std::min<std::int32_t>(static_cast<std::int32_t>(warps_.size()),
                                                   (block + 1) * warps_per_block_);
  for (std::int32_t w = block * warps_per_block_; w < last; ++w) {
    warps_[w].core = core;
    post(now_, WARP, WARP_STEP, w);
  }
}

void SoftwareMachine::handle(const Event& e) {
  if (e.kind == LAUNCH) {
    launch();
    return;
  }
  step(static_cast<std::int32_t>(e.payload));
}

std::int64_t SoftwareMachine::data_slot(const Warp& warp, std::int32_t k) {
  const std::int64_t t = warp.first + k;
  if (t >= threads_) return -1;
  if (p_.work_donating) {  // the next item of the block's pool
    std::int64_t& next = block_next_[static_cast<std::size_t>(warp.block)];
    return next < block_end_[static_cast<std::size_t>(warp.block)] ? next++ : -1;
  }
  const auto n = static_cast<std::int64_t>(list_.size());
  const std::int64_t i = t * n / threads_ + warp.iteration;  // Fig. 2: a contiguous share
  return i < (t + 1) * n / threads_ ? i : -1;
}

void SoftwareMachine::step(std::int32_t w) {
  switch (warps_[w].phase) {
    case Phase::FETCH: fetch(w); break;
    case Phase::LOADED: loaded(w); break;
    case Phase::COMPUTE: compute_round(w); break;
    case Phase::PUSH:
    case Phase::AMO_DONE: push(w); break;
    case Phase::DONE: break;
  }
}

void SoftwareMachine::fetch(std::int32_t w) {
  Warp& warp = warps_[w];
  // data: read each thread's next work id from the pull list; topology: load
  // each thread's node and check its active flag.  Either way one load.
  std::int32_t threads = 0;
  std::array<std::uint64_t, kWarp> address{};
  std::uint32_t active = 0;
  for (std::int32_t k = 0; k < kWarp; ++k) {
    if (mode_ == Mode::DATA) {
      warp.slot[k] = data_slot(warp, k);
      warp.item[k] = warp.slot[k] >= 0 ? list_[static_cast<std::size_t>(warp.slot[k])] : -1;
      if (warp.item[k] >= 0) address[k] = OperatorMemory::list_slot(parity_, warp.slot[k]);
    } else {
      warp.item[k] = warp.first + k < threads_ ? warp.first + k : -1;
      if (warp.item[k] >= 0) address[k] = flag(parity_, warp.item[k]);
    }
    if (warp.item[k] >= 0) active |= 1u << k;
    threads += warp.item[k] >= 0;
  }
  if (threads == 0) {
    warp_finished(w);
    return;
  }
  const std::int64_t instructions = std::max<std::int64_t>(
      1, mode_ == Mode::DATA
             ? p_.pull_instructions + (p_.work_donating ? p_.donate_instructions : 0)
             : p_.check_instructions);
  overhead_instructions_ += instructions * threads;
  dynamic_instructions_ += instructions * threads;
  if (mode_ == Mode::TOPOLOGY) checks_ += threads;
  const Cycle at = issue_[warp.core].reserve(now_, instructions);
  warp.phase = Phase::LOADED;
  // The threads' slots of the pull list (a contiguous share each: strided
  // across the warp), or consecutive nodes' flags (coalesced).
  const std::int32_t group = open_group(WARP, WARP_STEP, w);
  warp_access(group, warp.core, at + instructions, address.data(), active, 4, false);
  close_group(group, at + instructions);
}

void SoftwareMachine::loaded(std::int32_t w) {
  Warp& warp = warps_[w];
  std::int32_t most = 0, items = 0;
  // topology's threads load their own, consecutive nodes; data's load the
  // nodes its work ids name, scattered: the addresses say which.
  warp.compute.begin();
  for (std::int32_t k = 0; k < kWarp; ++k) {
    const std::int32_t id = warp.item[k];
    if (id < 0) continue;
    if (mode_ == Mode::TOPOLOGY && !active_[id]) {  // inactive: the thread exits
      warp.item[k] = -1;
      continue;
    }
    activated_.clear();
    apply(warp.compute, k, id);
    most = std::max(most, static_cast<std::int32_t>(activated_.size()));
    ++items;
    warp.holding |= 1u << k;
    // Where activated ids go: topology sets flags now (duplicates merge);
    // data appends them when its atomic on the worklist tail returns.
    if (mode_ == Mode::TOPOLOGY)
      for (const std::int32_t v : activated_)
        if (!next_active_[v]) {
          next_active_[v] = 1;
          ++next_count_;
        }
    warp.pushes.insert(warp.pushes.end(), activated_.begin(), activated_.end());
  }
  if (items == 0) {  // topology: no active node in this warp
    warp_finished(w);
    return;
  }
  progress();
  hold(items);
  warp.most_pushes = most;
  warp.phase = Phase::COMPUTE;
  compute_round(w);
}

void SoftwareMachine::compute_round(std::int32_t w) {
  Warp& warp = warps_[w];
  bool done = false;
  compute_step(warp.core, warp.compute, done, WARP_STEP, w);
  if (done) warp.phase = Phase::PUSH;
}

void SoftwareMachine::push(std::int32_t w) {
  Warp& warp = warps_[w];
  const std::int32_t pushers = std::popcount(warp.holding);
  if (mode_ == Mode::DATA && can_push_ && warp.phase == Phase::PUSH) {
    // Every thread of the warp runs the push sequence each iteration, pushing
    // or not (it is warp-uniform): the warp's scan of push counts, then the
    // leader's atomic on the tail, serialised with every other warp's.
    const std::int64_t prefix = std::max<std::int64_t>(1, p_.push_instructions);
    overhead_instructions_ += prefix * pushers + 1;  // + the leader's atomic
    dynamic_instructions_ += prefix * pushers + 1;
    const Cycle ready = issue_[warp.core].reserve(now_, prefix + 1) + prefix + 1;
    // The atomic unit sits by the L2: the request travels there, waits for
    // the tail's earlier atomics, and its old value comes back.
    const Cycle hop = memory_.config().l2_hit_cycles / 2;
    const Cycle start = std::max(ready + hop, amo_free_);
    amo_free_ = start + shape_.amo_cycles;
    ++amos_;
    warp.phase = Phase::AMO_DONE;
    post(amo_free_ + hop, WARP, WARP_STEP, w);
    return;
  }
  const auto tail = static_cast<std::int64_t>(next_list_.size());
  if (mode_ == Mode::DATA && warp.most_pushes > 0) {  // the tail came back: store the ids
    next_list_.insert(next_list_.end(), warp.pushes.begin(), warp.pushes.end());
  }
  // The stores of the pushed ids (or flags) issue without waiting: each
  // thread its ids in turn, so the warp issues as many rounds as its busiest
  // thread has ids; thread instructions count every id.
  Cycle next = now_;
  if (warp.most_pushes > 0) {
    const std::int64_t per_id =
        mode_ == Mode::DATA ? std::max<std::int64_t>(1, p_.store_instructions) : 1;
    const std::int64_t rounds = per_id * warp.most_pushes;
    const Cycle at = issue_[warp.core].reserve(now_, rounds);
    next = at + rounds;
    const auto ids = static_cast<std::int64_t>(warp.pushes.size());
    overhead_instructions_ += per_id * ids;
    dynamic_instructions_ += per_id * ids;
    const std::int32_t stores = open_group(WARP, -1);  // nobody waits for them
    if (mode_ == Mode::DATA) {  // the warp's ids fill consecutive slots from the tail
      range_access(stores, warp.core, at, OperatorMemory::list_slot(1 - parity_, tail),
                   static_cast<std::int64_t>(warp.pushes.size()) * 4, true);
    } else {  // the activated nodes' flags, scattered: 32 per store instruction
      std::array<std::uint64_t, kWarp> address{};
      for (std::size_t i = 0; i < warp.pushes.size(); i += kWarp) {
        std::uint32_t active = 0;
        for (std::size_t j = i; j < std::min(warp.pushes.size(), i + kWarp); ++j) {
          address[j - i] = flag(1 - parity_, warp.pushes[j]);
          active |= 1u << (j - i);
        }
        warp_access(stores, warp.core, at, address.data(), active, 4, true);
      }
    }
    close_group(stores, at);
    warp.pushes.clear();
  }
  hold(-pushers);
  warp.holding = 0;
  warp.item.fill(-1);
  if (mode_ == Mode::TOPOLOGY) {  // one node per thread: the warp is done
    warp_finished(w);
    return;
  }
  ++warp.iteration;
  warp.phase = Phase::FETCH;
  post(next, WARP, WARP_STEP, w);
}

void SoftwareMachine::warp_finished(std::int32_t w) {
  Warp& warp = warps_[w];
  warp.phase = Phase::DONE;
  if (--block_warps_[warp.block] == 0) {  // the block's place frees
    --resident_[warp.core];
    dispatch(warp.core);
  }
  if (--warps_left_ > 0) return;
  const bool more = mode_ == Mode::DATA ? !next_list_.empty() : next_count_ > 0;
  if (more) {
    post(now_ + relaunch_, WARP, LAUNCH);
  } else {
    end_ = now_;
    done_ = true;
  }
}

std::vector<double> SoftwareMachine::stats() const {
  return {static_cast<double>(amos_), static_cast<double>(overhead_instructions_),
          static_cast<double>(checks_), static_cast<double>(relaunch_)};
}

}  // namespace tbdse::hwwl
