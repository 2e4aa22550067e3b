// The scheme user_policy with policies given as plain C functions: small
// hand-checked cases, and the errors a bad policy gets.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>

#include "core/errors.hpp"
#include "core/policy.hpp"
#include "core/sweep.hpp"
#include "models/registry.hpp"

using namespace tbdse;

namespace {

GpuConfig test_gpu(std::int64_t sms, std::int64_t slots) {
  GpuConfig g;
  g.name = "test";
  g.sms = sms;
  g.tb_slots = slots;
  g.clock_mhz = 100;
  g.host_launch_us = 0;
  return g;
}

// Root 0 with children 1, 2, 3; 3 has a child 4.  Costs 10, 10, 10, 100, 100:
// the critical path is 0-3-4 (210), and FIFO issues 3 last of its level.
TaskGraph fork() {
  TaskGraphInput in;
  in.nodes = 5;
  in.edge_src = {0, 0, 0, 3};
  in.edge_dst = {1, 2, 3, 4};
  return TaskGraph::build(in);
}

SingleRun run(std::int64_t key, const GpuConfig& gpu, std::int64_t max_per_sm = 0) {
  SweepSpec spec;
  auto w = std::make_shared<Workload>();
  w->name = "fork";
  w->graph = std::make_shared<TaskGraph>(fork());
  w->kernels = {KernelInfo{}};
  spec.workloads = {w};
  spec.gpus = {gpu};
  const std::pair<std::string, double> params[] = {
      {"policy", static_cast<double>(key)}, {"max_tbs_per_sm", static_cast<double>(max_per_sm)}};
  spec.schemes = {make_scheme_config("user_policy", params)};
  auto cost = CostModel::make(CostModel::Kind::ARRAY);
  cost.set_table({10, 10, 10, 100, 100});
  spec.costs = {cost};
  spec.workload_of = spec.gpu_of = spec.scheme_of = spec.cost_of = spec.replicate_of = {0};
  return run_single(spec, 0, true);
}

std::int64_t add(const char* name, tbdse_priority_fn priority, tbdse_place_fn place = nullptr,
                 std::vector<double> priorities = {}) {
  static std::int64_t next = 1000;
  auto p = std::make_shared<UserPolicy>();
  p->name = name;
  p->priority = priority;
  p->place = place;
  p->priorities = std::move(priorities);
  register_policy(static_cast<std::uint64_t>(++next), p);
  return next;
}

extern "C" double by_id(const std::int64_t* task, const std::int64_t*, const std::int64_t*,
                        const double*, void*) {
  return static_cast<double>(task[TBDSE_TASK_ID]);  // the largest id first
}
extern "C" double nan_priority(const std::int64_t*, const std::int64_t*, const std::int64_t*,
                               const double*, void*) {
  return std::numeric_limits<double>::quiet_NaN();
}
extern "C" std::int64_t on_parent_sm(const std::int64_t* task, const std::int64_t* parents,
                                     const std::int64_t* sms, const double*, void*) {
  const std::int64_t n = task[TBDSE_TASK_SMS];
  for (std::int64_t i = 0; i < task[TBDSE_TASK_PARENTS]; ++i)
    if (sms[n + parents[2 * i + 1]] == 1) return parents[2 * i + 1];
  return TBDSE_PLACE_ROUND_ROBIN;
}
extern "C" std::int64_t sm_seven(const std::int64_t*, const std::int64_t*, const std::int64_t*,
                                 const double*, void*) {
  return 7;
}
extern "C" std::int64_t always_wait(const std::int64_t*, const std::int64_t*, const std::int64_t*,
                                    const double*, void*) {
  return TBDSE_PLACE_WAIT;
}

}  // namespace

TEST_CASE("key 0 is FIFO on round-robin SMs") {
  // One SM, one slot: everything in turn, 10 + 10 + 10 + 100 + 100 = 230.
  CHECK(run(0, test_gpu(1, 1)).output.makespan == 230);
  // Two SMs x 1 slot: 1 and 2 at 10..20, 3 at 20..120, 4 at 120..220.
  CHECK(run(0, test_gpu(2, 1)).output.makespan == 220);
}

TEST_CASE("a priority callback orders the ready tasks, highest first") {
  // One slot: 0, then by id, largest first: 3 (10..110); its child 4 is ready
  // at 110 and outranks 1 and 2: 4 110..210, 2 210..220, 1 220..230.
  const SingleRun r = run(add("by_id", by_id), test_gpu(1, 1));
  CHECK(r.output.makespan == 230);
  CHECK(r.output.timeline->start[4] == 110);
  CHECK(r.output.timeline->start[1] == 220);
}

TEST_CASE("static priorities: the critical path first shortens the run") {
  // Upward rank (own cost + the longest path below): 0: 210, 3: 200, 4: 100,
  // 1 and 2: 10.  Two SMs x 1 slot: 3 and 1 at 10, 2 at 20..30, 4 at
  // 110..210: 210 against FIFO's 220.
  const std::int64_t rank = add("rank", nullptr, nullptr, {210, 10, 10, 200, 100});
  CHECK(run(rank, test_gpu(2, 1)).output.makespan == 210);
}

TEST_CASE("locality placement puts a child on its parent's SM") {
  // 4 SMs x 2 slots: 1 and 2 go to 0's SM (it has room), 3 finds it full and
  // goes round robin; 4 follows 3.
  const SingleRun r = run(add("local", nullptr, on_parent_sm), test_gpu(4, 2));
  const auto& sm = r.output.timeline->sm;
  CHECK(sm[1] == sm[0]);
  CHECK(sm[2] == sm[0]);
  CHECK(sm[3] != sm[0]);
  CHECK(sm[4] == sm[3]);
}

TEST_CASE("max_tbs_per_sm throttles each SM") {
  // Two slots but at most one task TB: serial, 230 as with one slot.
  CHECK(run(0, test_gpu(1, 2), 1).output.makespan == 230);
}

TEST_CASE("a bad policy gets an error naming it, the task and the cycle") {
  CHECK_THROWS_WITH_AS(run(add("nan", nan_priority), test_gpu(1, 1)),
                       doctest::Contains("policy 'nan' returned a NaN priority for task 0 at cycle 0"),
                       SimulationError);
  CHECK_THROWS_WITH_AS(run(add("seven", nullptr, sm_seven), test_gpu(2, 1)),
                       doctest::Contains("policy 'seven' returned SM 7 for task 0 at cycle 0: "
                                         "out of range"),
                       SimulationError);
  CHECK_THROWS_WITH_AS(run(add("wait", nullptr, always_wait), test_gpu(2, 1)),
                       doctest::Contains("policy 'wait' never issued task 0"), DeadlockError);
  CHECK_THROWS_WITH_AS(run(add("short", nullptr, nullptr, {1, 2}), test_gpu(1, 1)),
                       doctest::Contains("has 2 static priorities; workload 'fork' has 5 tasks"),
                       ConfigError);
  CHECK_THROWS_AS(run(424242, test_gpu(1, 1)), ConfigError);  // nothing registered
}
