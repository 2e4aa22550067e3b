#include "models/hwwl/software_machine.hpp"

#include <algorithm>
#include <bit>

#include "core/errors.hpp"

namespace tbdse::hwwl {

const std::vector<StatInfo>& SoftwareMachine::stat_info() {
  static const std::vector<StatInfo> list = {
      {"amos", "atomics", "atomics on the worklist tail (data: one per warp that pushes)"},
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
    : WarpMachine(problem, gpu, run, record, params.sample_every),
      mode_(mode),
      p_(params),
      relaunch_(params.relaunch_cycles == kAuto ? gpu.us_to_cycles(gpu.host_launch_us)
                                                : params.relaunch_cycles),
      queued_(static_cast<std::size_t>(shape_.cores)),
      resident_(static_cast<std::size_t>(shape_.cores), 0) {}

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
  std::int32_t warps = 0;
  if (mode_ == Mode::DATA) {
    list_ = std::move(next_list_);
    next_list_.clear();
    threads_ = static_cast<std::int32_t>(
        std::min<std::int64_t>(static_cast<std::int64_t>(list_.size()), shape_.threads()));
  } else {
    active_ = std::move(next_active_);
    next_active_.assign(active_.size(), 0);
    next_count_ = 0;
    threads_ = problem_.nodes();
  }
  warps = (threads_ + kWarp - 1) / kWarp;
  warps_.assign(static_cast<std::size_t>(warps), Warp{});
  for (auto& q : queued_) q.clear();
  for (std::int32_t w = 0; w < warps; ++w) {  // blocks dealt to cores round robin
    warps_[w].core = w % shape_.cores;
    warps_[w].first = w * kWarp;
    warps_[w].item.fill(-1);
    queued_[warps_[w].core].push_back(w);
  }
  for (auto& q : queued_) std::reverse(q.begin(), q.end());  // popped from the back
  warps_left_ = warps;
  for (std::int32_t c = 0; c < shape_.cores; ++c) dispatch(c);
}

void SoftwareMachine::dispatch(std::int32_t core) {
  auto& q = queued_[core];
  while (resident_[core] < shape_.warps_per_core && !q.empty()) {
    ++resident_[core];
    post(now_, WARP, WARP_STEP, q.back());
    q.pop_back();
  }
}

void SoftwareMachine::handle(const Event& e) {
  if (e.kind == LAUNCH) {
    launch();
    return;
  }
  step(static_cast<std::int32_t>(e.payload));
}

std::int32_t SoftwareMachine::data_item(const Warp& warp, std::int32_t k) const {
  const std::int64_t t = warp.first + k;
  if (t >= threads_) return -1;
  const auto n = static_cast<std::int64_t>(list_.size());
  const std::int64_t i = t * n / threads_ + warp.iteration;  // Fig. 2: a contiguous share
  return i < (t + 1) * n / threads_ ? list_[static_cast<std::size_t>(i)] : -1;
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
  for (std::int32_t k = 0; k < kWarp; ++k) {
    warp.item[k] = mode_ == Mode::DATA ? data_item(warp, k)
                                       : (warp.first + k < threads_ ? warp.first + k : -1);
    threads += warp.item[k] >= 0;
  }
  if (threads == 0) {
    warp_finished(w);
    return;
  }
  const std::int64_t instructions =
      std::max<std::int64_t>(1, mode_ == Mode::DATA ? p_.pull_instructions : p_.check_instructions);
  overhead_instructions_ += instructions * threads;
  dynamic_instructions_ += instructions * threads;
  if (mode_ == Mode::TOPOLOGY) checks_ += threads;
  const Cycle at = issue_[warp.core].reserve(now_, instructions);
  warp.phase = Phase::LOADED;
  // Consecutive slots of the pull list, or consecutive nodes' flags: coalesced.
  post(memory_.access(at + instructions, 1), WARP, WARP_STEP, w);
}

void SoftwareMachine::loaded(std::int32_t w) {
  Warp& warp = warps_[w];
  std::int32_t most = 0, items = 0;
  // topology's threads load their own, consecutive nodes; data's load the
  // nodes its work ids name, scattered.
  warp.compute.begin(mode_ == Mode::TOPOLOGY);
  for (std::int32_t k = 0; k < kWarp; ++k) {
    const std::int32_t id = warp.item[k];
    if (id < 0) continue;
    if (mode_ == Mode::TOPOLOGY && !active_[id]) {  // inactive: the thread exits
      warp.item[k] = -1;
      continue;
    }
    activated_.clear();
    const ItemCost cost = op_.apply(id, activated_);
    warp.compute.add(cost);
    useful_instructions_ += cost.instructions;
    dynamic_instructions_ += cost.instructions;
    most = std::max(most, static_cast<std::int32_t>(activated_.size()));
    ++items;
    warp.holding |= 1u << k;
    // Where activated ids go: topology sets flags now (duplicates merge);
    // data appends them when its atomic on the worklist tail returns.
    activations_ += static_cast<std::int32_t>(activated_.size());
    if (mode_ == Mode::TOPOLOGY) {
      for (const std::int32_t v : activated_)
        if (!next_active_[v]) {
          next_active_[v] = 1;
          ++next_count_;
        }
    } else {
      warp.pushes.insert(warp.pushes.end(), activated_.begin(), activated_.end());
    }
  }
  if (items == 0) {  // topology: no active node in this warp
    warp_finished(w);
    return;
  }
  progress();
  hold(items);
  ready(warp.compute);
  warp.most_pushes = most;
  warp.phase = Phase::COMPUTE;
  compute_round(w);
}

void SoftwareMachine::compute_round(std::int32_t w) {
  Warp& warp = warps_[w];
  bool done = false;
  const Cycle next = compute_step(warp.core, warp.compute, done);
  if (done) warp.phase = Phase::PUSH;
  post(next, WARP, WARP_STEP, w);
}

void SoftwareMachine::push(std::int32_t w) {
  Warp& warp = warps_[w];
  const std::int32_t pushers = std::popcount(warp.holding);
  if (mode_ == Mode::DATA && warp.most_pushes > 0 && warp.phase == Phase::PUSH) {
    // The block's prefix sum, then one atomic on the tail, serialised with
    // every other warp's.
    const std::int64_t prefix = std::max<std::int64_t>(1, p_.push_instructions);
    overhead_instructions_ += prefix * pushers;
    dynamic_instructions_ += prefix * pushers;
    const Cycle ready = issue_[warp.core].reserve(now_, prefix) + prefix;
    const Cycle start = std::max(ready, amo_free_);
    amo_free_ = start + shape_.amo_cycles;
    ++amos_;
    warp.phase = Phase::AMO_DONE;
    post(memory_.access(amo_free_, 1), WARP, WARP_STEP, w);
    return;
  }
  if (mode_ == Mode::DATA && warp.most_pushes > 0) {  // the tail came back: store the ids
    next_list_.insert(next_list_.end(), warp.pushes.begin(), warp.pushes.end());
    warp.pushes.clear();
  }
  // The stores of the pushed ids (or flags) issue without waiting.
  Cycle next = now_;
  if (warp.most_pushes > 0) {
    const Cycle at = issue_[warp.core].reserve(now_, warp.most_pushes);
    next = at + warp.most_pushes;
    overhead_instructions_ += warp.most_pushes;
    dynamic_instructions_ += warp.most_pushes;
    // data's ids go to consecutive slots (one request per store instruction);
    // topology's flags are the activated nodes', scattered.
    (void)memory_.access(at, mode_ == Mode::DATA ? warp.most_pushes : activations_);
  }
  activations_ = 0;
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
  --resident_[warp.core];
  dispatch(warp.core);
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
