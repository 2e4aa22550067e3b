// One SM's L1 miss-status holding registers (docs/memory.md "L1"): for each,
// the line it fetches and the cycle it frees.  A new miss takes the
// lowest-numbered free MSHR, or when none is free the one that frees first
// (lowest-numbered on ties) and waits for it.  The ready cycles sit in a
// tournament tree (each node the minimum of its two children), so choosing
// is one walk from the root instead of a scan of every MSHR: with 256 MSHRs
// per SM (titanx_pascal) and a whole footprint issued at once, the scan was
// a fifth of a run's time.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

#include "sector_cache.hpp"
#include "types.hpp"

namespace tbdse {

class MshrFile {
 public:
  explicit MshrFile(std::int64_t count)
      : leaves_(std::bit_ceil(static_cast<std::size_t>(count))),
        lines_(static_cast<std::size_t>(count), SectorCache::kNoLine),
        tree_(2 * leaves_, kMaxTime) {
    for (std::size_t i = 0; i < lines_.size(); ++i) set_ready(i, 0);
  }

  // The MSHR a miss at cycle `at` takes (see above).
  std::size_t choose(Cycle at) const {
    const Cycle threshold = std::max(at, tree_[1]);  // some leaf is <= it
    std::size_t k = 1;
    while (k < leaves_) k = 2 * k + (tree_[2 * k] <= threshold ? 0 : 1);
    return k - leaves_;
  }
  std::uint64_t line(std::size_t i) const { return lines_[i]; }
  Cycle ready(std::size_t i) const { return tree_[leaves_ + i]; }
  void set_line(std::size_t i, std::uint64_t line) { lines_[i] = line; }
  void set_ready(std::size_t i, Cycle ready) {
    std::size_t k = leaves_ + i;
    tree_[k] = ready;
    for (k /= 2; k >= 1; k /= 2) {
      const Cycle least = std::min(tree_[2 * k], tree_[2 * k + 1]);
      if (tree_[k] == least) break;  // unchanged: so are the nodes above
      tree_[k] = least;
    }
  }

 private:
  std::size_t leaves_;              // a power of two >= the MSHR count
  std::vector<std::uint64_t> lines_;
  std::vector<Cycle> tree_;         // [1] root; leaves from leaves_, padding kMaxTime
};

}  // namespace tbdse
