// Reuse (KernelInfo::reuse, engine_passes.cpp): a TB that sweeps its read
// footprint several times meets the caches on every pass as its neighbours
// left them.
#include <doctest/doctest.h>

#include <memory>
#include <vector>

#include "core/engine.hpp"
#include "core/errors.hpp"
#include "core/task_graph.hpp"

using namespace tbdse;

namespace {

struct AllAtOnce : Scheme {
  void start(Engine& e) override {
    for (TaskId t = 0; t < e.graph().size(); ++t) e.mark_ready(t);
  }
  void on_task_finished(Engine&, TaskId) override {}
  void dispatch(Engine& e) override {
    for (TaskId t = 0; t < e.graph().size(); ++t)
      if (e.state(t) == TaskState::READY && !e.issue_round_robin(t)) return;
  }
};

// `n` independent TBs of `cost` cycles (mem_fraction `f`), TB t reading its
// own `bytes` from t MiB, each swept `reuse` times, on one SM of `slots`.
Cycle run(std::int32_t n, Cycle cost, double f, std::int64_t bytes, std::int32_t reuse,
          std::int64_t slots, EngineOutput* out = nullptr, std::int64_t threads = 0) {
  TaskGraphInput in;
  in.nodes = n;
  Workload w;
  w.graph = std::make_shared<TaskGraph>(TaskGraph::build(in));
  w.kernels = {KernelInfo{.name = "k", .mem_fraction = f, .reuse = reuse}};
  w.kernels[0].footprint.threads = threads;
  for (std::int32_t t = 0; t < n; ++t) {
    w.data_start.push_back(t);
    w.data_ranges.push_back(DataRange{std::uint64_t(t) << 20, bytes, false});
  }
  w.data_start.push_back(n);
  GpuConfig gpu;
  gpu.sms = 1;
  gpu.tb_slots = slots;
  w.validate(gpu);
  AllAtOnce s;
  const EngineOutput o = Engine(w, gpu, std::vector<Cycle>(static_cast<std::size_t>(n), cost)).run(s, 0);
  if (out) *out = o;
  return o.makespan;
}

}  // namespace

TEST_CASE("reuse: a compute-bound TB's second pass hits in L1") {
  // Pass 0 reads the line cold: its chunk of 50,000 starts when the line
  // arrives from DRAM (L after issue).  Pass 1 reads it again from L1: its
  // chunk starts l1_hit_cycles (45) later.  Reuse 1 is the old timing.
  const Cycle cold = run(1, 0, 0.0, 128, 1, 1);
  REQUIRE(cold > 45);
  CHECK(run(1, 100000, 0.0, 128, 1, 1) == 100000 + cold);
  CHECK(run(1, 100000, 0.0, 128, 2, 1) == 100000 + cold + GpuConfig{}.l1_hit_cycles);
}

TEST_CASE("reuse: working sets that no longer fit beside each other thrash L1") {
  // 8 KiB working sets, 8 passes, on a 16 KiB L1: two resident TBs keep
  // theirs (every pass after the first hits); four evict each other's, so
  // their later passes miss.
  EngineOutput two, four;
  run(8, 20000, 0.9, 8192, 8, 2, &two);
  run(8, 20000, 0.9, 8192, 8, 4, &four);
  REQUIRE(two.memory.has_value());
  REQUIRE(four.memory.has_value());
  const auto miss_rate = [](const EngineOutput& o) { return 1.0 - o.memory->l1_hit_rate(); };
  CHECK(miss_rate(two) < 0.25);  // the first pass's 1 in 8
  CHECK(miss_rate(four) > 0.9);
  CHECK(four.makespan > two.makespan);  // more TBs per SM, less throughput
}

TEST_CASE("reuse: bad values are refused") {
  TaskGraphInput in;
  in.nodes = 1;
  Workload w;
  w.graph = std::make_shared<TaskGraph>(TaskGraph::build(in));
  w.kernels = {KernelInfo{.name = "k", .reuse = 2}};
  CHECK_THROWS_WITH_AS(w.validate(GpuConfig{}), doctest::Contains("needs data footprints"), ConfigError);
  w.kernels[0].reuse = 0;
  CHECK_THROWS_WITH_AS(w.validate(GpuConfig{}), doctest::Contains("reuse must be"), ConfigError);
}

TEST_CASE("load phases: one line per warp in flight, each phase exposing its latency") {
  // 4 cold lines: without threads one burst (one exposed latency, the rest
  // behind it); with 2 warps (64 threads) two phases of 2 lines, each
  // waiting for its own first line, so about two latencies; with 4 warps one
  // phase, timed exactly as the burst.
  const Cycle burst = run(1, 100000, 0.0, 512, 1, 1);
  const Cycle one_line = run(1, 0, 0.0, 128, 1, 1);  // a cold line's latency
  CHECK(run(1, 100000, 0.0, 512, 1, 1, nullptr, 128) == burst);
  const Cycle two = run(1, 100000, 0.0, 512, 1, 1, nullptr, 64);
  CHECK(two >= 100000 + 2 * one_line);
  CHECK(two > burst);
  // with reuse 2 the second pass's two phases hit in L1: + 2 x l1_hit_cycles
  CHECK(run(1, 100000, 0.0, 512, 2, 1, nullptr, 64) == two + 2 * GpuConfig{}.l1_hit_cycles);
}
