// Levels of the thread blocks running now (Wireframe §4.3): the lowest, which
// the level-bound policy (LVL) measures run-ahead against, and the level range
// max - min, whose maximum over a run Wireframe's Fig. 10 reports.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace tbdse {

class RunningLevels {
 public:
  explicit RunningLevels(std::int32_t levels) : count_(static_cast<std::size_t>(levels), 0) {}

  void add(std::int32_t level) {
    if (running_++ == 0) {
      min_ = max_ = level;
    } else {
      min_ = std::min(min_, level);
      max_ = std::max(max_, level);
    }
    ++count_[level];
    max_range_ = std::max(max_range_, max_ - min_);
  }

  void remove(std::int32_t level) {
    --count_[level];
    if (--running_ == 0) return;
    while (count_[min_] == 0) ++min_;
    while (count_[max_] == 0) --max_;
  }

  bool empty() const { return running_ == 0; }
  std::int32_t min() const { return min_; }
  std::int32_t max() const { return max_; }

  // LVL (Wireframe §4.3): a TB of `level` may start if it is at most `bound`
  // levels above the lowest running one: with a bound of 4 running TBs are
  // "not more than 4 levels apart" (§3.3), so the range max - min stays <= bound.
  bool allows(std::int32_t level, std::int64_t bound) const {
    return running_ == 0 || level - min_ <= bound;
  }

  std::int32_t max_range() const { return max_range_; }

 private:
  std::vector<std::int32_t> count_;  // running TBs per level
  std::int32_t running_ = 0;
  std::int32_t min_ = 0, max_ = 0;   // valid while running_ > 0
  std::int32_t max_range_ = 0;
};

}  // namespace tbdse
