// A calendar of one-cycle slots booked at whole cycles (an L2 bank port
// under gap_filling, docs/memory.md "Booking"): the same bookings as
// Calendar(1.0), kept as a bitset of busy cycles instead of a sorted list of
// spans.  A booking is then a word load and a count of trailing ones, where
// the span list needed a binary search over a few dozen spans (the banks'
// bookings land all over the MSHRs' future) and often an insertion.
//
// Why it is the same: with one-cycle slots at whole cycles a gap is a whole
// number of cycles, so spans merge exactly when they touch and the spans are
// the maximal runs of busy cycles; a booking takes the first free cycle at
// or after its arrival, and prune drops the runs that end at or before the
// horizon (a run across it stays whole).  The bitset covers a window of
// cycles in a ring of 64-bit words (cycles outside it are free); a window
// that would grow past kMaxWords words (requests far apart with no prune in
// between), or a cycle outside [0, 2^53) (where doubles round), turns the
// calendar into a Calendar(1.0) holding the same runs.
#pragma once

#include <bit>
#include <cstdint>
#include <memory>
#include <vector>

#include "calendar.hpp"
#include "types.hpp"

namespace tbdse {

class UnitCalendar {
 public:
  UnitCalendar() : words_(kMinWords, 0), mask_(kMinWords - 1) {}
  UnitCalendar(const UnitCalendar& other);
  UnitCalendar& operator=(const UnitCalendar& other);
  UnitCalendar(UnitCalendar&&) noexcept = default;
  UnitCalendar& operator=(UnitCalendar&&) noexcept = default;

  // Books the first free cycle at or after `at`; returns it.
  Cycle book(Cycle at) {
    if (spans_ || at < 0 || at >= kMaxExact) [[unlikely]] return book_spans(at);
    std::int64_t w = at >> 6;
    if (w < lo_ || w >= hi_) return book_outside(at);
    // The word of `at` from its bit on, then whole words.
    const std::uint64_t free_from_at = ~words_[index(w)] & (~std::uint64_t{0} << (at & 63));
    if (free_from_at) return take(w, std::countr_zero(free_from_at));
    for (++w; w < hi_; ++w)
      if (const std::uint64_t free = ~words_[index(w)]) return take(w, std::countr_zero(free));
    return book_outside(at);
  }
  // Drops the runs of busy cycles that end at or before `horizon`.
  void prune(Cycle horizon);

  static constexpr std::int64_t kMaxWords = std::int64_t{1} << 16;  // 4M cycles, 512 KB

 private:
  static constexpr std::int64_t kMinWords = 64;
  static constexpr Cycle kMaxExact = Cycle{1} << 53;
  std::size_t index(std::int64_t w) const { return static_cast<std::size_t>(w) & mask_; }
  bool busy(Cycle c) const {
    const std::int64_t w = c >> 6;
    return w >= lo_ && w < hi_ && (words_[index(w)] >> (c & 63) & 1);
  }
  Cycle take(std::int64_t w, int bit) {
    words_[index(w)] |= std::uint64_t{1} << bit;
    return w * 64 + bit;
  }
  // `at` lies outside the window, or every cycle from it to the window's end is busy.
  Cycle book_outside(Cycle at);
  Cycle book_spans(Cycle at);
  // Makes the window [lo, hi) (a superset of the current one); false when it
  // would pass kMaxWords (the caller switches to spans).
  bool cover(std::int64_t lo, std::int64_t hi);
  void to_spans();

  std::vector<std::uint64_t> words_;  // ring: cycle c is bit c % 64 of word (c / 64) & mask_
  std::size_t mask_;
  std::int64_t lo_ = 0, hi_ = 0;      // the window's words [lo_, hi_); all others are zero
  std::unique_ptr<Calendar> spans_;   // after the switch: the runs as spans
};

}  // namespace tbdse
