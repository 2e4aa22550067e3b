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
// slots, its memory part does not) and keeps the TB's age.  With reuse 1 a
// TB is timed exactly as before.
#include <algorithm>

#include "engine.hpp"
#include "errors.hpp"

namespace tbdse {

Cycle Engine::start_passes(std::int32_t handle, TaskId t, Cycle work, Cycle* memory_part) {
  const KernelInfo& k = workload_.kernels[static_cast<std::size_t>(graph_.kernel(t))];
  const Cycle compute = compute_part(t, work);
  const auto h = static_cast<std::size_t>(handle);
  if (pass_state_.size() <= h) pass_state_.resize(h + 1);
  pass_state_[h] = Passes{.start = now_,
                          .chunk = compute / k.reuse,
                          .last_chunk = compute / k.reuse + compute % k.reuse,
                          .left = k.reuse,
                          .seq = issued_};  // the seq issue() gives this TB
  return pass_duration(handle, memory_part);
}

Cycle Engine::pass_duration(std::int32_t handle, Cycle* memory_part) {
  Passes& p = pass_state_[static_cast<std::size_t>(handle)];
  const Running& r = running_[static_cast<std::size_t>(handle)];
  --p.left;
  return compute_beside_reads(r.task, r.sm, p.left == 0 ? p.last_chunk : p.chunk, memory_part);
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
