// A core's load-store unit queue, sized in memory requests (HWWL §III-D: "as
// many virtualization requests as there is space in the load-store unit"):
// a warp memory instruction holds one entry per 128-byte line request it
// makes — one when its 32 threads read consecutive words, up to 32 when they
// are scattered — from when it issues until its data returns.  Entries are
// booked with their release cycle (the memory hierarchy says when each access
// completes), so "when are n entries free" is a walk over the booked releases.
// A warp instruction waits until all its entries are free, and is booked
// when it gets them (warp_memory.cpp); a small request (a virtualization
// load: one or two lines) may take entries that are free now ahead of warp
// instructions still waiting for theirs.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/types.hpp"

namespace tbdse::hwwl {

class LsuQueue {
 public:
  explicit LsuQueue(std::int64_t entries) : capacity_(std::max<std::int64_t>(1, entries)) {}

  std::int64_t capacity() const { return capacity_; }

  // Forgets bookings released by `now` (call with non-decreasing now).
  void release(Cycle now) {
    std::size_t k = 0;
    while (k < held_.size() && held_[k].release <= now) used_ -= held_[k++].n;
    held_.erase(held_.begin(), held_.begin() + static_cast<std::ptrdiff_t>(k));
  }

  // Entries free at cycle t (>= the last release call).
  std::int64_t free_at(Cycle t) const {
    std::int64_t used = used_;
    for (const auto& h : held_) {
      if (h.release > t) break;
      used -= h.n;
    }
    return capacity_ - used;
  }
  // The first cycle >= t at which n entries (at most the capacity: a bigger
  // instruction goes out in parts) are free.
  Cycle earliest(Cycle t, std::int64_t n) const {
    n = std::min(n, capacity_);
    std::int64_t used = used_;
    std::size_t k = 0;
    while (k < held_.size() && held_[k].release <= t) used -= held_[k++].n;
    while (used + n > capacity_) {  // wait for the next releases
      t = held_[k].release;
      used -= held_[k++].n;
    }
    return t;
  }

  // Books n entries from now (the last release call) until `until`.
  void book(std::int64_t n, Cycle until) {
    n = std::min(n, capacity_);
    if (n <= 0) return;
    const auto at = std::upper_bound(held_.begin(), held_.end(), until,
                                     [](Cycle c, const Held& h) { return c < h.release; });
    held_.insert(at, {until, n});
    used_ += n;
  }

 private:
  struct Held {
    Cycle release;
    std::int64_t n;
  };
  std::int64_t capacity_;
  std::int64_t used_ = 0;
  std::vector<Held> held_;  // ascending release
};

}  // namespace tbdse::hwwl
