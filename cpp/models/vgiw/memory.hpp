// The control-flow machines' memory (docs/models/vgiw.md "Memory"): every
// load/store of a kernel has an address (its block's access pattern, its
// memory intensity), and the core's shared memory hierarchy
// (core/mem_hierarchy.hpp: L1 with MSHRs, banked L2, DRAM) classifies it.
// Walking every access of a 64K-thread kernel through the hierarchy costs
// more than the machines themselves, so the probe runs the accesses of the
// first `sample_threads` threads (whole warps) and the machines charge the
// per-block averages to every execution: latency (unloaded: accesses are
// spaced so that no queue forms; bandwidth limits are the machines' own
// throughput bounds), L1 line requests per warp instruction (simt), cycles
// per wave of uncoalesced accesses at the L1 banks (fabric), DRAM bytes
// and L1 line misses per access.
#pragma once

#include <cstdint>
#include <vector>

#include "core/gpu.hpp"
#include "core/mem_hierarchy.hpp"
#include "models/vgiw/kernel.hpp"

namespace tbdse::vgiw {

// The address one thread touches with load/store `op` of block `b` at its
// `visit`-th execution of that block (0 = its first; docs/models/vgiw.md
// "Memory").  A warp-aligned group of 32 threads either streams over fresh
// data (chance mem_intensity, per group, block, op and visit) or re-reads a
// 128-byte line its block keeps hot.  The element a thread reads depends on
// the thread and its visit, not on the path that led it there: divergence
// changes which blocks a thread runs, not the data a block reads.  Each
// (block, op) has its own array, starting on a line as cudaMalloc aligns them
// (equal thread indices of two arrays fall in the same L1 bank) at a start
// line hashed from (block, op), as arrays of unrelated sizes fall.
std::uint64_t access_address(const BasicBlock& blk, std::int32_t b, std::int64_t op,
                             std::int64_t thread, std::int64_t visit, std::int64_t threads,
                             std::uint64_t key);
// The first address of (block b, op)'s array and of its hot line.
std::uint64_t array_base(std::int32_t b, std::int64_t op);
std::uint64_t hot_line_base(std::int32_t b, std::int64_t op);
// The block's last access is a store when it has two or more (tbdse's: a
// block reads its operands and writes one result).
inline bool is_store(const BasicBlock& blk, std::int64_t op) {
  return blk.ldst >= 2 && op == blk.ldst - 1;
}

// What the machines charge per block, from the sample.
struct BlockMemory {
  double load_latency = 0;    // mean cycles a load waits (simt: per warp load; fabric: per thread)
  double lines = 1;           // simt: L1 line requests per warp memory instruction
  double bank_cycles = 1;     // fabric: L1 cycles per wave of the replicas' accesses
  double dram_bytes = 0;      // per thread access
  double line_misses = 0;     // L1 line misses (MSHR allocations) per thread access
  // For energy, per thread access: L1 requests (tag lookups), L1 and L2 sectors.
  double l1_requests = 1, l1_sectors = 0, l2_sectors = 0;
};

class MemoryProbe {
 public:
  // `dram_bytes_per_cycle`: the core's share; `l1_banks`: word-interleaved
  // banks; `hop_cycles`: the fabric's cycles per dataflow level (the lag
  // between a block's load/store nodes at different depths).
  MemoryProbe(const GpuConfig& gpu, const CfgKernel& k, std::uint64_t key,
              std::int64_t sample_threads, double dram_bytes_per_cycle,
              std::int64_t l1_banks = 32, std::int64_t hop_cycles = 2);
  bool sampled(std::int64_t thread) const { return thread < sample_; }
  // simt: one warp's execution of block b (lanes of `mask` from thread `base`);
  // every load/store a coalesced warp instruction.  The probe counts each
  // sampled thread's visits of each block itself (access_address's `visit`).
  void warp(std::int32_t b, std::int64_t base, std::uint64_t mask);
  // fabric: one thread's execution of block b, in vector order; `replicas`
  // threads make one wave at the L1 banks.  The fabric streams: accesses are
  // stamped with a clock that advances per wave at the pace the hierarchy
  // sustains (one L1 request per cycle, DRAM bandwidth, misses over MSHRs),
  // so threads close in the stream merge into each other's misses as they
  // do in flight.
  // In a wave, load/store node j (at dataflow depth j / 2, two chains as the
  // fill assumes) serves a thread that entered (j / 2) x hop_cycles x
  // replicas threads earlier: nodes of one depth hit their arrays together.
  void thread(std::int32_t b, std::int64_t thread, std::int64_t replicas);
  // Ends block b's current (partial) wave.
  void end_block(std::int32_t b);
  // Per-block averages (a block the sample never ran gets an L1 hit's latency,
  // one line, one wave cycle and mem_intensity x 4 bytes).
  std::vector<BlockMemory> result() const;
  const MemoryConfig& config() const { return config_; }

 private:
  struct Acc {
    double loads = 0, latency = 0, warp_instr = 0, lines = 0, waves = 0, wave_cycles = 0;
    double accesses = 0, dram_bytes = 0, misses = 0, requests = 0, l1 = 0, l2 = 0;
  };
  struct Snapshot {
    std::int64_t bytes, misses, requests, l1, l2;
  };
  Snapshot snapshot() const;
  // The thread's visits of block b before this one (and counts this one).
  std::int64_t visit(std::int32_t b, std::int64_t thread);
  void record(std::int32_t b, double accesses, const Snapshot& before);
  const CfgKernel& kernel_;
  std::uint64_t key_;
  std::int64_t sample_;
  std::int64_t banks_, hop_;
  double dram_rate_;
  std::int64_t wave_bytes0_ = 0, wave_misses0_ = 0;
  MemoryConfig config_;
  MemoryHierarchy memory_;
  Cycle clock_ = 0;
  std::vector<Acc> acc_;
  std::vector<std::vector<std::uint64_t>> wave_;  // per block: the current wave's addresses
  std::vector<std::int64_t> wave_threads_;
  std::vector<std::int32_t> visits_;  // sampled threads x blocks
};

// The per-core hierarchy both machines use: the GPU's L1, L2 and latencies,
// one SM, one DRAM channel of the core's bandwidth share, no queue sampling.
MemoryConfig core_memory_config(const GpuConfig& gpu, double dram_bytes_per_cycle);

}  // namespace tbdse::vgiw
