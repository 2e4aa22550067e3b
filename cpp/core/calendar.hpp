// A resource's bookings as a calendar of busy spans (docs/memory.md
// "Booking"): a request that arrives at cycle c takes the earliest free
// stretch of its length at or after c, filling a gap that earlier bookings
// left, instead of queueing behind the latest booking.  Spans that touch are
// merged, so a resource kept busy is one span and the calendar holds only
// the gaps still open; spans that end at or before a horizon (a cycle no
// later request arrives before) are dropped.  Requests that arrive in
// non-decreasing order get exactly what a single "next free" time gives
// (every gap ends before the latest arrival), with the same arithmetic.
#pragma once

#include <cstddef>
#include <vector>

namespace tbdse {

class Calendar {
 public:
  // Where a booking of `length` arriving at `at` would start (no change).
  double earliest(double at, double length) const;
  // Books the earliest free stretch of `length` at or after `at`; returns its start.
  double book(double at, double length);
  // Drops spans ending at or before `horizon`; later arrivals must be >= it.
  void prune(double horizon);
  // Busy time after `cycle` (queued or in service).
  double busy_after(double cycle) const;
  std::size_t spans() const { return spans_.size() - head_; }

 private:
  struct Span {
    double start, end;
  };
  // First live span whose end is after `at`.
  std::size_t first_after(double at) const;
  std::vector<Span> spans_;  // sorted, disjoint; live from head_
  std::size_t head_ = 0;
};

}  // namespace tbdse
