// Resources in use on every SM.  A TB is placed only where every resource it
// needs (TB slot, threads, registers, shared memory) has room, so "an SM never
// holds more than its resources" holds by construction.  Kernels with
// different footprints may share an SM.
//
// Round-robin placement asks for the first SM at or after a position that has
// room; a bitmask of SMs with a free TB slot answers that in a few word
// operations, and TBs without a resource footprint need nothing more.  Memory
// is proportional to the SM count and the TBs actually resident, not to the
// GPU's total TB slots.
#pragma once

#include <cstdint>
#include <vector>

#include "gpu.hpp"
#include "types.hpp"

namespace tbdse {

class SmPool {
 public:
  explicit SmPool(const GpuConfig& gpu);

  SmId size() const { return sms_; }

  bool fits(SmId sm, const TbFootprint& fp) const {
    return free_count_[sm] > 0 && (is_slot_only(fp) || resources_fit(sm, fp));
  }

  // First SM at or after `start` (wrapping) that fits `fp`; -1 when none does.
  SmId next_fitting(SmId start, const TbFootprint& fp) const {
    if (free_slots_ == 0) return -1;
    SmId sm = next_with_slot(start);
    if (sm < 0 || is_slot_only(fp)) return sm;
    // Visit the SMs with a free slot in round-robin order, each once.
    const SmId first = sm;
    do {
      if (resources_fit(sm, fp)) return sm;
      sm = next_with_slot(sm + 1 == sms_ ? 0 : sm + 1);
    } while (sm != first);
    return -1;
  }

  // Takes the resources; returns the slot index the TB occupies on that SM
  // (the most recently freed one, else the lowest never used).
  std::int32_t acquire(SmId sm, const TbFootprint& fp);
  void release(SmId sm, const TbFootprint& fp, std::int32_t slot);

  std::int64_t free_slots() const { return free_slots_; }  // over all SMs

 private:
  static bool is_slot_only(const TbFootprint& fp) {
    return (fp.threads | fp.regs_per_thread | fp.smem_bytes) == 0;
  }
  bool resources_fit(SmId sm, const TbFootprint& fp) const;

  // First SM at or after `from` (wrapping) with a free TB slot; -1 if none.
  SmId next_with_slot(SmId from) const {
    const auto words = static_cast<std::int32_t>(has_slot_.size());
    std::int32_t w = from >> 6;
    std::uint64_t bits = has_slot_[w] & (~std::uint64_t{0} << (from & 63));
    for (std::int32_t i = 0; i <= words; ++i) {
      if (bits != 0) return (w << 6) | __builtin_ctzll(bits);
      if (++w == words) w = 0;
      bits = has_slot_[w];
    }
    return -1;
  }

  const GpuConfig& gpu_;
  SmId sms_;
  std::vector<std::int32_t> free_count_;              // free TB slots per SM
  std::vector<std::int32_t> never_used_;              // per SM: slots [never_used_, tb_slots) untouched
  std::vector<std::vector<std::int32_t>> freed_;      // per SM: released slot indices (a stack)
  std::vector<std::int64_t> threads_, regs_, smem_;   // in use per SM
  std::vector<std::uint64_t> has_slot_;               // bit per SM with a free TB slot
  std::int64_t free_slots_ = 0;
};

}  // namespace tbdse
