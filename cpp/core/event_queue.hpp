// Pending events ordered by (time, priority, insertion sequence), as in SST's
// activity ordering: equal times resolve by priority (lower first), then by
// the order events were posted, so a run is deterministic by construction.
#pragma once

#include <cstdint>
#include <limits>

#include "floyd_heap.hpp"
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
  void push(Cycle time, std::int32_t priority, std::int32_t kind, std::int64_t payload) {
    heap_.push(Event{time, priority, kind, next_seq_++, payload});
  }

  const Event& top() const { return heap_.top(); }

  Event pop() {
    const Event first = heap_.top();
    heap_.pop();
    return first;
  }

  bool empty() const { return heap_.empty(); }
  std::size_t size() const { return heap_.size(); }
  void reserve(std::size_t n) { heap_.reserve(n); }

 private:
  struct Order {
    static constexpr Event kSentinel{std::numeric_limits<Cycle>::max(),
                                     std::numeric_limits<std::int32_t>::max(), 0,
                                     std::numeric_limits<std::uint64_t>::max(), 0};
    // a strictly before b, evaluated without branches
    static std::size_t before(const Event& a, const Event& b) {
      const bool t = a.time < b.time, te = a.time == b.time;
      const bool p = a.priority < b.priority, pe = a.priority == b.priority;
      return static_cast<std::size_t>(t | (te & (p | (pe & (a.seq < b.seq)))));
    }
  };
  FloydHeap<Event, Order> heap_;
  std::uint64_t next_seq_ = 0;
};

}  // namespace tbdse
