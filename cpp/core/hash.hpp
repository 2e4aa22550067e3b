// Stable 64-bit hashing of configuration content.  The values must not depend
// on the process, platform word order or thread, because they key the random
// streams (docs/ARCHITECTURE.md "Determinism") and name runs in result tables.
#pragma once

#include <bit>
#include <cstdint>
#include <span>
#include <string_view>

namespace tbdse {

// SplitMix64 finaliser: a bijective, well-mixing function of 64 bits.
constexpr std::uint64_t mix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

class Hasher {
 public:
  explicit Hasher(std::uint64_t seed = 0x7462647365ULL) : state_(mix64(seed)) {}

  Hasher& add(std::uint64_t v) {
    state_ = mix64(state_ ^ mix64(v + 0x632BE59BD9B4E019ULL * ++count_));
    return *this;
  }
  Hasher& add_signed(std::int64_t v) { return add(static_cast<std::uint64_t>(v)); }
  // Doubles by bit pattern, with -0.0 folded into 0.0 so equal values hash equal.
  Hasher& add_double(double v) { return add(v == 0.0 ? 0ULL : std::bit_cast<std::uint64_t>(v)); }
  Hasher& add_string(std::string_view s) {
    add(s.size());
    std::uint64_t word = 0;
    int filled = 0;
    for (const char c : s) {
      word = (word << 8) | static_cast<unsigned char>(c);
      if (++filled == 8) {
        add(word);
        word = 0;
        filled = 0;
      }
    }
    if (filled > 0) add(word);
    return *this;
  }
  template <class T>
  Hasher& add_span(std::span<const T> values) {
    add(values.size());
    for (const T& v : values) add(static_cast<std::uint64_t>(v));
    return *this;
  }

  std::uint64_t digest() const { return mix64(state_ ^ count_); }

 private:
  std::uint64_t state_;
  std::uint64_t count_ = 0;
};

}  // namespace tbdse
