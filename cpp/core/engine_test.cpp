// The engine's own guarantees, with small test schemes: the deadlock report
// and the no-progress watchdog.
#include "core/engine.hpp"

#include <doctest/doctest.h>

#include "core/errors.hpp"

using namespace tbdse;

namespace {

// Two tasks, input task 1 -> input task 0 (stored renamed: node 0 is task 1).
Workload one_task_workload() {
  TaskGraphInput in;
  in.nodes = 2;
  in.edge_src = {1};
  in.edge_dst = {0};
  Workload w;
  w.graph = std::make_shared<TaskGraph>(TaskGraph::build(in));
  w.kernels = {KernelInfo{}};
  return w;
}

GpuConfig small_gpu() {
  GpuConfig g;
  g.sms = 1;
  g.tb_slots = 2;
  return g;
}

// Never makes anything ready.
struct Idle : Scheme {
  void start(Engine&) override {}
  void on_task_finished(Engine&, TaskId) override {}
  void dispatch(Engine&) override {}
};

// Polls every `period` cycles; issues the root at cycle 1 when `run_root`.
struct Poller : Scheme {
  Cycle period;
  bool run_root;
  Poller(Cycle p, bool run) : period(p), run_root(run) {}
  void start(Engine& e) override { e.post(1, 1); }
  void on_task_finished(Engine&, TaskId) override {}
  void on_event(Engine& e, const Event&) override {
    if (run_root && e.state(0) == TaskState::WAITING) e.mark_ready(0);
    if (e.state(0) != TaskState::DONE) e.post(e.now() + period, 1);
  }
  void dispatch(Engine& e) override {
    if (e.state(0) == TaskState::READY) e.issue_round_robin(0);
    if (e.state(0) == TaskState::DONE && e.state(1) == TaskState::WAITING) e.mark_ready(1);
    if (e.state(1) == TaskState::READY) e.issue_round_robin(1);
  }
};

}  // namespace

TEST_CASE("a run that cannot go on names the stuck tasks by their input ids") {
  const Workload w = one_task_workload();
  const std::vector<Cycle> cost = {5, 5};
  const GpuConfig gpu = small_gpu();  // the engine keeps a reference to it
  Engine engine(w, gpu, cost);
  Idle scheme;
  try {
    engine.run(scheme, 0);
    FAIL("expected a deadlock");
  } catch (const DeadlockError& e) {
    const std::string msg = e.what();
    CHECK(msg.find("nothing is left to happen") != std::string::npos);
    CHECK(msg.find("2 of 2 tasks can never finish") != std::string::npos);
    // Input task 1 is the root (node 0): listed first, as "task 1".
    CHECK(msg.find("task 1 (waiting): all parents finished but the scheme never made it ready") !=
          std::string::npos);
    CHECK(e.stuck_tasks() == std::vector<TaskId>{1, 0});
  }
}

TEST_CASE("the watchdog stops a scheme that polls while nothing runs") {
  const Workload w = one_task_workload();
  const std::vector<Cycle> cost = {5, 5};
  const GpuConfig gpu = small_gpu();  // the engine keeps a reference to it
  Engine engine(w, gpu, cost, EngineOptions{.max_events_without_progress = 1000});
  Poller scheme(10, false);  // polls forever, never issues
  CHECK_THROWS_WITH_AS(engine.run(scheme, 0), doctest::Contains("without issuing or finishing a TB"),
                       DeadlockError);
}

TEST_CASE("the watchdog lets a scheme poll while a long TB runs") {
  // The root runs for 10^7 cycles while the scheme polls every 10: a million
  // events without a TB finishing, which is progress (time moves towards the
  // finish), not a hang.
  const Workload w = one_task_workload();
  const std::vector<Cycle> cost = {10'000'000, 5};
  const GpuConfig gpu = small_gpu();  // the engine keeps a reference to it
  Engine engine(w, gpu, cost, EngineOptions{.max_events_without_progress = 1000});
  Poller scheme(10, true);
  CHECK(engine.run(scheme, 0).makespan == 1 + 10'000'000 + 5);
}

TEST_CASE("the watchdog stops a zero-time event loop even while a TB runs") {
  const Workload w = one_task_workload();
  const std::vector<Cycle> cost = {10'000'000, 5};
  const GpuConfig gpu = small_gpu();  // the engine keeps a reference to it
  Engine engine(w, gpu, cost, EngineOptions{.max_events_without_progress = 1000});
  Poller scheme(0, true);  // re-posts at the same cycle forever
  CHECK_THROWS_AS(engine.run(scheme, 0), DeadlockError);
}

TEST_CASE("simulated time is bounded") {
  const Workload w = one_task_workload();
  const std::vector<Cycle> cost = {kMaxDelay, kMaxDelay};
  const GpuConfig gpu = small_gpu();  // the engine keeps a reference to it
  Engine engine(w, gpu, cost);
  Poller scheme(kMaxDelay, true);  // polls in steps of 2^48 after the root ends
  CHECK(engine.run(scheme, 0).makespan == 1 + 2 * kMaxDelay);
  const std::vector<Cycle> too_long = {kMaxDelay + 1, 5};
  CHECK_THROWS_AS(Engine(w, gpu, too_long), ConfigError);
}

namespace {

// Issues every ready task in virtual-id order, round robin.
struct Greedy : Scheme {
  void start(Engine& e) override {
    for (TaskId t = 0; t < e.graph().size(); ++t)
      if (e.graph().parent_count(t) == 0) e.mark_ready(t);
  }
  void on_task_finished(Engine& e, TaskId t) override {
    for (const TaskId c : e.graph().children(t)) {
      bool ready = true;
      for (TaskId p = 0; p < e.graph().size(); ++p)
        for (const TaskId q : e.graph().children(p))
          if (q == c && e.state(p) != TaskState::DONE) ready = false;
      if (ready && e.state(c) == TaskState::WAITING) e.mark_ready(c);
    }
  }
  void dispatch(Engine& e) override {
    for (TaskId t = 0; t < e.graph().size(); ++t)
      if (e.state(t) == TaskState::READY && !e.issue_round_robin(t)) return;
  }
};

GpuConfig memory_gpu() {
  GpuConfig g;
  g.sms = 2;
  g.tb_slots = 1;
  return g;
}

// Producer (input 0) writes 4 KiB, consumer (input 1) reads them.
Workload producer_consumer(bool footprints, std::uint64_t consumer_base) {
  TaskGraphInput in;
  in.nodes = 2;
  in.edge_src = {0};
  in.edge_dst = {1};
  in.cost = {1000, 1000};
  Workload w;
  w.graph = std::make_shared<TaskGraph>(TaskGraph::build(in));
  w.kernels = {KernelInfo{.name = "k", .footprint = {}, .mem_requests = 0, .mem_fraction = 0.5}};
  if (footprints) {
    w.data_start = {0, 2, 3};  // node 0 = input 0 (level 0)
    w.data_ranges = {DataRange{1 << 20, 4096, false}, DataRange{0, 4096, true},
                     DataRange{consumer_base, 4096, false}};
  }
  return w;
}

}  // namespace

TEST_CASE("data footprints: a consumer that reads its producer's output hits in L2") {
  const GpuConfig gpu = memory_gpu();
  const std::vector<Cycle> cost = {1000, 1000};
  Greedy s1, s2, s3;
  const Workload plain = producer_consumer(false, 0);
  const EngineOutput a = Engine(plain, gpu, cost).run(s1, 0);
  CHECK(a.makespan == 2000);
  CHECK_FALSE(a.memory.has_value());
  const Workload reuse = producer_consumer(true, 0);
  const Workload cold = producer_consumer(true, 2 << 20);
  const EngineOutput b = Engine(reuse, gpu, cost).run(s2, 0);
  const EngineOutput c = Engine(cold, gpu, cost).run(s3, 0);
  REQUIRE(b.memory.has_value());
  CHECK(b.memory->l2_read_hits > 0);
  CHECK(c.memory->l2_read_hits == 0);
  CHECK(b.makespan < c.makespan);  // the reuse comes from the footprints alone
}

// One TB of `cost` nominal cycles, all compute (mem_fraction 0), reading
// `bytes` cold from address 0 on a one-SM GPU.
static Cycle one_reader(Cycle cost, std::int64_t bytes) {
  TaskGraphInput in;
  in.nodes = 1;
  Workload w;
  w.graph = std::make_shared<TaskGraph>(TaskGraph::build(in));
  w.kernels = {KernelInfo{.name = "k", .footprint = {}, .mem_requests = 0, .mem_fraction = 0.0}};
  w.data_start = {0, 1};
  w.data_ranges = {DataRange{0, bytes, false}};
  GpuConfig gpu;
  gpu.sms = 1;
  gpu.tb_slots = 1;
  Greedy s;
  return Engine(w, gpu, std::vector<Cycle>{cost}).run(s, 0).makespan;
}

TEST_CASE("data footprints: a TB's reads overlap its compute") {
  // Zero compute gives the hierarchy's times alone: L for the first line
  // (cold, from DRAM), M for all 64 KiB (lines queue at the L1 port, the
  // MSHRs and the DRAM channel).
  const Cycle first_line = one_reader(0, 128);
  const Cycle memory = one_reader(0, 64 << 10);
  REQUIRE(first_line > 0);
  REQUIRE(memory > first_line);
  // Compute-bound: the compute starts when the first line is there and hides
  // the rest of the reads; the old additive rule would give 100000 + M.
  CHECK(one_reader(100000, 64 << 10) == 100000 + first_line);
  // Memory-bound: the compute hides under the reads.
  CHECK(one_reader(memory - first_line, 64 << 10) == memory);
  CHECK(one_reader(10, 64 << 10) == memory);
}

TEST_CASE("data footprints: a malformed CSR is a ConfigError") {
  Workload w = producer_consumer(true, 0);
  w.data_start = {0, 3};
  const GpuConfig gpu = memory_gpu();
  const std::vector<Cycle> cost = {1000, 1000};
  CHECK_THROWS_AS(Engine(w, gpu, cost), ConfigError);
}

TEST_CASE("data footprints under 'shared': the hierarchy's time is counted once") {
  // Each TB runs alone on its SM, so 'shared' must give the 'fixed' times:
  // max(compute 500 + first line, the hierarchy's read time).  The kernel's mem_requests and a
  // tiny mem_bandwidth must not slow the memory part a second time (the
  // hierarchy's DRAM channels already limit it), and the work bound has no
  // bandwidth term.
  const GpuConfig fixed = memory_gpu();
  GpuConfig shared = memory_gpu();
  shared.sm_model = "shared";
  shared.sm_saturation = 1;
  shared.mem_bandwidth = 0.001;
  Workload w = producer_consumer(true, 2 << 20);
  w.kernels[0].mem_requests = 1000;
  const std::vector<Cycle> cost = {1000, 1000};
  Greedy s1, s2;
  const EngineOutput a = Engine(w, fixed, cost).run(s1, 0);
  const EngineOutput b = Engine(w, shared, cost).run(s2, 0);
  CHECK(a.makespan > 1000);  // both TBs read from DRAM
  CHECK(b.makespan == a.makespan);
  CHECK(b.work_bound <= b.makespan);
}

TEST_CASE("data footprints under 'shared': sharing slows the compute part, not the hierarchy's") {
  // Two independent TBs on one SM of saturation 1, each 500 cycles of
  // compute after its first cold line (M cycles: a compute-bound TB): under
  // 'fixed' the later ends at 500 + M; sharing the SM halves the compute
  // speed while both run, so at most 500 more, never the 2 x (500 + M) of a
  // memory part slowed too.
  TaskGraphInput in;
  in.nodes = 2;
  Workload w;
  w.graph = std::make_shared<TaskGraph>(TaskGraph::build(in));
  w.kernels = {KernelInfo{.name = "k", .footprint = {}, .mem_requests = 0, .mem_fraction = 0.5}};
  w.data_start = {0, 1, 2};
  w.data_ranges = {DataRange{0, 4096, false}, DataRange{1 << 20, 4096, false}};
  GpuConfig fixed;
  fixed.sms = 1;
  fixed.tb_slots = 2;
  GpuConfig shared = fixed;
  shared.sm_model = "shared";
  shared.sm_saturation = 1;
  const std::vector<Cycle> cost = {1000, 1000};
  Greedy s1, s2;
  const EngineOutput a = Engine(w, fixed, cost).run(s1, 0);
  const EngineOutput b = Engine(w, shared, cost).run(s2, 0);
  const Cycle memory = a.makespan - 500;
  REQUIRE(memory > 0);
  CHECK(b.makespan > a.makespan);
  CHECK(b.makespan <= a.makespan + 500 + 1);
  CHECK(b.makespan < 2 * (500 + memory));
}
