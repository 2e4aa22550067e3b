// Golden scenarios for the baseline schemes: small hand-checked cases whose
// expected makespans are derived in the comments.
#include <doctest/doctest.h>

#include <cmath>

#include "core/errors.hpp"
#include "core/generators.hpp"
#include "core/sweep.hpp"
#include "models/registry.hpp"

using namespace tbdse;

namespace {

// A GPU with round numbers: 100 MHz, so 1 us = 100 cycles.
GpuConfig test_gpu(std::int64_t sms, std::int64_t slots, double host_us = 0, double device_us = 0) {
  GpuConfig g;
  g.name = "test";
  g.sms = sms;
  g.tb_slots = slots;
  g.clock_mhz = 100;
  g.host_launch_us = host_us;
  g.device_launch_us = device_us;
  return g;
}

CostModel constant(Cycle c) {
  auto m = CostModel::make(CostModel::Kind::CONSTANT);
  m.set_param("cycles", static_cast<double>(c));
  return m;
}

SweepSpec one_run(TaskGraph graph, const GpuConfig& gpu, const std::string& scheme,
                  const CostModel& cost) {
  SweepSpec spec;
  auto w = std::make_shared<Workload>();
  w->name = "test";
  w->graph = std::make_shared<TaskGraph>(std::move(graph));
  w->kernels = {KernelInfo{}};
  spec.workloads = {w};
  spec.gpus = {gpu};
  spec.schemes = {make_scheme_config(scheme)};
  spec.costs = {cost};
  spec.workload_of = spec.gpu_of = spec.scheme_of = spec.cost_of = spec.replicate_of = {0};
  return spec;
}

Cycle makespan(TaskGraph graph, const GpuConfig& gpu, const std::string& scheme,
               const CostModel& cost) {
  return run_single(one_run(std::move(graph), gpu, scheme, cost), 0, false).output.makespan;
}

TaskGraph chain(std::int32_t n) {
  TaskGraphInput in;
  in.nodes = n;
  for (TaskId t = 0; t + 1 < n; ++t) {
    in.edge_src.push_back(t);
    in.edge_dst.push_back(t + 1);
  }
  return TaskGraph::build(in);
}

TaskGraph independent(std::int32_t n) {
  TaskGraphInput in;
  in.nodes = n;
  return TaskGraph::build(in);
}

}  // namespace

TEST_CASE("a chain takes the sum of its costs under every scheme") {
  // 5 tasks costing 10, 20, 30, 40, 50 in a chain: nothing can overlap, so
  // with zero launch overhead the makespan is 10+20+30+40+50 = 150.
  auto cost = CostModel::make(CostModel::Kind::ARRAY);
  cost.set_table({10, 20, 30, 40, 50});
  for (const char* s : {"dataflow_ideal", "global_barrier", "cdp", "deplinks"})
    CHECK_MESSAGE(makespan(chain(5), test_gpu(4, 4), s, cost) == 150, s);
}

TEST_CASE("N equal independent tasks on P slots take ceil(N/P) * d") {
  // 20 tasks of 100 cycles on 2 SMs x 3 slots = 6 slots: ceil(20/6) = 4 rounds.
  CHECK(makespan(independent(20), test_gpu(2, 3), "dataflow_ideal", constant(100)) == 400);
  CHECK(makespan(independent(20), test_gpu(2, 3), "global_barrier", constant(100)) == 400);
  // 18 tasks fill exactly 3 rounds.
  CHECK(makespan(independent(18), test_gpu(2, 3), "dataflow_ideal", constant(100)) == 300);
}

TEST_CASE("a 3x3 wavefront on one SM") {
  // Levels (anti-diagonals) hold 1, 2, 3, 2, 1 tiles of 100 cycles.
  // 8 slots: every level fits at once, so 5 levels x 100 = 500.
  CHECK(makespan(make_wavefront(3, 3), test_gpu(1, 8), "dataflow_ideal", constant(100)) == 500);
  // 1 slot: fully serial, 9 x 100 = 900.
  CHECK(makespan(make_wavefront(3, 3), test_gpu(1, 1), "dataflow_ideal", constant(100)) == 900);
  // 2 slots, smallest virtual id first: t=0 {0}; t=100 {1,3}; t=200 {2,4}
  // (6 waits); t=300 {6,5}; t=400 {7}; t=500 {8}; done at 600.
  CHECK(makespan(make_wavefront(3, 3), test_gpu(1, 2), "dataflow_ideal", constant(100)) == 600);
}

TEST_CASE("global-barrier launch overheads: one launch per wave") {
  // 3x3 wavefront = 5 waves of 100-cycle tiles, ample slots.  Host launch
  // 10 us = 1000 cycles, device launch 2 us = 200 cycles at 100 MHz.
  const GpuConfig gpu = test_gpu(4, 8, 10, 2);
  // global_barrier: each wave pays a host launch after the previous wave:
  // 5 x (1000 + 100) = 5500.
  CHECK(makespan(make_wavefront(3, 3), gpu, "global_barrier", constant(100)) == 5500);
  // cdp: one host launch of the parent, then a device launch per wave:
  // 1000 + 5 x (200 + 100) = 2500.
  CHECK(makespan(make_wavefront(3, 3), gpu, "cdp", constant(100)) == 2500);
  // deplinks: one host launch, barriers cost nothing: 1000 + 5 x 100 = 1500.
  CHECK(makespan(make_wavefront(3, 3), gpu, "deplinks", constant(100)) == 1500);
  // dataflow_ideal: one host launch, then the critical path 1000 + 500.
  CHECK(makespan(make_wavefront(3, 3), gpu, "dataflow_ideal", constant(100)) == 1500);
}

TEST_CASE("baseline statistics count launches and their overhead") {
  const GpuConfig gpu = test_gpu(4, 8, 10, 2);
  const auto out = run_single(one_run(make_wavefront(3, 3), gpu, "cdp", constant(100)), 0, false);
  // columns: common metrics, then launches, launch_overhead_cycles, barriers
  const auto& cols = out.row.columns;
  const auto col = [&](const std::string& name) {
    return out.row.metrics(0, std::find(cols.begin(), cols.end(), name) - cols.begin());
  };
  CHECK(col("launches") == 6);                  // parent + 5 children
  CHECK(col("launch_overhead_cycles") == 2000);  // 1000 + 5 x 200
  CHECK(col("barriers") == 4);
  CHECK(col("makespan_cycles") == 2500);
}

TEST_CASE("cdp's parent kernel holds a TB slot") {
  // 4 independent 100-cycle tasks on 1 SM with 2 slots: the parent holds one
  // slot, so the tasks run one at a time: host 0 + device 0 + 4 x 100 = 400,
  // while global_barrier runs two at a time: 200.
  CHECK(makespan(independent(4), test_gpu(1, 2), "cdp", constant(100)) == 400);
  CHECK(makespan(independent(4), test_gpu(1, 2), "global_barrier", constant(100)) == 200);
  CHECK_THROWS_WITH_AS(makespan(independent(4), test_gpu(1, 1), "cdp", constant(100)),
                       doctest::Contains("parent kernel"), ConfigError);
}

TEST_CASE("unknown schemes and parameters name the valid ones") {
  CHECK_THROWS_WITH_AS(make_scheme_config("global_barier"),
                       doctest::Contains("did you mean 'global_barrier'"), ConfigError);
  const std::pair<std::string, double> bad[] = {{"polcy", 0}};
  CHECK_THROWS_WITH_AS(make_scheme_config("dataflow_ideal", bad),
                       doctest::Contains("did you mean 'policy'"), ConfigError);
  const std::pair<std::string, double> out_of_range[] = {{"policy", 7}};
  CHECK_THROWS_WITH_AS(make_scheme_config("dataflow_ideal", out_of_range),
                       doctest::Contains("one of lrr, lvl or fifo"), ConfigError);
}

TEST_CASE("sweeps give identical rows on 1 and 2 threads and in any order") {
  SweepSpec spec = one_run(make_wavefront(12, 12), test_gpu(3, 2, 1, 1), "dataflow_ideal",
                           CostModel::make(CostModel::Kind::LOGNORMAL));
  spec.schemes.push_back(make_scheme_config("global_barrier"));
  spec.seed = 99;
  spec.workload_of.clear();
  spec.gpu_of.clear();
  spec.scheme_of.clear();
  spec.cost_of.clear();
  spec.replicate_of.clear();
  for (int r = 0; r < 40; ++r) {
    spec.workload_of.push_back(0);
    spec.gpu_of.push_back(0);
    spec.scheme_of.push_back(r % 2);
    spec.cost_of.push_back(0);
    spec.replicate_of.push_back(r / 2);
  }
  const auto one = run_sweep(spec, {.threads = 1});
  const auto two = run_sweep(spec, {.threads = 2});
  // Reversed submission order gives the same rows, reversed.
  std::vector<std::size_t> reversed;
  for (std::size_t i = spec.runs(); i-- > 0;) reversed.push_back(i);
  const auto backwards = run_sweep(spec, {.threads = 2, .runs = reversed});
  const auto same = [](double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); };
  for (Eigen::Index r = 0; r < one.metrics.rows(); ++r)
    for (Eigen::Index c = 0; c < one.metrics.cols(); ++c)
      REQUIRE(same(one.metrics(r, c), two.metrics(r, c)));
  for (Eigen::Index r = 0; r < one.metrics.rows(); ++r)
    for (Eigen::Index c = 0; c < one.metrics.cols(); ++c)
      REQUIRE(same(one.metrics(r, c), backwards.metrics(one.metrics.rows() - 1 - r, c)));
  CHECK(one.config_hash == two.config_hash);
  // Run 7 alone, as a chunk of its own, gives the same row.
  const auto alone = run_sweep(spec, {.threads = 2, .runs = {7}});
  for (Eigen::Index c = 0; c < one.metrics.cols(); ++c)
    CHECK(same(alone.metrics(0, c), one.metrics(7, c)));
  // Different replicates draw different costs.
  CHECK(one.metrics(0, 0) != one.metrics(2, 0));
}

TEST_CASE("resolving with the per-call workload hash table gives the same keys as without") {
  // validate_sweep and run_sweep hash each workload once (workload_hashes)
  // instead of twice per run; the configuration hash and RNG keys must not move.
  SweepSpec spec = one_run(chain(4), test_gpu(2, 2), "dataflow_ideal", constant(10));
  auto with_data = std::make_shared<Workload>(*spec.workloads[0]);
  with_data->name = "with data";
  with_data->data_start = {0, 1, 1, 1, 2};
  with_data->data_ranges = {DataRange{4096, 256, false}, DataRange{8192, 128, true}};
  spec.workloads.push_back(with_data);
  spec.workload_of = {0, 1, 1};
  spec.gpu_of = spec.scheme_of = spec.cost_of = {0, 0, 0};
  spec.replicate_of = {0, 0, 1};

  const std::vector<std::uint64_t> all = workload_hashes(spec, {});
  CHECK(all == std::vector<std::uint64_t>{spec.workloads[0]->hash(), with_data->hash()});
  CHECK(all[0] != all[1]);
  CHECK(workload_hashes(spec, {1, 2}) == std::vector<std::uint64_t>{0, all[1]});  // only those used
  const std::vector<std::uint64_t> hashes = validate_sweep(spec);
  for (std::size_t run = 0; run < spec.runs(); ++run) {
    const ResolvedRun plain = resolve_run(spec, run), tabled = resolve_run(spec, run, &all);
    CHECK(hashes[run] == plain.config_hash);
    CHECK(tabled.config_hash == plain.config_hash);
    CHECK(tabled.cost_key == plain.cost_key);
    CHECK(tabled.model_key == plain.model_key);
  }
}
