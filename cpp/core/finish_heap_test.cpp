#include "core/finish_heap.hpp"

#include <doctest/doctest.h>

#include <queue>
#include <tuple>

#include "core/rng.hpp"

using namespace tbdse;

TEST_CASE("FinishHeap yields slots by (time, issue order)") {
  // Random occupy / complete steps over 120 slots, checked against std::priority_queue.
  // Finish times sit on a coarse grid so that equal times are common.
  const std::int32_t slots = 120;
  FinishHeap heap(slots);
  using Key = std::tuple<Cycle, std::uint64_t, std::int32_t>;
  std::priority_queue<Key, std::vector<Key>, std::greater<>> ref;
  std::vector<bool> busy(slots, false);
  const Philox rng(11);
  std::uint64_t seq = 0;
  Cycle now = 0;
  for (std::uint64_t step = 0; step < 100000; ++step) {
    const auto s = static_cast<std::int32_t>(rng.uniform(step) * slots);
    if (!busy[s] && rng.uniform(step, 1) < 0.6) {
      const Cycle t = now + 10 * static_cast<Cycle>(rng.uniform(step, 2) * 5);
      heap.push(t, seq, s);
      ref.emplace(t, seq, s);
      busy[s] = true;
      ++seq;
    } else if (!ref.empty()) {
      const auto [t, q, slot] = ref.top();
      ref.pop();
      REQUIRE(heap.first() == slot);
      REQUIRE(heap.first_time() == t);
      now = t;
      heap.pop();
      busy[slot] = false;
    }
    REQUIRE(heap.empty() == ref.empty());
  }
  CHECK(FinishHeap(1).first_time() == FinishHeap::kNever);
}
