// x % d for a divisor fixed at run time (L2 banks, DRAM channels), by
// multiplication instead of a 64-bit division on every line request
// (Lemire, Kaser and Kurz, "Faster remainder by direct computation", 2019:
// with a 128-bit reciprocal the result is exact for every 64-bit x).
#pragma once

#include <cstdint>

namespace tbdse {

class FastMod {
 public:
  // d >= 1.
  explicit FastMod(std::uint64_t d) : d_(d), m_(~U128{0} / d + 1) {}
  std::uint64_t operator()(std::uint64_t x) const {
    const U128 low = m_ * x;  // the fractional part of x / d, in 128 bits
    const U128 bottom = (static_cast<U128>(static_cast<std::uint64_t>(low)) * d_) >> 64;
    return static_cast<std::uint64_t>(((low >> 64) * d_ + bottom) >> 64);
  }
  std::uint64_t divisor() const { return d_; }

 private:
  __extension__ typedef unsigned __int128 U128;
  std::uint64_t d_;
  U128 m_;
};

}  // namespace tbdse
