#include "unit_calendar.hpp"

#include <algorithm>
#include <utility>

namespace tbdse {

UnitCalendar::UnitCalendar(const UnitCalendar& other)
    : words_(other.words_),
      mask_(other.mask_),
      lo_(other.lo_),
      hi_(other.hi_),
      spans_(other.spans_ ? std::make_unique<Calendar>(*other.spans_) : nullptr) {}

UnitCalendar& UnitCalendar::operator=(const UnitCalendar& other) {
  if (this != &other) {
    UnitCalendar copy(other);
    std::swap(words_, copy.words_);
    std::swap(mask_, copy.mask_);
    std::swap(lo_, copy.lo_);
    std::swap(hi_, copy.hi_);
    std::swap(spans_, copy.spans_);
  }
  return *this;
}

Cycle UnitCalendar::book_outside(Cycle at) {
  // Cycles before the window are free; from the window's end on all are.
  const Cycle t = (at >> 6) < lo_ ? at : std::max(at, hi_ * 64);
  const std::int64_t w = t >> 6;
  const bool fits = t < kMaxExact && (lo_ == hi_ ? cover(w, w + 1)
                                                 : cover(std::min(lo_, w), std::max(hi_, w + 1)));
  if (!fits) return book_spans(at);
  return take(w, static_cast<int>(t & 63));
}

Cycle UnitCalendar::book_spans(Cycle at) {
  if (!spans_) to_spans();
  return static_cast<Cycle>(spans_->book(static_cast<double>(at)));
}

bool UnitCalendar::cover(std::int64_t lo, std::int64_t hi) {
  if (hi - lo > kMaxWords) return false;
  if (static_cast<std::size_t>(hi - lo) > words_.size()) {  // a larger ring, same positions
    std::vector<std::uint64_t> grown(std::bit_ceil(static_cast<std::size_t>(hi - lo)), 0);
    const std::size_t mask = grown.size() - 1;
    for (std::int64_t w = lo_; w < hi_; ++w) grown[static_cast<std::size_t>(w) & mask] = words_[index(w)];
    words_ = std::move(grown);
    mask_ = mask;
  }
  lo_ = lo;  // the ring's words outside the old window are zero: free
  hi_ = hi;
  return true;
}

void UnitCalendar::to_spans() {
  spans_ = std::make_unique<Calendar>(1.0);
  for (std::int64_t w = lo_; w < hi_; ++w)  // booked in increasing order: each run one span
    for (std::uint64_t bits = words_[index(w)]; bits; bits &= bits - 1)
      spans_->book(static_cast<double>(w * 64 + std::countr_zero(bits)));
  words_.clear();
  words_.shrink_to_fit();
  lo_ = hi_ = 0;
}

void UnitCalendar::prune(Cycle horizon) {
  if (!spans_ && (horizon < 0 || horizon >= kMaxExact)) to_spans();
  if (spans_) {
    spans_->prune(static_cast<double>(horizon));
    return;
  }
  // Everything before `cut` goes: the horizon, or the start of the run that
  // crosses it (a span ending after the horizon is kept whole).
  Cycle cut = horizon;
  if (busy(horizon - 1) && busy(horizon)) {
    Cycle pos = horizon - 1;  // busy from pos + 1 to the horizon; look at pos and below
    for (;;) {
      const std::int64_t w = pos >> 6;
      if (w < lo_) {
        cut = pos + 1;
        break;
      }
      const int bit = static_cast<int>(pos & 63);
      const std::uint64_t upto = bit == 63 ? ~std::uint64_t{0} : (std::uint64_t{2} << bit) - 1;
      if (const std::uint64_t free = ~words_[index(w)] & upto) {
        cut = w * 64 + (63 - std::countl_zero(free)) + 1;
        break;
      }
      pos = w * 64 - 1;
    }
  }
  const std::int64_t cw = cut >> 6;
  if (cw <= lo_ && (cw < lo_ || cw >= hi_)) return;  // nothing in the window before the cut
  for (std::int64_t w = lo_; w < std::min(cw, hi_); ++w) words_[index(w)] = 0;
  if (cw >= hi_) {
    lo_ = hi_ = cw;  // the window is empty
    return;
  }
  words_[index(cw)] &= ~std::uint64_t{0} << (cut & 63);
  lo_ = cw;
}

}  // namespace tbdse
