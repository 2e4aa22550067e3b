// The control-flow machines' memory probe (docs/models/vgiw.md "Memory"):
// addresses by access pattern, bank waves of uncoalesced accesses, and the
// per-block averages the machines charge.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>

#include "core/gpu.hpp"
#include "models/vgiw/memory.hpp"

using namespace tbdse;
using namespace tbdse::vgiw;

namespace {

CfgKernel one_block(MemPattern pattern, std::int64_t ldst, double mem) {
  BasicBlock b;
  b.alu = 1;
  b.ldst = ldst;
  b.mem_intensity = mem;
  b.pattern = pattern;
  return CfgKernel("mem", {b}, 4096);
}

}  // namespace

TEST_CASE("streamed addresses follow the pattern, the rest re-read the block hot line") {
  const CfgKernel co = one_block(MemPattern::COALESCED, 1, 1.0);
  const BasicBlock& blk = co.blocks()[0];
  // Coalesced: thread t reads word t of its array.
  CHECK(access_address(blk, 0, 0, 1, 0, 4096, 7) - access_address(blk, 0, 0, 0, 0, 4096, 7) == 4);
  BasicBlock strided = blk;
  strided.pattern = MemPattern::STRIDED;
  CHECK(access_address(strided, 0, 0, 1, 0, 4096, 7) - access_address(strided, 0, 0, 0, 0, 4096, 7) == 128);
  // Nothing streamed: all 32 threads of a warp read one 128-byte line.
  BasicBlock hot = blk;
  hot.mem_intensity = 0.0;
  std::set<std::uint64_t> lines;
  for (std::int64_t t = 0; t < 64; ++t) lines.insert(access_address(hot, 0, 0, t, 0, 4096, 7) / 128);
  CHECK(lines.size() == 1);
}

TEST_CASE("a wave of strided accesses lands on one bank, coalesced ones spread") {
  const GpuConfig gpu = gpu_preset("gtx480");
  for (const auto& [pattern, lo, hi] :
       {std::tuple{MemPattern::COALESCED, 1.0, 1.0}, std::tuple{MemPattern::STRIDED, 16.0, 16.0}}) {
    const CfgKernel k = one_block(pattern, 1, 1.0);
    MemoryProbe probe(gpu, k, 1, 1024, 8.0, 32, 2);
    for (std::int64_t t = 0; t < 1024; ++t) probe.thread(0, t, 16);  // waves of 16 threads
    probe.end_block(0);
    const BlockMemory m = probe.result()[0];
    CHECK(m.bank_cycles >= lo);
    CHECK(m.bank_cycles <= hi);
    // Coalesced streams move 4 bytes of DRAM per access, strided a 32-byte sector.
    CHECK(m.dram_bytes == doctest::Approx(pattern == MemPattern::COALESCED ? 4.0 : 32.0).epsilon(0.05));
    CHECK(m.load_latency > static_cast<double>(gpu.l1_hit_cycles));
  }
}

TEST_CASE("simt coalesces a warp: one line per coalesced access, 32 per strided one") {
  const GpuConfig gpu = gpu_preset("gtx480");
  for (const auto& [pattern, lines] : {std::pair{MemPattern::COALESCED, 1.0}, std::pair{MemPattern::STRIDED, 32.0}}) {
    const CfgKernel k = one_block(pattern, 1, 1.0);
    MemoryProbe probe(gpu, k, 1, 1024, 8.0);
    for (std::int64_t base = 0; base < 1024; base += 32) probe.warp(0, base, 0xFFFFFFFFULL);
    CHECK(probe.result()[0].lines == doctest::Approx(lines));
  }
}

TEST_CASE("arrays and hot lines of different blocks start at spread-out L1 sets (issue 29)") {
  // Before, the start set depended on the op index alone: op k of every block
  // fell in one set of the 4-way L1, so five blocks interleaved thrashed it.
  const MemoryConfig mc = core_memory_config(gpu_preset("gtx480"), 8.0);
  const auto sets = static_cast<std::uint64_t>(mc.l1_sets);
  REQUIRE(sets == 32);
  for (std::int64_t op = 0; op < 3; ++op) {
    std::map<std::uint64_t, int> arrays, hot;
    for (std::int32_t b = 0; b < 256; ++b) {
      CHECK(array_base(b, op) % 128 == 0);  // line-aligned: equal indices share a bank
      ++arrays[array_base(b, op) / 128 % sets];
      ++hot[hot_line_base(b, op) / 128 % sets];
    }
    // 256 arrays over 32 sets: about 8 each, as a uniform draw spreads them.
    for (const auto* count : {&arrays, &hot}) {
      CHECK(count->size() >= 28);
      int most = 0;
      for (const auto& [set, n] : *count) most = std::max(most, n);
      CHECK(most <= 20);
    }
  }
  // The first four blocks' op-0 arrays: not all in one set.
  std::set<std::uint64_t> first;
  for (std::int32_t b = 0; b < 4; ++b) first.insert(array_base(b, 0) / 128 % sets);
  CHECK(first.size() > 1);
}
