// What a control-flow kernel's check knows before it runs (expected visits,
// the run-size cap, fabric units), and a run stopped by its time limit or a
// cancel flag through the sweep runner.
#include <doctest/doctest.h>

#include <atomic>
#include <cmath>

#include "core/errors.hpp"
#include "core/sweep.hpp"
#include "models/registry.hpp"
#include "models/vgiw/machines.hpp"
#include "models/vgiw/run_size.hpp"
#include "models/vgiw/test_support.hpp"

using namespace tbdse;
using namespace tbdse::vgiw;
using tbdse::vgiw::test_support::block;

namespace {

// Entry -> a self loop on block 1 that stays with chance p -> exit.
CfgKernel spin(double p, std::int64_t threads) {
  return CfgKernel("spin", {block({1}), block({1, 2}, BranchKind::PROBABILITY, p), block({})},
                   threads);
}

WorkloadPtr workload(const CfgKernel& k) {
  auto w = std::make_shared<Workload>();
  w->name = k.name();
  w->input = std::make_shared<CfgKernel>(k);
  return w;
}

SweepSpec one_run(const CfgKernel& k, const std::string& scheme) {
  SweepSpec spec;
  spec.workloads = {workload(k)};
  spec.gpus = {GpuConfig{}};
  spec.schemes = {make_scheme_config(scheme)};
  spec.costs = {CostModel::make(CostModel::Kind::CONSTANT)};
  spec.workload_of = spec.gpu_of = spec.scheme_of = spec.cost_of = spec.replicate_of = {0};
  return spec;
}

}  // namespace

TEST_CASE("expected visits: a probability loop, a counted loop, a branch") {
  CHECK(spin(0.9, 1).expected_visits().per_thread == doctest::Approx(1 + 10 + 1));
  CHECK(spin(0.9, 1).expected_visits().block == 1);
  BasicBlock loop = block({1, 2}, BranchKind::LOOP);
  loop.trips_min = 4;
  loop.trips_max = 8;  // mean 6
  const CfgKernel counted("counted", {block({1}), loop, block({})}, 1);
  CHECK(counted.expected_visits().block_visits == doctest::Approx(6));
  const CfgKernel diamond("diamond",
                          {block({1, 2}, BranchKind::PROBABILITY, 0.25), block({3}), block({3}),
                           block({})},
                          1);
  CHECK(diamond.expected_visits().per_thread == doctest::Approx(3));
}

TEST_CASE("a loop that almost never exits is refused by check, naming the block and estimate") {
  CHECK_NOTHROW(check_run_size(spin(0.99, 1000)));
  const CfgKernel k = spin(0.9999999, 100000);  // 1e7 visits x 1e5 threads
  CHECK_THROWS_WITH_AS(check_run_size(k),
                       doctest::Contains("block 1 (branch p = 0.9999999) runs about 1e+07 times"),
                       ConfigError);
  CHECK_THROWS_WITH_AS(validate_sweep(one_run(k, "simt")), doctest::Contains("1e+12 blocks"),
                       ConfigError);
}

TEST_CASE("vgiw's check refuses a fabric without a unit type the kernel needs") {
  VgiwParams p;
  CHECK_NOTHROW(check_vgiw(p, spin(0.5, 8)));
  p.fabric_alu = 0;
  CHECK_THROWS_WITH_AS(check_vgiw(p, spin(0.5, 8)), doctest::Contains("fabric_alu = 0"),
                       ConfigError);
}

TEST_CASE("a run past its time limit is a timed_out row; the others finish") {
  SweepSpec spec = one_run(spin(0.99999, 20000), "simt");  // ~2e9 blocks: a minute
  spec.workloads.push_back(workload(spin(0.5, 8)));
  spec.workload_of = {0, 1};
  spec.gpu_of = spec.scheme_of = spec.cost_of = spec.replicate_of = {0, 0};
  const SweepResult res = run_sweep(spec, SweepOptions{.threads = 1, .timeout_s = 0.05});
  CHECK(res.status[0] == static_cast<std::int8_t>(RunStatus::TIMED_OUT));
  CHECK(res.errors[0].find("timeout_s = 0.05 s") != std::string::npos);
  CHECK(std::isnan(res.metrics(0, 0)));
  CHECK(res.status[1] == static_cast<std::int8_t>(RunStatus::OK));
  CHECK_THROWS_AS(run_single(spec, 0, false, {.timeout_s = 0.05}), RunTimedOut);
}

TEST_CASE("a cancelled sweep throws RunCancelled instead of reporting rows") {
  const SweepSpec spec = one_run(spin(0.99999, 20000), "simt");
  const std::atomic<bool> cancel{true};
  CHECK_THROWS_AS(run_sweep(spec, SweepOptions{.cancel = &cancel}), RunCancelled);
  CHECK_THROWS_AS(validate_sweep(spec, 0, {}, &cancel), RunCancelled);
}
