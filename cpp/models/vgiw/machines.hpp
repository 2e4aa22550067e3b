// The three machines that run a control-flow kernel (docs/MODELS.md §7):
// simt (a Fermi SM: warps with masks, reconvergence at the immediate
// post-dominator), sgmf (the whole kernel on the fabric) and vgiw
// (control-flow coalescing).  Each returns one result row: cycles and the
// "cfg" kind's metrics, NaN where a metric does not apply to that machine.
#pragma once

#include <cstdint>
#include <vector>

#include "core/run.hpp"
#include "core/scheme.hpp"
#include "models/vgiw/kernel.hpp"
#include "models/vgiw/vgiw_params.hpp"

namespace tbdse::vgiw {

// The metrics every control-flow machine reports, in this order.
enum Metric {
  MAPS = 0,           // 1, or 0 when the kernel does not map (sgmf)
  THREADS,            // threads of the kernel
  BLOCK_EXECUTIONS,   // thread x block executions (the threads' path lengths together)
  THREAD_OPS,         // operations the threads executed (alu + special + ldst)
  LANE_UTILISATION,   // simt
  UNIT_UTILISATION,   // sgmf, vgiw
  CONFIGURATIONS,     // vgiw: fabric configurations loaded (the first one included)
  RECONFIG_CYCLES,    // vgiw
  RECONFIG_SHARE,     // vgiw: reconfiguration cycles / cycles
  LVC_ACCESSES,       // vgiw
  RF_ACCESSES,        // simt
  WARP_INSTRUCTIONS,  // simt
  REPLICAS,           // sgmf: the kernel's; vgiw: mean per block execution
  TILES,              // vgiw
  SPLIT_BLOCKS,       // vgiw: blocks bigger than the fabric
  DRAM_BYTES,
  MEMORY_BOUND_SHARE,  // share of cycles in which DRAM bandwidth was the limit
  ENERGY,              // nJ, system level: + DRAM (energy.hpp)
  RESIDENT_WARPS,      // simt: warps resident per SM (occupancy)
  LOAD_LATENCY,        // mean cycles a load waits (simt: per warp load, fabric: per thread)
  BANK_CYCLES,         // fabric: mean L1 cycles per wave of uncoalesced accesses
  LVC_HIT_RATE,        // vgiw: share of LVC accesses that hit
  LIMIT,               // which bound set the time (simt: 0 issue, 1 latency, 2 mshr, 3 dram)
  ENERGY_CORE,         // nJ: the compute engine (energy.hpp)
  ENERGY_DIE,          // nJ: + L1, L2, network
  kMetricCount
};

const std::vector<StatInfo>& cfg_metrics();

// The unit counts of a fabric after fabric_scale.
template <class P>
UnitCounts fabric_units(const P& p) {
  const auto scale = [&p](std::int64_t n) {
    if (n == 0) return std::int64_t{0};
    return std::max<std::int64_t>(1, static_cast<std::int64_t>(static_cast<double>(n) * p.fabric_scale));
  };
  return {scale(p.fabric_alu), scale(p.fabric_special), scale(p.fabric_ldst),
          scale(p.fabric_lvu), scale(p.fabric_split_join), scale(p.fabric_cvu)};
}

// Pipeline fill of one replica of a block: ceil(ops / 2) dataflow levels of
// hop_cycles, plus a load's latency when it accesses memory (tbdse's).
std::int64_t fill_cycles(const UnitCounts& units, std::int64_t hop_cycles, std::int64_t load_latency);

// simt occupancy: registers a thread needs (tbdse's: 8 + the widest block's
// live values and half its instructions, at most Fermi's 63) and the warps
// resident per SM within tb_slots, threads_per_sm and regs_per_sm.
std::int64_t registers_per_thread(const CfgKernel& k);
// Threads per thread block: the kernel's launch, else the scheme's block_threads.
std::int64_t launch_block_threads(const SimtParams& p, const CfgKernel& k);
std::int64_t resident_warps(const SimtParams& p, const GpuConfig& gpu, const CfgKernel& k);

// simt's time: resident warps circulating through the SM's resources
// (busy cycles over the kernel: dispatch, LD/ST, SFU, MSHRs, DRAM) and their
// dependence stalls, by exact mean value analysis (simt.cpp).
double warp_network_cycles(const double (&busy)[5], double stall, double resident, double warps);

// Records the three energy levels (pJ in, nJ out) in a row's metrics.
void set_energy(std::vector<double>& m, double core_dynamic, double memory_dynamic,
                double dram_bytes, double cycles);

// `values`: also return each thread's executed path length (series "path_length").
RunOutput run_simt(const SimtParams& p, const CfgKernel& k, const ResolvedRun& r, bool values);
RunOutput run_sgmf(const SgmfParams& p, const CfgKernel& k, const ResolvedRun& r, bool values);
RunOutput run_vgiw(const VgiwParams& p, const CfgKernel& k, const ResolvedRun& r, bool values);

// What run_vgiw would refuse, before it runs: a block needing a unit type the
// fabric has none of (fabric_<type> = 0), or one too big to split.
void check_vgiw(const VgiwParams& p, const CfgKernel& k);

}  // namespace tbdse::vgiw
