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
// booking.  The search looks first at the previous booking's span (a line's
// sectors, a footprint's requests a cycle apart land there), then searches
// the live spans without branches.  The common paths are inline: a booking
// is a few dozen instructions (docs/memory.md "Speed").
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace tbdse {

class Calendar {
 public:
  // slot > 0: cycles one request holds the resource.
  explicit Calendar(double slot) : slot_(slot), fit_(slot - kTouch) {}
  // Where a request arriving at `at` would start (no change).
  double earliest(double at) const { return find(at).start; }
  // Books the earliest free slot at or after `at`; returns its start.
  double book(double at) { return place(find(at)); }
  // Books the earliest free slot at or after `at` only if it ends by
  // `limit` (earliest(at) + slot <= limit); whether it did.
  bool book_ending_by(double at, double limit) {
    const Slot slot = find(at);
    if (slot.start + slot_ > limit) return false;
    place(slot);
    return true;
  }
  // Drops spans ending at or before `horizon`; later arrivals must be >= it.
  void prune(double horizon);
  // Busy time after `cycle` (queued or in service).
  double busy_after(double cycle) const;
  std::size_t spans() const { return spans_.size() - head_; }

 private:
  static constexpr double kTouch = 1e-9;  // spans closer than this touch (fractional sector times)
  struct Span {
    double start, end;
  };
  struct Slot {
    double start;        // where a request arriving at `at` starts
    std::size_t before;  // index of the span after that slot (size() if none)
  };
  Slot find(double at) const {
    Slot slot{at, first_after(at)};
    for (; slot.before < spans_.size(); ++slot.before) {  // every gap fits a slot: at most two steps
      const Span& s = spans_[slot.before];
      if (s.start - slot.start >= fit_) break;  // fits before this span
      slot.start = std::max(slot.start, s.end);
    }
    return slot;
  }
  // Index of the first live span whose end is after `at` (size() if none).
  std::size_t first_after(double at) const {
    const std::size_t n = spans_.size();
    const std::size_t h = hint_ < head_ ? head_ : hint_ > n ? n : hint_;
    if ((h == n || spans_[h].end > at) && (h == head_ || !(spans_[h - 1].end > at))) return h;
    return search_after(at);
  }
  std::size_t search_after(double at) const;
  // Books `slot` (from find); returns its start.
  double place(const Slot& slot) {
    const auto [start, i] = slot;
    const double end = start + slot_;
    // A gap left shorter than a slot can take no request: it joins the span.
    const bool joins_prev = i > head_ && start - spans_[i - 1].end < fit_;
    const bool joins_next = i < spans_.size() && spans_[i].start - end < fit_;
    if (joins_prev && !joins_next) {
      spans_[i - 1].end = end;
      hint_ = i - 1;  // the span now holding this booking
    } else if (joins_next && !joins_prev) {
      spans_[i].start = start;
      hint_ = i;
    } else {
      reshape(slot, end, joins_prev);
    }
    return start;
  }
  // place()'s rarer cases: a booking that bridges two spans or stands alone.
  void reshape(const Slot& slot, double end, bool joins_prev);

  double slot_;
  double fit_;  // a gap fits a slot when it is at least this long
  std::vector<Span> spans_;  // sorted, disjoint, gaps >= slot_; live from head_ on
  std::size_t head_ = 0;     // spans before it are pruned (dropped in bulk, amortised)
  std::size_t hint_ = 0;     // the span holding the latest booking: where a search looks first
};

}  // namespace tbdse
