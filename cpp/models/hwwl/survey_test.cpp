// Survey propagation (survey.hpp): the update equations on a formula small
// enough to work by hand, LonestarGPU's converge / decimate on random 3-SAT,
// and the data-driven pass the worklist machines run (operator_state.cpp).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <vector>

#include "core/errors.hpp"
#include "core/rng.hpp"
#include "models/hwwl/operator_state.hpp"
#include "models/hwwl/survey.hpp"

using namespace tbdse;
using namespace tbdse::hwwl;

namespace {

// Random 3-SAT at 4.2 clauses per variable, each literal negated with p = 1/2.
std::vector<std::int32_t> random_3sat(std::int32_t clauses, std::uint64_t seed) {
  const auto variables = static_cast<std::int32_t>(std::lround(clauses / 4.2));
  const Philox rng(seed);
  std::vector<std::int32_t> lits;
  std::uint64_t draw = 0;
  for (std::int32_t a = 0; a < clauses; ++a) {
    std::int32_t picked[3];
    for (int q = 0; q < 3; ++q) {
      std::int32_t v;
      do v = static_cast<std::int32_t>(rng.uniform(draw++) * variables);
      while (std::find(picked, picked + q, v) != picked + q);
      picked[q] = v;
      lits.push_back(rng.uniform(draw++) < 0.5 ? -(v + 1) : v + 1);
    }
  }
  return lits;
}

}  // namespace

TEST_CASE("a clause's survey update follows the SP equations") {
  // a = (x1 or x2), b = (not x1 or x3): eta(a -> x2) is b's warning to x1
  // (the only other clause of x1, of the opposite sign: Pi_u = eta(b -> x1),
  // Pi_s = 0, Pi_0 = 1 - eta(b -> x1)); eta(a -> x1) is 0 (x2 appears
  // nowhere else, so nothing forces it to violate a).
  const SatFormula f({1, 2, -1, 3}, 2);
  CHECK(f.k() == 2);
  CHECK(f.variables() == 3);
  Surveys s(f, 7);
  const std::vector<double> before = s.eta();
  std::vector<std::int32_t> pushed;
  s.update(0, 0.01, [&](std::int32_t b) { pushed.push_back(b); });
  CHECK(s.eta()[1] == doctest::Approx(before[2]));
  CHECK(s.eta()[0] == 0.0);
  // eta(a -> x1) moved from its random start: b, which shares x1, is pushed.
  CHECK(pushed == std::vector<std::int32_t>(before[0] > 0.01 ? 1 : 0, 1));
}

TEST_CASE("a formula that repeats a variable in a clause is refused") {
  CHECK_THROWS_AS(SatFormula({1, -1, 2}, 1), ConfigError);
  CHECK_THROWS_AS(SatFormula({1, 0, 2}, 1), ConfigError);
  CHECK_THROWS_AS(SatFormula({1, 2, 3, 4}, 3), ConfigError);
}

TEST_CASE("converge and decimate as LonestarGPU's sp") {
  const SatFormula f(random_3sat(4200, 3), 4200);
  Surveys s(f, 11);
  SurveyParams p;
  const std::int32_t sweeps = s.converge(p);
  CHECK(sweeps > 5);
  CHECK(sweeps < p.max_sweeps);
  CHECK(s.converge(p) == 1);  // converged: one more sweep moves nothing by more than epsilon
  // Non-trivial surveys (random 3-SAT at 4.2 is in SP's hard region).
  const auto& eta = s.eta();
  CHECK(std::count_if(eta.begin(), eta.end(), [](double x) { return x > 0.01; }) >
        static_cast<std::ptrdiff_t>(eta.size() / 2));
  const std::vector<double> converged = eta;
  const auto seeds = s.decimate(p);
  const auto expected_fixed = static_cast<std::int32_t>(0.01 * f.variables());
  CHECK(s.fixed_variables() == expected_fixed);
  // The seeds are the clauses of the variables fixed; the surveys are untouched.
  CHECK(std::is_sorted(seeds.begin(), seeds.end()));
  CHECK(seeds.size() >= static_cast<std::size_t>(expected_fixed));
  CHECK(s.eta() == converged);
  std::int32_t satisfied = 0;
  for (std::int32_t a = 0; a < f.clauses(); ++a) {
    satisfied += s.satisfied(a);
    if (s.satisfied(a)) CHECK(std::binary_search(seeds.begin(), seeds.end(), a));
  }
  CHECK(satisfied > 0);
  CHECK(satisfied < static_cast<std::int32_t>(seeds.size()));
}

TEST_CASE("the data-driven pass after a decimation cascades and converges") {
  OperatorSpec op;
  op.kind = OperatorKind::SYNTHETIC;
  op.nodes = 4200;
  op.work_mean = 220, op.mem_rounds = 10, op.generations = 1000, op.decimations = 1;
  const WorklistProblem p(nullptr, op, {}, {}, random_3sat(4200, 3));
  const auto seeds = p.initial_items();
  OperatorState state(p, 5);
  std::deque<std::int32_t> work(seeds.begin(), seeds.end());
  std::vector<std::int32_t> activated;
  std::vector<std::int32_t> times(4200, 0);
  while (!work.empty()) {
    const std::int32_t id = work.front();
    work.pop_front();
    activated.clear();
    state.apply(id, activated);
    ++times[id];
    for (const std::int32_t b : activated) CHECK(std::count(work.begin(), work.end(), b) == 0);
    work.insert(work.end(), activated.begin(), activated.end());
  }
  CHECK(state.pending() == 0);
  // Fixing 1% of the variables re-activates far more clauses than it touched.
  CHECK(state.items() > 3 * static_cast<std::int64_t>(seeds.size()));
  // Every satisfied seed sent its last warnings: its surveys are 0.
  const Surveys& s = *state.surveys();
  for (const std::int32_t a : seeds)
    if (s.satisfied(a))
      for (int q = 0; q < 3; ++q) CHECK(s.eta()[static_cast<std::size_t>(a) * 3 + q] == 0.0);
}

TEST_CASE("decimating a paramagnetic formula is refused") {
  // Clauses with no variable in common: every survey converges to 0.
  std::vector<std::int32_t> lits;
  for (std::int32_t i = 1; i <= 300; ++i) lits.push_back(i % 2 ? i : -i);
  OperatorSpec op;
  op.kind = OperatorKind::SYNTHETIC;
  op.nodes = 100;
  op.decimations = 1;
  const WorklistProblem p(nullptr, op, {}, {}, lits);
  CHECK_THROWS_AS(p.initial_items(), ConfigError);
}
