// Juggler throughput: the juggler scheme (persistent workers with one queue
// each; lrr, grr and lf insertion) against dataflow_ideal, both through
// tbdse's normal path (tbdse::run_single), on a 1,000,000-task wavefront
// (1000 x 1000) with lognormal costs (mean 20,000 cycles, sigma 0.2) on the
// p100 preset, tasks of 256 threads: 8 per SM, 448 persistent workers.
//
// Juggler's cycle costs several events per task (the fetch, the resolve
// round, each child's insertion), where dataflow_ideal has one (the finish);
// idle workers cost none (their polls fall on a grid computed when work
// arrives).
//
// Output: TBs per second of each (best and median of --reps), the ratios.
// Target: juggler (grr, the default) >= 50% of dataflow_ideal's throughput.
// Exit status: 0 = ran (whether or not the target is met), 2 = error.
//
// Usage: tbdse_juggler_throughput [--reps N]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/generators.hpp"
#include "core/sweep.hpp"
#include "models/registry.hpp"
#include "timing.hpp"

namespace {


tbdse::SweepSpec make_spec() {
  tbdse::SweepSpec spec;
  auto w = std::make_shared<tbdse::Workload>();
  w->name = "1000x1000";
  w->graph = std::make_shared<tbdse::TaskGraph>(tbdse::make_wavefront(1000, 1000));
  w->kernels = {tbdse::KernelInfo{"tile", tbdse::TbFootprint{256, 0, 0}, 0}};
  spec.workloads = {w};
  spec.gpus = {tbdse::gpu_preset("p100")};
  const double lrr = 0, grr = 1, lf = 2;  // the policy choices, by index
  spec.schemes = {tbdse::make_scheme_config("dataflow_ideal"),
                  tbdse::make_scheme_config("juggler", {{{"policy", grr}}}),
                  tbdse::make_scheme_config("juggler", {{{"policy", lrr}}}),
                  tbdse::make_scheme_config("juggler", {{{"policy", lf}}})};
  auto cost = tbdse::CostModel::make(tbdse::CostModel::Kind::LOGNORMAL);
  cost.set_param("mean", 20000);
  cost.set_param("sigma", 0.2);
  spec.costs = {cost};
  spec.workload_of = spec.gpu_of = spec.cost_of = spec.replicate_of = {0, 0, 0, 0};
  spec.scheme_of = {0, 1, 2, 3};
  spec.seed = 2024;
  return spec;
}

}  // namespace

int main(int argc, char** argv) try {
  const int reps = tbdse::bench::reps_arg(argc, argv, "juggler_throughput");
  tbdse::register_builtin_schemes();
  const tbdse::SweepSpec spec = make_spec();
  const char* names[] = {"dataflow_ideal", "juggler grr", "juggler lrr", "juggler lf"};
  std::vector<tbdse::bench::Timing> t(4);
  for (int r = 0; r < reps; ++r)  // interleaved, so drift affects all alike
    for (std::size_t i = 0; i < 4; ++i) t[i].add(tbdse::bench::run_seconds(spec, i));
  std::printf("juggler_throughput: 1000x1000 wavefront = 1000000 tasks on p100 (448 workers), "
              "lognormal(20000, 0.2); best / median of %d\n", reps);
  for (std::size_t i = 0; i < 4; ++i) {
    const auto out = tbdse::run_single(spec, i, false);
    std::printf("  %-16s %9.4f s %9.4f s  %.3e TBs/s  makespan %lld cycles  (%.0f%% of "
                "dataflow_ideal's throughput)\n",
                names[i], t[i].best(), t[i].median(), 1e6 / t[i].best(),
                static_cast<long long>(out.output.makespan), 100 * t[0].best() / t[i].best());
  }
  const double ratio = t[0].best() / t[1].best();
  std::printf("  target juggler (grr) >= 50%% of dataflow_ideal: %s\n", ratio >= 0.5 ? "MET" : "NOT MET");
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "juggler_throughput: %s\n", e.what());
  return 2;
}
