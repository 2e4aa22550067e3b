// What sgmf and vgiw share (docs/models/vgiw.md "sgmf", "vgiw"): how a
// block (or a kernel) occupies the fabric, and the bounds on how fast a
// stream of threads flows through it given the memory system's answers.
#pragma once

#include <algorithm>
#include <cstdint>

#include "models/vgiw/machines.hpp"
#include "models/vgiw/memory.hpp"

namespace tbdse::vgiw {

inline constexpr double kWordBytes = 4.0;

std::int64_t replicas_of(const UnitCounts& need, const UnitCounts& have);
std::int64_t total(const UnitCounts& u);
// ConfigError naming the unit type a block needs that the fabric has none of.
void require_units(const UnitCounts& need, const UnitCounts& have, const CfgKernel& k, std::int32_t b);

// How vgiw runs one block (§3.1, §3.5): its replicas on the fabric, or, when
// one replica does not fit, the parts it is split into, each with the cut's
// live values through the LVC.
struct BlockPlan {
  std::int64_t parts = 1;
  std::int64_t replicas = 1;  // per part
  UnitCounts part{};          // units of one replica of one part
  std::int64_t unit_ops = 0;  // unit-operations one thread makes over all parts
  std::int64_t extra_lv = 0;  // LVC values per thread added by the cuts
};
BlockPlan plan_block(const VgiwParams& p, const CfgKernel& k, std::int32_t b, const UnitCounts& have);

// The memory-side bounds, in cycles, on streaming `threads` threads that each
// make `ldst` accesses through `replicas` replicas (docs/models/vgiw.md):
// the LD/ST units (one access per cycle each, no coalescing), the L1 banks
// (waves of the replicas' accesses), DRAM bandwidth, L1 misses in flight over
// the MSHRs, and the token buffers: each LD/ST unit holds at most
// token_buffer_entries threads waiting on memory, so a unit completes at most
// entries / latency accesses per cycle.
struct StreamBounds {
  double ldst = 0, banks = 0, dram = 0, mshr = 0, tokens = 0, dram_bytes = 0;
  double max() const { return std::max({ldst, banks, dram, mshr, tokens}); }
};
template <class P>
StreamBounds stream_bounds(const P& p, const MemoryConfig& mc, const BlockMemory& mem, double threads,
                           double ldst, double replicas, double fabric_ldst) {
  StreamBounds s;
  if (ldst <= 0) return s;
  const double accesses = threads * ldst;
  s.ldst = std::ceil(accesses / fabric_ldst);
  s.banks = std::ceil(threads / replicas) * mem.bank_cycles;
  s.dram_bytes = accesses * mem.dram_bytes;
  s.dram = s.dram_bytes / p.dram_bytes_per_cycle;
  s.mshr = accesses * mem.line_misses * static_cast<double>(mc.l2_hit_cycles + mc.dram_latency) /
           static_cast<double>(mc.l1_mshrs);
  const double units = std::min(fabric_ldst, replicas * ldst);
  s.tokens = accesses * mem.load_latency / (units * static_cast<double>(p.token_buffer_entries));
  return s;
}

}  // namespace tbdse::vgiw
