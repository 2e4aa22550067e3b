// BlockMaestro dependency extraction (ISCA 2021 §III-B, Algorithm 1): the
// affine-bound inversion of extract_pair against brute force and the division
// helpers.  check_kernel and skip_dependencies: access_ranges_checks_test.cpp.
#include "models/blockmaestro/access_ranges.hpp"

#include <doctest/doctest.h>

#include "models/blockmaestro/access_ranges_test_support.hpp"

using namespace tbdse;
using namespace tbdse::blockmaestro;
using namespace tbdse::blockmaestro::test_support;


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
