// FastMod against the % operator: the bank and channel of every line depend on it.
#include "core/fast_mod.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <initializer_list>
#include <limits>

using tbdse::FastMod;

TEST_CASE("FastMod equals x % d for every divisor tried and extreme and random x") {
  std::uint64_t s = 0x9E3779B97F4A7C15ull;
  const std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
  for (const std::uint64_t d : {std::uint64_t{1}, std::uint64_t{2}, std::uint64_t{3},
                                std::uint64_t{5}, std::uint64_t{6}, std::uint64_t{7},
                                std::uint64_t{12}, std::uint64_t{24}, std::uint64_t{64},
                                std::uint64_t{1000003}, max / 3, max - 1, max}) {
    const FastMod mod(d);
    for (const std::uint64_t x : {std::uint64_t{0}, std::uint64_t{1}, d - 1, d, d + 1, 2 * d - 1,
                                  max, max - 1, max - d, max / 2})
      CHECK(mod(x) == x % d);
    for (int i = 0; i < 20000; ++i) {
      s ^= s << 13;
      s ^= s >> 7;
      s ^= s << 17;
      CHECK(mod(s) == s % d);
      CHECK(mod(s >> (i % 64)) == (s >> (i % 64)) % d);
    }
  }
}
