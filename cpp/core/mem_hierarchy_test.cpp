// Goldens of the memory hierarchy, computed by hand (docs/memory.md).
#include "core/mem_hierarchy.hpp"

#include <doctest/doctest.h>

#include <cstdint>

#include "core/errors.hpp"

using namespace tbdse;

namespace {

// One set of two ways in L1 (every line conflicts), hit 10; one L2 bank of
// 64 x 8 lines, hit 100; one DRAM channel at 32 bytes/cycle (a sector takes
// 1 cycle) and 200 cycles of latency.  A cold read of one sector at cycle t
// completes at t + 1 (transfer) + 200 (DRAM) + 100 (L2) = t + 301.
MemoryConfig small(std::int64_t mshrs = 4, std::int64_t sms = 1) {
  MemoryConfig c;
  c.sms = sms;
  c.l1_sets = 1;
  c.l1_ways = 2;
  c.l1_hit_cycles = 10;
  c.l1_mshrs = mshrs;
  c.l2_banks = 1;
  c.l2_sets = 64;
  c.l2_ways = 8;
  c.l2_hit_cycles = 100;
  c.dram_channels = 1;
  c.dram_bytes_per_cycle = 32.0;
  c.dram_latency = 200;
  c.sample_cycles = 0;
  return c;
}

Cycle read(MemoryHierarchy& m, std::uint64_t address, Cycle cycle, std::int64_t sm = 0) {
  return m.access(sm, cycle, address, 4, false);
}

}  // namespace

TEST_CASE("LRU order in a 2-way set") {
  MemoryHierarchy m(small());
  const std::uint64_t A = 0, B = 128, C = 256;  // three lines, one set
  CHECK(read(m, A, 0) == 301);                  // cold miss
  CHECK(read(m, B, 1000) == 1301);              // cold miss; set {A, B}
  CHECK(read(m, A, 2000) == 2010);              // hit; A now most recent
  CHECK(read(m, C, 3000) == 3301);              // miss evicts B, the least recent
  CHECK(read(m, A, 4000) == 4010);              // A survived
  CHECK(read(m, B, 5000) == 5100);              // B was evicted from L1: an L2 hit
  CHECK(m.stats().l1_reads == 6);
  CHECK(m.stats().l1_read_hits == 2);
  CHECK(m.stats().l1_line_misses == 4);
  CHECK(m.stats().l2_read_hits == 1);
  CHECK(m.stats().dram_read_bytes == 3 * 32);
}

TEST_CASE("sector fills: four sectors of one line are one line miss and four sector misses") {
  MemoryHierarchy m(small());
  for (int s = 0; s < 4; ++s) CHECK(read(m, std::uint64_t(s) * 32, s * 1000) == s * 1000 + 301);
  CHECK(m.stats().l1_reads == 4);
  CHECK(m.stats().l1_read_hits == 0);
  CHECK(m.stats().l1_line_misses == 1);  // the tag was allocated by the first only
  // The whole line again, as one range: four sector hits, one L1 hit latency.
  CHECK(m.access_range(0, 5000, 0, 128, false) == 5010);
  CHECK(m.stats().l1_read_hits == 4);
  CHECK(m.stats().dram_read_bytes == 128);  // only the missing sectors were ever fetched
}

TEST_CASE("coalescing of strided and scattered warps") {
  std::uint64_t a[32];
  for (int t = 0; t < 32; ++t) a[t] = 4096 + 4 * std::uint64_t(t);  // consecutive words
  CoalescedWarp w = coalesce(a, 0xFFFFFFFFu, 4);
  CHECK(w.count == 1);
  CHECK(w.lines[0].line == 32);
  CHECK(w.lines[0].sectors == 0xF);
  w = coalesce(a, 0x0000FFFFu, 4);  // half a warp: 64 bytes, two sectors
  CHECK(w.count == 1);
  CHECK(w.lines[0].sectors == 0x3);
  for (int t = 0; t < 32; ++t) a[t] = 128 * std::uint64_t(t);  // stride 128: a line each
  w = coalesce(a, 0xFFFFFFFFu, 4);
  CHECK(w.count == 32);
  for (int i = 0; i < 32; ++i) CHECK(w.lines[i].sectors == 0x1);
  // Scattered: lines in order of first appearance, sectors merged per line.
  const std::uint64_t s[32] = {0, 100, 4096, 36, 4200, 124};
  w = coalesce(s, 0x3Fu, 8);  // 8 bytes each; 124..131 straddles lines 0 and 1
  REQUIRE(w.count == 3);
  CHECK(w.lines[0].line == 0);
  CHECK(w.lines[0].sectors == 0xB);  // sector 0 (0), 3 (100 and 124), 1 (36)
  CHECK(w.lines[1].line == 32);
  CHECK(w.lines[1].sectors == 0x9);  // 4096: sector 0; 4200 = 4096 + 104: sector 3
  CHECK(w.lines[2].line == 1);       // the straddling thread's last 4 bytes
  CHECK(w.lines[2].sectors == 0x1);
}

TEST_CASE("a warp's lines enter L1 one per cycle") {
  MemoryConfig c = small(64);
  c.l1_sets = 64;
  c.l1_ways = 4;
  MemoryHierarchy m(c);
  std::uint64_t a[32];
  for (int t = 0; t < 32; ++t) a[t] = 128 * std::uint64_t(t);
  // Line i enters L1 and L2 at cycle i, its sector is on the channel during
  // [i, i + 1): the last arrives at 31 + 1 + 200 + 100.
  CHECK(m.access_warp(0, 0, a, 0xFFFFFFFFu, 4, false) == 332);
  CHECK(m.stats().l1_reads == 32);
  CHECK(m.access_warp(0, 1000, a, 0xFFFFFFFFu, 4, false) == 1000 + 31 + 10);  // all hits
}

TEST_CASE("MSHRs: a miss to a missing line merges, a miss without a free MSHR waits") {
  MemoryHierarchy m(small(2));
  CHECK(read(m, 0, 0) == 301);
  CHECK(read(m, 0, 5) == 301);  // sector 0 is on its way: a pending hit
  CHECK(m.stats().l1_pending_hits == 1);
  // Sector 1 of the same line: merged into its MSHR; the channel is free
  // again at 1, so the sector transfers in [6, 7): 7 + 200 + 100.
  CHECK(read(m, 32, 6) == 307);
  CHECK(m.stats().mshr_merges == 1);

  MemoryHierarchy f(small(2));
  CHECK(read(f, 0, 0) == 301);    // MSHR 0 until 301
  CHECK(read(f, 128, 0) == 302);  // L1 port at 1; channel busy until 1: [1, 2)
  // Both MSHRs busy: the third miss waits until 301, then [301, 302) + 300.
  CHECK(read(f, 256, 0) == 602);
  CHECK(f.stats().mshr_stall_cycles == 301 - 2);
}

TEST_CASE("L2 bank conflicts serialise") {
  MemoryHierarchy m(small(4, 3));
  read(m, 0, 0);
  read(m, 128, 1000);  // both lines now in L2
  // Two SMs miss in L1 at the same cycle; the one bank takes one per cycle.
  CHECK(read(m, 0, 5000, 1) == 5100);
  CHECK(read(m, 128, 5000, 2) == 5101);
  CHECK(m.stats().l2_bank_wait_cycles == 1);
}

TEST_CASE("DRAM bandwidth and latency") {
  Dram d(1, 8.0, 100);  // 32 / 8 = 4 cycles a sector
  for (int k = 1; k <= 10; ++k) CHECK(d.transfer(std::uint64_t(k) * 32, 0, false) == 4 * k + 100);
  CHECK(d.backlog(0) == doctest::Approx(10.0));
  CHECK(d.backlog(20) == doctest::Approx(5.0));
  CHECK(d.read_bytes() == 320);
  Dram f(1, 12.0, 100);  // 2.67 cycles a sector: 3 sectors end at 8
  f.transfer(0, 0, false);
  f.transfer(32, 0, false);
  CHECK(f.transfer(64, 0, false) == 108);
  CHECK(f.transfer(96, 1000, true) == 1003 + 100);  // idle again: ceil(1002.67)
  CHECK(f.write_bytes() == 32);
}

TEST_CASE("write policies") {
  MemoryHierarchy evict(small());
  read(evict, 0, 0);
  CHECK(evict.access(0, 1000, 0, 4, true) == 1100);  // the store is accepted by L2
  CHECK(read(evict, 0, 2000) == 2100);               // write-evict dropped it from L1
  MemoryConfig c = small();
  c.l1_write_through = true;
  MemoryHierarchy through(c);
  read(through, 0, 0);
  through.access(0, 1000, 0, 4, true);
  CHECK(read(through, 0, 2000) == 2010);  // write-through kept it

  // L2 write-back: dirty sectors reach DRAM when their line leaves.
  c = small();
  c.l2_sets = 1;
  c.l2_ways = 1;
  MemoryHierarchy wb(c);
  wb.access_range(0, 0, 0, 128, true);  // four dirty sectors, no DRAM traffic yet
  CHECK(wb.stats().dram_bytes() == 0);
  read(wb, 128, 100);                   // evicts line 0 from the one L2 slot
  CHECK(wb.stats().dram_write_bytes == 128);
  CHECK(wb.stats().dram_read_bytes == 32);
  c.l2_write_back = false;
  MemoryHierarchy wt(c);
  wt.access(0, 0, 0, 64, true);  // write-through: two sectors straight to DRAM
  CHECK(wt.stats().dram_write_bytes == 64);
}

TEST_CASE("every preset builds a hierarchy") {
  for (const auto& name : gpu_preset_names()) {
    CAPTURE(name);
    const MemoryConfig c = memory_config(gpu_preset(name));
    MemoryHierarchy m(c);
    CHECK(read(m, 0, 0) > 0);
  }
  const MemoryConfig g = memory_config(gpu_preset("gtx480"));
  CHECK(g.l1_sets == 32);  // 16 KB / (4 ways x 128 B)
  CHECK(g.l2_sets == 64);  // 768 KB / (12 banks x 8 ways x 128 B)
  CHECK(g.dram_bytes_per_cycle == doctest::Approx(29.57e3 / 700));
  GpuConfig bad = gpu_preset("gtx480");
  bad.l1_bytes = 3 * 4 * 128;
  CHECK_THROWS_AS(memory_config(bad), ConfigError);
}

TEST_CASE("random traces: deterministic, completions after their cycle, counts consistent") {
  // Two hierarchies fed the same random mix of single accesses, warps and
  // ranges give the same completions; each completes no earlier than its
  // cycle plus the L1 hit latency (a load) and the counters add up.
  for (const auto& name : {"gtx480", "p100", "gpgpusim_hwwl"}) {
    CAPTURE(name);
    MemoryConfig c = memory_config(gpu_preset(name));
    c.sample_cycles = 50;
    MemoryHierarchy a(c), b(c);
    std::uint64_t x = 12345;
    auto next = [&x] {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      return x;
    };
    for (Cycle t = 0; t < 20000; ++t) {
      const auto sm = static_cast<std::int64_t>(next() % static_cast<std::uint64_t>(c.sms));
      const bool write = next() % 4 == 0;
      const std::uint64_t base = next() % (1 << 22);
      Cycle da = 0, db = 0;
      switch (next() % 3) {
        case 0:
          da = a.access(sm, t, base, 4, write);
          db = b.access(sm, t, base, 4, write);
          break;
        case 1: {
          std::uint64_t addr[32];
          const std::uint64_t stride = 4u << (next() % 6);
          for (int i = 0; i < 32; ++i) addr[i] = base + stride * std::uint64_t(i);
          const auto mask = static_cast<std::uint32_t>(next());
          da = a.access_warp(sm, t, addr, mask, 4, write);
          db = b.access_warp(sm, t, addr, mask, 4, write);
          break;
        }
        default: {
          const auto bytes = static_cast<std::int64_t>(next() % 1024);
          da = a.access_range(sm, t, base, bytes, write);
          db = b.access_range(sm, t, base, bytes, write);
          break;
        }
      }
      REQUIRE(da == db);
      REQUIRE(da >= t);
    }
    const MemoryStats& s = a.stats();
    CHECK(s.requests == 20000);
    CHECK(s.l1_read_hits <= s.l1_reads);
    CHECK(s.l2_read_hits <= s.l2_reads);
    CHECK(s.l2_reads == s.l1_reads - s.l1_read_hits);  // every missing sector goes to L2
    CHECK(s.dram_read_bytes == 32 * (s.l2_reads - s.l2_read_hits));
    CHECK(a.dram_queue_samples().size() == 20000 / 50);
    CHECK(a.dram_queue_samples() == b.dram_queue_samples());
  }
}
