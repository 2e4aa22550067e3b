// The two fabric machines (docs/models/vgiw.md): sgmf maps the whole kernel
// once and streams every thread through every path (SGMF, ISCA 2014; VGIW
// §1, Fig. 1c); vgiw coalesces the threads waiting at each block into its
// thread vector and runs one block at a time (VGIW §2, Fig. 2; §3.2-3.4).
#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "core/errors.hpp"
#include "models/vgiw/energy.hpp"
#include "models/vgiw/machines.hpp"

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
      {"energy", "ALU-op units", "relative energy from tbdse's per-access energies (energy.hpp)"},
  };
  return list;
}

std::int64_t fill_cycles(const UnitCounts& u, std::int64_t hop_cycles, std::int64_t l1_latency) {
  const std::int64_t ops = u[ALU] + u[SPECIAL] + u[LDST] + u[LVU];
  return (ops + 1) / 2 * hop_cycles + (u[LDST] > 0 ? l1_latency : 0);
}

namespace {

constexpr double kWordBytes = 4.0;

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

// How vgiw runs one block (§3.1, §3.5): its replicas on the fabric, or, when
// one replica does not fit, the parts it is split into, each with the cut's
// live values through the LVC.
struct BlockPlan {
  std::int64_t parts = 1;
  std::int64_t replicas = 1;         // per part
  std::int64_t fill = 0;             // per part
  std::int64_t unit_ops = 0;         // unit-operations one thread makes over all parts
  std::int64_t extra_lv = 0;         // LVC values per thread added by the cuts
};

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
  plan.replicas = replicas_of(part, have);
  plan.fill = fill_cycles(part, p.hop_cycles, p.l1_latency);
  plan.extra_lv = (plan.parts - 1) * 2 * p.split_cut_values;
  plan.unit_ops = total(need) + plan.extra_lv + (plan.parts - 1);  // one CVU per part
  return plan;
}

RunOutput fresh_output() {
  RunOutput out;
  out.metrics.assign(kMetricCount, std::nan(""));
  return out;
}

}  // namespace

RunOutput run_sgmf(const SgmfParams& p, const CfgKernel& k, const ResolvedRun& r, bool values) {
  const UnitCounts have = fabric_units(p);
  // The whole kernel's graph: every block once, one CVU injecting thread ids.
  UnitCounts need{};
  std::int64_t fill = 0;
  for (std::int32_t b = 0; b < k.block_count(); ++b) {
    for (int t = 0; t < kUnitTypes; ++t) need[t] += t == CVU ? 0 : k.units(b)[t];
    fill += fill_cycles(k.units(b), p.hop_cycles, 0);
  }
  need[CVU] = 1;
  RunOutput out = fresh_output();
  auto& m = out.metrics;
  m[THREADS] = static_cast<double>(k.threads());
  for (int t = 0; t < kUnitTypes; ++t)
    if (need[t] > have[t]) {  // does not map (Fig. 8 keeps only the kernels that do)
      out.makespan = -1;
      m[MAPS] = 0;
      return out;
    }
  const std::int64_t replicas = replicas_of(need, have);
  fill += p.l1_latency;
  // Every thread flows through the whole graph once, and once more per back
  // edge it takes (a loop iteration re-enters the graph; tbdse's reading).
  Walker walker(k, r.model_key);
  double injections = 0, executions = 0, alu = 0, special = 0, ldst = 0, dram_bytes = 0;
  const auto& blocks = k.blocks();
  for (std::int64_t t = 0; t < k.threads(); ++t) {
    std::int32_t b = 0;
    injections += 1;
    while (b != k.exit_id()) {
      const BasicBlock& blk = blocks[static_cast<std::size_t>(b)];
      executions += 1;
      alu += static_cast<double>(blk.alu);
      special += static_cast<double>(blk.special);
      ldst += static_cast<double>(blk.ldst);
      dram_bytes += static_cast<double>(blk.ldst) * blk.mem_intensity * kWordBytes;
      const std::int32_t next = walker.next(t, b);
      if (next != k.exit_id() && next <= b) injections += 1;
      b = next;
    }
  }
  const double stream = std::ceil(injections / static_cast<double>(replicas));
  const double dram = dram_bytes / p.dram_bytes_per_cycle;
  const double cycles = static_cast<double>(fill) + std::max(stream, dram);
  const double kernel_units = static_cast<double>(total(need));
  out.makespan = static_cast<Cycle>(cycles);
  m[MAPS] = 1;
  m[BLOCK_EXECUTIONS] = executions;
  m[THREAD_OPS] = alu + special + ldst;
  // Busy units: every node of the graph fires (or passes a predicate token)
  // once per injection; the useful ones are the executed blocks'.
  m[UNIT_UTILISATION] = injections * kernel_units / (static_cast<double>(total(have)) * cycles);
  m[REPLICAS] = static_cast<double>(replicas);
  m[DRAM_BYTES] = dram_bytes;
  m[MEMORY_BOUND_SHARE] = dram > stream ? 1.0 : 0.0;
  m[LVC_ACCESSES] = 0;
  m[CONFIGURATIONS] = 1;
  m[ENERGY] = alu * energy::kAluOp + special * energy::kSpecialOp + ldst * energy::kL1Access +
              injections * kernel_units * energy::kToken + dram_bytes * energy::kDramByte +
              kernel_units * static_cast<double>(replicas) * energy::kConfigureUnit;
  if (values) out.values = walker.path_series();
  return out;
}

void check_vgiw(const VgiwParams& p, const CfgKernel& k) {
  const UnitCounts have = fabric_units(p);
  for (std::int32_t b = 0; b < k.block_count(); ++b) (void)plan_block(p, k, b, have);
}

RunOutput run_vgiw(const VgiwParams& p, const CfgKernel& k, const ResolvedRun& r, bool values) {
  const UnitCounts have = fabric_units(p);
  const double fabric_total = static_cast<double>(total(have));
  const std::int32_t nb = k.block_count();
  std::vector<BlockPlan> plans;
  std::int64_t split_blocks = 0;
  for (std::int32_t b = 0; b < nb; ++b) {
    plans.push_back(plan_block(p, k, b, have));
    split_blocks += plans.back().parts > 1;
  }
  const double reconfig =
      p.reconfig_model == "sqrt" ? 2.0 * std::ceil(11.0 * std::sqrt(fabric_total))
                                 : static_cast<double>(p.reconfig_cycles);
  // The CVT holds one bit per thread and block (§3.2): tiles of cvt_bits /
  // blocks threads, a multiple of 64 (the CVT's word, §3.3), one after another.
  const std::int64_t tile = std::max<std::int64_t>(
      64, (p.cvt_bits / nb) / 64 * 64);
  const std::int64_t line = p.lvc_line_threads;
  Walker walker(k, r.model_key);
  std::vector<std::vector<std::uint64_t>> vec(static_cast<std::size_t>(nb));
  std::vector<std::int64_t> waiting(static_cast<std::size_t>(nb));
  double cycles = 0, reconfig_total = 0, configurations = 0, lvc = 0, executions = 0;
  double unit_ops = 0, alu = 0, special = 0, ldst = 0, dram_bytes = 0, mem_bound = 0;
  double replica_weight = 0, tiles = 0;
  const auto& blocks = k.blocks();
  for (std::int64_t base = 0; base < k.threads(); base += tile) {
    const std::int64_t count = std::min(tile, k.threads() - base);
    const auto words = static_cast<std::size_t>((count + 63) / 64);
    for (auto& v : vec) v.assign(words, 0);
    std::fill(waiting.begin(), waiting.end(), 0);
    for (std::int64_t i = 0; i < count; ++i) vec[0][static_cast<std::size_t>(i / 64)] |= std::uint64_t{1} << (i % 64);
    waiting[0] = count;
    tiles += 1;
    for (;;) {
      // The basic block scheduler: the smallest block id with waiting threads (§3.1).
      std::int32_t b = 0;
      while (b < nb && waiting[static_cast<std::size_t>(b)] == 0) ++b;
      if (b == nb) break;
      const BasicBlock& blk = blocks[static_cast<std::size_t>(b)];
      const BlockPlan& plan = plans[static_cast<std::size_t>(b)];
      const double n = static_cast<double>(waiting[static_cast<std::size_t>(b)]);
      waiting[static_cast<std::size_t>(b)] = 0;
      // Stream the vector: read-and-reset each CVT word (§3.3), send every
      // thread to its successor's vector.  Count the LVC lines it touches.
      double lines = 0;
      auto& mine = vec[static_cast<std::size_t>(b)];
      std::int64_t last_line = -1;
      for (std::size_t w = 0; w < words; ++w) {
        std::uint64_t bits = mine[w];
        if (!bits) continue;
        mine[w] = 0;
        for (; bits; bits &= bits - 1) {
          const std::int64_t i = static_cast<std::int64_t>(w * 64) + std::countr_zero(bits);
          if (i / line != last_line) last_line = i / line, lines += 1;
          const std::int32_t next = walker.next(base + i, b);
          if (next == k.exit_id()) continue;
          vec[static_cast<std::size_t>(next)][static_cast<std::size_t>(i / 64)] |= std::uint64_t{1} << (i % 64);
          ++waiting[static_cast<std::size_t>(next)];
        }
      }
      const double ldst_n = n * static_cast<double>(blk.ldst);
      const double bytes = ldst_n * blk.mem_intensity * kWordBytes;
      const double parts = static_cast<double>(plan.parts);
      const double stream = parts * std::ceil(n / static_cast<double>(plan.replicas));
      const double l1 = std::ceil(ldst_n / static_cast<double>(have[LDST]));  // no coalescing
      const double dram = bytes / p.dram_bytes_per_cycle;
      const double body = std::max({stream, l1, dram});
      const double spent = parts * (reconfig + static_cast<double>(plan.fill)) + body;
      cycles += spent;
      mem_bound += dram >= std::max(stream, l1) ? body : 0.0;
      reconfig_total += parts * reconfig;
      configurations += parts;
      const double lv = static_cast<double>(k.lv_loads(b) + k.lv_stores(b) + plan.extra_lv);
      lvc += lv * lines;
      executions += n;
      unit_ops += n * static_cast<double>(plan.unit_ops);
      alu += n * static_cast<double>(blk.alu);
      special += n * static_cast<double>(blk.special);
      ldst += ldst_n;
      dram_bytes += bytes;
      replica_weight += n * static_cast<double>(plan.replicas);
    }
  }
  RunOutput out = fresh_output();
  auto& m = out.metrics;
  cycles = std::max(1.0, cycles);
  out.makespan = static_cast<Cycle>(std::ceil(cycles));
  m[MAPS] = 1;
  m[THREADS] = static_cast<double>(k.threads());
  m[BLOCK_EXECUTIONS] = executions;
  m[THREAD_OPS] = alu + special + ldst;
  m[UNIT_UTILISATION] = unit_ops / (fabric_total * cycles);
  m[CONFIGURATIONS] = configurations;
  m[RECONFIG_CYCLES] = reconfig_total;
  m[RECONFIG_SHARE] = reconfig_total / cycles;
  m[LVC_ACCESSES] = lvc;
  m[REPLICAS] = executions > 0 ? replica_weight / executions : 0.0;
  m[TILES] = tiles;
  m[SPLIT_BLOCKS] = static_cast<double>(split_blocks);
  m[DRAM_BYTES] = dram_bytes;
  m[MEMORY_BOUND_SHARE] = mem_bound / cycles;
  m[ENERGY] = alu * energy::kAluOp + special * energy::kSpecialOp + ldst * energy::kL1Access +
              unit_ops * energy::kToken + lvc * energy::kLvcAccess +
              executions * energy::kCvtThread + dram_bytes * energy::kDramByte +
              configurations * fabric_total * energy::kConfigureUnit;
  if (values) out.values = walker.path_series();
  return out;
}

}  // namespace tbdse::vgiw
