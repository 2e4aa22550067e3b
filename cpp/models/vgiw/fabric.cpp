// The fabric machines' shared parts and sgmf (docs/models/vgiw.md): sgmf maps
// the whole kernel once and streams every thread through every path (SGMF,
// ISCA 2014; VGIW §1, Fig. 1c).  vgiw is in vgiw_run.cpp.
#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "core/errors.hpp"
#include "models/vgiw/energy.hpp"
#include "models/vgiw/fabric_plan.hpp"
#include "models/vgiw/memory.hpp"

namespace tbdse::vgiw {

const std::vector<StatInfo>& cfg_metrics() {
  static const std::vector<StatInfo> list = {
      {"maps", "0/1", "1 when the kernel runs; 0 when it does not fit the fabric (sgmf)"},
      {"threads", "threads", "threads of the kernel"},
      {"block_executions", "thread-blocks", "blocks executed by all threads (their path lengths)"},
      {"thread_ops", "ops", "ALU, special and load/store operations the threads executed"},
      {"lane_utilisation", "fraction",
       "simt: active thread-instructions / (warp_size x warp instructions); Figs. 1-2: 29/48"},
      {"unit_utilisation", "fraction",
       "sgmf, vgiw: unit-operations executed / (fabric units x cycles)"},
      {"configurations", "configurations", "vgiw: fabric configurations loaded"},
      {"reconfig_cycles", "cycles", "vgiw: cycles spent configuring the fabric"},
      {"reconfig_share", "fraction", "vgiw: reconfig_cycles / makespan (paper: 0.18% mean)"},
      {"lvc_accesses", "accesses", "vgiw: live value cache line accesses (Fig. 3)"},
      {"rf_accesses", "accesses", "simt: warp-wide register-file accesses (Fig. 3)"},
      {"warp_instructions", "instructions", "simt: warp instructions issued"},
      {"replicas", "replicas", "sgmf: the kernel's replicas; vgiw: mean per block execution, "
                               "weighted by threads"},
      {"tiles", "tiles", "vgiw: thread tiles the control vector table allows, run in turn"},
      {"split_blocks", "blocks", "vgiw: blocks bigger than the fabric, split through the LVC"},
      {"dram_bytes", "bytes", "bytes moved from DRAM (4 per missing load/store access)"},
      {"memory_bound_share", "fraction", "share of the cycles DRAM bandwidth bounded"},
      {"energy", "nJ", "system energy: die + DRAM bytes and DRAM static power (energy.hpp, Fig. 10)"},
      {"resident_warps", "warps", "simt: warps resident per SM (blocks x warps within the SM's limits)"},
      {"load_latency", "cycles", "mean cycles a load waits in the memory hierarchy (simt: per warp "
                                 "load instruction; sgmf, vgiw: per thread load)"},
      {"bank_cycles", "cycles", "sgmf, vgiw: mean L1 cycles per wave of the replicas' uncoalesced "
                                "accesses (1 = no bank conflict)"},
      {"lvc_hit_rate", "fraction", "vgiw: LVC accesses that hit (the tile's live values within lvc_bytes)"},
      {"limit", "code", "the bound that set most of the time: 0 issue/stream, 1 latency, 2 MSHRs, "
                        "3 DRAM, 4 L1 banks / LD/ST units, 5 LVC, 6 CVT / BBS packets"},
      {"energy_core", "nJ", "core energy: the compute engine's dynamic energy and static power "
                            "(Fermi: pipeline, RF, lanes; fabric: units, tokens, LVC, CVT)"},
      {"energy_die", "nJ", "die energy: core + L1, L2 and network accesses and their static power"},
  };
  return list;
}

std::int64_t fill_cycles(const UnitCounts& u, std::int64_t hop_cycles, std::int64_t load_latency) {
  const std::int64_t ops = u[ALU] + u[SPECIAL] + u[LDST] + u[LVU];
  return (ops + 1) / 2 * hop_cycles + (u[LDST] > 0 ? load_latency : 0);
}

void set_energy(std::vector<double>& m, double core_dynamic, double memory_dynamic,
                double dram_bytes, double cycles) {
  const double core = core_dynamic + energy::kCoreStatic * cycles;
  const double die = core + memory_dynamic + energy::kDieStatic * cycles;
  const double system = die + dram_bytes * energy::kDramByte + energy::kDramStatic * cycles;
  m[ENERGY_CORE] = core / 1e3;
  m[ENERGY_DIE] = die / 1e3;
  m[ENERGY] = system / 1e3;
}

std::int64_t replicas_of(const UnitCounts& need, const UnitCounts& have) {
  std::int64_t r = std::numeric_limits<std::int64_t>::max();
  for (int t = 0; t < kUnitTypes; ++t)
    if (need[t] > 0) r = std::min(r, have[t] / need[t]);
  return r;
}

std::int64_t total(const UnitCounts& u) {
  std::int64_t s = 0;
  for (const auto v : u) s += v;
  return s;
}

void require_units(const UnitCounts& need, const UnitCounts& have, const CfgKernel& k,
                   std::int32_t b) {
  for (int t = 0; t < kUnitTypes; ++t)
    if (need[t] > 0 && have[t] == 0)
      throw ConfigError("kernel '" + k.name() + "' block " + std::to_string(b) + " needs " +
                        unit_type_name(t) + " units but the fabric has none (fabric_" +
                        unit_type_name(t) + " = 0)");
}

BlockPlan plan_block(const VgiwParams& p, const CfgKernel& k, std::int32_t b, const UnitCounts& have) {
  const UnitCounts& need = k.units(b);
  require_units(need, have, k, b);
  BlockPlan plan;
  UnitCounts part = need;
  for (;; ++plan.parts) {
    part = need;
    const std::int64_t cut_lv = plan.parts > 1 ? 2 * p.split_cut_values : 0;
    bool fits = true;
    for (int t = 0; t < kUnitTypes; ++t) {
      if (t == CVU) continue;
      part[t] = (need[t] + plan.parts - 1) / plan.parts + (t == LVU ? cut_lv : 0);
      fits = fits && part[t] <= have[t];
    }
    if (fits) break;
    if (plan.parts > 100000)
      throw ConfigError("kernel '" + k.name() + "' block " + std::to_string(b) +
                        " cannot be split to fit the fabric (its cuts alone need more than "
                        "fabric_lvu live value units; lower split_cut_values)");
  }
  plan.part = part;
  plan.replicas = replicas_of(part, have);
  plan.extra_lv = (plan.parts - 1) * 2 * p.split_cut_values;
  plan.unit_ops = total(need) + plan.extra_lv + (plan.parts - 1);  // one CVU per part
  return plan;
}

RunOutput run_sgmf(const SgmfParams& p, const CfgKernel& k, const ResolvedRun& r, bool values) {
  const UnitCounts have = fabric_units(p);
  // The whole kernel's graph: every block once, one CVU injecting thread ids.
  // No live value units: SGMF maps the whole kernel, so values crossing
  // blocks pass directly between units as tokens (VGIW §1, §5 Fig. 11); the
  // LVC and its LVUs are VGIW's additions (§3.4, Fig. 4).
  UnitCounts need{};
  for (std::int32_t b = 0; b < k.block_count(); ++b)
    for (int t = 0; t < kUnitTypes; ++t) need[t] += t == CVU || t == LVU ? 0 : k.units(b)[t];
  need[CVU] = 1;
  RunOutput out;
  out.metrics.assign(kMetricCount, std::nan(""));
  auto& m = out.metrics;
  m[THREADS] = static_cast<double>(k.threads());
  for (int t = 0; t < kUnitTypes; ++t)
    if (need[t] > have[t]) {  // does not map (Fig. 8 keeps only the kernels that do)
      out.makespan = -1;
      m[MAPS] = 0;
      return out;
    }
  const std::int64_t replicas = replicas_of(need, have);
  // Every thread flows through the whole graph once, and once more per back
  // edge it takes (a loop iteration re-enters the graph; tbdse's reading).
  Walker walker(k, r.model_key);
  MemoryProbe probe(r.gpu, k, r.model_key, p.mem_sample_threads, p.dram_bytes_per_cycle, p.l1_banks,
                    p.hop_cycles);
  const auto nb = static_cast<std::size_t>(k.block_count());
  std::vector<double> runs(nb);
  double injections = 0, executions = 0, alu = 0, special = 0, ldst = 0;
  const auto& blocks = k.blocks();
  for (std::int64_t t = 0; t < k.threads(); ++t) {
    std::int32_t b = 0;
    injections += 1;
    const bool sampled = probe.sampled(t);
    while (b != k.exit_id()) {
      const BasicBlock& blk = blocks[static_cast<std::size_t>(b)];
      executions += 1;
      runs[static_cast<std::size_t>(b)] += 1;
      alu += static_cast<double>(blk.alu);
      special += static_cast<double>(blk.special);
      ldst += static_cast<double>(blk.ldst);
      if (sampled) probe.thread(b, t, replicas);
      const std::int32_t next = walker.next(t, b);
      if (next != k.exit_id() && next <= b) injections += 1;
      b = next;
    }
  }
  for (std::int32_t b = 0; b < k.block_count(); ++b) probe.end_block(b);
  const std::vector<BlockMemory> mem = probe.result();
  // Fill: the longest forward path of block fills (ids are a reverse post-order).
  std::vector<double> reach(nb, 0.0);
  double fill = 0, dram_bytes = 0, lat = 0;
  StreamBounds sum;
  for (std::size_t b = 0; b < nb; ++b) {
    const BasicBlock& blk = blocks[b];
    UnitCounts units = k.units(static_cast<std::int32_t>(b));
    units[LVU] = 0;  // live values are tokens on SGMF (above)
    const auto own = static_cast<double>(fill_cycles(units, p.hop_cycles, std::llround(mem[b].load_latency)));
    reach[b] += own;
    fill = std::max(fill, reach[b]);
    for (const std::int32_t s : blk.succ)
      if (static_cast<std::size_t>(s) > b) reach[static_cast<std::size_t>(s)] = std::max(reach[static_cast<std::size_t>(s)], reach[b]);
    const StreamBounds sb = stream_bounds(p, probe.config(), mem[b], runs[b], static_cast<double>(blk.ldst),
                                          static_cast<double>(replicas), static_cast<double>(have[LDST]));
    // The L1's banks and port, DRAM and the MSHRs are shared: their loads add
    // up.  Each block's LD/ST nodes are units of their own that run alongside
    // every other block's, so their token buffers bound no more than the
    // busiest block's (issue 29: a sum made SGMF 7x slower from 4 to 5 blocks).
    sum.ldst += sb.ldst, sum.banks += sb.banks, sum.dram += sb.dram, sum.mshr += sb.mshr;
    sum.tokens = std::max(sum.tokens, sb.tokens), dram_bytes += sb.dram_bytes;
    lat += runs[b] * static_cast<double>(blk.ldst) * mem[b].load_latency;
  }
  const double stream = std::ceil(injections / static_cast<double>(replicas));
  const double cycles = fill + std::max(stream, sum.max());
  const double kernel_units = static_cast<double>(total(need));
  out.makespan = static_cast<Cycle>(std::ceil(cycles));
  m[MAPS] = 1;
  m[BLOCK_EXECUTIONS] = executions;
  m[THREAD_OPS] = alu + special + ldst;
  // Busy units: every node of the graph fires (or passes a predicate token)
  // once per injection; the useful ones are the executed blocks'.
  m[UNIT_UTILISATION] = injections * kernel_units / (static_cast<double>(total(have)) * cycles);
  m[REPLICAS] = static_cast<double>(replicas);
  m[DRAM_BYTES] = dram_bytes;
  m[MEMORY_BOUND_SHARE] = sum.dram > stream && sum.dram >= sum.max() ? 1.0 : 0.0;
  m[LVC_ACCESSES] = 0;
  m[CONFIGURATIONS] = 1;
  m[LOAD_LATENCY] = ldst > 0 ? lat / ldst : 0.0;
  m[BANK_CYCLES] = sum.ldst > 0 ? sum.banks / std::ceil(executions / static_cast<double>(replicas)) : 1.0;
  const double bounds[5] = {stream, sum.tokens, sum.mshr, sum.dram, std::max(sum.ldst, sum.banks)};
  m[LIMIT] = static_cast<double>(std::max_element(bounds, bounds + 5) - bounds);
  double l1l2 = 0;
  for (std::size_t b = 0; b < nb; ++b)
    l1l2 += runs[b] * static_cast<double>(blocks[b].ldst) *
            (mem[b].l1_requests * energy::kL1Request + energy::kL1Word + mem[b].l2_sectors * energy::kL2Sector);
  set_energy(m, alu * energy::kAluOp + special * energy::kSpecialOp +
                    injections * kernel_units * energy::kToken +
                    kernel_units * static_cast<double>(replicas) * energy::kConfigureUnit,
             l1l2, dram_bytes, cycles);
  if (values) out.values = walker.path_series();
  return out;
}

void check_vgiw(const VgiwParams& p, const CfgKernel& k) {
  const UnitCounts have = fabric_units(p);
  for (std::int32_t b = 0; b < k.block_count(); ++b) (void)plan_block(p, k, b, have);
}

}  // namespace tbdse::vgiw
