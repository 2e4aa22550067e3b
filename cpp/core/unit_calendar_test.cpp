// UnitCalendar (the L2 banks' bitset calendar) against Calendar(1.0), which it
// replaces: the same start for every booking, through prunes, bookings before
// the horizon, far jumps that grow its ring, and the switch to spans.
#include "core/unit_calendar.hpp"

#include <doctest/doctest.h>

#include <cstdint>

#include "core/calendar.hpp"

using namespace tbdse;

namespace {

std::uint64_t next(std::uint64_t& x) {
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return x;
}

// Books `n` random arrivals on both; every `prune_every` a prune (0: none).
// `spread` cycles ahead of the horizon; `early` in 1000: arrivals before the
// horizon (callers that break the promise); `jump` in 100000: a far arrival.
void compare(std::uint64_t seed, int n, Cycle spread, int prune_every, int early, int jump) {
  UnitCalendar u;
  Calendar c(1.0);
  Cycle horizon = 0;
  std::uint64_t x = seed;
  for (int i = 0; i < n; ++i) {
    Cycle at = horizon + static_cast<Cycle>(next(x) % static_cast<std::uint64_t>(spread));
    if (static_cast<int>(next(x) % 1000) < early) at = std::max<Cycle>(0, horizon - 1 - at % 300);
    if (static_cast<int>(next(x) % 100000) < jump) at += Cycle{1} << (20 + next(x) % 12);
    const Cycle expect = static_cast<Cycle>(c.book(static_cast<double>(at)));
    REQUIRE(u.book(at) == expect);
    if (prune_every && i % prune_every == 0) {
      horizon += static_cast<Cycle>(next(x) % static_cast<std::uint64_t>(2 * spread / 3 + 1));
      u.prune(horizon);
      c.prune(static_cast<double>(horizon));
    }
  }
}

}  // namespace

TEST_CASE("unit calendar: the bookings of Calendar(1.0), exactly") {
  SUBCASE("light load, pruned often") { compare(1, 200000, 600, 50, 0, 0); }
  SUBCASE("heavy load: long runs cross the horizon") { compare(2, 200000, 40, 3, 0, 0); }
  SUBCASE("arrivals before the horizon") { compare(3, 200000, 300, 20, 30, 0); }
  SUBCASE("never pruned: the ring grows") { compare(4, 100000, 20000, 0, 0, 0); }
  SUBCASE("far jumps: the switch to spans") { compare(5, 100000, 500, 10, 10, 20); }
}

TEST_CASE("unit calendar: a copy books on its own") {
  UnitCalendar a;
  CHECK(a.book(5) == 5);
  CHECK(a.book(5) == 6);
  UnitCalendar b = a;
  CHECK(b.book(5) == 7);
  CHECK(a.book(5) == 7);
  a.prune(7);  // the run [5, 8) crosses 7: kept whole
  CHECK(a.book(5) == 8);
  b.prune(8);  // [5, 8) ends at 8: dropped, so 5 is free again (an arrival before the horizon)
  CHECK(b.book(5) == 5);
}
