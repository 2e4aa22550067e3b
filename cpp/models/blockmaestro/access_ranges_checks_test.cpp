// BlockMaestro (ISCA 2021 §III-B): the messages of check_kernel, and the
// kernel-level envelopes of skip_dependencies against brute force.
#include <doctest/doctest.h>

#include "models/blockmaestro/access_ranges.hpp"
#include "models/blockmaestro/access_ranges_test_support.hpp"

using namespace tbdse;
using namespace tbdse::blockmaestro;
using namespace tbdse::blockmaestro::test_support;

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
