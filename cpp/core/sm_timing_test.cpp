// Golden cases of the 'shared' SM timing model (docs/simulation.md "Timing
// models"), run through the engine with a greedy scheme: every ready task is
// issued at once, in id order, round robin over the SMs.
#include "core/sm_timing.hpp"

#include <doctest/doctest.h>

#include <vector>

#include "core/engine.hpp"

using namespace tbdse;

namespace {

struct Greedy : Scheme {
  std::vector<std::int32_t> open;
  void start(Engine& e) override {
    open.assign(static_cast<std::size_t>(e.graph().size()), 0);
    for (TaskId t = 0; t < e.graph().size(); ++t)
      for (const TaskId c : e.graph().children(t)) ++open[c];
    for (TaskId t = 0; t < e.graph().size(); ++t)
      if (open[t] == 0) e.mark_ready(t);
  }
  void on_task_finished(Engine& e, TaskId t) override {
    for (const TaskId c : e.graph().children(t))
      if (--open[c] == 0) e.mark_ready(c);
  }
  void dispatch(Engine& e) override {
    for (TaskId t = 0; t < e.graph().size(); ++t)
      if (e.state(t) == TaskState::READY && !e.issue_round_robin(t)) return;
  }
};

// Issues each listed task at its time (its parents must have finished).
struct Scripted : Scheme {
  std::vector<std::pair<Cycle, TaskId>> script;
  explicit Scripted(std::vector<std::pair<Cycle, TaskId>> s) : script(std::move(s)) {}
  void start(Engine& e) override {
    for (const auto& [time, task] : script) e.post(time, 1, task);
  }
  void on_task_finished(Engine&, TaskId) override {}
  void on_event(Engine& e, const Event& event) override {
    const auto t = static_cast<TaskId>(event.payload);
    e.mark_ready(t);
    e.issue_round_robin(t);
  }
  void dispatch(Engine&) override {}
};

Workload workload(std::int32_t nodes, std::vector<std::int32_t> src, std::vector<std::int32_t> dst,
                  KernelInfo kernel = {}) {
  TaskGraphInput in;
  in.nodes = nodes;
  in.edge_src = std::move(src);
  in.edge_dst = std::move(dst);
  Workload w;
  w.graph = std::make_shared<TaskGraph>(TaskGraph::build(in));
  w.kernels = {kernel};
  return w;
}

GpuConfig shared_gpu(double saturation, const char* share = "even") {
  GpuConfig g;
  g.sms = 1;
  g.tb_slots = 8;
  g.sm_model = "shared";
  g.sm_saturation = saturation;
  g.sm_share = share;
  return g;
}

struct Times {
  Cycle makespan;
  std::vector<Cycle> start, end;
};

Times run(const Workload& w, const GpuConfig& gpu, const std::vector<Cycle>& cost) {
  Engine engine(w, gpu, cost, EngineOptions{.record_timeline = true});
  Greedy scheme;
  EngineOutput out = engine.run(scheme, 0);
  return {out.makespan, out.timeline->start, out.timeline->end};
}

}  // namespace

TEST_CASE("shared, even: two equal TBs on an SM of saturation 1 finish together at twice their cost") {
  const Times t = run(workload(2, {}, {}), shared_gpu(1), {100, 100});
  CHECK(t.end == std::vector<Cycle>{200, 200});
  CHECK(t.makespan == 200);
}

TEST_CASE("shared, oldest_first: the older TB finishes at its cost, the younger at twice it") {
  // Same level and start: the first issued is the older.
  const Times t = run(workload(2, {}, {}), shared_gpu(1, "oldest_first"), {100, 100});
  CHECK(t.end == std::vector<Cycle>{100, 200});
}

TEST_CASE("shared: a chain runs at full speed, whatever the sharing") {
  for (const char* share : {"even", "oldest_first"}) {
    const Times t = run(workload(3, {0, 1}, {1, 2}), shared_gpu(1, share), {100, 100, 100});
    CHECK(t.start == std::vector<Cycle>{0, 100, 200});
    CHECK(t.end == std::vector<Cycle>{100, 200, 300});
  }
}

TEST_CASE("shared, even: residency changes rescale the others' progress") {
  // Saturation 1.5 over two TBs: 0.75 each.  Task 1 (50 cycles of work) ends at
  // ceil(50 / 0.75) = 67; task 0 has then done 50.25 and runs beside task 2
  // (issued at 67) at 0.75 until ceil(67 + 49.75 / 0.75) = 134; task 2, with
  // 49.75 left, then runs alone at full speed: ceil(134 + 49.75) = 184.
  GpuConfig g = shared_gpu(1.5);
  g.tb_slots = 2;
  const Times t = run(workload(3, {}, {}), g, {100, 50, 100});
  CHECK(t.start == std::vector<Cycle>{0, 0, 67});
  CHECK(t.end == std::vector<Cycle>{134, 67, 184});
}

// Input tasks 0 -> 1 (level 1) and 2 (level 0) on one SM of saturation 1,
// issued at 0, 10 and 20 (costs 10, 100, 100), under sharing `share`.
Times level_against_start(const char* share) {
  const Workload w = workload(3, {0}, {1});
  std::vector<TaskId> node(3);  // input id -> node id
  for (TaskId v = 0; v < 3; ++v) node[w.graph->original_id(v)] = v;
  std::vector<Cycle> cost(3);
  cost[node[0]] = 10;
  cost[node[1]] = 100;
  cost[node[2]] = 100;
  Scripted scheme({{0, node[0]}, {10, node[1]}, {20, node[2]}});
  const GpuConfig gpu = shared_gpu(1, share);  // the engine keeps a reference to it
  Engine engine(w, gpu, cost, EngineOptions{.record_timeline = true});
  const EngineOutput out = engine.run(scheme, 0);
  return {out.makespan, out.timeline->start, out.timeline->end};
}

TEST_CASE("shared, oldest_first: a lower level is older than an earlier start") {
  // Task 1 runs alone from 10 to 20 (10 cycles of work); task 2, of the lower
  // level, then takes the SM until 120 though it started later, and task 1
  // does its last 90 cycles from 120 to 210.
  const Times t = level_against_start("oldest_first");
  CHECK(t.start == std::vector<Cycle>{0, 10, 20});
  CHECK(t.end == std::vector<Cycle>{10, 210, 120});
}

TEST_CASE("shared, earliest_start: age is the start cycle alone, whatever the level") {
  // GTO's warp age: task 1 started at 10, before task 2 of the lower level,
  // so it keeps the SM and ends at 110; task 2 gets nothing until then and
  // runs 110 -> 210.
  const Times t = level_against_start("earliest_start");
  CHECK(t.start == std::vector<Cycle>{0, 10, 20});
  CHECK(t.end == std::vector<Cycle>{10, 110, 210});
}

TEST_CASE("shared with saturation at the slot count is the fixed model") {
  GpuConfig fixed = shared_gpu(1);
  fixed.sm_model = "fixed";
  const GpuConfig shared = shared_gpu(8);
  const Workload w = workload(6, {0, 0, 1, 2}, {1, 2, 3, 4});
  const std::vector<Cycle> cost = {7, 30, 12, 5, 0, 40};
  const Times a = run(w, fixed, cost), b = run(w, shared, cost);
  CHECK(a.start == b.start);
  CHECK(a.end == b.end);
}

TEST_CASE("memory term: TBs that are all memory time share the bandwidth") {
  // 128 requests x 128 B = 16 KiB per TB over 1000 cycles: 16.384 B/cycle
  // each; a bandwidth of 32.768 B/cycle (32.768 GB/s at 1000 MHz) serves two
  // at full speed, so eight take 8 x 16384 / 32.768 = 4000 cycles.
  KernelInfo k;
  k.mem_requests = 128;
  k.mem_fraction = 1.0;
  GpuConfig g = shared_gpu(8);
  g.clock_mhz = 1000;
  g.mem_bandwidth = 32.768;
  const Workload w = workload(8, {}, {}, k);
  const std::vector<Cycle> cost(8, 1000);
  Engine engine(w, g, cost);
  Greedy scheme;
  const EngineOutput out = engine.run(scheme, 0);
  CHECK(out.makespan == 4000);
  CHECK(out.work_bound == 4000);
  CHECK(out.resident_cycles == doctest::Approx(8 * 4000.0));
  // Two of them fit the bandwidth: each takes its cost.
  const Workload two = workload(2, {}, {}, k);
  const std::vector<Cycle> cost2(2, 1000);
  Engine engine2(two, g, cost2);
  CHECK(engine2.run(scheme, 0).makespan == 1000);
}

TEST_CASE("memory term: memory time is not slowed by SM sharing") {
  // Saturation 1, two TBs of cost 100 with half of it memory time and no
  // bandwidth limit: each runs at 1 / (0.5 / 0.5 + 0.5 / 1) = 2/3 of full
  // speed and ends at 150 (instead of 200 when all of it is compute).
  KernelInfo k;
  k.mem_fraction = 0.5;
  const Times t = run(workload(2, {}, {}, k), shared_gpu(1), {100, 100});
  CHECK(t.end == std::vector<Cycle>{150, 150});
}

// ---- per-kernel throughput (docs/simulation.md "Per-kernel throughput") ----
// The default GPU issues min(issue_width 2, lanes 32 / 32) = 1 warp instruction
// per cycle: a TB of w warps issuing every i cycles demands w / i of it.

namespace {

KernelInfo traited(std::int64_t threads, double interval) {
  KernelInfo k;
  k.footprint.threads = threads;
  k.issue_interval = interval;
  return k;
}

// Holds `demand` of SM 0's issue slots from cycle 0 (a spinning persistent
// TB or a runtime's steps) and runs every task at once.
struct Spinner : Greedy {
  double demand;
  explicit Spinner(double d) : demand(d) {}
  void start(Engine& e) override {
    e.add_spin_demand(0, demand);
    Greedy::start(e);
  }
};

}  // namespace

TEST_CASE("issue demand: warps over issue interval over the SM's warp instructions per cycle") {
  GpuConfig g;
  CHECK(sm_issue_rate(g) == 1.0);  // 32 lanes: one warp instruction per cycle
  CHECK(issue_demand(g, 96, 4) == 0.75);
  CHECK(issue_demand(g, 65, 4) == 0.75);  // 65 threads are 3 warps
  g.lanes = 128;
  g.issue_width = 4;
  CHECK(issue_demand(g, 256, 6) == doctest::Approx(8.0 / 24));
  CHECK(issue_demand(g, 1024, 2) == 1.0);  // at most the whole SM: its cost is its time alone
}

TEST_CASE("per-kernel throughput, even: two TBs demanding 0.75 each run at 1 / 1.5") {
  // Demands sum to 1.5: each gets 1 / 1.5 of full speed, a 1000-cycle TB ends
  // at 1500 (sm_saturation no longer matters: both TBs state their demand).
  // Work bound: 2 x 1000 cycles x 0.75 of the SM's issue slots = 1500.
  for (const double saturation : {1.0, 8.0}) {
    const Workload w = workload(2, {}, {}, traited(96, 4));
    const GpuConfig g = shared_gpu(saturation);
    const std::vector<Cycle> cost = {1000, 1000};  // the engine keeps a view of it
    Engine engine(w, g, cost, EngineOptions{.record_timeline = true});
    Greedy scheme;
    const EngineOutput out = engine.run(scheme, 0);
    CHECK(out.timeline->end == std::vector<Cycle>{1500, 1500});
    CHECK(out.work_bound == 1500);
  }
}

TEST_CASE("per-kernel throughput, oldest_first: the older takes its 0.75, the younger the rest") {
  // The younger runs at 0.25 / 0.75 = 1/3 until 1000 (333.3 cycles of work
  // done), then alone: 1000 + 666.7 -> 1667.
  const Times t = run(workload(2, {}, {}, traited(96, 4)), shared_gpu(1, "oldest_first"), {1000, 1000});
  CHECK(t.end == std::vector<Cycle>{1000, 1667});
}

TEST_CASE("per-kernel throughput: demands that fit the issue slots run at full speed") {
  // Two TBs of 2 warps issuing every 4 cycles demand 0.5 each: full speed
  // even at saturation 1, where two TBs without traits take twice their cost.
  CHECK(run(workload(2, {}, {}, traited(64, 4)), shared_gpu(1), {1000, 1000}).end ==
        std::vector<Cycle>{1000, 1000});
  CHECK(run(workload(2, {}, {}), shared_gpu(1), {1000, 1000}).end == std::vector<Cycle>{2000, 2000});
}

TEST_CASE("per-kernel throughput: a TB without traits demands 1 / sm_saturation beside one with") {
  // Saturation 4: the plain TB demands 0.25, the traited one 0.75: 1.0, full
  // speed.  At saturation 2 the plain one demands 0.5: 1.25, both at 0.8 ->
  // 1000 / 0.8 = 1250.
  TaskGraphInput in;
  in.nodes = 2;
  in.kernel = {0, 1};
  Workload w;
  w.graph = std::make_shared<TaskGraph>(TaskGraph::build(in));
  w.kernels = {traited(96, 4), KernelInfo{}};
  CHECK(run(w, shared_gpu(4), {1000, 1000}).end == std::vector<Cycle>{1000, 1000});
  CHECK(run(w, shared_gpu(2), {1000, 1000}).end == std::vector<Cycle>{1250, 1250});
}

TEST_CASE("per-kernel throughput: a spinning TB's demand shares the issue slots like a TB's") {
  // A spinner demanding 0.75 beside a running TB demanding 0.75: 1.5, the TB
  // at 1 / 1.5 ends at 1500, as beside a second running TB.  A spinner that
  // fits beside it (0.25) leaves it at full speed.
  const Workload w = workload(1, {}, {}, traited(96, 4));
  for (const auto& [demand, end] : {std::pair{0.75, Cycle{1500}}, std::pair{0.25, Cycle{1000}}}) {
    const GpuConfig g = shared_gpu(2);
    const std::vector<Cycle> cost = {1000};
    Engine engine(w, g, cost);
    Spinner scheme(demand);
    CHECK(engine.run(scheme, 0).makespan == end);
  }
}

TEST_CASE("per-kernel throughput: a TB's memory part is not slowed by issue sharing") {
  // Half of each TB's cost is memory time: at SM share 1 / 1.5 a TB runs at
  // 1 / (0.5 x 1.5 + 0.5) = 0.8 of full speed: 1250.
  KernelInfo k = traited(96, 4);
  k.mem_fraction = 0.5;
  CHECK(run(workload(2, {}, {}, k), shared_gpu(8), {1000, 1000}).end == std::vector<Cycle>{1250, 1250});
}
