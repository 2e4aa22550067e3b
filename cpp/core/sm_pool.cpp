#include "sm_pool.hpp"

#include "errors.hpp"

namespace tbdse {

SmPool::SmPool(const GpuConfig& gpu)
    : gpu_(gpu),
      sms_(static_cast<SmId>(gpu.sms)),
      free_count_(static_cast<std::size_t>(gpu.sms), static_cast<std::int32_t>(gpu.tb_slots)),
      never_used_(static_cast<std::size_t>(gpu.sms), 0),
      freed_(static_cast<std::size_t>(gpu.sms)),
      threads_(static_cast<std::size_t>(gpu.sms), 0),
      regs_(static_cast<std::size_t>(gpu.sms), 0),
      smem_(static_cast<std::size_t>(gpu.sms), 0),
      has_slot_(static_cast<std::size_t>((gpu.sms + 63) / 64), 0),
      free_slots_(gpu.sms * gpu.tb_slots) {
  for (SmId sm = 0; sm < sms_; ++sm) has_slot_[sm >> 6] |= std::uint64_t{1} << (sm & 63);
}

bool SmPool::resources_fit(SmId sm, const TbFootprint& fp) const {
  return threads_[sm] + fp.threads <= gpu_.threads_per_sm &&
         regs_[sm] + fp.regs() <= gpu_.regs_per_sm && smem_[sm] + fp.smem_bytes <= gpu_.smem_per_sm;
}

std::int32_t SmPool::acquire(SmId sm, const TbFootprint& fp) {
  if (!fits(sm, fp))
    throw SimulationError("internal: TB placed on SM " + std::to_string(sm) +
                          " which has no room for it");
  if (--free_count_[sm] == 0) has_slot_[sm >> 6] &= ~(std::uint64_t{1} << (sm & 63));
  threads_[sm] += fp.threads;
  regs_[sm] += fp.regs();
  smem_[sm] += fp.smem_bytes;
  --free_slots_;
  auto& freed = freed_[sm];
  if (freed.empty()) return never_used_[sm]++;
  const std::int32_t slot = freed.back();
  freed.pop_back();
  return slot;
}

void SmPool::release(SmId sm, const TbFootprint& fp, std::int32_t slot) {
  if (free_count_[sm]++ == 0) has_slot_[sm >> 6] |= std::uint64_t{1} << (sm & 63);
  freed_[sm].push_back(slot);
  threads_[sm] -= fp.threads;
  regs_[sm] -= fp.regs();
  smem_[sm] -= fp.smem_bytes;
  ++free_slots_;
}

}  // namespace tbdse
