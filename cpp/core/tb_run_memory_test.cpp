// The TB engine's memory columns (docs/simulation.md "Metrics of every run"):
// filled from the hierarchy for a workload with data footprints, NaN without.
#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <string>

#include "core/sweep.hpp"
#include "core/task_graph.hpp"
#include "models/registry.hpp"

using namespace tbdse;

namespace {

double column(const SingleRun& run, const std::string& name) {
  for (std::size_t c = 0; c < run.row.columns.size(); ++c)
    if (run.row.columns[c] == name) return run.row.metrics(0, static_cast<Eigen::Index>(c));
  FAIL("no column " << name);
  return 0;
}

// Eight independent TBs on titanx_pascal, each reading its own 64 KB (512
// lines) when `footprints`.
SingleRun run_eight(bool footprints) {
  TaskGraphInput in;
  in.nodes = 8;
  auto w = std::make_shared<Workload>();
  w->name = "eight";
  w->graph = std::make_shared<TaskGraph>(TaskGraph::build(in));
  w->kernels = {KernelInfo{.name = "k", .footprint = {}, .mem_requests = 0, .mem_fraction = 0.0}};
  if (footprints) {
    for (std::int64_t t = 0; t < 8; ++t) {
      w->data_start.push_back(t);
      w->data_ranges.push_back(DataRange{std::uint64_t(t) << 24, 512 * 128, false});
    }
    w->data_start.push_back(8);
  }
  GpuConfig gpu = gpu_preset("titanx_pascal");
  gpu.l1_mshrs = 32;  // 16 rounds of ~455-cycle misses (the preset has 256)
  gpu.sm_model = "fixed";
  gpu.host_launch_us = 0;
  auto cost = CostModel::make(CostModel::Kind::CONSTANT);
  cost.set_param("cycles", 1000);
  SweepSpec spec;
  spec.workloads = {w};
  spec.gpus = {gpu};
  spec.schemes = {make_scheme_config("dataflow_ideal")};
  spec.costs = {cost};
  spec.workload_of = spec.gpu_of = spec.scheme_of = spec.cost_of = spec.replicate_of = {0};
  return run_single(spec, 0, false);
}

}  // namespace

TEST_CASE("TB runs with data footprints report the hierarchy's counters") {
  const SingleRun plain = run_eight(false);
  for (const char* name : {"l1_miss_rate", "l2_hit_rate", "dram_bytes", "avg_load_latency"})
    CHECK(std::isnan(column(plain, name)));
  CHECK(plain.output.makespan == 1000);

  // Eight SMs issued at the same cycle, each 512 cold lines: all miss, 8 x 64
  // KB from DRAM, and (gap-filling booking) each TB's reads take about one
  // SM's 7,361 cycles (docs/memory.md "Booking"), not k x 7,361; its 1,000
  // cycles of compute hide under them (a memory-bound TB).
  const SingleRun run = run_eight(true);
  CHECK(column(run, "l1_miss_rate") == 1.0);
  CHECK(column(run, "l2_hit_rate") == 0.0);
  CHECK(column(run, "dram_bytes") == 8.0 * 512 * 128);
  CHECK(column(run, "avg_load_latency") >= 7361.0);
  CHECK(column(run, "avg_load_latency") <= 7361.0 * 1.05);
  CHECK(run.output.makespan >= 7361);
  CHECK(run.output.makespan <= 7361 * 105 / 100);
}
