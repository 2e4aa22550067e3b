// Coalescing of a warp's memory instruction as Fermi and later GPUs do it
// (docs/memory.md "Coalescing"): the active threads' addresses become one
// request per distinct 128-byte line, each with the mask of the 32-byte
// sectors its threads touch, in order of first appearance.  32 consecutive
// 4-byte words: one line, four sectors; a 128-byte stride: 32 lines.
#pragma once

#include <array>
#include <cstdint>

#include "sector_cache.hpp"

namespace tbdse {

inline constexpr int kWarpSize = 32;

struct LineRequest {
  std::uint64_t line = 0;
  std::uint8_t sectors = 0;
};

// At most two lines per thread (an access straddling a line boundary).
struct CoalescedWarp {
  std::array<LineRequest, 2 * kWarpSize> lines{};
  int count = 0;

  void add(std::uint64_t line, std::uint8_t sectors) {
    for (int i = 0; i < count; ++i)
      if (lines[i].line == line) {
        lines[i].sectors |= sectors;
        return;
      }
    lines[count++] = {line, sectors};
  }
};

// The lines of the byte range [base, base + bytes) (at least one byte), in
// order: f(line, sectors) for each.  A footprint, or one contiguous buffer
// access, walked as line requests.
template <class F>
void for_each_line(std::uint64_t base, std::int64_t bytes, F f) {
  const std::uint64_t end = base + static_cast<std::uint64_t>(bytes < 1 ? 1 : bytes);
  const std::uint64_t first = base >> kLineShift, last = (end - 1) >> kLineShift;
  const auto span = [&](std::uint64_t line) {  // the range's part of `line`
    const std::uint64_t lo = base > (line << kLineShift) ? base : line << kLineShift;
    const std::uint64_t hi = end < ((line + 1) << kLineShift) ? end : (line + 1) << kLineShift;
    return sector_span(static_cast<std::int64_t>(lo & (kLineBytes - 1)),
                       static_cast<std::int64_t>(hi - lo));
  };
  f(first, span(first));
  for (std::uint64_t line = first + 1; line < last; ++line) f(line, kAllSectors);  // whole lines
  if (last > first) f(last, span(last));
}

// `addresses[t]` for each thread t whose bit is set in `active`; each thread
// accesses `bytes` (1..32) bytes from its address.
inline CoalescedWarp coalesce(const std::uint64_t* addresses, std::uint32_t active,
                              std::int64_t bytes) {
  CoalescedWarp warp;
  for (int t = 0; t < kWarpSize; ++t) {
    if (!(active >> t & 1u)) continue;
    const std::uint64_t a = addresses[t];
    const std::uint64_t last = a + static_cast<std::uint64_t>(bytes) - 1;
    const std::uint64_t line = a >> kLineShift;
    if ((last >> kLineShift) == line) {
      warp.add(line, sector_span(static_cast<std::int64_t>(a & (kLineBytes - 1)), bytes));
    } else {
      const auto off = static_cast<std::int64_t>(a & (kLineBytes - 1));
      warp.add(line, sector_span(off, kLineBytes - off));
      warp.add(line + 1, sector_span(0, static_cast<std::int64_t>(last & (kLineBytes - 1)) + 1));
    }
  }
  return warp;
}

}  // namespace tbdse
