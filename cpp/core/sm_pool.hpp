// Resources in use on every SM.  A TB is placed only where every resource it
// needs (TB slot, threads, registers, shared memory) has room, so "an SM never
// holds more than its resources" holds by construction.  Kernels with
// different footprints may share an SM.
#pragma once

#include <cstdint>
#include <vector>

#include "gpu.hpp"
#include "types.hpp"

namespace tbdse {

class SmPool {
 public:
  explicit SmPool(const GpuConfig& gpu);

  SmId size() const { return static_cast<SmId>(sms_.size()); }
  bool fits(SmId sm, const TbFootprint& fp) const;

  // First SM at or after `start` (wrapping) that fits `fp`; -1 when none does.
  SmId next_fitting(SmId start, const TbFootprint& fp) const;

  // Takes the resources; returns the slot index the TB occupies on that SM.
  std::int32_t acquire(SmId sm, const TbFootprint& fp);
  void release(SmId sm, const TbFootprint& fp, std::int32_t slot);

  std::int32_t resident(SmId sm) const { return sms_[sm].resident; }
  std::int64_t free_slots() const { return free_slots_; }

 private:
  struct Sm {
    std::int32_t resident = 0;
    std::int64_t threads = 0, regs = 0, smem = 0;
    std::vector<std::int32_t> free_slot_ids;  // stack of unused slot indices
  };
  const GpuConfig& gpu_;
  std::vector<Sm> sms_;
  std::int64_t free_slots_ = 0;
};

}  // namespace tbdse
