// A resource's bookings as a calendar of busy spans (docs/memory.md
// "Booking"): every request holds the resource for one slot (`slot` cycles,
// fractional for a DRAM sector); a request that arrives at cycle c takes the
// earliest free slot at or after c, filling a gap that earlier bookings left,
// instead of queueing behind the latest booking.  Spans that touch are
// merged, and so is a gap too short for a slot (no request can use it), so
// a resource kept busy is one span and every gap in the calendar takes a
// request: a booking is a search and at most one step.  Spans that end at or
// before a horizon (a cycle no later request arrives before) are dropped.
// Requests that arrive in non-decreasing order get exactly what a single
// "next free" time gives (every gap ends before the latest arrival), with
// the same arithmetic.
//
// The spans are a sorted array, not a tree: most bookings extend the span
// before them in place, and the spans a booking inserts or merges sit a few
// hundred from the end, so moving them costs less than a node allocation per
// booking; the search gallops out from the previous booking's place, as a
// footprint's requests come a cycle apart (docs/memory.md "Speed").
#pragma once

#include <cstddef>
#include <vector>

namespace tbdse {

class Calendar {
 public:
  // slot > 0: cycles one request holds the resource.
  explicit Calendar(double slot) : slot_(slot) {}
  // Where a request arriving at `at` would start (no change).
  double earliest(double at) const;
  // Books the earliest free slot at or after `at`; returns its start.
  double book(double at);
  // Drops spans ending at or before `horizon`; later arrivals must be >= it.
  void prune(double horizon);
  // Busy time after `cycle` (queued or in service).
  double busy_after(double cycle) const;
  std::size_t spans() const { return spans_.size() - head_; }

 private:
  struct Span {
    double start, end;
  };
  struct Slot {
    double start;        // where a request arriving at `at` starts
    std::size_t before;  // index of the span after that slot (size() if none)
  };
  Slot find(double at) const;
  // Index of the first live span whose end is after `at` (size() if none).
  std::size_t first_after(double at) const;
  double slot_;
  std::vector<Span> spans_;  // sorted, disjoint, gaps >= slot_; live from head_ on
  std::size_t head_ = 0;     // spans before it are pruned (dropped in bulk, amortised)
  std::size_t hint_ = 0;     // the latest booking's index: where the next search starts
};

}  // namespace tbdse
