// Engine throughput: `dataflow_ideal` on a 1000 x 1000 wavefront (1,000,000
// TBs) on a GTX480 (15 SMs x 8 TB slots, 30 us host launch at 700 MHz), task
// costs from a lognormal cost model (mean 2000 cycles, sigma 0.2) drawn once,
// simulated through tbdse's normal path (tbdse::run_single on a one-run
// SweepSpec: resolve, materialise costs, create the scheme from the registry,
// run the Engine, compute the metrics) versus a minimal hand-written list
// scheduler of the same model compiled right here.
//
// The reference model (docs/MODELS.md §2 "dataflow_ideal"):
//   * one host launch: nothing runs before gpu.us_to_cycles(host_launch_us);
//     then the roots are ready;
//   * ready tasks are issued smallest virtual id first (a min-heap of vids);
//   * each issue goes to the first SM with a free TB slot at or after the one
//     following the last SM issued to (round robin, skipping full SMs);
//   * finish events in a min-heap ordered by (time, insertion order);
//   * all finish events of one timestamp are processed, then ready tasks are
//     dispatched.
// Both must give the same makespan: the benchmark exits 1 if they differ.
//
// Output: TBs per second for both (best and median of --reps repetitions) and
// the ratio tbdse / reference.  Target: tbdse >= 50% of the reference.
// Also reported, without a reference or target: the same run under the
// `shared` SM timing model (sm_saturation 4, even and oldest_first sharing),
// whose finish times are recomputed at every residency change of an SM, and
// under per-kernel throughput (the kernel states 128 threads and an issue
// interval of 8 cycles: each TB demands 4 / 8 of a GTX480 SM's issue slots,
// docs/simulation.md "Per-kernel throughput"), even sharing.
// Exit status: 0 = ran and makespans agree (whether or not the target is
// met), 1 = makespans differ, 2 = bad arguments or an error.
//
// Usage: tbdse_engine_throughput [--rows R] [--cols C] [--reps N]
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/cost_model.hpp"
#include "core/engine.hpp"
#include "core/generators.hpp"
#include "core/gpu.hpp"
#include "core/sweep.hpp"
#include "core/task_graph.hpp"
#include "models/registry.hpp"
#include "timing.hpp"

namespace {

using tbdse::Cycle;
using tbdse::TaskId;

// ---------------------------------------------------------------------------
// The reference: the same model as dataflow_ideal written as plainly as
// possible, with no scheme interface, registry, resource pool, task states or
// statistics.  Like a tbdse run, every call starts from the inputs alone (it
// allocates its own state).  Returns the makespan, or -1 if a task never ran.
struct Finish {
  Cycle time;
  std::uint64_t seq;
  TaskId task;
  std::int32_t sm;
};
struct FinishesLater {  // std heaps are max-heaps: "a after b" keeps the earliest on top
  bool operator()(const Finish& a, const Finish& b) const {
    return a.time != b.time ? a.time > b.time : a.seq > b.seq;
  }
};

Cycle reference_makespan(const tbdse::TaskGraph& graph, const std::vector<Cycle>& cost,
                         std::int32_t sms, std::int32_t slots, Cycle launch) {
  const std::int32_t n = graph.size();
  const auto parents = graph.parent_counts();
  std::vector<std::int32_t> open(parents.begin(), parents.end());  // unfinished parents
  std::vector<std::int32_t> free(static_cast<std::size_t>(sms), slots);  // free slots per SM
  std::int64_t free_total = static_cast<std::int64_t>(sms) * slots;
  std::vector<std::int32_t> ready;  // min-heap of virtual ids
  std::vector<Finish> events;       // min-heap by (time, seq)
  events.reserve(static_cast<std::size_t>(free_total));
  std::uint64_t seq = 0;
  std::int32_t rr = 0;  // the SM after the last one issued to
  std::int32_t finished = 0;

  const auto push_ready = [&](TaskId t) {
    ready.push_back(t);  // node ids are virtual ids (TaskGraph stores the graph renamed)
    std::push_heap(ready.begin(), ready.end(), std::greater<>{});
  };
  const auto dispatch = [&](Cycle now) {
    while (!ready.empty() && free_total > 0) {
      std::int32_t sm = rr;
      while (free[sm] == 0) sm = sm + 1 == sms ? 0 : sm + 1;  // some SM has room
      const TaskId t = ready.front();
      std::pop_heap(ready.begin(), ready.end(), std::greater<>{});
      ready.pop_back();
      --free[sm];
      --free_total;
      rr = sm + 1 == sms ? 0 : sm + 1;
      events.push_back(Finish{now + cost[t], seq++, t, sm});
      std::push_heap(events.begin(), events.end(), FinishesLater{});
    }
  };

  // The launch: after the host overhead every root is ready.
  Cycle now = launch;
  for (TaskId t = 0; t < n; ++t)
    if (open[t] == 0) push_ready(t);
  dispatch(now);

  while (!events.empty()) {
    now = events.front().time;
    do {  // every finish at this timestamp, then one dispatch
      std::pop_heap(events.begin(), events.end(), FinishesLater{});
      const Finish f = events.back();
      events.pop_back();
      ++free[f.sm];
      ++free_total;
      ++finished;
      for (const TaskId c : graph.children(f.task))
        if (--open[c] == 0) push_ready(c);
    } while (!events.empty() && events.front().time == now);
    dispatch(now);
  }
  return finished == n ? now : -1;
}

// ---------------------------------------------------------------------------

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

using tbdse::bench::Timing;

tbdse::SweepSpec one_run(const tbdse::WorkloadPtr& workload, const tbdse::GpuConfig& gpu,
                         const tbdse::CostModel& cost) {
  tbdse::SweepSpec spec;
  spec.workloads = {workload};
  spec.gpus = {gpu};
  spec.schemes = {tbdse::make_scheme_config("dataflow_ideal")};
  spec.costs = {cost};
  spec.workload_of = spec.gpu_of = spec.scheme_of = spec.cost_of = spec.replicate_of = {0};
  spec.seed = 2024;
  return spec;
}

int parse_int(const char* text, const char* what) {
  return static_cast<int>(tbdse::bench::parse_count("engine_throughput", what, text, 1, 100000));
}

}  // namespace

int main(int argc, char** argv) try {
  int rows = 1000, cols = 1000, reps = 5;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (i + 1 < argc && arg == "--rows") rows = parse_int(argv[++i], "--rows");
    else if (i + 1 < argc && arg == "--cols") cols = parse_int(argv[++i], "--cols");
    else if (i + 1 < argc && arg == "--reps") reps = parse_int(argv[++i], "--reps");
    else {
      std::fprintf(stderr, "usage: %s [--rows R] [--cols C] [--reps N]\n", argv[0]);
      return 2;
    }
  }
#ifndef NDEBUG
  std::printf("WARNING: built without NDEBUG (not a Release build); timings are not meaningful\n");
#endif

  tbdse::register_builtin_schemes();
  // The reference implements the fixed timing model (a TB takes its cost);
  // the preset's own shared model is timed below, without a reference.
  tbdse::GpuConfig gpu = tbdse::gpu_preset("gtx480");
  gpu.sm_model = "fixed";

  auto t0 = std::chrono::steady_clock::now();
  auto workload = std::make_shared<tbdse::Workload>();
  workload->name = "wavefront";
  workload->graph = std::make_shared<tbdse::TaskGraph>(tbdse::make_wavefront(rows, cols));
  workload->kernels = {tbdse::KernelInfo{}};
  const tbdse::TaskGraph& graph = *workload->graph;
  const double build_s = seconds_since(t0);
  const std::int32_t n = graph.size();

  // The lognormal costs, drawn once with the key tbdse's own run would use.
  auto lognormal = tbdse::CostModel::make(tbdse::CostModel::Kind::LOGNORMAL);
  lognormal.set_param("mean", 2000);
  lognormal.set_param("sigma", 0.2);
  const tbdse::SweepSpec drawn_spec = one_run(workload, gpu, lognormal);
  const std::uint64_t cost_key = tbdse::resolve_run(drawn_spec, 0).cost_key;
  const std::vector<Cycle> cost = lognormal.materialize(graph, cost_key);

  // The benchmarked tbdse run takes those costs as an array cost model, so
  // both sides simulate from the same materialised costs.
  auto array = tbdse::CostModel::make(tbdse::CostModel::Kind::ARRAY);
  array.set_table(graph.in_original_order<Cycle>(cost));  // tables are by input task id
  const tbdse::SweepSpec spec = one_run(workload, gpu, array);

  tbdse::GpuConfig even = gpu, oldest = gpu;
  even.sm_model = oldest.sm_model = "shared";
  even.sm_saturation = oldest.sm_saturation = 4;
  oldest.sm_share = "oldest_first";
  const tbdse::SweepSpec spec_even = one_run(workload, even, array);
  const tbdse::SweepSpec spec_oldest = one_run(workload, oldest, array);
  auto traited = std::make_shared<tbdse::Workload>(*workload);
  traited->kernels = {tbdse::KernelInfo{.name = "kernel", .footprint = {.threads = 128},
                                        .issue_interval = 8.0}};
  const tbdse::SweepSpec spec_traits = one_run(traited, even, array);

  const Cycle launch = gpu.us_to_cycles(gpu.host_launch_us);
  const auto reference = [&] {
    return reference_makespan(graph, cost, static_cast<std::int32_t>(gpu.sms),
                              static_cast<std::int32_t>(gpu.tb_slots), launch);
  };

  std::printf("engine_throughput: dataflow_ideal, %dx%d wavefront = %d TBs "
              "(%lld edges, %d levels)\n",
              rows, cols, n, static_cast<long long>(graph.edge_count()), graph.num_levels());
  std::printf("  gpu gtx480: %lld SMs x %lld TB slots, host launch %lld cycles; "
              "costs lognormal(mean 2000, sigma 0.2) drawn once; graph built in %.3f s\n",
              static_cast<long long>(gpu.sms), static_cast<long long>(gpu.tb_slots),
              static_cast<long long>(launch), build_s);

  // For the breakdown: the scheme and the Engine alone, without resolving the
  // run or materialising its costs (Engine::run still computes the metrics).
  const tbdse::SchemeConfig& scheme_config = spec.schemes[0];
  const auto engine_only = [&] {
    const auto scheme = scheme_config.info->create(scheme_config.values, *workload, gpu);
    tbdse::Engine engine(*workload, gpu, cost);
    return engine.run(*scheme, scheme_config.info->stats.size()).makespan;
  };

  // Correctness first (also a warm-up): same makespan from both, and from
  // tbdse drawing the lognormal costs itself.
  const Cycle ms_tbdse = tbdse::run_single(spec, 0, false).output.makespan;
  const Cycle ms_drawn = tbdse::run_single(drawn_spec, 0, false).output.makespan;
  const Cycle ms_ref = reference();
  const Cycle ms_engine = engine_only();
  std::printf("  makespan: tbdse %lld cycles, tbdse (lognormal drawn in the run) %lld, "
              "reference %lld -> %s\n",
              static_cast<long long>(ms_tbdse), static_cast<long long>(ms_drawn),
              static_cast<long long>(ms_ref),
              ms_tbdse == ms_ref && ms_drawn == ms_ref && ms_engine == ms_ref ? "identical"
                                                                              : "MISMATCH");
  if (ms_tbdse != ms_ref || ms_drawn != ms_ref || ms_engine != ms_ref) {
    std::fprintf(stderr, "engine_throughput: makespans differ; the benchmark is void\n");
    return 1;
  }

  // Interleaved repetitions so that drift of the machine affects both alike.
  // Every timed run's makespan is checked too (which also keeps the work observable).
  Timing t_tbdse, t_drawn, t_ref, t_engine, t_even, t_oldest, t_traits;
  const Cycle ms_traits = tbdse::run_single(spec_traits, 0, false).output.makespan;
  const Cycle ms_even = tbdse::run_single(spec_even, 0, false).output.makespan;
  const Cycle ms_oldest = tbdse::run_single(spec_oldest, 0, false).output.makespan;
  int mismatches = 0;
  for (int r = 0; r < reps; ++r) {
    t0 = std::chrono::steady_clock::now();
    mismatches += tbdse::run_single(spec, 0, false).output.makespan != ms_ref;
    t_tbdse.s.push_back(seconds_since(t0));

    t0 = std::chrono::steady_clock::now();
    mismatches += reference() != ms_ref;
    t_ref.s.push_back(seconds_since(t0));

    t0 = std::chrono::steady_clock::now();
    mismatches += tbdse::run_single(drawn_spec, 0, false).output.makespan != ms_ref;
    t_drawn.s.push_back(seconds_since(t0));

    t0 = std::chrono::steady_clock::now();
    mismatches += engine_only() != ms_ref;
    t_engine.s.push_back(seconds_since(t0));
  }
  // The shared model afterwards, in a loop of its own: interleaved, its
  // allocations would slow the fixed runs above by a few percent.
  for (int r = 0; r < reps; ++r) {
    t0 = std::chrono::steady_clock::now();
    mismatches += tbdse::run_single(spec_even, 0, false).output.makespan != ms_even;
    t_even.s.push_back(seconds_since(t0));

    t0 = std::chrono::steady_clock::now();
    mismatches += tbdse::run_single(spec_oldest, 0, false).output.makespan != ms_oldest;
    t_oldest.s.push_back(seconds_since(t0));

    t0 = std::chrono::steady_clock::now();
    mismatches += tbdse::run_single(spec_traits, 0, false).output.makespan != ms_traits;
    t_traits.s.push_back(seconds_since(t0));
  }
  if (mismatches) {
    std::fprintf(stderr, "engine_throughput: %d timed run(s) gave another makespan\n", mismatches);
    return 1;
  }

  const double tbs = static_cast<double>(n);
  std::printf("\n  %-44s %10s %10s %14s\n", "", "best s", "median s", "TBs/s (best)");
  std::printf("  %-44s %10.4f %10.4f %14.3e\n", "reference list scheduler", t_ref.best(),
              t_ref.median(), tbs / t_ref.best());
  std::printf("  %-44s %10.4f %10.4f %14.3e\n", "tbdse run_single (array costs)", t_tbdse.best(),
              t_tbdse.median(), tbs / t_tbdse.best());
  std::printf("  %-44s %10.4f %10.4f %14.3e\n", "tbdse run_single (lognormal drawn per run)",
              t_drawn.best(), t_drawn.median(), tbs / t_drawn.best());
  std::printf("  %-44s %10.4f %10.4f %14.3e\n", "  breakdown: scheme + Engine::run only",
              t_engine.best(), t_engine.median(), tbs / t_engine.best());

  const double ratio_best = t_ref.best() / t_tbdse.best();
  const double ratio_median = t_ref.median() / t_tbdse.median();
  std::printf("\n  throughput tbdse / reference: %.1f%% (best of %d), %.1f%% (median)\n",
              100.0 * ratio_best, reps, 100.0 * ratio_median);
  std::printf("  (with the lognormal draws inside the run: %.1f%%; "
              "scheme + Engine::run alone: %.1f%%; "
              "best of %d)\n",
              100.0 * t_ref.best() / t_drawn.best(), 100.0 * t_ref.best() / t_engine.best(), reps);
  std::printf("  target tbdse >= 50%% of the reference: %s\n",
              ratio_best >= 0.5 ? "MET" : "NOT MET");

  std::printf("\n  sm_model shared (sm_saturation 4; reported, no target):\n");
  std::printf("  %-44s %10.4f %10.4f %14.3e   makespan %lld\n", "tbdse run_single, even sharing",
              t_even.best(), t_even.median(), tbs / t_even.best(),
              static_cast<long long>(ms_even));
  std::printf("  %-44s %10.4f %10.4f %14.3e   makespan %lld\n",
              "tbdse run_single, oldest_first sharing", t_oldest.best(), t_oldest.median(),
              tbs / t_oldest.best(), static_cast<long long>(ms_oldest));
  std::printf("  %-44s %10.4f %10.4f %14.3e   makespan %lld\n",
              "tbdse run_single, per-kernel traits, even", t_traits.best(), t_traits.median(),
              tbs / t_traits.best(), static_cast<long long>(ms_traits));
  std::printf("  shared / fixed throughput: %.1f%% (even), %.1f%% (oldest_first), "
              "%.1f%% (per-kernel traits), best of %d\n",
              100.0 * t_tbdse.best() / t_even.best(), 100.0 * t_tbdse.best() / t_oldest.best(),
              100.0 * t_tbdse.best() / t_traits.best(), reps);
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "engine_throughput: %s\n", e.what());
  return 2;
}
