// The MSHR file's choice against the scan it replaced (docs/memory.md "L1").
#include "core/mshr_file.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

using namespace tbdse;

namespace {

// The specification: scan from MSHR 0, keep the earliest-freeing so far
// (strictly earlier replaces), stop at the first free one.
std::size_t scan(const std::vector<Cycle>& ready, Cycle at) {
  std::size_t entry = 0;
  for (std::size_t m = 0; m < ready.size() && ready[entry] > at; ++m)
    if (ready[m] < ready[entry]) entry = m;
  return entry;
}

}  // namespace

TEST_CASE("MSHR file: the lowest free MSHR, else the earliest to free, as the scan") {
  MshrFile small(3);
  CHECK(small.choose(0) == 0);  // all free at 0
  small.set_ready(0, 50);
  small.set_ready(1, 40);
  CHECK(small.choose(10) == 2);  // the free one
  small.set_ready(2, 40);
  CHECK(small.choose(10) == 1);  // none free: earliest, lowest-numbered of the tie
  CHECK(small.choose(45) == 1);  // 1 and 2 free at 45: the lowest

  for (const std::int64_t count : {1, 5, 32, 256}) {
    CAPTURE(count);
    MshrFile file(count);
    std::vector<Cycle> ready(static_cast<std::size_t>(count), 0);
    std::uint64_t x = 12345;
    Cycle at = 0;
    for (int i = 0; i < 20000; ++i) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      at += static_cast<Cycle>(x >> 61);  // 0..7 cycles apart: often all busy
      const std::size_t expect = scan(ready, at);
      REQUIRE(file.choose(at) == expect);
      const Cycle done = std::max(at, ready[expect]) + 20 + static_cast<Cycle>((x >> 33) % 400);
      ready[expect] = done;
      file.set_ready(expect, done);
      REQUIRE(file.ready(expect) == done);
    }
  }
}
