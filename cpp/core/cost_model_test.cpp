#include "core/cost_model.hpp"

#include <doctest/doctest.h>

#include <numeric>

#include "core/errors.hpp"
#include "core/generators.hpp"
#include "core/rng.hpp"

using namespace tbdse;

TEST_CASE("constant, per-kernel, array and graph costs") {
  TaskGraphInput in;
  in.nodes = 3;
  in.kernel = {0, 1, 1};
  in.cost = {2, 4, 6};
  const auto g = TaskGraph::build(in);

  auto constant = CostModel::make(CostModel::Kind::CONSTANT);
  constant.set_param("cycles", 250);
  CHECK(constant.materialize(g, 0) == std::vector<Cycle>{250, 250, 250});

  auto per_kernel = CostModel::make(CostModel::Kind::PER_KERNEL);
  per_kernel.set_table({100, 300});
  CHECK(per_kernel.materialize(g, 0) == std::vector<Cycle>{100, 300, 300});

  auto array = CostModel::make(CostModel::Kind::ARRAY);
  array.set_table({7, 8, 9});
  CHECK(array.materialize(g, 0) == std::vector<Cycle>{7, 8, 9});

  auto graph = CostModel::make(CostModel::Kind::GRAPH);
  graph.set_param("scale", 1.5);
  CHECK(graph.materialize(g, 0) == std::vector<Cycle>{3, 6, 9});
}

TEST_CASE("lognormal costs have the requested mean and are reproducible") {
  const auto g = make_wavefront(200, 200);
  auto m = CostModel::make(CostModel::Kind::LOGNORMAL);
  m.set_param("mean", 2000);
  m.set_param("sigma", 0.2);
  const auto key = rng_key(7, 1, 0, RngPurpose::TASK_COST);
  const auto a = m.materialize(g, key);
  CHECK(a == m.materialize(g, key));
  CHECK(a != m.materialize(g, rng_key(7, 1, 1, RngPurpose::TASK_COST)));
  const double mean = std::accumulate(a.begin(), a.end(), 0.0) / static_cast<double>(a.size());
  // sd of one draw ~ 2000 * 0.2 = 400; of the mean over 40000 draws ~ 2.
  CHECK(mean == doctest::Approx(2000).epsilon(0.005));
}

TEST_CASE("distributions never produce less than one cycle") {
  const auto g = make_wavefront(50, 50);
  auto m = CostModel::make(CostModel::Kind::NORMAL);
  m.set_param("mean", 5);
  m.set_param("std", 50);
  for (const Cycle c : m.materialize(g, 3)) CHECK(c >= 1);
}

TEST_CASE("cost model validation names the parameter") {
  const auto g = make_wavefront(2, 2);
  auto m = CostModel::make(CostModel::Kind::UNIFORM);
  m.set_param("low", 10);
  m.set_param("high", 5);
  CHECK_THROWS_WITH_AS(m.validate(g), doctest::Contains("'high'"), ConfigError);
  auto arr = CostModel::make(CostModel::Kind::ARRAY);
  arr.set_table({1, 2});
  CHECK_THROWS_WITH_AS(arr.validate(g), doctest::Contains("4 tasks"), ConfigError);
  CHECK_THROWS_WITH_AS(m.set_param("mena", 1), doctest::Contains("unknown"), ConfigError);
  CHECK_THROWS_WITH_AS(CostModel::kind_from_name("lognormall"),
                       doctest::Contains("did you mean 'lognormal'"), ConfigError);
}
