#include "calendar.hpp"

#include <algorithm>

namespace tbdse {

std::size_t Calendar::search_after(double at) const {
  // Spans are disjoint and sorted, so their ends are sorted too: a binary
  // search whose step is a conditional move (no branch to mispredict).
  const std::size_t n = spans_.size();
  const Span* base = spans_.data() + head_;
  std::size_t len = n - head_;
  if (len == 0) return n;
  while (len > 1) {  // the answer lies in [base, base + len]
    const std::size_t half = len / 2;
    base = base[half].end > at ? base : base + half;
    len -= half;
  }
  return static_cast<std::size_t>(base - spans_.data()) + (base->end > at ? 0 : 1);
}

void Calendar::reshape(const Slot& slot, double end, bool joins_prev) {
  const std::size_t i = slot.before;
  const auto at_i = spans_.begin() + static_cast<std::ptrdiff_t>(i);
  if (joins_prev) {  // and the next: the two spans become one
    spans_[i - 1].end = spans_[i].end;
    spans_.erase(at_i);
    hint_ = i - 1;
  } else {
    spans_.insert(at_i, Span{slot.start, end});
    hint_ = i;
  }
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
