// Running thread blocks by finish time: a binary min-heap of 16-byte entries
// (finish cycle; issue sequence and a handle of the running TB packed in one
// word).  Its size is the number of TBs running at once.  Equal finish times come out in issue order,
// which keeps a run deterministic.
//
// pop() is Floyd's: the hole left by the minimum sinks to a leaf choosing the
// earlier child without a branch (sentinels after the last entry make every
// node look like it has two children), then the last entry rises into it.
// The child choice is a coin flip for a branch predictor, so taking the
// branch out of it is what makes the engine's hottest operation cheap.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "types.hpp"

namespace tbdse {

class FinishHeap {
 public:
  static constexpr Cycle kNever = std::numeric_limits<Cycle>::max();

  explicit FinishHeap(std::size_t expected) : heap_(2 * expected + 2, kSentinel) {}

  bool empty() const { return size_ == 0; }
  Cycle first_time() const { return heap_[0].time; }  // the sentinel's kNever when empty
  // The handle of the thread block that finishes first (ties: issued first).
  std::int32_t first() const { return static_cast<std::int32_t>(heap_[0].order & kSlotMask); }
  // The sequence number the first entry was pushed with.
  std::uint64_t first_seq() const { return heap_[0].order >> kSlotBits; }
  std::size_t size() const { return size_; }

  // `seq` must grow with every push (the issue sequence number).
  void push(Cycle time, std::uint64_t seq, std::int32_t handle) {
    const Entry e{time, (seq << kSlotBits) | static_cast<std::uint64_t>(handle)};
    if (2 * (size_ + 1) + 2 > heap_.size()) heap_.resize(2 * heap_.size(), kSentinel);
    std::size_t hole = size_++;
    while (hole > 0) {
      const std::size_t parent = (hole - 1) / 2;
      if (!before(e, heap_[parent])) break;
      heap_[hole] = heap_[parent];
      hole = parent;
    }
    heap_[hole] = e;
  }

  void pop() {
    const Entry last = heap_[--size_];
    heap_[size_] = kSentinel;
    std::size_t hole = 0;
    for (std::size_t child = 1; child < size_; child = 2 * hole + 1) {
      child += before(heap_[child + 1], heap_[child]);
      heap_[hole] = heap_[child];
      hole = child;
    }
    while (hole > 0) {
      const std::size_t parent = (hole - 1) / 2;
      if (!before(last, heap_[parent])) break;
      heap_[hole] = heap_[parent];
      hole = parent;
    }
    heap_[hole] = size_ > 0 ? last : kSentinel;
  }

  static constexpr int kSlotBits = 24;  // up to 16M TBs running at once; 2^40 issues per run

 private:
  static constexpr std::uint64_t kSlotMask = (std::uint64_t{1} << kSlotBits) - 1;
  struct Entry {
    Cycle time;
    std::uint64_t order;  // issue sequence << kSlotBits | handle
  };
  static constexpr Entry kSentinel{kNever, ~std::uint64_t{0}};
  // a strictly before b, evaluated without branches
  static std::size_t before(const Entry& a, const Entry& b) {
    return static_cast<std::size_t>((a.time < b.time) | ((a.time == b.time) & (a.order < b.order)));
  }
  std::vector<Entry> heap_;  // entries [0, size_), then sentinels
  std::size_t size_ = 0;
};

}  // namespace tbdse
