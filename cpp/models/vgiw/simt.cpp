// The simt machine (VGIW §2, Fig. 1b; docs/models/vgiw.md "simt"): each warp
// runs the union of its threads' paths block by block under an active mask,
// with the classic reconvergence stack: on divergence the entry waits at the
// branch's immediate post-dominator while one entry per target runs there.
// Warps are independent, so the machine's time is the busiest of its issue
// pipes (ALU lanes, LD/ST units, SFUs, the issue width) or DRAM.
#include <algorithm>
#include <bit>
#include <cmath>

#include "models/vgiw/energy.hpp"
#include "models/vgiw/machines.hpp"

namespace tbdse::vgiw {

namespace {

struct StackEntry {
  std::int32_t pc;   // block to run next
  std::int32_t rpc;  // where this entry reconverges with the one below
  std::uint64_t mask;
};

}  // namespace

RunOutput run_simt(const SimtParams& p, const CfgKernel& k, const ResolvedRun& r, bool values) {
  Walker walker(k, r.model_key);
  const auto& blocks = k.blocks();
  const auto& ipdom = k.ipdom();
  const std::int32_t exit = k.exit_id();
  const std::int64_t ws = p.warp_size;
  // Warp instructions by pipe, and thread instructions actually executed.
  double alu_wi = 0, special_wi = 0, ldst_wi = 0, active_instr = 0, executions = 0;
  double alu_ops = 0, special_ops = 0, ldst_ops = 0, dram_bytes = 0;
  std::vector<StackEntry> stack;
  for (std::int64_t base = 0; base < k.threads(); base += ws) {
    const std::int64_t count = std::min(ws, k.threads() - base);
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
      special_wi += static_cast<double>(blk.special);
      ldst_wi += static_cast<double>(blk.ldst);
      active_instr += active * static_cast<double>(blk.simt_instructions());
      executions += active;
      alu_ops += active * static_cast<double>(blk.alu);
      special_ops += active * static_cast<double>(blk.special);
      ldst_ops += active * static_cast<double>(blk.ldst);
      dram_bytes += active * static_cast<double>(blk.ldst) * blk.mem_intensity * 4.0;
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
  const double warp_instructions = alu_wi + special_wi + ldst_wi;
  const double wsd = static_cast<double>(ws);
  const double lanes = static_cast<double>(std::max<std::int64_t>(1, r.gpu.lanes));
  const double pipes = std::max({alu_wi * wsd / lanes, ldst_wi * wsd / static_cast<double>(p.ldst_units),
                                 special_wi * wsd / static_cast<double>(p.sfu_units),
                                 warp_instructions / static_cast<double>(std::max<std::int64_t>(1, r.gpu.issue_width))});
  const double compute = pipes / p.issue_efficiency;
  const double dram = dram_bytes / p.dram_bytes_per_cycle;
  const double cycles = std::max(1.0, std::ceil(std::max(compute, dram)));
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
  m[MEMORY_BOUND_SHARE] = dram > compute ? 1.0 : 0.0;
  m[ENERGY] = warp_instructions * energy::kWarpIssue + rf * energy::kRfAccess +
              alu_ops * energy::kAluOp + special_ops * energy::kSpecialOp +
              ldst_wi * 4.0 * energy::kL1Access + dram_bytes * energy::kDramByte;
  if (values) out.values = walker.path_series();
  return out;
}

}  // namespace tbdse::vgiw
