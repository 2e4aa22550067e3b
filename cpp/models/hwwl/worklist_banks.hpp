// Storage of the hardware worklist (HWWL §III-B, Fig. 4): per lane a FIFO bank
// of work ids in a single-port SRAM, split into a pull and a push partition
// in double-buffered mode; per core an overflow buffer in memory for the ids
// that do not fit (§III-D).
#pragma once

#include <cstdint>
#include <vector>

#include "core/types.hpp"

namespace tbdse::hwwl {

// A FIFO of work ids (a ring buffer that grows when needed).
class IdQueue {
 public:
  std::int64_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  void push_back(std::int32_t id) {
    if (size_ == static_cast<std::int64_t>(ring_.size())) grow();
    ring_[static_cast<std::size_t>((head_ + size_) & mask())] = id;
    ++size_;
  }
  std::int32_t pop_front() {
    const std::int32_t id = ring_[static_cast<std::size_t>(head_)];
    head_ = (head_ + 1) & mask();
    --size_;
    return id;
  }
  std::int32_t pop_back() {
    --size_;
    return ring_[static_cast<std::size_t>((head_ + size_) & mask())];
  }

 private:
  std::int64_t mask() const { return static_cast<std::int64_t>(ring_.size()) - 1; }
  void grow() {
    std::vector<std::int32_t> bigger(ring_.empty() ? 16 : ring_.size() * 2);
    for (std::int64_t i = 0; i < size_; ++i)
      bigger[static_cast<std::size_t>(i)] = ring_[static_cast<std::size_t>((head_ + i) & mask())];
    ring_ = std::move(bigger);
    head_ = 0;
  }

  std::vector<std::int32_t> ring_;
  std::int64_t head_ = 0, size_ = 0;
};

struct Bank {
  IdQueue part[2];           // partitions; single-buffered mode uses part[0] only
  std::int32_t reserved = 0; // pull-partition entries held for ids a refill brings (§III-D)
  Cycle port_free = 0;       // the single port's next free cycle
};

}  // namespace tbdse::hwwl
