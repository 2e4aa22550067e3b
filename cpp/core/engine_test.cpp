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
