// BlockMaestro dependency extraction (ISCA 2021 §III-B, Algorithm 1): the
// affine-bound inversion of extract_pair and the kernel-level envelopes of
// skip_dependencies against brute force, the division helpers, and the
// messages of check_kernel.
#include "models/blockmaestro/access_ranges.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "core/errors.hpp"

using namespace tbdse;
using namespace tbdse::blockmaestro;

namespace {

__extension__ typedef __int128 Wide;
using Rng = std::mt19937_64;

constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();

// Uniform in [lo, hi] (the modulo bias is irrelevant here; unlike
// std::uniform_int_distribution the sequence is the same on every library).
std::int64_t uniform(Rng& rng, std::int64_t lo, std::int64_t hi) {
  const auto span = static_cast<std::uint64_t>(hi - lo) + 1;
  return lo + static_cast<std::int64_t>(rng() % span);
}
bool chance(Rng& rng, int percent) { return uniform(rng, 1, 100) <= percent; }

Affine on(int coord, std::int64_t coef, std::int64_t c0) {
  Affine f;
  f.c0 = c0;
  if (coord == 0) f.cx = coef;
  if (coord == 1) f.cy = coef;
  if (coord == 2) f.cz = coef;
  return f;
}
Affine constant(std::int64_t c0) { return on(-1, 0, c0); }
IndexRange range(Affine lo, Affine hi) { return {lo, hi}; }
Access direct(std::int32_t buffer, std::vector<IndexRange> dims) { return {buffer, false, std::move(dims)}; }
Access indirect(std::int32_t buffer) { return {buffer, true, {}}; }
KernelAccess kernel(std::string name, Grid grid, std::vector<Access> reads, std::vector<Access> writes) {
  return {std::move(name), grid, std::move(reads), std::move(writes)};
}

// ------------------------------------------------------------ brute force
// Everything evaluated in 128 bits: no input can overflow it.
Wide eval(const Affine& f, const std::array<std::int64_t, 3>& b) {
  return Wide{f.c0} + Wide{f.cx} * b[0] + Wide{f.cy} * b[1] + Wide{f.cz} * b[2];
}
std::int64_t clip(Wide v, std::int64_t extent) {
  return static_cast<std::int64_t>(std::clamp<Wide>(v, 0, extent));
}

struct Box {
  bool empty = false;
  std::vector<std::int64_t> lo, hi;
};

// The clipped box one TB touches; an indirect access: the whole buffer.
Box box_of(const Access& a, const BufferShape& b, const std::array<std::int64_t, 3>& tb) {
  Box x;
  x.lo.assign(b.extent.size(), 0);
  x.hi = b.extent;
  if (a.indirect) return x;
  for (std::size_t d = 0; d < b.extent.size(); ++d) {
    x.lo[d] = clip(eval(a.dims[d].lo, tb), b.extent[d]);
    x.hi[d] = clip(eval(a.dims[d].hi, tb), b.extent[d]);
    if (x.hi[d] <= x.lo[d]) x.empty = true;
  }
  return x;
}

bool meets(const Box& a, const Box& b) {
  if (a.empty || b.empty) return false;
  for (std::size_t d = 0; d < a.lo.size(); ++d)
    if (std::max(a.lo[d], b.lo[d]) >= std::min(a.hi[d], b.hi[d])) return false;
  return true;
}

struct Csr {
  std::vector<std::int64_t> start{0};
  std::vector<std::int32_t> parents;
  std::int64_t edges() const { return start.back(); }
};

// All pairs: child TB c depends on parent TB p when one of c's reads meets
// one of p's writes (RAW), or with ALL also c's writes meet p's reads or writes.
Csr brute_pair(const std::vector<BufferShape>& buffers, const KernelAccess& parent,
               const KernelAccess& child, Hazards hazards) {
  const auto conflicts = [&](const std::vector<Access>& cs, const std::vector<Access>& ps,
                             const std::array<std::int64_t, 3>& ctb, const std::array<std::int64_t, 3>& ptb) {
    for (const Access& c : cs)
      for (const Access& p : ps) {
        if (c.buffer != p.buffer) continue;
        const BufferShape& b = buffers[static_cast<std::size_t>(c.buffer)];
        if (meets(box_of(c, b, ctb), box_of(p, b, ptb))) return true;
      }
    return false;
  };
  Csr out;
  for (std::int64_t c = 0; c < child.grid.size(); ++c) {
    const auto ctb = child.grid.coords(c);
    for (std::int64_t p = 0; p < parent.grid.size(); ++p) {
      const auto ptb = parent.grid.coords(p);
      bool dep = conflicts(child.reads, parent.writes, ctb, ptb);
      if (!dep && hazards == Hazards::ALL)
        dep = conflicts(child.writes, parent.reads, ctb, ptb) || conflicts(child.writes, parent.writes, ctb, ptb);
      if (dep) out.parents.push_back(static_cast<std::int32_t>(p));
    }
    out.start.push_back(static_cast<std::int64_t>(out.parents.size()));
  }
  return out;
}

// The per-dimension min of lo and max of hi over every TB, clipped (the
// header's envelope), by enumerating the TBs.
Box brute_envelope(const Access& a, const BufferShape& b, const Grid& g) {
  Box e;
  e.lo.assign(b.extent.size(), 0);
  e.hi = b.extent;
  if (a.indirect) return e;
  for (std::size_t d = 0; d < b.extent.size(); ++d) {
    Wide lo = eval(a.dims[d].lo, g.coords(0)), hi = eval(a.dims[d].hi, g.coords(0));
    for (std::int64_t t = 1; t < g.size(); ++t) {
      lo = std::min(lo, eval(a.dims[d].lo, g.coords(t)));
      hi = std::max(hi, eval(a.dims[d].hi, g.coords(t)));
    }
    e.lo[d] = clip(lo, b.extent[d]);
    e.hi[d] = clip(hi, b.extent[d]);
    if (e.hi[d] <= e.lo[d]) e.empty = true;
  }
  return e;
}

std::vector<std::int32_t> brute_skip(const std::vector<BufferShape>& buffers,
                                     const std::vector<KernelAccess>& kernels, Hazards hazards) {
  const auto conflicts = [&](const std::vector<Access>& as, const Grid& ag, const std::vector<Access>& bs,
                             const Grid& bg) {
    for (const Access& a : as)
      for (const Access& b : bs) {
        if (a.buffer != b.buffer) continue;
        const BufferShape& s = buffers[static_cast<std::size_t>(a.buffer)];
        if (meets(brute_envelope(a, s, ag), brute_envelope(b, s, bg))) return true;
      }
    return false;
  };
  std::vector<std::int32_t> out(kernels.size(), -1);
  for (std::size_t i = 0; i < kernels.size(); ++i)
    for (std::size_t j = 0; j + 1 < i; ++j) {
      const KernelAccess& k = kernels[i];
      const KernelAccess& p = kernels[j];
      bool c = conflicts(k.reads, k.grid, p.writes, p.grid);
      if (hazards == Hazards::ALL)
        c = c || conflicts(k.writes, k.grid, p.reads, p.grid) || conflicts(k.writes, k.grid, p.writes, p.grid);
      if (c) out[i] = static_cast<std::int32_t>(j);
    }
  return out;
}

// ------------------------------------------------------------ random inputs
std::vector<BufferShape> random_buffers(Rng& rng) {
  std::vector<BufferShape> buffers(static_cast<std::size_t>(chance(rng, 60) ? 1 : uniform(rng, 2, 3)));
  for (std::size_t i = 0; i < buffers.size(); ++i) {
    buffers[i].name = "buf" + std::to_string(i);
    buffers[i].extent.resize(static_cast<std::size_t>(uniform(rng, 1, 3)));
    for (std::int64_t& e : buffers[i].extent) e = uniform(rng, 1, 12);
  }
  return buffers;
}

std::int64_t grid_dim(const Grid& g, int coord) { return coord == 0 ? g.x : (coord == 1 ? g.y : g.z); }

// One dimension: constant, or lo and hi affine in the same block coordinate,
// with strides that may differ, be negative or zero, halos (hi - lo wider than
// the stride), empty ranges and ranges partly or wholly outside the buffer.
IndexRange random_range(Rng& rng, std::int64_t extent, const Grid& g) {
  const int coord = static_cast<int>(uniform(rng, -1, 2));
  const std::int64_t s = uniform(rng, -3, 4);
  const std::int64_t s_hi = chance(rng, 75) ? s : uniform(rng, -3, 4);
  std::int64_t base = chance(rng, 70) ? uniform(rng, -2, extent / 2) : uniform(rng, -4, extent + 2);
  if (coord >= 0 && s < 0) base += -s * uniform(rng, 0, grid_dim(g, coord) - 1);
  const std::int64_t width = chance(rng, 85) ? uniform(rng, 1, 8) : uniform(rng, -2, 0);
  if (coord < 0) return range(constant(base), constant(base + width));
  return range(on(coord, s, base), on(coord, s_hi, base + width));
}

Access random_access(Rng& rng, const std::vector<BufferShape>& buffers, const Grid& g) {
  const auto b = static_cast<std::int32_t>(uniform(rng, 0, static_cast<std::int64_t>(buffers.size()) - 1));
  if (chance(rng, 8)) return indirect(b);
  std::vector<IndexRange> dims;
  for (const std::int64_t e : buffers[static_cast<std::size_t>(b)].extent) dims.push_back(random_range(rng, e, g));
  return direct(b, std::move(dims));
}

KernelAccess random_kernel(Rng& rng, const std::vector<BufferShape>& buffers, const std::string& name) {
  KernelAccess k;
  k.name = name;
  k.grid = {uniform(rng, 1, 6), uniform(rng, 1, 5), uniform(rng, 1, 3)};
  const std::int64_t nr = uniform(rng, chance(rng, 90) ? 1 : 0, 3), nw = uniform(rng, chance(rng, 90) ? 1 : 0, 3);
  for (std::int64_t i = 0; i < nr; ++i) k.reads.push_back(random_access(rng, buffers, k.grid));
  for (std::int64_t i = 0; i < nw; ++i) k.writes.push_back(random_access(rng, buffers, k.grid));
  return k;
}

std::string describe(const Affine& f) {
  return std::to_string(f.c0) + "+" + std::to_string(f.cx) + "bx+" + std::to_string(f.cy) + "by+" +
         std::to_string(f.cz) + "bz";
}
// Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on "literal" + string.
std::string describe(const std::vector<BufferShape>& buffers, const KernelAccess& k) {
  std::string s = k.name;
  s.append(" grid ").append(std::to_string(k.grid.x)).append("x").append(std::to_string(k.grid.y));
  s.append("x").append(std::to_string(k.grid.z));
  const auto list = [&](const char* what, const std::vector<Access>& as) {
    for (const Access& a : as) {
      s.append("\n  ").append(what).append(" buf").append(std::to_string(a.buffer)).append(" extent");
      for (const std::int64_t e : buffers[static_cast<std::size_t>(a.buffer)].extent)
        s.append(" ").append(std::to_string(e));
      if (a.indirect) s.append(" indirect");
      for (const IndexRange& r : a.dims) s.append(" [").append(describe(r.lo)).append(" : ").append(describe(r.hi)).append(")");
    }
  };
  list("read", k.reads);
  list("write", k.writes);
  return s;
}

std::string message_of(const std::vector<BufferShape>& buffers, const KernelAccess& k) {
  try {
    check_kernel(buffers, k);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

// ------------------------------------------------------------ floor / ceil
TEST_CASE("floor_div and ceil_div: every sign combination against a reference") {
  for (std::int64_t a = -40; a <= 40; ++a)
    for (std::int64_t b = -9; b <= 9; ++b) {
      if (b == 0) continue;
      const auto q = static_cast<long double>(a) / static_cast<long double>(b);
      CAPTURE(a);
      CAPTURE(b);
      CHECK(detail::floor_div(a, b) == static_cast<std::int64_t>(std::floor(q)));
      CHECK(detail::ceil_div(a, b) == static_cast<std::int64_t>(std::ceil(q)));
      CHECK(detail::floor_div(Wide{a}, Wide{b}) == Wide{static_cast<std::int64_t>(std::floor(q))});
      CHECK(detail::ceil_div(Wide{a}, Wide{b}) == Wide{static_cast<std::int64_t>(std::ceil(q))});
    }
  static_assert(detail::floor_div(7, 2) == 3 && detail::floor_div(-7, 2) == -4);
  static_assert(detail::floor_div(7, -2) == -4 && detail::floor_div(-7, -2) == 3);
  static_assert(detail::ceil_div(7, 2) == 4 && detail::ceil_div(-7, 2) == -3);
  static_assert(detail::ceil_div(7, -2) == -3 && detail::ceil_div(-7, -2) == 4);
  static_assert(detail::floor_div(-6, 3) == -2 && detail::ceil_div(-6, 3) == -2);
  // 64-bit extremes (INT64_MIN / -1 is the one quotient that does not exist).
  CHECK(detail::floor_div(kMin, std::int64_t{1}) == kMin);
  CHECK(detail::floor_div(kMin, std::int64_t{2}) == kMin / 2);
  CHECK(detail::ceil_div(kMin + 1, std::int64_t{2}) == (kMin + 1) / 2);
  CHECK(detail::floor_div(kMin + 1, std::int64_t{2}) == (kMin + 1) / 2 - 1);
  CHECK(detail::floor_div(kMax, std::int64_t{-1}) == -kMax);
  CHECK(detail::floor_div(kMax, kMin) == -1);
  CHECK(detail::ceil_div(kMax, kMin) == 0);
  CHECK(detail::floor_div(kMin, kMax) == -2);
  CHECK(detail::ceil_div(kMin, kMax) == -1);
}

TEST_CASE("floor_div and ceil_div in 128 bits: the defining inequalities on large operands") {
  // q = floor(a / b) iff q*b <= a < q*b + b (b > 0), q*b >= a > q*b + b (b < 0);
  // ceil likewise.  Operands up to ~2^100 / 2^40: the products stay in 128 bits.
  Rng rng(17);
  for (int i = 0; i < 2000; ++i) {
    const Wide a = (Wide{uniform(rng, -(std::int64_t{1} << 36), std::int64_t{1} << 36)} << 64) +
                   static_cast<Wide>(rng() >> 1) * (chance(rng, 50) ? 1 : -1);
    Wide b = Wide{uniform(rng, 1, std::int64_t{1} << 40)};
    if (chance(rng, 20)) b = uniform(rng, 1, 5);
    if (chance(rng, 50)) b = -b;
    const Wide f = detail::floor_div(a, b), c = detail::ceil_div(a, b);
    if (b > 0) {
      CHECK((f * b <= a && a < f * b + b));
      CHECK((c * b >= a && a > c * b - b));
    } else {
      CHECK((f * b >= a && a > f * b + b));
      CHECK((c * b <= a && a < c * b - b));
    }
    CHECK(c - f == (a % b != 0 ? 1 : 0));
  }
  // Exact multiples and values beyond 64 bits.
  const Wide big = Wide{1} << 100;
  CHECK(detail::floor_div(big, Wide{1} << 40) == Wide{1} << 60);
  CHECK(detail::ceil_div(-big - 1, Wide{1} << 40) == -(Wide{1} << 60));
  CHECK(detail::floor_div(-big - 1, Wide{1} << 40) == -(Wide{1} << 60) - 1);
  CHECK(detail::floor_div(Wide{kMin}, Wide{-1}) == -Wide{kMin});  // no overflow in 128 bits
}

// ------------------------------------------------------------ hand cases
TEST_CASE("extract_pair: 1-D stencil with a halo, clipped at both ends") {
  // A[0:16]; the parent's TB p writes [4p, 4p + 4), the child's TB c reads
  // [4c - 1, 4c + 5): its own tile and one element either side, clipped.
  const std::vector<BufferShape> buffers = {{"A", {16}}};
  const auto p = kernel("p", {4, 1, 1}, {}, {direct(0, {range(on(0, 4, 0), on(0, 4, 4))})});
  const auto c = kernel("c", {4, 1, 1}, {direct(0, {range(on(0, 4, -1), on(0, 4, 5))})}, {});
  const PairDependencies d = extract_pair(buffers, p, c, Hazards::RAW, 1000);
  CHECK_FALSE(d.full);
  CHECK(d.child_start == std::vector<std::int64_t>{0, 2, 5, 8, 10});
  CHECK(d.parents == std::vector<std::int32_t>{0, 1, 0, 1, 2, 1, 2, 3, 2, 3});
  CHECK(d.edges() == 10);
  // RAW only looks at the child's reads: swapped roles give nothing.
  CHECK(extract_pair(buffers, c, p, Hazards::RAW, 1000).edges() == 0);
  // ALL: the child p writes what the parent c read (WAR).
  const PairDependencies war = extract_pair(buffers, c, p, Hazards::ALL, 1000);
  CHECK(war.child_start == std::vector<std::int64_t>{0, 2, 5, 8, 10});
  CHECK(war.parents == std::vector<std::int32_t>{0, 1, 0, 1, 2, 1, 2, 3, 2, 3});
}

TEST_CASE("extract_pair: 2-D tiles, transposed access, indirect and empty boxes") {
  const std::vector<BufferShape> buffers = {{"M", {4, 6}}, {"idx", {8}}};
  // Parent 2x3 TBs, TB (x, y) writes M[2x : 2x + 2, 2y : 2y + 2].
  const auto p = kernel("p", {2, 3, 1}, {}, {direct(0, {range(on(0, 2, 0), on(0, 2, 2)), range(on(1, 2, 0), on(1, 2, 2))})});
  // Child 3x2 TBs, TB (x, y) reads the row band M[2y : 2y + 2, 2x : 2x + 2]:
  // the parent TB with (x', y') = (y, x), block id y + 2x.
  const auto c = kernel("c", {3, 2, 1}, {direct(0, {range(on(1, 2, 0), on(1, 2, 2)), range(on(0, 2, 0), on(0, 2, 2))})}, {});
  const PairDependencies d = extract_pair(buffers, p, c, Hazards::RAW, 100);
  CHECK(d.child_start == std::vector<std::int64_t>{0, 1, 2, 3, 4, 5, 6});
  CHECK(d.parents == std::vector<std::int32_t>{0, 2, 4, 1, 3, 5});

  // An indirect child read of M depends on every parent TB that writes M.
  const auto ci = kernel("ci", {2, 1, 1}, {indirect(0)}, {});
  const PairDependencies di = extract_pair(buffers, p, ci, Hazards::RAW, 100);
  CHECK(di.child_start == std::vector<std::int64_t>{0, 6, 12});
  // ... but not of a parent TB whose box is clipped away: a parent writing
  // M[2x + 3 : 2x + 5, 0:6] writes nothing from x = 1 on (rows 5, 6 >= 4).
  const auto pc = kernel("pc", {2, 1, 1}, {}, {direct(0, {range(on(0, 2, 3), on(0, 2, 5)), range(constant(0), constant(6))})});
  CHECK(extract_pair(buffers, pc, ci, Hazards::RAW, 100).parents == std::vector<std::int32_t>{0, 0});
  // An indirect parent write meets every non-empty child box of that buffer.
  const auto pi = kernel("pi", {3, 1, 1}, {}, {indirect(0)});
  const auto ce = kernel("ce", {3, 1, 1}, {direct(0, {range(on(0, 2, 0), on(0, 2, 2)), range(on(0, -3, 3), on(0, -3, 6))})}, {});
  // ce's TB 0 reads M[0:2, 3:6], TB 1 M[2:4, 0:3], TB 2 M[4:6 -> empty, ...]: nothing.
  const PairDependencies de = extract_pair(buffers, pi, ce, Hazards::RAW, 100);
  CHECK(de.child_start == std::vector<std::int64_t>{0, 3, 6, 6});
  CHECK(de.parents == std::vector<std::int32_t>{0, 1, 2, 0, 1, 2});
  // Other buffers do not conflict.
  const auto other = kernel("other", {3, 1, 1}, {indirect(1)}, {});
  CHECK(extract_pair(buffers, pi, other, Hazards::ALL, 100).edges() == 0);
}

TEST_CASE("extract_pair: several accesses, WAW, parents merged and sorted") {
  const std::vector<BufferShape> buffers = {{"A", {8}}, {"B", {8}}};
  // Parent TB p (4 TBs) writes A[2p : 2p + 2] and B[7 - 2p - 1 : 7 - 2p + 1) (reversed).
  const auto p = kernel("p", {4, 1, 1}, {direct(1, {range(constant(0), constant(1))})},
                        {direct(0, {range(on(0, 2, 0), on(0, 2, 2))}), direct(1, {range(on(0, -2, 6), on(0, -2, 8))})});
  // Child TB c (2 TBs) reads A[4c : 4c + 4] and B[4c : 4c + 4], writes B[0:1].
  const auto c = kernel("c", {2, 1, 1},
                        {direct(0, {range(on(0, 4, 0), on(0, 4, 4))}), direct(1, {range(on(0, 4, 0), on(0, 4, 4))})},
                        {direct(1, {range(constant(0), constant(1))})});
  // RAW: child 0 reads A[0:4] (parents 0, 1) and B[0:4] (parents 3, 2): {0,1,2,3};
  // child 1 reads A[4:8] (2, 3) and B[4:8] (1, 0): {0,1,2,3}.
  const PairDependencies raw = extract_pair(buffers, p, c, Hazards::RAW, 100);
  CHECK(raw.child_start == std::vector<std::int64_t>{0, 4, 8});
  CHECK(raw.parents == std::vector<std::int32_t>{0, 1, 2, 3, 0, 1, 2, 3});
  // Child reading only B: reversed order, sorted in the CSR.
  const auto cb = kernel("cb", {2, 1, 1}, {direct(1, {range(on(0, 4, 0), on(0, 4, 4))})}, {});
  CHECK(extract_pair(buffers, p, cb, Hazards::RAW, 100).parents == std::vector<std::int32_t>{2, 3, 0, 1});
  // ALL: a child writing B[0:1] conflicts with every parent TB reading B[0:1]
  // (WAR) and with parent TB 3 writing B[0:2] (WAW).
  const auto cw = kernel("cw", {1, 1, 1}, {}, {direct(1, {range(constant(0), constant(1))})});
  CHECK(extract_pair(buffers, p, cw, Hazards::RAW, 100).edges() == 0);
  CHECK(extract_pair(buffers, p, cw, Hazards::ALL, 100).parents == std::vector<std::int32_t>{0, 1, 2, 3});
}

// ------------------------------------------------------------ brute force, random
TEST_CASE("extract_pair equals all-pairs brute force on random kernels") {
  int cases = 0, with_edges = 0, full = 0, with_empty_child = 0, multi_dim = 0;
  for (std::uint64_t seed = 1; seed <= 400; ++seed) {
    Rng rng(seed);
    const std::vector<BufferShape> buffers = random_buffers(rng);
    const KernelAccess parent = random_kernel(rng, buffers, "parent");
    const KernelAccess child = random_kernel(rng, buffers, "child");
    REQUIRE_NOTHROW(check_kernel(buffers, parent));
    REQUIRE_NOTHROW(check_kernel(buffers, child));
    for (const Hazards h : {Hazards::RAW, Hazards::ALL}) {
      const Csr want = brute_pair(buffers, parent, child, h);
      // Mostly unlimited; sometimes a limit around the true edge count.
      std::int64_t max_edges = kMax;
      if (chance(rng, 30)) max_edges = uniform(rng, 0, want.edges() + 2);
      const PairDependencies got = extract_pair(buffers, parent, child, h, max_edges);
      INFO("seed " << seed << (h == Hazards::ALL ? " ALL" : " RAW") << " max_edges " << max_edges << "\n"
                   << describe(buffers, parent) << "\n" << describe(buffers, child));
      ++cases;
      if (want.edges() > max_edges) {
        ++full;
        CHECK(got.full);
        CHECK(got.child_start.empty());
        CHECK(got.parents.empty());
        CHECK(got.edges() == 0);
        continue;
      }
      CHECK_FALSE(got.full);
      CHECK(got.child_start == want.start);
      CHECK(got.parents == want.parents);
      with_edges += want.edges() > 0;
      for (std::size_t i = 0; i + 1 < want.start.size(); ++i)
        if (want.start[i] == want.start[i + 1]) {
          ++with_empty_child;
          break;
        }
      multi_dim += buffers[0].extent.size() > 1;
    }
  }
  // The generator must exercise the interesting cases, not only empty graphs.
  CHECK(cases == 800);
  CHECK(with_edges > 200);
  CHECK(full > 20);
  CHECK(with_empty_child > 100);
  CHECK(multi_dim > 200);
}

TEST_CASE("extract_pair: max_edges exactly at the edge count") {
  // 2-D 5x4-TB stencil with a 1-element halo: E = sum over children of the
  // 3x3 neighbourhood clipped to the grid = (3*2 + 2*3) ... computed below.
  const std::vector<BufferShape> buffers = {{"A", {10, 8}}};
  const auto tile = [](std::int64_t halo) {
    return std::vector<IndexRange>{range(on(0, 2, -halo), on(0, 2, 2 + halo)), range(on(1, 2, -halo), on(1, 2, 2 + halo))};
  };
  const auto p = kernel("p", {5, 4, 1}, {}, {direct(0, tile(0))});
  const auto c = kernel("c", {5, 4, 1}, {direct(0, tile(1))}, {});
  // Per dimension the neighbour counts are 2,3,3,3,2 (x) and 2,3,3,2 (y):
  // E = 13 * 10 = 130.
  const std::int64_t e = 130;
  const PairDependencies exact = extract_pair(buffers, p, c, Hazards::RAW, e);
  CHECK_FALSE(exact.full);
  CHECK(exact.edges() == e);
  CHECK(exact.child_start.size() == 21);
  const Csr want = brute_pair(buffers, p, c, Hazards::RAW);
  CHECK(exact.parents == want.parents);
  const PairDependencies less = extract_pair(buffers, p, c, Hazards::RAW, e - 1);
  CHECK(less.full);
  CHECK(less.child_start.empty());
  CHECK(less.edges() == 0);
  // A single child with more parents than the limit: given up inside one TB.
  const auto all = kernel("all", {1, 1, 1}, {indirect(0)}, {});
  CHECK_FALSE(extract_pair(buffers, p, all, Hazards::RAW, 20).full);
  CHECK(extract_pair(buffers, p, all, Hazards::RAW, 19).full);
  CHECK(extract_pair(buffers, p, all, Hazards::RAW, 0).full);
  // No edges at all: fine even with max_edges = 0.
  const auto none = kernel("none", {3, 1, 1}, {direct(0, {range(constant(0), constant(10)), range(constant(8), constant(9))})}, {});
  const PairDependencies zero = extract_pair(buffers, p, none, Hazards::RAW, 0);
  CHECK_FALSE(zero.full);
  CHECK(zero.child_start == std::vector<std::int64_t>{0, 0, 0, 0});
}

TEST_CASE("extract_pair: coefficients near the int64 limits do not overflow") {
  // Bounds c0 + c*b with |c| up to 2^63 and c0 = -c*t + small, so that the
  // box crosses the buffer near block index t; the 64-bit evaluation would
  // overflow for many TBs.  Brute force in 128 bits.
  const std::int64_t big[] = {std::int64_t{1} << 62, (std::int64_t{1} << 62) + 1, kMax, kMin + 1, kMin,
                              (std::int64_t{1} << 61) * 3, 1, 0};
  int cases = 0, with_edges = 0, partial = 0;
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    Rng rng(1000 + seed);
    const std::vector<BufferShape> buffers = {{"A", {uniform(rng, 1, 9)}}, {"B", {uniform(rng, 1, 5), uniform(rng, 1, 5)}}};
    const auto bound = [&](int coord, std::int64_t gdim) {
      std::int64_t coef = big[uniform(rng, 0, 7)];
      if (chance(rng, 50) && coef != kMin) coef = -coef;
      const std::int64_t t = uniform(rng, 0, gdim), small = uniform(rng, -3, 10);
      const Wide c0 = -Wide{coef} * t + small;
      Affine f = on(coord, coef, 0);
      if (c0 >= kMin && c0 <= kMax) f.c0 = static_cast<std::int64_t>(c0);
      else f.c0 = chance(rng, 50) ? kMax : kMin;
      if (chance(rng, 15)) f.c0 = chance(rng, 50) ? kMax : kMin;
      return f;
    };
    const auto make = [&](const std::string& name) {
      KernelAccess k;
      k.name = name;
      k.grid = {uniform(rng, 1, 6), uniform(rng, 1, 5), uniform(rng, 1, 3)};
      const auto access = [&]() {
        const auto b = static_cast<std::int32_t>(uniform(rng, 0, 1));
        std::vector<IndexRange> dims;
        for (std::size_t d = 0; d < buffers[static_cast<std::size_t>(b)].extent.size(); ++d) {
          const int coord = static_cast<int>(uniform(rng, -1, 2));
          const std::int64_t gdim = coord < 0 ? 1 : grid_dim(k.grid, coord);
          IndexRange r{bound(coord, gdim), bound(coord, gdim)};
          if (chance(rng, 50)) r.hi = on(coord, r.lo.cx + r.lo.cy + r.lo.cz, r.lo.c0 > kMax - 5 ? kMax : r.lo.c0 + 5);
          dims.push_back(r);
        }
        return direct(b, std::move(dims));
      };
      for (std::int64_t i = uniform(rng, 1, 2); i > 0; --i) k.reads.push_back(access());
      for (std::int64_t i = uniform(rng, 1, 2); i > 0; --i) k.writes.push_back(access());
      return k;
    };
    const KernelAccess parent = make("parent"), child = make("child");
    for (const Hazards h : {Hazards::RAW, Hazards::ALL}) {
      const Csr want = brute_pair(buffers, parent, child, h);
      const PairDependencies got = extract_pair(buffers, parent, child, h, kMax);
      INFO("seed " << seed << "\n" << describe(buffers, parent) << "\n" << describe(buffers, child));
      CHECK_FALSE(got.full);
      CHECK(got.child_start == want.start);
      CHECK(got.parents == want.parents);
      ++cases;
      with_edges += want.edges() > 0;
      // Some child depends on some but not all parent TBs: a bound crossed the buffer.
      for (std::size_t i = 0; i + 1 < want.start.size(); ++i) {
        const std::int64_t n = want.start[i + 1] - want.start[i];
        if (n > 0 && n < parent.grid.size()) {
          ++partial;
          break;
        }
      }
    }
  }
  CHECK(cases == 600);
  CHECK(with_edges > 60);
  CHECK(partial > 30);
}

TEST_CASE("extract_pair: hand-made extreme bounds") {
  const std::vector<BufferShape> buffers = {{"A", {10}}};
  // Parent TB b writes A[INT64_MIN : INT64_MAX - 2^62 * b): everything for
  // b = 0, 1, nothing from b = 2 on (hi = -1 at b = 2; below INT64_MIN from b = 4).
  const std::int64_t q = std::int64_t{1} << 62;
  const auto p = kernel("p", {6, 1, 1}, {}, {direct(0, {range(constant(kMin), on(0, -q, kMax))})});
  // Child TB b reads A[2^62 * b - 2^62 + 3 : ...+1) = A[b == 1 ? 3 : out of range].
  const auto c = kernel("c", {6, 1, 1}, {direct(0, {range(on(0, q, 3 - q), on(0, q, 4 - q))})}, {});
  const PairDependencies d = extract_pair(buffers, p, c, Hazards::RAW, 100);
  CHECK(d.child_start == std::vector<std::int64_t>{0, 0, 2, 2, 2, 2, 2});
  CHECK(d.parents == std::vector<std::int32_t>{0, 1});
  // The most negative coefficient on the largest grid dimension allowed.
  // TB b writes A[INT64_MIN * b : INT64_MIN * b + 5): only TB 0 writes anything.
  const auto pm = kernel("pm", {3, 1, 1}, {}, {direct(0, {range(on(0, kMin, 0), on(0, kMin, 5))})});
  const auto cm = kernel("cm", {1, 1, 1}, {direct(0, {range(constant(0), constant(10))})}, {});
  CHECK(extract_pair(buffers, pm, cm, Hazards::RAW, 100).parents == std::vector<std::int32_t>{0});
}

// ------------------------------------------------------------ check_kernel
TEST_CASE("check_kernel: grids") {
  const std::vector<BufferShape> buffers = {{"A", {4}}};
  KernelAccess k = kernel("k1", {0, 1, 1}, {}, {});
  CHECK_THROWS_WITH_AS(check_kernel(buffers, k), "kernel 'k1': grid (0, 1, 1): every grid dimension must be >= 1",
                       ConfigError);
  k.grid = {1, 1, -3};
  CHECK_THROWS_WITH_AS(check_kernel(buffers, k), doctest::Contains("grid (1, 1, -3)"), ConfigError);
  k.grid = {65536, 32768, 1};  // 2^31
  CHECK_THROWS_WITH_AS(check_kernel(buffers, k),
                       "kernel 'k1': grid (65536, 32768, 1) has more than 2147483647 TBs; at most 2^31 - 1 TBs "
                       "per kernel are supported",
                       ConfigError);
  k.grid = {2147483647, 1, 1};
  CHECK_NOTHROW(check_kernel(buffers, k));
  k.grid = {1, 1, 2147483648};
  CHECK_THROWS_WITH_AS(check_kernel(buffers, k), doctest::Contains("at most 2^31 - 1 TBs"), ConfigError);
  k.grid = {kMax, kMax, kMax};  // the product would overflow
  CHECK_THROWS_WITH_AS(check_kernel(buffers, k), doctest::Contains("at most 2^31 - 1 TBs"), ConfigError);
  k.grid = {2147483647, 2147483647, 2147483647};  // each allowed; x * y is checked before x * y * z
  CHECK_THROWS_WITH_AS(check_kernel(buffers, k), doctest::Contains("at most 2^31 - 1 TBs"), ConfigError);
  k.grid = {46341, 46341, 1};  // 2^31 + 88,009
  CHECK_THROWS_WITH_AS(check_kernel(buffers, k), doctest::Contains("at most 2^31 - 1 TBs"), ConfigError);
  k.grid = {1024, 1024, 2048};
  CHECK_THROWS_WITH_AS(check_kernel(buffers, k), doctest::Contains("at most 2^31 - 1 TBs"), ConfigError);
  k.grid = {1024, 1024, 2047};
  CHECK_NOTHROW(check_kernel(buffers, k));
}

TEST_CASE("check_kernel: accesses") {
  const std::vector<BufferShape> buffers = {{"A", {4, 5}}, {"B", {7}}};
  const auto one = [](std::int32_t b, std::vector<IndexRange> dims, bool write = false) {
    return write ? kernel("k", {2, 2, 2}, {}, {direct(b, std::move(dims))})
                 : kernel("k", {2, 2, 2}, {direct(b, std::move(dims))}, {});
  };
  const IndexRange any = range(constant(0), constant(1));
  CHECK_THROWS_WITH_AS(check_kernel(buffers, one(2, {any})),
                       "kernel 'k': read 0 refers to buffer 2; valid buffer indices are 0 to 1", ConfigError);
  CHECK_THROWS_WITH_AS(check_kernel(buffers, one(-1, {any}, true)),
                       "kernel 'k': write 0 refers to buffer -1; valid buffer indices are 0 to 1", ConfigError);
  CHECK_THROWS_WITH_AS(check_kernel({}, kernel("k", {1, 1, 1}, {indirect(0)}, {})),
                       doctest::Contains("valid buffer indices are none (no buffers are declared)"), ConfigError);
  CHECK_THROWS_WITH_AS(check_kernel(buffers, one(0, {any})),
                       "kernel 'k': read 0 of buffer 'A' gives 1 index range(s); the buffer has 2 dimension(s) "
                       "(extent [4, 5])",
                       ConfigError);
  CHECK_THROWS_WITH_AS(check_kernel(buffers, one(1, {any, any, any}, true)),
                       doctest::Contains("write 0 of buffer 'B' gives 3 index range(s); the buffer has 1"),
                       ConfigError);
  // An indirect access's dimensions are ignored.
  CHECK_NOTHROW(check_kernel(buffers, kernel("k", {1, 1, 1}, {{0, true, {any}}}, {})));
  // The second access is the bad one: its index is named.
  KernelAccess two = kernel("k", {2, 1, 1}, {direct(1, {any}), direct(0, {any})}, {});
  CHECK_THROWS_WITH_AS(check_kernel(buffers, two), doctest::Contains("read 1 of buffer 'A'"), ConfigError);

  Affine xy = on(0, 4, 1);
  xy.cy = -2;
  CHECK_THROWS_WITH_AS(check_kernel(buffers, one(1, {range(xy, on(0, 4, 5))})),
                       "kernel 'k': read 0 of buffer 'B', dimension 0 [4*bx - 2*by + 1 : 4*bx + 5]: lo depends on "
                       "more than one block coordinate; each dimension's bounds may depend on at most one of bx, "
                       "by, bz, the same for lo and hi (declare the buffer with more dimensions)",
                       ConfigError);
  Affine yz = on(2, -1, 0);
  yz.cy = 1;
  CHECK_THROWS_WITH_AS(check_kernel(buffers, one(0, {any, range(constant(0), yz)}, true)),
                       doctest::Contains("write 0 of buffer 'A', dimension 1 [0 : by - bz]: hi depends on more "
                                         "than one block coordinate"),
                       ConfigError);
  CHECK_THROWS_WITH_AS(check_kernel(buffers, one(0, {range(on(0, 1, 0), on(1, 1, 1)), any})),
                       doctest::Contains("dimension 0 [bx : by + 1]: lo depends on bx but hi on by"), ConfigError);
  CHECK_THROWS_WITH_AS(check_kernel(buffers, one(1, {range(on(2, 3, 0), on(0, 3, 3))})),
                       doctest::Contains("lo depends on bz but hi on bx"), ConfigError);
  // Allowed: a constant bound with the other on any coordinate; both on the same.
  CHECK_NOTHROW(check_kernel(buffers, one(1, {range(constant(0), on(2, 3, 3))})));
  CHECK_NOTHROW(check_kernel(buffers, one(1, {range(on(1, -3, 9), constant(3))})));
  CHECK_NOTHROW(check_kernel(buffers, one(0, {range(on(1, 1, 0), on(1, 2, 1)), range(on(0, 1, 0), on(0, 1, 1))})));
  // A bad extent.
  const std::vector<BufferShape> bad = {{"Z", {3, 0}}};
  CHECK_THROWS_WITH_AS(check_kernel(bad, kernel("k", {1, 1, 1}, {indirect(0)}, {})),
                       "kernel 'k': read 0 of buffer 'Z': extent [3, 0]; every extent must be >= 1", ConfigError);
  // extract_pair and skip_dependencies check their kernels too.
  const KernelAccess good = kernel("good", {1, 1, 1}, {}, {});
  const KernelAccess mixed = one(0, {range(on(0, 1, 0), on(1, 1, 1)), any});
  CHECK_THROWS_AS(extract_pair(buffers, good, mixed, Hazards::RAW, 10), ConfigError);
  CHECK_THROWS_AS(extract_pair(buffers, mixed, good, Hazards::RAW, 10), ConfigError);
  CHECK_THROWS_AS(skip_dependencies(buffers, {good, good, mixed}, Hazards::RAW), ConfigError);
  CHECK(message_of(buffers, good).empty());
}

// ------------------------------------------------------------ skip_dependencies
TEST_CASE("skip_dependencies: hand cases") {
  const std::vector<BufferShape> buffers = {{"A", {16}}, {"B", {16}}};
  const auto w = [](std::int32_t b, Affine lo, Affine hi) { return direct(b, {range(lo, hi)}); };
  // k0 writes A[0:4]; k1 writes B; k2 reads A[0:6] (RAW with k0, two back);
  // k3 reads A[8:9] (k0's envelope is [0:4]: none); k4 writes A[0:1] (WAR
  // with k2, WAW with k0: ALL only; the latest, k2, is reported).
  const std::vector<KernelAccess> ks = {
      kernel("k0", {1, 1, 1}, {}, {w(0, constant(0), constant(4))}),
      kernel("k1", {1, 1, 1}, {}, {indirect(1)}),
      kernel("k2", {1, 1, 1}, {w(0, constant(0), constant(6))}, {}),
      kernel("k3", {1, 1, 1}, {w(0, constant(8), constant(9))}, {}),
      kernel("k4", {1, 1, 1}, {}, {w(0, constant(0), constant(1))}),
  };
  CHECK(skip_dependencies(buffers, ks, Hazards::RAW) == std::vector<std::int32_t>{-1, -1, 0, -1, -1});
  CHECK(skip_dependencies(buffers, ks, Hazards::ALL) == std::vector<std::int32_t>{-1, -1, 0, -1, 2});
  // The previous kernel never counts (it is the pair's parent).
  CHECK(skip_dependencies(buffers, {ks[1], ks[0], ks[2]}, Hazards::ALL) == std::vector<std::int32_t>{-1, -1, -1});
  CHECK(skip_dependencies(buffers, {ks[0], ks[1], ks[2]}, Hazards::ALL) == std::vector<std::int32_t>{-1, -1, 0});
  // Conservative: k0' writes A[4b : 4b + 1] for b < 4, elements 0, 4, 8, 12,
  // whose envelope [0:13) contains element 5 that k2' reads.
  const std::vector<KernelAccess> env = {
      kernel("k0'", {4, 1, 1}, {}, {w(0, on(0, 4, 0), on(0, 4, 1))}), ks[1],
      kernel("k2'", {1, 1, 1}, {w(0, constant(5), constant(6))}, {}),
      kernel("k3'", {1, 1, 1}, {w(0, constant(13), constant(16))}, {})};
  CHECK(skip_dependencies(buffers, env, Hazards::RAW) == std::vector<std::int32_t>{-1, -1, 0, -1});
  // An indirect access covers the whole buffer.
  const std::vector<KernelAccess> ind = {kernel("i0", {1, 1, 1}, {}, {indirect(0)}), ks[1], ks[3], ks[1], ks[3]};
  CHECK(skip_dependencies(buffers, ind, Hazards::RAW) == std::vector<std::int32_t>{-1, -1, 0, -1, 0});
  CHECK(skip_dependencies(buffers, {}, Hazards::RAW).empty());
}

TEST_CASE("skip_dependencies equals a brute-force envelope computation on random kernel sequences") {
  int sequences = 0, skips = 0;
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    Rng rng(5000 + seed);
    const std::vector<BufferShape> buffers = random_buffers(rng);
    std::vector<KernelAccess> ks;
    for (std::int64_t i = uniform(rng, 3, 6); i > 0; --i)
      ks.push_back(random_kernel(rng, buffers, std::string("k").append(std::to_string(ks.size()))));
    for (const Hazards h : {Hazards::RAW, Hazards::ALL}) {
      const std::vector<std::int32_t> want = brute_skip(buffers, ks, h);
      std::string text;
      for (const KernelAccess& k : ks) text += describe(buffers, k) + "\n";
      INFO("seed " << seed << (h == Hazards::ALL ? " ALL\n" : " RAW\n") << text);
      CHECK(skip_dependencies(buffers, ks, h) == want);
      ++sequences;
      skips += static_cast<int>(std::count_if(want.begin(), want.end(), [](std::int32_t j) { return j >= 0; }));
    }
  }
  CHECK(sequences == 600);
  CHECK(skips > 300);
}
