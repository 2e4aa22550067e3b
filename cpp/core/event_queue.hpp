// Pending events ordered by (time, priority, insertion sequence), as in SST's
// activity ordering: equal times resolve by priority (lower first), then by
// the order events were posted, so a run is deterministic by construction.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "types.hpp"

namespace tbdse {

struct Event {
  Cycle time = 0;
  std::int32_t priority = 0;  // lower runs first among equal times
  std::int32_t kind = 0;      // who handles it: the engine (TB finish) or a scheme's own kinds
  std::uint64_t seq = 0;      // insertion order, the final tie-break
  std::int64_t payload = 0;   // kind-specific data

  // True when this event must run after `other`.
  bool after(const Event& other) const {
    if (time != other.time) return time > other.time;
    if (priority != other.priority) return priority > other.priority;
    return seq > other.seq;
  }
};

class EventQueue {
 public:
  EventQueue() : heap_(2, kSentinel) {}

  void push(Cycle time, std::int32_t priority, std::int32_t kind, std::int64_t payload) {
    const Event e{time, priority, kind, next_seq_++, payload};
    if (2 * (size_ + 1) + 2 > heap_.size()) heap_.resize(2 * heap_.size() + 2, kSentinel);
    std::size_t hole = size_++;
    while (hole > 0) {
      const std::size_t parent = (hole - 1) / 2;
      if (!before(e, heap_[parent])) break;
      heap_[hole] = heap_[parent];
      hole = parent;
    }
    heap_[hole] = e;
  }

  const Event& top() const { return heap_.front(); }

  // Floyd's pop, as in FinishHeap: the hole sinks to a leaf along the earlier
  // child chosen without a branch (sentinels stand in for missing children),
  // then the last event rises into it.
  Event pop() {
    const Event first = heap_[0];
    const Event last = heap_[--size_];
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
    return first;
  }

  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  void reserve(std::size_t n) { heap_.reserve(2 * n + 2); }

 private:
  static constexpr Event kSentinel{std::numeric_limits<Cycle>::max(),
                                   std::numeric_limits<std::int32_t>::max(), 0,
                                   std::numeric_limits<std::uint64_t>::max(), 0};
  // a strictly before b, evaluated without branches
  static std::size_t before(const Event& a, const Event& b) {
    const bool t = a.time < b.time, te = a.time == b.time;
    const bool p = a.priority < b.priority, pe = a.priority == b.priority;
    return static_cast<std::size_t>(t | (te & (p | (pe & (a.seq < b.seq)))));
  }
  std::vector<Event> heap_;  // events [0, size_), then sentinels
  std::size_t size_ = 0;
  std::uint64_t next_seq_ = 0;
};

}  // namespace tbdse
