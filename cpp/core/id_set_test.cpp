#include "core/id_set.hpp"

#include <doctest/doctest.h>

#include <set>

#include "core/rng.hpp"

using tbdse::IdSet;

TEST_CASE("IdSet keeps the minimum like an ordered set") {
  // Random inserts and erases over 100,000 ids (three bitset levels), checked
  // against std::set after every step.
  const std::uint32_t n = 100000;
  IdSet ids(n);
  std::set<std::uint32_t> ref;
  const tbdse::Philox rng(5);
  for (std::uint64_t step = 0; step < 200000; ++step) {
    const auto v = static_cast<std::uint32_t>(rng.uniform(step) * n);
    if (rng.uniform(step, 1) < 0.55) {
      ids.insert(v);
      ref.insert(v);
    } else if (!ref.empty()) {
      const std::uint32_t m = ids.min();
      REQUIRE(m == *ref.begin());
      ids.erase(m);
      ref.erase(ref.begin());
    }
    REQUIRE(ids.size() == ref.size());
    if (!ref.empty()) REQUIRE(ids.min() == *ref.begin());
  }
}

TEST_CASE("IdSet edge sizes") {
  IdSet one(1);
  one.insert(0);
  CHECK(one.min() == 0);
  one.erase(0);
  CHECK(one.empty());
  IdSet exact(64 * 64);  // exactly two levels
  exact.insert(4095);
  exact.insert(64);
  CHECK(exact.min() == 64);
  exact.erase(64);
  CHECK(exact.min() == 4095);
  exact.insert(4095);  // inserting a member again changes nothing
  CHECK(exact.size() == 1);
}
