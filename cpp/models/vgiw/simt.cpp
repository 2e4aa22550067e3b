// The simt machine (VGIW §2, Fig. 1b; docs/models/vgiw.md "simt"): each warp
// runs the union of its threads' paths block by block under an active mask,
// with the classic reconvergence stack: on divergence the entry waits at the
// branch's immediate post-dominator while one entry per target runs there.
// Time is the largest of: the busiest issue pipe (ALU lanes, LD/ST units at
// one L1 line per cycle, SFUs, the issue width) over the GPU's residual issue
// efficiency; the warps' critical paths (dependent-instruction and memory
// latencies) over the resident warps that overlap them; L1 misses in flight
// over the MSHRs; DRAM bytes over the SM's bandwidth share.
#include <algorithm>
#include <bit>
#include <cmath>

#include "core/errors.hpp"
#include "models/vgiw/energy.hpp"
#include "models/vgiw/machines.hpp"
#include "models/vgiw/memory.hpp"

namespace tbdse::vgiw {

namespace {

struct StackEntry {
  std::int32_t pc;   // block to run next
  std::int32_t rpc;  // where this entry reconverges with the one below
  std::uint64_t mask;
};

}  // namespace

// The warps as a closed queueing network (exact mean value analysis): each
// resident warp alternates between the SM's resources (dispatch, LD/ST,
// SFU, MSHRs, DRAM: one queue each, busy[k] cycles over the kernel) and its
// dependence stalls (a delay, `stall` cycles over the kernel); a finishing
// warp is replaced by the next, so `resident` warps circulate.  Time is
// warps / throughput: at least every resource's busy time and the stalls
// over the resident warps, and more where they meet (a warp waiting in one
// queue is not stalling elsewhere: the max-of-bounds is the limit of
// infinitely many warps).
double warp_network_cycles(const double (&busy)[5], double stall, double resident, double warps) {
  if (warps <= 0) return 0.0;
  double demand[5], queue[5] = {0, 0, 0, 0, 0};
  for (int s = 0; s < 5; ++s) demand[s] = busy[s] / warps;  // per warp
  const double think = stall / warps;
  const auto n_max = static_cast<std::int64_t>(std::max(1.0, resident));
  double throughput = 0;
  for (std::int64_t n = 1; n <= n_max; ++n) {
    double residence[5], total = think;
    for (int s = 0; s < 5; ++s) total += residence[s] = demand[s] * (1 + queue[s]);
    throughput = total > 0 ? static_cast<double>(n) / total : 0.0;
    for (int s = 0; s < 5; ++s) queue[s] = throughput * residence[s];
  }
  return throughput > 0 ? warps / throughput : 0.0;
}

std::int64_t registers_per_thread(const CfgKernel& k) {
  std::int64_t need = 0;
  for (std::int32_t b = 0; b < k.block_count(); ++b) {
    const BasicBlock& blk = k.blocks()[static_cast<std::size_t>(b)];
    need = std::max(need, k.lv_loads(b) + k.lv_stores(b) + (blk.simt_instructions() + 1) / 2);
  }
  return std::min<std::int64_t>(63, 8 + need);
}

std::int64_t launch_block_threads(const SimtParams& p, const CfgKernel& k) {
  return k.block_threads() > 0 ? k.block_threads() : p.block_threads;
}

std::int64_t resident_warps(const SimtParams& p, const GpuConfig& gpu, const CfgKernel& k) {
  const std::int64_t ws = p.warp_size;
  const std::int64_t tb = launch_block_threads(p, k);
  const std::int64_t block_warps = (tb + ws - 1) / ws;
  const std::int64_t block_regs = registers_per_thread(k) * block_warps * ws;
  const std::int64_t by_threads = gpu.threads_per_sm / (block_warps * ws);
  const std::int64_t by_regs = gpu.regs_per_sm / block_regs;
  const std::int64_t blocks = std::min({gpu.tb_slots, by_threads, by_regs});
  if (blocks < 1)
    throw ConfigError("simt: one thread block of block_threads = " + std::to_string(tb) +
                      " does not fit an SM of GPU '" + gpu.name + "' (threads_per_sm, regs_per_sm)");
  const std::int64_t warps = k.threads() / tb * block_warps + (k.threads() % tb + ws - 1) / ws;
  return std::min(blocks * block_warps, warps);
}

RunOutput run_simt(const SimtParams& p, const CfgKernel& k, const ResolvedRun& r, bool values) {
  Walker walker(k, r.model_key);
  const auto& blocks = k.blocks();
  const auto& ipdom = k.ipdom();
  const std::int32_t exit = k.exit_id();
  const std::int64_t ws = p.warp_size;
  // Warp instructions by pipe, and thread instructions actually executed.
  double alu_wi = 0, special_wi = 0, ldst_wi = 0, control_wi = 0, active_instr = 0, executions = 0;
  double alu_ops = 0, special_ops = 0, ldst_ops = 0, dram_bytes = 0;
  const auto nb = static_cast<std::size_t>(k.block_count());
  // Per block: warp executions, warp memory instructions, thread accesses.
  std::vector<double> warp_runs(nb), accesses(nb);
  MemoryProbe probe(r.gpu, k, r.model_key, p.mem_sample_threads, p.dram_bytes_per_cycle);
  std::vector<StackEntry> stack;
  // Warps form within thread blocks (a 16-thread block is a warp of 16).
  const std::int64_t tb = launch_block_threads(p, k);
  double warp_count = 0;
  for (std::int64_t base = 0, block_end = 0; base < k.threads(); base += std::min(ws, block_end - base)) {
    if (base >= block_end) block_end = std::min(base + tb, k.threads());
    const std::int64_t count = std::min(ws, block_end - base);
    warp_count += 1;
    const std::uint64_t full = count == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << count) - 1;
    stack.assign(1, {0, exit, full});
    while (!stack.empty()) {
      StackEntry& top = stack.back();
      if (top.pc == top.rpc) {  // reconverged (or, at the bottom, left the kernel)
        stack.pop_back();
        continue;
      }
      const std::int32_t b = top.pc;
      const BasicBlock& blk = blocks[static_cast<std::size_t>(b)];
      const std::uint64_t mask = top.mask;
      const double active = std::popcount(mask);
      alu_wi += static_cast<double>(blk.alu);
      // Fermi's control flow in the instruction stream: a branch (BRA) ends
      // every block with a successor, and a possible divergence pushes its
      // reconvergence point first (SSY); the fabric's CVUs do this in space.
      const double control = p.control_instructions
                                 ? (blk.succ.empty() ? 0.0 : 1.0) + (blk.succ.size() == 2 ? 1.0 : 0.0)
                                 : 0.0;
      control_wi += control;
      special_wi += static_cast<double>(blk.special);
      ldst_wi += static_cast<double>(blk.ldst);
      active_instr += active * (static_cast<double>(blk.simt_instructions()) + control);
      executions += active;
      alu_ops += active * static_cast<double>(blk.alu);
      special_ops += active * static_cast<double>(blk.special);
      ldst_ops += active * static_cast<double>(blk.ldst);
      warp_runs[static_cast<std::size_t>(b)] += 1;
      accesses[static_cast<std::size_t>(b)] += active * static_cast<double>(blk.ldst);
      if (blk.ldst > 0 && probe.sampled(base)) probe.warp(b, base, mask);
      // Group the active threads by their next block (at most two targets).
      std::int32_t target[2] = {-1, -1};
      std::uint64_t group[2] = {0, 0};
      for (std::uint64_t m = mask; m; m &= m - 1) {
        const int lane = std::countr_zero(m);
        const std::int32_t next = walker.next(base + lane, b);
        const int g = (target[0] < 0 || target[0] == next) ? 0 : 1;
        target[g] = next;
        group[g] |= std::uint64_t{1} << lane;
      }
      if (target[1] < 0) {
        top.pc = target[0];
        continue;
      }
      const std::int32_t reconverge = ipdom[static_cast<std::size_t>(b)];
      top.pc = reconverge;  // the entry now waits there for both groups
      for (int g = 1; g >= 0; --g)
        if (target[g] != reconverge) stack.push_back({target[g], reconverge, group[g]});
    }
  }
  const double warp_instructions = alu_wi + special_wi + ldst_wi + control_wi;
  const double wsd = static_cast<double>(ws);
  const double lanes = static_cast<double>(std::max<std::int64_t>(1, r.gpu.lanes));
  const std::vector<BlockMemory> mem = probe.result();
  const MemoryConfig& mc = probe.config();
  const double miss_latency = static_cast<double>(mc.l2_hit_cycles + mc.dram_latency);
  double ldst_pipe = 0, critical = 0, misses = 0;
  for (std::size_t b = 0; b < nb; ++b) {
    const BasicBlock& blk = blocks[b];
    const double loads = static_cast<double>(blk.ldst - (blk.ldst >= 2 ? 1 : 0));
    // An L1 takes one line per cycle; a warp instruction at least warp_size / ldst_units.
    ldst_pipe += warp_runs[b] * static_cast<double>(blk.ldst) *
                 std::max(wsd / static_cast<double>(p.ldst_units), mem[b].lines);
    // A block's dependence depth: two independent chains (tbdse's, as the fabric's fill).
    const double depth = std::ceil(static_cast<double>(blk.alu) / 2) * static_cast<double>(p.alu_latency) +
                         std::ceil(static_cast<double>(blk.special) / 2) * static_cast<double>(p.sfu_latency) +
                         std::ceil(loads / 2) * mem[b].load_latency;
    critical += warp_runs[b] * depth;
    dram_bytes += accesses[b] * mem[b].dram_bytes;
    misses += accesses[b] * mem[b].line_misses;
  }
  // Busy cycles of each SM resource over the whole kernel: dispatch (each
  // of issue_width schedulers takes dispatch_cycles per warp instruction;
  // at least the ALU lanes' cycles), the LD/ST and SFU pipes, the MSHRs
  // (Little's law) and DRAM; the dependence stalls are a delay.
  const double issue_width = static_cast<double>(std::max<std::int64_t>(1, r.gpu.issue_width));
  const double dispatch = std::max(alu_wi * wsd / lanes,
                                   warp_instructions * static_cast<double>(p.dispatch_cycles) / issue_width);
  const double special_pipe = special_wi * wsd / static_cast<double>(p.sfu_units);
  const double pipes = std::max({dispatch, ldst_pipe, special_pipe});
  const double mshr = misses * miss_latency / static_cast<double>(mc.l1_mshrs);
  const double dram = dram_bytes / p.dram_bytes_per_cycle;
  const double warps = static_cast<double>(resident_warps(p, r.gpu, k));
  const double total_warps = warp_count;
  const double busy[5] = {dispatch / p.issue_efficiency, ldst_pipe / p.issue_efficiency,
                          special_pipe / p.issue_efficiency, mshr, dram};
  const double cycles = std::max(1.0, std::ceil(warp_network_cycles(busy, critical, warps, total_warps)));
  const double rf = warp_instructions * p.rf_accesses_per_instruction;
  const double nan = std::nan("");
  RunOutput out;
  out.makespan = static_cast<Cycle>(cycles);
  out.metrics.assign(kMetricCount, nan);
  auto& m = out.metrics;
  m[MAPS] = 1;
  m[THREADS] = static_cast<double>(k.threads());
  m[BLOCK_EXECUTIONS] = executions;
  m[THREAD_OPS] = alu_ops + special_ops + ldst_ops;
  m[LANE_UTILISATION] = warp_instructions > 0 ? active_instr / (wsd * warp_instructions) : 0.0;
  m[RF_ACCESSES] = rf;
  m[WARP_INSTRUCTIONS] = warp_instructions;
  m[DRAM_BYTES] = dram_bytes;
  m[MEMORY_BOUND_SHARE] = dram >= std::max({pipes / p.issue_efficiency, critical / warps, mshr}) ? 1.0 : 0.0;
  m[RESIDENT_WARPS] = warps;
  double lat = 0, lat_n = 0;
  for (std::size_t b = 0; b < nb; ++b) lat += accesses[b] * mem[b].load_latency, lat_n += accesses[b];
  m[LOAD_LATENCY] = lat_n > 0 ? lat / lat_n : 0.0;
  const double bounds[4] = {pipes / p.issue_efficiency, critical / warps, mshr, dram};
  m[LIMIT] = static_cast<double>(std::max_element(bounds, bounds + 4) - bounds);
  double l1l2 = 0;
  for (std::size_t b = 0; b < nb; ++b)
    l1l2 += accesses[b] * (mem[b].l1_requests * energy::kL1Request + mem[b].l1_sectors * energy::kL1Sector +
                           mem[b].l2_sectors * energy::kL2Sector);
  set_energy(m, warp_instructions * energy::kWarpIssue + rf * energy::kRfAccess +
                    alu_ops * energy::kAluOp + special_ops * energy::kSpecialOp,
             l1l2, dram_bytes, cycles);
  if (values) out.values = walker.path_series();
  return out;
}

}  // namespace tbdse::vgiw
