// Gap-filling booking (docs/memory.md "Booking") against in-order booking on
// the footprint-driven way into the memory hierarchy (titanx_pascal preset:
// 28 SMs, 32 MSHRs each, 24 L2 banks, 12 DRAM channels).  Three parts:
//   * eight SMs: 512 line reads at cycle 0 from each of SMs 0..7 in turn; the
//     last completion per SM under each booking (in order serialises them).
//   * footprint stream: waves of 60 TBs, each reading 147 KB (1,176 lines) at
//     the wave's cycle on SM i % 28, one wave every 40,000 cycles (advance()
//     to the wave's cycle first under gap_filling): line requests per second
//     under each booking and gap_filling / in_order; wave 0's makespan.
//   * the TB engine: 60 independent TBs of 1,000 cycles (mem_fraction 0),
//     each reading its own 147 KB, `dataflow_ideal`, through run_single (the
//     engine books gap_filling with a DRAM write queue).
//   * a barrier: 60 TBs write 147 KB, then 60 read other data: the reads'
//     time without and with the DRAM write queue (gap_filling).
// No speed target (in_order does one max per booking, gap_filling a binary
// search): the ratio is information.  Exit status: 0 = ran and gap_filling
// kept every SM of the eight-SM case within 5% of the first, 1 = it did not,
// 2 = bad arguments or an error.
//
// Usage: tbdse_booking_throughput [--reps N]
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "core/cost_model.hpp"
#include "core/gpu.hpp"
#include "core/mem_hierarchy.hpp"
#include "core/sweep.hpp"
#include "core/task_graph.hpp"
#include "models/registry.hpp"
#include "timing.hpp"

namespace {

using namespace tbdse;

constexpr std::int64_t kTbBytes = 147 * 1024;

MemoryConfig titanx(Booking booking) {
  MemoryConfig c = memory_config(gpu_preset("titanx_pascal"));
  c.l1_mshrs = 32;  // as measured in benchmarks/README.md (the preset has 256)
  c.booking = booking;
  c.dram_write_queue = booking == Booking::gap_filling ? kDramWriteQueueSectors : 0;
  c.sample_cycles = 0;
  return c;
}

std::vector<Cycle> eight_sms(Booking booking) {
  MemoryHierarchy m(titanx(booking));
  std::vector<Cycle> last;
  for (std::int64_t sm = 0; sm < 8; ++sm)
    last.push_back(m.access_range(sm, 0, std::uint64_t(sm) << 24, 512 * 128, false));
  return last;
}

// Waves of 60 TBs; returns wave 0's makespan, adds the lines requested.
Cycle waves(Booking booking, int count, std::int64_t& lines) {
  MemoryHierarchy m(titanx(booking));
  const std::int64_t sms = m.config().sms;
  Cycle first = 0;
  for (int w = 0; w < count; ++w) {
    const Cycle at = Cycle{40000} * w;
    m.advance(at);
    Cycle done = at;
    for (std::int64_t tb = 0; tb < 60; ++tb) {
      const std::uint64_t base = (std::uint64_t(w) * 60 + std::uint64_t(tb)) << 20;
      done = std::max(done, m.access_range(tb % sms, at, base, kTbBytes, false));
    }
    if (w == 0) first = done;
  }
  lines += m.stats().requests > 0 ? m.stats().l1_line_misses : 0;
  return first;
}

// A barrier: 60 TBs each write 147 KB at cycle 0 (the L2 fills with dirty
// lines), then 60 TBs each read 147 KB of other data at cycle 1,000: their
// misses evict dirty lines, whose write-backs meet the reads at DRAM.
// Returns the reads' makespan from cycle 1,000.
Cycle barrier(std::int64_t write_queue) {
  MemoryConfig c = titanx(Booking::gap_filling);
  c.dram_write_queue = write_queue;
  MemoryHierarchy m(c);
  for (std::int64_t tb = 0; tb < 60; ++tb)
    m.access_range(tb % c.sms, 0, std::uint64_t(tb) << 20, kTbBytes, true);
  m.advance(1000);
  Cycle done = 1000;
  for (std::int64_t tb = 0; tb < 60; ++tb)
    done = std::max(done, m.access_range(tb % c.sms, 1000, std::uint64_t(tb + 64) << 20,
                                         kTbBytes, false));
  return done - 1000;
}

Cycle engine_makespan() {
  TaskGraphInput in;
  in.nodes = 60;
  auto workload = std::make_shared<Workload>();
  workload->name = "footprints";
  workload->graph = std::make_shared<TaskGraph>(TaskGraph::build(in));
  workload->kernels = {KernelInfo{.name = "k", .footprint = {}, .mem_requests = 0,
                                  .mem_fraction = 0.0}};
  for (std::int64_t t = 0; t < 60; ++t) {
    workload->data_start.push_back(t);
    workload->data_ranges.push_back(DataRange{std::uint64_t(t) << 20, kTbBytes, false});
  }
  workload->data_start.push_back(60);
  GpuConfig gpu = gpu_preset("titanx_pascal");
  gpu.sm_model = "fixed";
  gpu.host_launch_us = 0;
  auto cost = CostModel::make(CostModel::Kind::CONSTANT);
  cost.set_param("cycles", 1000);
  SweepSpec spec;
  spec.workloads = {workload};
  spec.gpus = {gpu};
  spec.schemes = {make_scheme_config("dataflow_ideal")};
  spec.costs = {cost};
  spec.workload_of = spec.gpu_of = spec.scheme_of = spec.cost_of = spec.replicate_of = {0};
  const SingleRun run = run_single(spec, 0, false);
  for (std::size_t c = 0; c < run.row.columns.size(); ++c)
    for (const char* name : {"l1_miss_rate", "l2_hit_rate", "dram_bytes", "avg_load_latency"})
      if (run.row.columns[c] == name)
        std::printf("  %s = %g\n", name, run.row.metrics(0, static_cast<Eigen::Index>(c)));
  return run.output.makespan;
}

}  // namespace

int main(int argc, char** argv) try {
  const int reps = bench::reps_arg(argc, argv, "tbdse_booking_throughput");
#ifndef NDEBUG
  std::printf("WARNING: built without NDEBUG (not a Release build); timings are not meaningful\n");
#endif
  register_builtin_schemes();
  std::printf("booking_throughput: titanx_pascal hierarchy, gap_filling vs in_order booking\n");
  const std::vector<Cycle> in_order = eight_sms(Booking::in_order);
  const std::vector<Cycle> gap = eight_sms(Booking::gap_filling);
  std::printf("eight SMs x 512 lines at cycle 0, last completion per SM:\n  in_order   :");
  for (const Cycle c : in_order) std::printf(" %lld", static_cast<long long>(c));
  std::printf("\n  gap_filling:");
  for (const Cycle c : gap) std::printf(" %lld", static_cast<long long>(c));
  std::printf("\n");
  bool ok = true;
  for (const Cycle c : gap) ok = ok && c <= gap[0] + gap[0] / 20;

  const int count = 20;
  bench::Timing t_in, t_gap;
  std::int64_t lines_in = 0, lines_gap = 0;
  Cycle wave_in = 0, wave_gap = 0;
  for (int r = 0; r < reps; ++r) {  // interleaved
    lines_in = lines_gap = 0;
    t_in.add(bench::seconds([&] { wave_in = waves(Booking::in_order, count, lines_in); }));
    t_gap.add(bench::seconds([&] { wave_gap = waves(Booking::gap_filling, count, lines_gap); }));
  }
  const double n = static_cast<double>(count) * 60.0 * static_cast<double>(kTbBytes / 128);
  std::printf("footprint stream: %d waves x 60 TBs x 147 KB (%.0f line requests)\n", count, n);
  std::printf("  wave 0 makespan: in_order %lld cycles, gap_filling %lld cycles\n",
              static_cast<long long>(wave_in), static_cast<long long>(wave_gap));
  std::printf("  in_order    : %.1f M lines/s best, %.1f median\n", n / t_in.best() / 1e6,
              n / t_in.median() / 1e6);
  std::printf("  gap_filling : %.1f M lines/s best, %.1f median\n", n / t_gap.best() / 1e6,
              n / t_gap.median() / 1e6);
  const double ratio = t_in.best() / t_gap.best();
  std::printf("  ratio gap_filling / in_order speed: %.2f (information: a binary search per "
              "booking against one max)\n",
              ratio);
  std::printf("TB engine, 60 TBs x 147 KB on titanx_pascal (dataflow_ideal, fixed, 1000-cycle "
              "compute): makespan %lld cycles\n",
              static_cast<long long>(engine_makespan()));
  std::printf("barrier: 60 TBs write 147 KB at 0, 60 read 147 KB at 1,000 (gap_filling): reads "
              "take %lld cycles without a DRAM write queue, %lld with %lld sectors\n",
              static_cast<long long>(barrier(0)),
              static_cast<long long>(barrier(kDramWriteQueueSectors)),
              static_cast<long long>(kDramWriteQueueSectors));
  if (!ok) std::printf("gap_filling did not keep the eight SMs within 5%% of one SM's time\n");
  return ok ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "tbdse_booking_throughput: %s\n", e.what());
  return 2;
}
