#include "calendar.hpp"

#include <algorithm>

namespace tbdse {

namespace {
constexpr double kTouch = 1e-9;  // spans closer than this touch (DRAM sector times are fractional)
}

std::size_t Calendar::first_after(double at) const {
  // Spans are disjoint and sorted, so their ends are sorted too.  The search
  // gallops out from the previous booking's index: a footprint's requests
  // come a cycle apart, so they land near one another.
  const auto ends_after = [&](std::size_t i) { return spans_[i].end > at; };
  std::size_t lo = head_, hi = spans_.size();  // the answer lies in [lo, hi]
  const std::size_t h = std::clamp(hint_, head_, spans_.size());
  if (h == spans_.size() || ends_after(h)) {  // the answer is h or before: gallop left
    hi = h;
    for (std::size_t step = 1; hi - lo >= step; step *= 2) {
      if (!ends_after(hi - step)) {
        lo = hi - step + 1;
        break;
      }
      hi -= step;
    }
  } else {  // after h: gallop right
    lo = h + 1;
    for (std::size_t step = 1; hi - lo >= step; step *= 2) {
      if (ends_after(lo + step - 1)) {
        hi = lo + step - 1;
        break;
      }
      lo += step;
    }
  }
  const auto it = std::partition_point(spans_.begin() + static_cast<std::ptrdiff_t>(lo),
                                       spans_.begin() + static_cast<std::ptrdiff_t>(hi),
                                       [&](const Span& s) { return !(s.end > at); });
  return static_cast<std::size_t>(it - spans_.begin());
}

Calendar::Slot Calendar::find(double at) const {
  Slot slot{at, first_after(at)};
  for (; slot.before < spans_.size(); ++slot.before) {  // every gap fits a slot: at most two steps
    if (spans_[slot.before].start - slot.start >= slot_ - kTouch) break;  // fits before this span
    slot.start = std::max(slot.start, spans_[slot.before].end);
  }
  return slot;
}

double Calendar::earliest(double at) const { return find(at).start; }

double Calendar::book(double at) {
  const auto [start, i] = find(at);
  const double end = start + slot_;
  // A gap left shorter than a slot can take no request: it joins the span.
  const bool has_prev = i > head_;
  const bool joins_prev = has_prev && start - spans_[i - 1].end < slot_ - kTouch;
  const bool joins_next = i < spans_.size() && spans_[i].start - end < slot_ - kTouch;
  hint_ = i;
  const auto at_i = spans_.begin() + static_cast<std::ptrdiff_t>(i);
  if (joins_prev && joins_next) {
    spans_[i - 1].end = spans_[i].end;
    spans_.erase(at_i);
  } else if (joins_prev) {
    spans_[i - 1].end = end;
  } else if (joins_next) {
    spans_[i].start = start;
  } else {
    spans_.insert(at_i, Span{start, end});
  }
  return start;
}

void Calendar::prune(double horizon) {
  while (head_ < spans_.size() && spans_[head_].end <= horizon) ++head_;
  // Drop the pruned prefix once it outweighs the live spans: each span moves
  // O(1) times on average.
  if (head_ > 64 && head_ * 2 > spans_.size()) {
    spans_.erase(spans_.begin(), spans_.begin() + static_cast<std::ptrdiff_t>(head_));
    hint_ -= std::min(hint_, head_);
    head_ = 0;
  }
}

double Calendar::busy_after(double cycle) const {
  double busy = 0;
  for (std::size_t i = first_after(cycle); i < spans_.size(); ++i)
    busy += spans_[i].end - std::max(spans_[i].start, cycle);
  return busy;
}

}  // namespace tbdse
