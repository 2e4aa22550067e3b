// Running thread blocks by finish time: a FloydHeap of 16-byte entries (finish
// cycle; issue sequence and a handle of the running TB packed in one word).
// Its size is the number of TBs running at once.  Equal finish times come out
// in issue order, which keeps a run deterministic.
#pragma once

#include <cstdint>
#include <limits>

#include "floyd_heap.hpp"
#include "types.hpp"

namespace tbdse {

class FinishHeap {
 public:
  static constexpr Cycle kNever = std::numeric_limits<Cycle>::max();

  explicit FinishHeap(std::size_t expected) : heap_(expected) {}

  bool empty() const { return heap_.empty(); }
  Cycle first_time() const { return heap_.top().time; }  // the sentinel's kNever when empty
  // The handle of the thread block that finishes first (ties: issued first).
  std::int32_t first() const { return static_cast<std::int32_t>(heap_.top().order & kSlotMask); }
  // The sequence number the first entry was pushed with.
  std::uint64_t first_seq() const { return heap_.top().order >> kSlotBits; }
  std::size_t size() const { return heap_.size(); }

  // `seq` must grow with every push (the issue sequence number).
  void push(Cycle time, std::uint64_t seq, std::int32_t handle) {
    heap_.push(Entry{time, (seq << kSlotBits) | static_cast<std::uint64_t>(handle)});
  }

  void pop() { heap_.pop(); }

  static constexpr int kSlotBits = 24;  // up to 16M TBs running at once; 2^40 issues per run

 private:
  static constexpr std::uint64_t kSlotMask = (std::uint64_t{1} << kSlotBits) - 1;
  struct Entry {
    Cycle time;
    std::uint64_t order;  // issue sequence << kSlotBits | handle
  };
  struct Order {
    static constexpr Entry kSentinel{kNever, ~std::uint64_t{0}};
    // a strictly before b, evaluated without branches
    static std::size_t before(const Entry& a, const Entry& b) {
      return static_cast<std::size_t>((a.time < b.time) | ((a.time == b.time) & (a.order < b.order)));
    }
  };
  FloydHeap<Entry, Order> heap_;
};

}  // namespace tbdse
