#include "calendar.hpp"

#include <algorithm>
#include <iterator>

namespace tbdse {

namespace {
constexpr double kTouch = 1e-9;  // spans closer than this touch (DRAM sector times are fractional)
}

Calendar::Spans::const_iterator Calendar::first_after(double at) const {
  auto it = spans_.upper_bound(at);  // first span starting after `at`
  if (it != spans_.begin()) {
    const auto before = std::prev(it);
    if (before->second > at) return before;
  }
  return it;
}

double Calendar::earliest(double at) const {
  double start = at;
  for (auto it = first_after(at); it != spans_.end(); ++it) {
    if (it->first - start >= slot_ - kTouch) break;  // fits in the gap before this span
    start = std::max(start, it->second);
  }
  return start;
}

double Calendar::book(double at) {
  double start = at;
  auto it = spans_.upper_bound(at);
  if (it != spans_.begin() && std::prev(it)->second > at) --it;
  for (; it != spans_.end(); ++it) {  // every gap fits a slot: at most two steps
    if (it->first - start >= slot_ - kTouch) break;
    start = std::max(start, it->second);
  }
  const double end = start + slot_;
  // A gap left shorter than a slot can take no request: it joins the span.
  const auto prev = it == spans_.begin() ? spans_.end() : std::prev(it);
  const bool joins_prev = prev != spans_.end() && start - prev->second < slot_ - kTouch;
  const bool joins_next = it != spans_.end() && it->first - end < slot_ - kTouch;
  if (joins_prev && joins_next) {
    prev->second = it->second;
    spans_.erase(it);
  } else if (joins_prev) {
    prev->second = end;
  } else if (joins_next) {
    const double next_end = it->second;
    spans_.emplace_hint(spans_.erase(it), start, next_end);
  } else {
    spans_.emplace_hint(it, start, end);
  }
  return start;
}

void Calendar::prune(double horizon) {
  while (!spans_.empty() && spans_.begin()->second <= horizon) spans_.erase(spans_.begin());
}

double Calendar::busy_after(double cycle) const {
  double busy = 0;
  for (auto it = first_after(cycle); it != spans_.end(); ++it)
    busy += it->second - std::max(it->first, cycle);
  return busy;
}

}  // namespace tbdse
