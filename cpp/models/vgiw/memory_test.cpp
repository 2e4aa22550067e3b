// The control-flow machines' memory probe (docs/models/vgiw.md "Memory"):
// addresses by access pattern, bank waves of uncoalesced accesses, and the
// per-block averages the machines charge.
#include <doctest/doctest.h>

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
    for (std::int64_t t = 0; t < 1024; ++t) probe.thread(0, t, 0, 16);  // waves of 16 threads
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
  std::int32_t steps[64] = {};
  for (const auto& [pattern, lines] : {std::pair{MemPattern::COALESCED, 1.0}, std::pair{MemPattern::STRIDED, 32.0}}) {
    const CfgKernel k = one_block(pattern, 1, 1.0);
    MemoryProbe probe(gpu, k, 1, 1024, 8.0);
    for (std::int64_t base = 0; base < 1024; base += 32) probe.warp(0, base, 0xFFFFFFFFULL, steps);
    CHECK(probe.result()[0].lines == doctest::Approx(lines));
  }
}
