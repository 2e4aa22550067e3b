// The vgiw machine (VGIW §2, Fig. 2; §3.2-3.5; docs/models/vgiw.md "vgiw"):
// the threads waiting at each block are coalesced into its thread vector and
// the basic block scheduler runs one block at a time.  The walk records each
// block execution (block, threads, LVC lines) and probes the sampled threads'
// accesses; the time of each execution is charged afterwards, once the
// memory hierarchy's per-block answers are known.
#include <algorithm>
#include <bit>
#include <cmath>

#include "models/vgiw/energy.hpp"
#include "models/vgiw/fabric_plan.hpp"

namespace tbdse::vgiw {

namespace {

struct Execution {
  std::int32_t block;
  double threads;
  double lines;    // LVC lines the vector touches
  double packets;  // <base, 64-bit bitmap> packets: the vector's non-empty CVT words
};

// Live values one tile keeps in the LVC: per thread, the most any block
// reads and writes (tbdse's: values die once consumed).  Beyond lvc_bytes
// the share that fits hits (the LVC keeps what it can; tbdse's).
double live_values(const CfgKernel& k) {
  double values = 0;
  for (std::int32_t b = 0; b < k.block_count(); ++b)
    values = std::max(values, static_cast<double>(k.lv_loads(b) + k.lv_stores(b)));
  return values;
}

double lvc_hit_rate(const VgiwParams& p, const CfgKernel& k, double tile_threads) {
  const double bytes = live_values(k) * tile_threads * kWordBytes;
  return bytes <= static_cast<double>(p.lvc_bytes) ? 1.0 : static_cast<double>(p.lvc_bytes) / bytes;
}

}  // namespace

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
  const double pass = std::ceil(11.0 * std::sqrt(fabric_total));  // §3.2: one pass over the grid
  const double reconfig = p.reconfig_model == "fixed" ? static_cast<double>(p.reconfig_cycles) : 2 * pass;
  const bool overlap = p.reconfig_model == "sqrt_overlap";
  // The CVT holds one bit per thread and block (§3.2): tiles of cvt_bits /
  // blocks threads, a multiple of 64 (the CVT's word, §3.3), one after
  // another.  tile_policy "lvc": also no more threads than keep their live
  // values in the LVC (§3.4: tiling generally prevents spills).
  std::int64_t tile_threads = p.cvt_bits / nb;
  const double tile_values = live_values(k);
  if (p.tile_policy == "lvc" && tile_values > 0)
    tile_threads = std::min(tile_threads, static_cast<std::int64_t>(static_cast<double>(p.lvc_bytes) /
                                                                    (tile_values * kWordBytes)));
  const std::int64_t tile = std::max<std::int64_t>(64, tile_threads / 64 * 64);
  const std::int64_t line = p.lvc_line_threads;
  Walker walker(k, r.model_key);
  MemoryProbe probe(r.gpu, k, r.model_key, p.mem_sample_threads, p.dram_bytes_per_cycle, p.l1_banks,
                    p.hop_cycles);
  std::vector<std::vector<std::uint64_t>> vec(static_cast<std::size_t>(nb));
  std::vector<std::int64_t> waiting(static_cast<std::size_t>(nb));
  std::vector<Execution> runs;
  double tiles = 0;
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
      const bool memory = k.blocks()[static_cast<std::size_t>(b)].ldst > 0;
      const std::int64_t replicas = plans[static_cast<std::size_t>(b)].replicas;
      const double n = static_cast<double>(waiting[static_cast<std::size_t>(b)]);
      waiting[static_cast<std::size_t>(b)] = 0;
      // Stream the vector: read-and-reset each CVT word (§3.3), send every
      // thread to its successor's vector.  Count the LVC lines it touches.
      double lines = 0, packets = 0;
      auto& mine = vec[static_cast<std::size_t>(b)];
      std::int64_t last_line = -1;
      for (std::size_t w = 0; w < words; ++w) {
        std::uint64_t bits = mine[w];
        if (!bits) continue;
        mine[w] = 0;
        packets += 1;
        for (; bits; bits &= bits - 1) {
          const std::int64_t i = static_cast<std::int64_t>(w * 64) + std::countr_zero(bits);
          if (i / line != last_line) last_line = i / line, lines += 1;
          if (memory && probe.sampled(base + i)) probe.thread(b, base + i, replicas);
          const std::int32_t next = walker.next(base + i, b);
          if (next == k.exit_id()) continue;
          vec[static_cast<std::size_t>(next)][static_cast<std::size_t>(i / 64)] |= std::uint64_t{1} << (i % 64);
          ++waiting[static_cast<std::size_t>(next)];
        }
      }
      if (memory) probe.end_block(b);
      runs.push_back({b, n, lines, packets});
    }
  }
  // Charge each execution: reconfiguration, pipeline fill and the slowest of
  // the streaming bounds (fabric_plan.hpp), the LVC's among them.
  const std::vector<BlockMemory> mem = probe.result();
  const MemoryConfig& mc = probe.config();
  const double hit = lvc_hit_rate(p, k, static_cast<double>(std::min(tile, k.threads())));
  const double lvc_latency = hit * static_cast<double>(p.lvc_hit_cycles) +
                             (1 - hit) * static_cast<double>(mc.l2_hit_cycles);
  double cycles = 0, reconfig_total = 0, configurations = 0, lvc = 0, executions = 0;
  double unit_ops = 0, alu = 0, special = 0, ldst = 0, dram_bytes = 0, mem_bound = 0;
  double replica_weight = 0, previous_body = 0, lat = 0, waves = 0, wave_cycles = 0;
  double lvc_words = 0, l1l2 = 0;
  double by_limit[7] = {0, 0, 0, 0, 0, 0, 0};
  const auto& blocks = k.blocks();
  for (const Execution& e : runs) {
    const auto bi = static_cast<std::size_t>(e.block);
    const BasicBlock& blk = blocks[bi];
    const BlockPlan& plan = plans[bi];
    const double n = e.threads, parts = static_cast<double>(plan.parts);
    const double replicas = static_cast<double>(plan.replicas);
    const double lv = static_cast<double>(k.lv_loads(e.block) + k.lv_stores(e.block) + plan.extra_lv);
    const double fill = static_cast<double>(fill_cycles(plan.part, p.hop_cycles, std::llround(mem[bi].load_latency))) +
                        (lv > 0 ? lvc_latency : 0.0);
    const double stream = parts * std::ceil(n / replicas);
    const StreamBounds sb = stream_bounds(p, mc, mem[bi], n, static_cast<double>(blk.ldst), replicas,
                                          static_cast<double>(have[LDST]));
    // The LVC: lvc_banks words per cycle; a missing line comes from L2, one
    // per cycle; the live value units hold token_buffer_entries threads
    // each while their accesses are outstanding (as the LD/ST units do).
    const double lvc_lines = lv * e.lines;
    const double lvus = std::min(static_cast<double>(have[LVU]), replicas * lv);
    const double lvc_time =
        lv > 0 ? std::max({n * lv / static_cast<double>(p.lvc_banks), (1 - hit) * lvc_lines,
                           n * lv * lvc_latency / (lvus * static_cast<double>(p.token_buffer_entries))})
               : 0.0;
    // §3.3: the BBS sends one packet per non-empty CVT word (read-and-reset,
    // one word per bank per cycle) and ORs two back (one per successor).
    const double cvt = std::max(e.packets / p.bbs_packets_per_cycle,
                                3 * e.packets / static_cast<double>(p.cvt_banks));
    const double bounds[7] = {stream, sb.tokens, sb.mshr, sb.dram, std::max(sb.ldst, sb.banks), lvc_time, cvt};
    const auto limit = std::max_element(bounds, bounds + 7) - bounds;
    const double body = bounds[limit];
    // §3.2: overlapped, the first pass loads the prefetch FIFO during the previous block.
    const double config = overlap ? pass + std::max(0.0, pass - previous_body) : reconfig;
    previous_body = body + fill;
    cycles += parts * (config + fill) + body;
    by_limit[limit] += body;
    mem_bound += limit == 3 ? body : 0.0;
    reconfig_total += parts * config;
    configurations += parts;
    lvc += lvc_lines;
    lvc_words += n * lv;
    l1l2 += n * static_cast<double>(blk.ldst) *
            (mem[bi].l1_requests * energy::kL1Request + energy::kL1Word + mem[bi].l2_sectors * energy::kL2Sector);
    executions += n;
    unit_ops += n * static_cast<double>(plan.unit_ops);
    alu += n * static_cast<double>(blk.alu);
    special += n * static_cast<double>(blk.special);
    ldst += n * static_cast<double>(blk.ldst);
    dram_bytes += sb.dram_bytes;
    replica_weight += n * replicas;
    lat += n * static_cast<double>(blk.ldst) * mem[bi].load_latency;
    if (blk.ldst > 0) waves += std::ceil(n / replicas), wave_cycles += sb.banks;
  }
  RunOutput out;
  out.metrics.assign(kMetricCount, std::nan(""));
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
  m[LOAD_LATENCY] = ldst > 0 ? lat / ldst : 0.0;
  m[BANK_CYCLES] = waves > 0 ? wave_cycles / waves : 1.0;
  m[LVC_HIT_RATE] = hit;
  m[LIMIT] = static_cast<double>(std::max_element(by_limit, by_limit + 7) - by_limit);
  set_energy(m, alu * energy::kAluOp + special * energy::kSpecialOp + unit_ops * energy::kToken +
                    lvc_words * energy::kLvcWord + executions * energy::kCvtThread +
                    configurations * fabric_total * energy::kConfigureUnit,
             l1l2 + (1 - hit) * lvc * 4 * energy::kL2Sector, dram_bytes, cycles);
  if (values) out.values = walker.path_series();
  return out;
}

}  // namespace tbdse::vgiw
