// TB data footprints from access ranges (footprints.hpp): byte ranges per TB.
#include "models/blockmaestro/footprints.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "core/errors.hpp"
#include "models/blockmaestro/access_ranges_test_support.hpp"

using namespace tbdse::blockmaestro;
using tbdse::blockmaestro::test_support::range;

TEST_CASE("footprints: buffers laid out in order, 4 KiB aligned") {
  const std::vector<BufferShape> buffers = {{"A", {100}}, {"B", {2048}}, {"C", {1}}};
  const std::vector<std::int64_t> elem = {4, 4, 8};
  CHECK(buffer_bases(buffers, elem) == std::vector<std::uint64_t>{4096, 8192, 16384});
}

TEST_CASE("footprints: rows of a 2-D box become ranges; whole rows merge") {
  const std::vector<BufferShape> buffers = {{"M", {8, 16}}, {"O", {8, 16}}};
  const std::vector<std::int64_t> elem = {4, 4};
  const auto bases = buffer_bases(buffers, elem);
  KernelAccess k;
  k.name = "k";
  k.grid = {4, 1, 1};
  // TB bx reads rows 2bx..2bx+1, columns 4..7; and rows 2bx..2bx+1 whole; writes them to O.
  const IndexRange rows = range({0, 2}, {2, 2});
  k.reads.push_back({0, false, {rows, range({4}, {8})}});
  k.reads.push_back({0, false, {rows, range({0}, {16})}});
  k.reads.push_back({1, true, {}});  // indirect: no range
  k.writes.push_back({1, false, {rows, range({0}, {16})}});
  Footprints fp;
  append_footprints(buffers, elem, bases, k, 100, fp);
  CHECK(fp.start == std::vector<std::int64_t>{0, 4, 8, 12, 16});
  CHECK(fp.base[0] == 4096 + 16);
  CHECK(fp.base[1] == 4096 + 64 + 16);
  CHECK(fp.base[2] == 4096);
  CHECK(fp.bytes[2] == 128);  // two whole rows: one range
  CHECK(fp.write[3] == 1);
  CHECK(fp.base[3] == 8192);
  CHECK(fp.base[4] == 4096 + 128 + 16);  // TB 1, two rows down
  Footprints small;
  CHECK_THROWS_AS(append_footprints(buffers, elem, bases, k, 1, small), tbdse::ConfigError);
}

TEST_CASE("footprints: a box clipped to the buffer, an empty one adds nothing") {
  const std::vector<BufferShape> buffers = {{"A", {1000}}};
  const std::vector<std::int64_t> elem = {4};
  const auto bases = buffer_bases(buffers, elem);
  KernelAccess k;
  k.name = "halo";
  k.grid = {4, 1, 1};
  k.reads.push_back({0, false, {range({-1, 500}, {501, 500})}});  // a halo, clipped at the ends
  Footprints fp;
  append_footprints(buffers, elem, bases, k, 100, fp);
  CHECK(fp.start == std::vector<std::int64_t>{0, 1, 2, 3, 3});  // TB 3 starts past the end
  CHECK(fp.base[0] == 4096);
  CHECK(fp.bytes[0] == 501 * 4);
  CHECK(fp.base[1] == 4096 + 499 * 4);
  CHECK(fp.bytes[1] == 501 * 4);
  CHECK(fp.bytes[2] == 4);  // the last element only
}
