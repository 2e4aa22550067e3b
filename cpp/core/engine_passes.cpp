// Reuse: a TB whose kernel sweeps its read footprint `reuse` times
// (KernelInfo::reuse, docs/simulation.md "Reuse").  Its compute is split into
// `reuse` equal chunks, one per pass.  A pass sends the footprint's reads
// through the memory hierarchy when it starts (the first at issue, the next
// when the previous pass ends) and lasts like a whole TB of one chunk does
// (Engine::compute_beside_reads): max(chunk + its first line's latency, its
// reads' time).  Each pass meets the caches as the co-resident TBs left them
// since the last one: a working set that fits beside its neighbours' mostly
// hits in L1 after the first pass; one that does not is evicted and read
// again from L2 or DRAM, and those misses queue for the SM's MSHRs and the L2
// banks.  So more TBs per SM can cost throughput, the effect cache-conscious
// TB throttling exploits (Rogers et al., MICRO 2012; Kayiran et al., PACT 2013).  Under
// 'shared' each pass is timed like a TB (its compute shares the SM's issue
// slots, its memory part does not) and keeps the TB's age.
// Load phases (docs/simulation.md "Load phases"): when the kernel states its
// threads, each pass is split further into ceil(longest read range's lines /
// warps) phases (per read range one line in flight per warp: warps issue
// loads as they execute and use them before the next), each with its slice
// of every range and of the pass's compute, timed the same way.  With reuse 1 and no threads stated a TB is
// timed exactly as before (all reads at issue).
#include <algorithm>

#include "engine.hpp"
#include "errors.hpp"

namespace tbdse {

std::int32_t Engine::load_phases(TaskId t) const {
  const KernelInfo& k = workload_.kernels[static_cast<std::size_t>(graph_.kernel(t))];
  const std::int64_t warps = (k.footprint.threads + 31) / 32;
  if (warps <= 0) return 1;  // warps not stated: one phase (the burst, as before)
  std::int64_t lines = 0;  // the longest read range's: the warps stream every range together
  const auto first = static_cast<std::size_t>(workload_.data_start[t]);
  const auto last = static_cast<std::size_t>(workload_.data_start[t + 1]);
  for (std::size_t i = first; i < last; ++i) {
    const DataRange& d = workload_.data_ranges[i];
    if (!d.is_write) lines = std::max(lines, range_lines(d));
  }
  const std::int64_t phases = (lines + warps - 1) / warps;
  return static_cast<std::int32_t>(std::clamp<std::int64_t>(phases, 1, kMaxLoadPhases));
}

Cycle Engine::start_passes(std::int32_t handle, TaskId t, Cycle work, std::int32_t phases,
                           Cycle* memory_part) {
  const KernelInfo& k = workload_.kernels[static_cast<std::size_t>(graph_.kernel(t))];
  const Cycle compute = compute_part(t, work);
  const std::int64_t total = std::int64_t{k.reuse} * phases;
  const auto h = static_cast<std::size_t>(handle);
  if (pass_state_.size() <= h) pass_state_.resize(h + 1);
  pass_state_[h] = Passes{.start = now_,
                          .chunk = compute / total,
                          .last_chunk = compute / total + compute % total,
                          .left = static_cast<std::int32_t>(total),
                          .phases = phases,
                          .seq = issued_};  // the seq issue() gives this TB
  return pass_duration(handle, memory_part);
}

Cycle Engine::pass_duration(std::int32_t handle, Cycle* memory_part) {
  Passes& p = pass_state_[static_cast<std::size_t>(handle)];
  const Running& r = running_[static_cast<std::size_t>(handle)];
  --p.left;
  const std::int32_t slice = p.left % p.phases;  // counts down: the last phase reads the last slice
  return compute_beside_reads(r.task, r.sm, p.left == 0 ? p.last_chunk : p.chunk, memory_part,
                              p.phases - 1 - slice, p.phases);
}

bool Engine::next_pass(std::int32_t handle) {
  const auto h = static_cast<std::size_t>(handle);
  if (h >= pass_state_.size() || pass_state_[h].left == 0) return false;
  if (shared_) shared_->stop(handle, now_);  // residency is counted once, at the TB's end
  Cycle memory_part = -1;
  const Cycle work = pass_duration(handle, &memory_part);
  time_tb(handle, work, memory_part, pass_state_[h].seq, pass_state_[h].start);
  return true;
}

}  // namespace tbdse
