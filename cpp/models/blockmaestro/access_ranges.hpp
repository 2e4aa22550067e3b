// Inter-kernel thread-block dependencies from the index ranges each TB
// touches: BlockMaestro (ISCA 2021) §III-B, Algorithm 1 — value range analysis
// gives each TB's read and write sets, and "intersect L_K with S_{K-1}" gives
// the bipartite TB graph between consecutive kernels.
//
// A TB's accesses to a buffer are boxes: per buffer dimension an index range
// [lo, hi) whose bounds are affine in the TB's block index (bx, by, bz), e.g.
// A[256*bx - 1 : 256*bx + 257] (a halo), clipped to the buffer's extent.  An
// access whose address comes from loaded data is `indirect` (Algorithm 1 line
// 8): its range is unknown, so it conflicts with every access of the other
// kernel to the same buffer.
//
// Separable ranges: each dimension's bounds depend on at most one block
// coordinate (the same for lo and hi).  Then the parent TBs whose box meets a
// child TB's box form a product of index intervals, one per block coordinate,
// found by inverting the affine bounds — no all-pairs intersection, so the
// cost is proportional to the child TBs plus the edges found.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace tbdse::blockmaestro {

// c0 + cx*bx + cy*by + cz*bz.
struct Affine {
  std::int64_t c0 = 0, cx = 0, cy = 0, cz = 0;

  std::int64_t at(std::int64_t bx, std::int64_t by, std::int64_t bz) const {
    return c0 + cx * bx + cy * by + cz * bz;
  }
  // The block coordinate (0 = x, 1 = y, 2 = z) the value depends on, -1 when
  // constant, -2 when it depends on more than one.
  int coordinate() const;
};

// Elements [lo, hi) of one buffer dimension (hi exclusive; empty when hi <= lo).
struct IndexRange {
  Affine lo, hi;
};

struct Access {
  std::int32_t buffer = 0;       // index into the application's buffers
  bool indirect = false;         // range unknown (address from loaded data)
  std::vector<IndexRange> dims;  // one per buffer dimension; empty when indirect
};

struct BufferShape {
  std::string name;
  std::vector<std::int64_t> extent;  // elements per dimension, each >= 1
};

// Launch grid; block linear id b = bx + x * (by + y * bz).
struct Grid {
  std::int64_t x = 1, y = 1, z = 1;
  std::int64_t size() const { return x * y * z; }
  std::array<std::int64_t, 3> coords(std::int64_t b) const { return {b % x, (b / x) % y, b / (x * y)}; }
};

struct KernelAccess {
  std::string name;  // for messages
  Grid grid;
  std::vector<Access> reads, writes;
};

// RAW: a child TB depends on the parent TBs that write what it reads (the
// paper).  ALL: also on those that read what it writes (WAR) and write what it
// writes (WAW).
enum class Hazards { RAW, ALL };

// The TB dependencies of kernel `child` on kernel `parent`, block linear ids.
struct PairDependencies {
  // Every child TB depends on every parent TB: the edge list would exceed
  // max_edges (an indirect access usually leads here).  No CSR then.
  bool full = false;
  std::vector<std::int64_t> child_start;  // CSR by child: size child TBs + 1
  std::vector<std::int32_t> parents;      // per child sorted ascending, no duplicates
  std::int64_t edges() const { return child_start.empty() ? 0 : child_start.back(); }
};

// ConfigError naming the kernel, the access and what is valid when: a grid
// dimension < 1 or the grid has more than 2^31 - 1 TBs; a buffer index out of
// range; a direct access whose dimension count differs from its buffer's; a
// dimension whose bounds depend on more than one block coordinate, or lo and
// hi on different ones ("declare the buffer with more dimensions").
void check_kernel(const std::vector<BufferShape>& buffers, const KernelAccess& kernel);

// Kernels must have passed check_kernel.  A child TB whose (clipped) box is
// empty conflicts with nothing.
PairDependencies extract_pair(const std::vector<BufferShape>& buffers, const KernelAccess& parent,
                              const KernelAccess& child, Hazards hazards, std::int64_t max_edges);

// Dependencies that skip a kernel: for each kernel i, the latest kernel
// j < i - 1 whose accesses conflict with kernel i's, -1 when none.  Kernel-level
// and conservative: each kernel's accesses to a buffer are widened to their
// envelope over the whole grid (the per-dimension min of lo and max of hi,
// clipped), and an indirect access covers the whole buffer.
std::vector<std::int32_t> skip_dependencies(const std::vector<BufferShape>& buffers,
                                            const std::vector<KernelAccess>& kernels,
                                            Hazards hazards);

namespace detail {
// floor(a / b) and ceil(a / b) for b != 0 and any signs (C++'s / truncates
// toward zero).  Templates so that the 128-bit arithmetic extract_pair uses
// to stay exact (|coefficient * block index| < 2^94) is the code under test.
template <class T>
constexpr T floor_div(T a, T b) {
  const T q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
template <class T>
constexpr T ceil_div(T a, T b) {
  const T q = a / b;
  return (a % b != 0 && ((a < 0) == (b < 0))) ? q + 1 : q;
}
}  // namespace detail

}  // namespace tbdse::blockmaestro
