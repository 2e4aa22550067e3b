// The synthetic operator's work is a function of the activation structure,
// not of the order items are processed in: the same initial items driven in
// FIFO, LIFO and shuffled orders give the same items and (item, cost) pairs.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <numeric>
#include <utility>
#include <vector>

#include "core/errors.hpp"
#include "core/rng.hpp"
#include "models/hwwl/operator_state.hpp"

using namespace tbdse;
using namespace tbdse::hwwl;

namespace {

OperatorSpec mst_like() {  // the MST preset: duplicates, growing work, 12 generations
  OperatorSpec s;
  s.kind = OperatorKind::SYNTHETIC;
  s.nodes = 2048;
  s.work_mean = 60, s.work_sigma = 0.3, s.work_growth = 1.5, s.mem_rounds = 4;
  s.activations = 0.55, s.max_activations = 2, s.spread = 4, s.generations = 12;
  return s;
}

enum class Order { FIFO, LIFO, SHUFFLED };

struct Run {
  std::int64_t items = 0, instructions = 0;
  std::vector<std::pair<std::int32_t, std::int64_t>> processed;  // sorted (item, cost)
};

Run drive(const WorklistProblem& p, Order order, std::uint64_t shuffle_seed = 0) {
  OperatorState op(p, 42);
  std::deque<std::int32_t> work;
  for (const auto id : p.initial_items()) work.push_back(id);
  const Philox pick(shuffle_seed);
  Run r;
  std::vector<std::int32_t> activated;
  for (std::uint64_t step = 0; !work.empty(); ++step) {
    std::int32_t id;
    if (order == Order::FIFO) {
      id = work.front(), work.pop_front();
    } else if (order == Order::LIFO) {
      id = work.back(), work.pop_back();
    } else {
      const auto i = static_cast<std::size_t>(pick.uniform(step) * static_cast<double>(work.size()));
      std::swap(work[i], work.back());
      id = work.back(), work.pop_back();
    }
    activated.clear();
    const ItemCost c = op.apply(id, activated);
    r.instructions += c.instructions;
    r.processed.emplace_back(id, c.instructions);
    work.insert(work.end(), activated.begin(), activated.end());
  }
  CHECK(op.pending() == 0);
  r.items = op.items();
  std::sort(r.processed.begin(), r.processed.end());
  return r;
}

}  // namespace

TEST_CASE("synthetic work does not depend on the processing order") {
  const WorklistProblem p(nullptr, mst_like());
  const Run fifo = drive(p, Order::FIFO);
  CHECK(fifo.items > 3 * 2048 / 2);  // activations: later generations, duplicates
  for (const Run& other : {drive(p, Order::LIFO), drive(p, Order::SHUFFLED, 1),
                           drive(p, Order::SHUFFLED, 2)}) {
    CHECK(other.items == fifo.items);
    CHECK(other.instructions == fifo.instructions);
    CHECK(other.processed == fifo.processed);
  }
}

TEST_CASE("merging an id's pending activations keeps one, the lowest generation") {
  OperatorSpec s = mst_like();
  s.initial = 1.0 / 2048;  // only id 0 active at first
  s.activations = 2, s.max_activations = 2, s.spread = 1;  // both activations go to id + 1
  const WorklistProblem p(nullptr, s);
  OperatorState op(p, 7);
  std::vector<std::int32_t> act;
  op.apply(0, act);
  CHECK(act == std::vector<std::int32_t>{1, 1});
  CHECK(op.pending() == 2);
  op.merge_pending(1);
  CHECK(op.pending() == 1);
  act.clear();
  op.apply(1, act);  // the merged item: generation 1, work 60 x 1.5 (sigma aside)
  CHECK(op.pending() == 2);
  CHECK_THROWS_AS(op.apply(5, act), SimulationError);  // nothing pending for 5
}

TEST_CASE("a smooth work field correlates neighbouring ids and keeps the mean") {
  OperatorSpec s;
  s.kind = OperatorKind::SYNTHETIC;
  s.nodes = 1 << 16;
  s.work_mean = 160, s.work_sigma = 0.6, s.work_smooth = 0.8, s.work_corr = 256;
  const WorklistProblem p(nullptr, s);
  OperatorState op(p, 3);
  std::vector<double> cost(static_cast<std::size_t>(s.nodes));
  std::vector<std::int32_t> act;
  for (std::int32_t id = 0; id < s.nodes; ++id)
    cost[id] = static_cast<double>(op.apply(id, act).instructions);
  const double mean = std::accumulate(cost.begin(), cost.end(), 0.0) / s.nodes;
  CHECK(mean == doctest::Approx(160).epsilon(0.08));
  double sxy = 0, sxx = 0;
  for (std::size_t i = 0; i + 1 < cost.size(); ++i) {
    sxy += (cost[i] - mean) * (cost[i + 1] - mean);
    sxx += (cost[i] - mean) * (cost[i] - mean);
  }
  CHECK(sxy / sxx > 0.5);  // lag-1 autocorrelation of the cost
}
