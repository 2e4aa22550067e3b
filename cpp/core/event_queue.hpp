// Pending events ordered by (time, priority, insertion sequence), as in SST's
// activity ordering: equal times resolve by priority (lower first), then by
// the order events were posted, so a run is deterministic by construction.
#pragma once

#include <algorithm>
#include <cstdint>
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
  void push(Cycle time, std::int32_t priority, std::int32_t kind, std::int64_t payload) {
    heap_.push_back(Event{time, priority, kind, next_seq_++, payload});
    std::push_heap(heap_.begin(), heap_.end(), Later{});
  }

  const Event& top() const { return heap_.front(); }

  Event pop() {
    std::pop_heap(heap_.begin(), heap_.end(), Later{});
    Event e = heap_.back();
    heap_.pop_back();
    return e;
  }

  bool empty() const { return heap_.empty(); }
  std::size_t size() const { return heap_.size(); }
  void reserve(std::size_t n) { heap_.reserve(n); }

 private:
  struct Later {
    bool operator()(const Event& a, const Event& b) const { return a.after(b); }
  };
  std::vector<Event> heap_;
  std::uint64_t next_seq_ = 0;
};

}  // namespace tbdse
