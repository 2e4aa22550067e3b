#include "calendar.hpp"

#include <algorithm>

namespace tbdse {

namespace {
constexpr double kTouch = 1e-9;  // spans closer than this touch (DRAM sector times are fractional)
}

std::size_t Calendar::first_after(double at) const {
  const auto it = std::partition_point(spans_.begin() + static_cast<std::ptrdiff_t>(head_),
                                       spans_.end(), [at](const Span& s) { return s.end <= at; });
  return static_cast<std::size_t>(it - spans_.begin());
}

double Calendar::earliest(double at, double length) const {
  double start = at;
  for (std::size_t i = first_after(at); i < spans_.size(); ++i) {
    if (spans_[i].start - start >= length - kTouch) break;  // fits in the gap before span i
    start = std::max(start, spans_[i].end);
  }
  return start;
}

double Calendar::book(double at, double length) {
  double start = at;
  std::size_t i = first_after(at);
  for (; i < spans_.size(); ++i) {
    if (spans_[i].start - start >= length - kTouch) break;
    start = std::max(start, spans_[i].end);
  }
  const double end = start + length;
  const bool joins_prev = i > head_ && spans_[i - 1].end >= start - kTouch;
  const bool joins_next = i < spans_.size() && spans_[i].start <= end + kTouch;
  if (joins_prev && joins_next) {
    spans_[i - 1].end = spans_[i].end;
    spans_.erase(spans_.begin() + static_cast<std::ptrdiff_t>(i));
  } else if (joins_prev) {
    spans_[i - 1].end = end;
  } else if (joins_next) {
    spans_[i].start = start;
  } else {
    spans_.insert(spans_.begin() + static_cast<std::ptrdiff_t>(i), Span{start, end});
  }
  return start;
}

void Calendar::prune(double horizon) {
  while (head_ < spans_.size() && spans_[head_].end <= horizon) ++head_;
  if (head_ > 64 && head_ * 2 > spans_.size()) {  // compact: amortised O(1) per span
    spans_.erase(spans_.begin(), spans_.begin() + static_cast<std::ptrdiff_t>(head_));
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
