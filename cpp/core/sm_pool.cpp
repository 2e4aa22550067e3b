#include "sm_pool.hpp"

#include "errors.hpp"

namespace tbdse {

SmPool::SmPool(const GpuConfig& gpu)
    : gpu_(gpu),
      sms_(static_cast<SmId>(gpu.sms)),
      slots_per_sm_(gpu.tb_slots),
      free_count_(static_cast<std::size_t>(gpu.sms), static_cast<std::int32_t>(gpu.tb_slots)),
      free_slot_ids_(static_cast<std::size_t>(gpu.sms * gpu.tb_slots)),
      threads_(static_cast<std::size_t>(gpu.sms), 0),
      regs_(static_cast<std::size_t>(gpu.sms), 0),
      smem_(static_cast<std::size_t>(gpu.sms), 0),
      has_slot_(static_cast<std::size_t>((gpu.sms + 63) / 64), 0),
      free_slots_(gpu.sms * gpu.tb_slots) {
  for (SmId sm = 0; sm < sms_; ++sm) {
    // Lowest slot index on top of each stack.
    for (std::int64_t k = 0; k < slots_per_sm_; ++k)
      free_slot_ids_[static_cast<std::size_t>(sm * slots_per_sm_ + k)] =
          static_cast<std::int32_t>(slots_per_sm_ - 1 - k);
    has_slot_[sm >> 6] |= std::uint64_t{1} << (sm & 63);
  }
}

bool SmPool::resources_fit(SmId sm, const TbFootprint& fp) const {
  return threads_[sm] + fp.threads <= gpu_.threads_per_sm &&
         regs_[sm] + fp.regs() <= gpu_.regs_per_sm && smem_[sm] + fp.smem_bytes <= gpu_.smem_per_sm;
}

std::int32_t SmPool::acquire(SmId sm, const TbFootprint& fp) {
  if (!fits(sm, fp))
    throw SimulationError("internal: TB placed on SM " + std::to_string(sm) +
                          " which has no room for it");
  const std::int32_t left = --free_count_[sm];
  if (left == 0) has_slot_[sm >> 6] &= ~(std::uint64_t{1} << (sm & 63));
  threads_[sm] += fp.threads;
  regs_[sm] += fp.regs();
  smem_[sm] += fp.smem_bytes;
  --free_slots_;
  return free_slot_ids_[static_cast<std::size_t>(sm * slots_per_sm_ + left)];
}

void SmPool::release(SmId sm, const TbFootprint& fp, std::int32_t slot) {
  const std::int32_t top = free_count_[sm]++;
  free_slot_ids_[static_cast<std::size_t>(sm * slots_per_sm_ + top)] = slot;
  if (top == 0) has_slot_[sm >> 6] |= std::uint64_t{1} << (sm & 63);
  threads_[sm] -= fp.threads;
  regs_[sm] -= fp.regs();
  smem_[sm] -= fp.smem_bytes;
  ++free_slots_;
}

}  // namespace tbdse
