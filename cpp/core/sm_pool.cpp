#include "sm_pool.hpp"

#include "errors.hpp"

namespace tbdse {

SmPool::SmPool(const GpuConfig& gpu) : gpu_(gpu), sms_(static_cast<std::size_t>(gpu.sms)) {
  for (auto& sm : sms_) {
    sm.free_slot_ids.reserve(static_cast<std::size_t>(gpu.tb_slots));
    // Lowest slot index on top of the stack.
    for (auto s = static_cast<std::int32_t>(gpu.tb_slots); s-- > 0;) sm.free_slot_ids.push_back(s);
  }
  free_slots_ = gpu.sms * gpu.tb_slots;
}

bool SmPool::fits(SmId sm, const TbFootprint& fp) const {
  const Sm& s = sms_[sm];
  return !s.free_slot_ids.empty() && s.threads + fp.threads <= gpu_.threads_per_sm &&
         s.regs + fp.regs() <= gpu_.regs_per_sm && s.smem + fp.smem_bytes <= gpu_.smem_per_sm;
}

SmId SmPool::next_fitting(SmId start, const TbFootprint& fp) const {
  if (free_slots_ == 0) return -1;
  const SmId n = size();
  SmId sm = start;
  for (SmId i = 0; i < n; ++i) {
    if (fits(sm, fp)) return sm;
    if (++sm == n) sm = 0;
  }
  return -1;
}

std::int32_t SmPool::acquire(SmId sm, const TbFootprint& fp) {
  if (!fits(sm, fp)) throw SimulationError("internal: TB placed on SM " + std::to_string(sm) +
                                           " which has no room for it");
  Sm& s = sms_[sm];
  const std::int32_t slot = s.free_slot_ids.back();
  s.free_slot_ids.pop_back();
  ++s.resident;
  s.threads += fp.threads;
  s.regs += fp.regs();
  s.smem += fp.smem_bytes;
  --free_slots_;
  return slot;
}

void SmPool::release(SmId sm, const TbFootprint& fp, std::int32_t slot) {
  Sm& s = sms_[sm];
  s.free_slot_ids.push_back(slot);
  --s.resident;
  s.threads -= fp.threads;
  s.regs -= fp.regs();
  s.smem -= fp.smem_bytes;
  ++free_slots_;
}

}  // namespace tbdse
