// Survey propagation (SP, HWWL §II-B) on a K-SAT formula: the surveys
// eta(a -> i) on the formula's edges, LonestarGPU's survey-inspired decimation
// (converge, fix the most biased variables, converge again) and the
// data-driven update of one clause that the worklist machines run.
//
// Equations: Braunstein, Mézard & Zecchina, "Survey propagation: an algorithm
// for satisfiability", Random Struct. Alg. 27 (2005), eqs. (26)-(28), as
// LonestarGPU's sp computes them (calc_pi_values, update_eta, update_bias,
// decimate).  For the edge a -> j (j a free variable of clause a), over the
// other clauses b of j that are not satisfied:
//   P_s = prod (1 - eta(b -> j)) over b where j has a's sign,
//   P_u = the same over b where j has the opposite sign,
//   Pi_u = (1 - P_u) P_s,  Pi_s = (1 - P_s) P_u,  Pi_0 = P_s P_u;
// and eta(a -> i) = prod over a's other free variables j of
// Pi_u / (Pi_u + Pi_s + Pi_0) (0 where that sum is 0, as LonestarGPU).
// A satisfied clause sends no warnings: its surveys are 0, which is the same
// as leaving it out of every product (every factor is 1 - eta).
#pragma once

#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

namespace tbdse::hwwl {

// A CNF formula of `clauses` clauses of k literals each: clause a's literals
// are literals[a*k .. a*k+k), each a 1-based variable, negative when negated
// (DIMACS).  Edge e = a*k + q is clause a's q-th literal.
class SatFormula {
 public:
  // ConfigError (naming `literals`) unless literals.size() = clauses * k for
  // some k in [1, 16], every literal is non-zero, and no clause repeats a
  // variable.
  SatFormula(std::vector<std::int32_t> literals, std::int32_t clauses);

  std::int32_t k() const { return k_; }
  std::int32_t clauses() const { return clauses_; }
  std::int32_t variables() const { return variables_; }
  std::int64_t edges() const { return static_cast<std::int64_t>(literals_.size()); }
  const std::vector<std::int32_t>& literals() const { return literals_; }
  std::int32_t variable(std::int64_t e) const { return var_[static_cast<std::size_t>(e)]; }
  bool negated(std::int64_t e) const { return literals_[static_cast<std::size_t>(e)] < 0; }
  // The edges of variable v (its occurrences), in clause order.
  std::span<const std::int64_t> occurrences(std::int32_t v) const {
    return {occ_.data() + occ_start_[v], occ_.data() + occ_start_[v + 1]};
  }

 private:
  std::vector<std::int32_t> literals_;
  std::vector<std::int32_t> var_;  // 0-based variable of each edge
  std::int32_t clauses_ = 0, k_ = 0, variables_ = 0;
  std::vector<std::int64_t> occ_start_, occ_;
};

// LonestarGPU sp's constants (main(), converge(), build_list()).
struct SurveyParams {
  double epsilon = 0.01;       // EPSILON: a survey has converged when it moves by at most this
  std::int32_t max_sweeps = 1000;  // MAXITERATION: sweeps of converge() before giving up
  double fix_fraction = 0.01;  // canfix = 0.01 * variables fixed per decimation (at least 1)
  double paramagnet = 0.01;    // PARAMAGNET: stop when the mean max(W+, W-) falls below it
};

class Surveys {
 public:
  // Every survey uniform in [0, 1) from the counter-based generator `seed`
  // (LonestarGPU and Galois draw them with rand()); every variable free.
  Surveys(const SatFormula& formula, std::uint64_t seed);

  // converge(): sweeps over the clauses, each clause's surveys updated in
  // place from the current ones (the sequential updates of Braunstein et al.
  // §4.1, in clause order: the ids of a random formula carry no structure),
  // until a sweep moves no survey by more than epsilon; the sweeps taken.
  // SimulationError when max_sweeps pass first ("SP UN-CONVERGED").
  // LonestarGPU's GPU kernels update every edge from the previous sweep's
  // values instead, which oscillates on some random 3-SAT instances
  // (lonestar("sp", 4200, seed=3) ran past 1,000 sweeps): the host's passes
  // use the authors' sequential form.
  std::int32_t converge(const SurveyParams& p);

  // build_list() + decimate(): the variables' biases |W+ - W-|, then the
  // max(1, fix_fraction * variables) free variables of largest bias (ties:
  // lower id) fixed to their larger side, satisfying clauses.  Returns the
  // clauses, not satisfied before, that contain a variable it fixed (sorted);
  // empty when the formula is paramagnetic (mean max(W+, W-) < paramagnet) or
  // no variable is free (nothing fixed then).
  std::vector<std::int32_t> decimate(const SurveyParams& p);

  // The surveys of satisfied clauses set to 0 (their removal from the graph).
  void retire_satisfied();

  // The data-driven update of clause a (Galois sp's operator): its surveys
  // recomputed from the current ones (a satisfied clause's set to 0), and
  // push(b) called for every clause b != a, not satisfied, that shares a
  // variable whose survey from a moved by more than epsilon (once per such
  // variable: the caller keeps one pending activation per clause, Galois's
  // onWL flag).
  template <class Push>
  void update(std::int32_t a, double epsilon, Push&& push);

  bool satisfied(std::int32_t a) const { return sat_[static_cast<std::size_t>(a)] != 0; }
  std::int32_t fixed_variables() const { return fixed_count_; }
  const std::vector<double>& eta() const { return eta_; }

 private:
  // Clause a's new surveys (from eta_) into out[0..k); free[q]: q-th variable free.
  void clause_etas(std::int32_t a, double* out, bool* free) const;

  const SatFormula* f_;
  std::vector<double> eta_;
  std::vector<std::int8_t> value_;  // per variable: -1 free, else the value fixed
  std::vector<std::uint8_t> sat_;   // per clause
  std::int32_t fixed_count_ = 0;
};

template <class Push>
void Surveys::update(std::int32_t a, double epsilon, Push&& push) {
  const std::int32_t k = f_->k();
  double next[16];
  bool free[16];
  clause_etas(a, next, free);
  for (std::int32_t q = 0; q < k; ++q) {
    const std::int64_t e = static_cast<std::int64_t>(a) * k + q;
    double& eta = eta_[static_cast<std::size_t>(e)];
    const double moved = std::abs(next[q] - eta);
    eta = next[q];
    if (!free[q] || !(moved > epsilon)) continue;
    for (const std::int64_t o : f_->occurrences(f_->variable(e))) {
      const auto b = static_cast<std::int32_t>(o / k);
      if (b != a && !satisfied(b)) push(b);
    }
  }
}

}  // namespace tbdse::hwwl
