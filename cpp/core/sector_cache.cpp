#include "sector_cache.hpp"

#include <string>

#include "errors.hpp"

namespace tbdse {

SectorCache::SectorCache(std::int64_t sets, std::int64_t ways)
    : set_mask_(static_cast<std::uint64_t>(sets - 1)), ways_(ways) {
  if (sets < 1 || (sets & (sets - 1)) != 0 || ways < 1)
    throw ConfigError("a cache needs a power-of-two number of sets and at least one way; got " +
                      std::to_string(sets) + " sets of " + std::to_string(ways) + " ways");
  const auto n = static_cast<std::size_t>(sets * ways);
  tags_.assign(n, kNoLine);
  stamps_.assign(n, 0);
  lines_.assign(n, Line{});
}

std::int64_t SectorCache::install(std::uint64_t line, Evicted& evicted) {
  // An empty way has stamp 0 and a full one a stamp >= 1 (install and a
  // hit set ++clock_, invalidate 0): the first least stamp is the first
  // empty way if there is one, else the least recently used.
  const std::int64_t base = static_cast<std::int64_t>(line & set_mask_) * ways_;
  const std::uint64_t* stamps = stamps_.data() + base;
  std::int64_t victim = 0;
  std::uint64_t least = stamps[0];
  for (std::int64_t w = 1; w < ways_; ++w)
    if (stamps[w] < least) {
      least = stamps[w];
      victim = w;
    }
  victim += base;
  evicted = {tags_[victim], tags_[victim] == kNoLine ? std::uint8_t{0} : lines_[victim].dirty};
  tags_[victim] = line;
  stamps_[victim] = ++clock_;
  lines_[victim] = Line{};
  return victim;
}

void SectorCache::invalidate(std::uint64_t line) {
  const std::int64_t slot = find(line, false);
  if (slot < 0) return;
  tags_[slot] = kNoLine;
  stamps_[slot] = 0;
  lines_[slot] = Line{};
}

}  // namespace tbdse
