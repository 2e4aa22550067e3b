// A sectored, set-associative cache with LRU replacement: the tag and state
// arrays of one L1 or one L2 bank (docs/memory.md).  Lines are 128 bytes of
// four 32-byte sectors; a line's tag is its full line address (address >> 7),
// its set the low bits of that (power-of-two set counts, a mask).  The cache
// only keeps state; timing lives in MemoryHierarchy.  No allocation after
// construction.
#pragma once

#include <cstdint>
#include <vector>

#include "types.hpp"

namespace tbdse {

inline constexpr int kLineShift = 7;    // 128-byte lines
inline constexpr int kSectorShift = 5;  // 32-byte sectors
inline constexpr std::int64_t kLineBytes = std::int64_t{1} << kLineShift;
inline constexpr std::int64_t kSectorBytes = std::int64_t{1} << kSectorShift;
inline constexpr int kSectorsPerLine = 4;
inline constexpr std::uint8_t kAllSectors = 0xF;

class SectorCache {
 public:
  // A slot's state.  `ready` is when the last fill of the line arrives (a
  // sector present but not yet arrived is a hit on a pending miss).
  struct Line {
    std::uint8_t valid = 0;
    std::uint8_t dirty = 0;
    std::int32_t mshr = -1;  // L1: the MSHR of its outstanding miss while ready is ahead
    Cycle ready = 0;
  };
  // What an install pushed out: its line address and dirty sectors.
  struct Evicted {
    std::uint64_t line = kNoLine;
    std::uint8_t dirty = 0;
  };
  static constexpr std::uint64_t kNoLine = ~std::uint64_t{0};

  // `sets` a power of two >= 1, `ways` >= 1 (ConfigError otherwise).
  SectorCache(std::int64_t sets, std::int64_t ways);

  std::int64_t sets() const { return static_cast<std::int64_t>(set_mask_) + 1; }
  std::int64_t ways() const { return ways_; }

  // The slot holding `line`, or -1.  A hit refreshes the line's LRU stamp
  // when `touch`.
  std::int64_t find(std::uint64_t line, bool touch) {
    // A line is in at most one way: look at all without a branch per way
    // (which way hits is unpredictable).
    const std::int64_t base = static_cast<std::int64_t>(line & set_mask_) * ways_;
    std::int64_t slot = -1;
    for (std::int64_t w = 0; w < ways_; ++w) slot = tags_[base + w] == line ? base + w : slot;
    if (slot >= 0 && touch) stamps_[slot] = ++clock_;
    return slot;
  }

  // Puts `line` in its set (the caller found it absent), in an empty way or
  // in place of the least recently used; the new line is most recently used,
  // with no sectors.  Returns the slot; `evicted` says what left.
  std::int64_t install(std::uint64_t line, Evicted& evicted);

  // Drops `line` if present (write-evict).
  void invalidate(std::uint64_t line);

  Line& state(std::int64_t slot) { return lines_[slot]; }
  std::uint64_t tag(std::int64_t slot) const { return tags_[slot]; }

 private:
  std::uint64_t set_mask_;
  std::int64_t ways_;
  std::uint64_t clock_ = 0;  // LRU stamps: larger = more recent
  std::vector<std::uint64_t> tags_;
  std::vector<std::uint64_t> stamps_;
  std::vector<Line> lines_;
};

// Sectors in a 4-bit mask (a table: no popcount instruction is assumed).
inline int sector_count(std::uint8_t mask) {
  static constexpr std::uint8_t kCount[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
  return kCount[mask & 0xF];
}

// The sectors of [offset, offset + bytes) within one line, as a 4-bit mask.
inline std::uint8_t sector_span(std::int64_t offset, std::int64_t bytes) {
  const int first = static_cast<int>(offset >> kSectorShift);
  const int last = static_cast<int>((offset + bytes - 1) >> kSectorShift);
  return static_cast<std::uint8_t>(((1u << (last + 1)) - 1u) & ~((1u << first) - 1u));
}

}  // namespace tbdse
