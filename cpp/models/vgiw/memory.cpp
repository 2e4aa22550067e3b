#include "models/vgiw/memory.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <stdexcept>

#include "core/errors.hpp"
#include "core/rng.hpp"

namespace tbdse::vgiw {

namespace {

constexpr std::int64_t kWord = 4;
constexpr std::int64_t kWarp = 32;  // the streaming / hot choice is per 32 threads
// Far enough apart that no queue forms between two probed accesses: unloaded
// latencies (the machines bound bandwidth separately).
constexpr Cycle kGap = 4096;
constexpr int kArrayShift = 30;  // each (block, op) array in its own 1 GB
// Start lines are drawn from 16 MB of lines: every set of any L1 or L2 of
// up to 2^17 sets is equally likely.
constexpr std::uint64_t kStartLines = std::uint64_t{1} << 17;
constexpr std::uint64_t kLine = 128;

std::uint64_t array_id(std::int32_t b, std::int64_t op) {
  return static_cast<std::uint64_t>(b) * 64 + static_cast<std::uint64_t>(op % 64) + 1;
}

std::uint64_t start_line(std::int32_t b, std::int64_t op, std::uint64_t salt) {
  const std::uint64_t h = mix64((static_cast<std::uint64_t>(b) << 32) ^ static_cast<std::uint64_t>(op) ^ salt);
  return h % kStartLines * kLine;
}

}  // namespace

// Arrays start on a line (so equal thread indices share an L1 bank, as
// cudaMalloc'd arrays do) at a start line hashed from (block, op): an
// allocator packing arrays of unrelated sizes leaves their starts at
// unrelated cache sets.  (Before issue 29 the start set depended on the op
// index alone, so every block's op-k array and hot line shared one L1 set.)
std::uint64_t array_base(std::int32_t b, std::int64_t op) {
  return (array_id(b, op) << kArrayShift) + start_line(b, op, 0xA11C0CA7EULL);
}

std::uint64_t hot_line_base(std::int32_t b, std::int64_t op) {
  return (array_id(b, op) << kArrayShift) + (std::uint64_t{1} << (kArrayShift - 1)) +
         start_line(b, op, 0x407111E5ULL);
}

std::uint64_t access_address(const BasicBlock& blk, std::int32_t b, std::int64_t op,
                             std::int64_t thread, std::int64_t visit, std::int64_t threads,
                             std::uint64_t key) {
  const std::uint64_t base = array_base(b, op);
  const std::uint64_t group = static_cast<std::uint64_t>(thread / kWarp);
  const std::uint64_t h = mix64(key ^ mix64(group * 0x9E3779B97F4A7C15ULL ^
                                            (static_cast<std::uint64_t>(b) << 40) ^
                                            (static_cast<std::uint64_t>(op) << 52) ^
                                            static_cast<std::uint64_t>(visit)));
  const double u = static_cast<double>(h >> 11) * 0x1.0p-53;
  if (u >= blk.mem_intensity)  // the block's hot line, one word per lane
    return hot_line_base(b, op) + static_cast<std::uint64_t>((thread % kWarp) * kWord);
  // Fresh data: element e of the array, the visit's own slice of it (the
  // k-th execution of a loop body by a thread reads its k-th element).
  const auto e = static_cast<std::uint64_t>(visit) * static_cast<std::uint64_t>(threads) +
                 static_cast<std::uint64_t>(thread);
  switch (blk.pattern) {
    case MemPattern::COALESCED: return base + (e % (std::uint64_t{1} << 26)) * kWord;
    case MemPattern::STRIDED: return base + (e % (std::uint64_t{1} << 21)) * kLine;
    case MemPattern::SCATTERED:
      return base + (mix64(e ^ (h << 1)) % (std::uint64_t{1} << 22)) * kWord;
  }
  return base;
}

MemoryConfig core_memory_config(const GpuConfig& gpu, double dram_bytes_per_cycle) {
  MemoryConfig c = memory_config(gpu);
  c.sms = 1;
  c.sample_cycles = 0;
  c.dram_channels = 1;
  c.dram_bytes_per_cycle = dram_bytes_per_cycle;
  return c;
}

MemoryProbe::MemoryProbe(const GpuConfig& gpu, const CfgKernel& k, std::uint64_t key,
                         std::int64_t sample_threads, double dram_bytes_per_cycle,
                         std::int64_t l1_banks, std::int64_t hop_cycles)
    : kernel_(k),
      key_(mix64(key ^ 0x6D656D6F7279ULL)),
      sample_(sample_threads / kWarp * kWarp),
      banks_(l1_banks),
      hop_(hop_cycles),
      dram_rate_(dram_bytes_per_cycle),
      config_(core_memory_config(gpu, dram_bytes_per_cycle)),
      memory_(config_),
      acc_(static_cast<std::size_t>(k.block_count())),
      wave_(static_cast<std::size_t>(k.block_count())),
      wave_threads_(static_cast<std::size_t>(k.block_count())),
      // simt's last sampled warp may reach 64 lanes past the sample.
      visits_(static_cast<std::size_t>((sample_ + 64) * k.block_count()), 0) {}

std::int64_t MemoryProbe::visit(std::int32_t b, std::int64_t thread) {
  const auto i = static_cast<std::size_t>(thread * kernel_.block_count() + b);
  if (i >= visits_.size()) throw std::logic_error("MemoryProbe: thread outside the sample");
  return visits_[i]++;
}

MemoryProbe::Snapshot MemoryProbe::snapshot() const {
  const MemoryStats& s = memory_.stats();
  return {s.dram_bytes(), s.l1_line_misses, s.requests, s.l1_reads + s.l1_writes,
          s.l2_reads + s.l2_writes};
}

void MemoryProbe::record(std::int32_t b, double accesses, const Snapshot& before) {
  const Snapshot now = snapshot();
  Acc& a = acc_[static_cast<std::size_t>(b)];
  a.accesses += accesses;
  a.dram_bytes += static_cast<double>(now.bytes - before.bytes);
  a.misses += static_cast<double>(now.misses - before.misses);
  a.requests += static_cast<double>(now.requests - before.requests);
  a.l1 += static_cast<double>(now.l1 - before.l1);
  a.l2 += static_cast<double>(now.l2 - before.l2);
}

void MemoryProbe::warp(std::int32_t b, std::int64_t base, std::uint64_t mask) {
  const BasicBlock& blk = kernel_.blocks()[static_cast<std::size_t>(b)];
  if (blk.ldst == 0 || mask == 0) return;
  const Snapshot before = snapshot();
  double lines_here = 0;
  std::array<std::uint64_t, 64> addr{};
  std::array<std::int64_t, 64> visit_of{};
  for (std::uint64_t m = mask; m; m &= m - 1) {
    const int lane = std::countr_zero(m);
    visit_of[static_cast<std::size_t>(lane)] = visit(b, base + lane);
  }
  Acc& a = acc_[static_cast<std::size_t>(b)];
  for (std::int64_t op = 0; op < blk.ldst; ++op) {
    for (std::uint64_t m = mask; m; m &= m - 1) {
      const int lane = std::countr_zero(m);
      addr[static_cast<std::size_t>(lane)] =
          access_address(blk, b, op, base + lane, visit_of[static_cast<std::size_t>(lane)],
                         kernel_.threads(), key_);
    }
    std::int32_t lines = 0;
    const bool store = is_store(blk, op);
    clock_ += kGap;
    Cycle done = clock_;
    for (int half = 0; half < 2; ++half) {  // the hierarchy coalesces 32 lanes at a time
      const auto lanes = static_cast<std::uint32_t>(mask >> (32 * half));
      std::int32_t more = 0;
      if (lanes)
        done = std::max(done, memory_.access_warp(0, clock_, addr.data() + 32 * half, lanes, kWord,
                                                  store, &more));
      lines += more;
    }
    a.warp_instr += 1;
    a.lines += lines;
    lines_here += lines;
    if (!store) a.loads += 1, a.latency += static_cast<double>(done - clock_);
  }
  record(b, static_cast<double>(std::popcount(mask) * blk.ldst), before);
  a.requests += lines_here - static_cast<double>(blk.ldst);  // simt: line requests, not calls
}

void MemoryProbe::thread(std::int32_t b, std::int64_t t, std::int64_t replicas) {
  const BasicBlock& blk = kernel_.blocks()[static_cast<std::size_t>(b)];
  if (blk.ldst == 0) return;
  const std::int64_t k = visit(b, t);
  const Snapshot before = snapshot();
  Acc& a = acc_[static_cast<std::size_t>(b)];
  auto& wave = wave_[static_cast<std::size_t>(b)];
  for (std::int64_t op = 0; op < blk.ldst; ++op) {
    const std::uint64_t address = access_address(blk, b, op, t, k, kernel_.threads(), key_);
    // The node at depth op / 2 meanwhile serves an earlier thread (its bank;
    // taken at the same visit).
    const std::int64_t lag = (op / 2) * hop_ * replicas;
    wave.push_back(lag == 0 || t < lag ? address
                                       : access_address(blk, b, op, t - lag, k, kernel_.threads(), key_));
    const bool store = is_store(blk, op);
    const Cycle done = memory_.access(0, clock_, address, kWord, store);
    if (!store) a.loads += 1, a.latency += static_cast<double>(done - clock_);
  }
  record(b, static_cast<double>(blk.ldst), before);
  if (++wave_threads_[static_cast<std::size_t>(b)] >= replicas) end_block(b);
}

void MemoryProbe::end_block(std::int32_t b) {
  auto& wave = wave_[static_cast<std::size_t>(b)];
  wave_threads_[static_cast<std::size_t>(b)] = 0;
  if (wave.empty()) return;
  // The wave's accesses reach the word-interleaved banks together; a bank
  // serves one word per cycle, so the wave takes its busiest bank's count.
  std::array<std::int32_t, 1024> count{};
  std::int32_t busiest = 0;
  const auto nb = static_cast<std::uint64_t>(std::min<std::int64_t>(banks_, 1024));
  for (const std::uint64_t address : wave)
    busiest = std::max(busiest, ++count[static_cast<std::size_t>((address / kWord) % nb)]);
  Acc& a = acc_[static_cast<std::size_t>(b)];
  a.waves += 1;
  a.wave_cycles += busiest;
  const auto size = wave.size();
  wave.clear();
  // The stream's pace, so that no queue grows without bound in the sample
  // (the machines bound these rates themselves): the hierarchy's L1 takes
  // one request per cycle, DRAM its bandwidth, the MSHRs their misses'
  // latency each.
  const MemoryStats& s = memory_.stats();
  const double dram = static_cast<double>(s.dram_bytes() - wave_bytes0_) / dram_rate_;
  const double mshr = static_cast<double>(s.l1_line_misses - wave_misses0_) *
                      static_cast<double>(config_.l2_hit_cycles + config_.dram_latency) /
                      static_cast<double>(config_.l1_mshrs);
  wave_bytes0_ = s.dram_bytes();
  wave_misses0_ = s.l1_line_misses;
  clock_ += static_cast<Cycle>(std::ceil(std::max({static_cast<double>(size), dram, mshr})));
}

std::vector<BlockMemory> MemoryProbe::result() const {
  std::vector<BlockMemory> out(acc_.size());
  for (std::size_t b = 0; b < acc_.size(); ++b) {
    const Acc& a = acc_[b];
    BlockMemory& m = out[b];
    m.load_latency = a.loads > 0 ? a.latency / a.loads : static_cast<double>(config_.l1_hit_cycles);
    m.lines = a.warp_instr > 0 ? a.lines / a.warp_instr : 1.0;
    m.bank_cycles = a.waves > 0 ? a.wave_cycles / a.waves : 1.0;
    m.dram_bytes = a.accesses > 0 ? a.dram_bytes / a.accesses
                                  : kernel_.blocks()[b].mem_intensity * kWord;
    m.line_misses = a.accesses > 0 ? a.misses / a.accesses : kernel_.blocks()[b].mem_intensity;
    m.l1_requests = a.accesses > 0 ? a.requests / a.accesses : 1.0;
    m.l1_sectors = a.accesses > 0 ? a.l1 / a.accesses : 1.0;
    m.l2_sectors = a.accesses > 0 ? a.l2 / a.accesses : kernel_.blocks()[b].mem_intensity;
  }
  return out;
}

}  // namespace tbdse::vgiw
