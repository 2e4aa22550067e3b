#include "models/hwwl/survey.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "core/errors.hpp"
#include "core/rng.hpp"

namespace tbdse::hwwl {

namespace {

constexpr std::int32_t kMaxK = 16;

void require_literals(bool ok, const std::string& message) {
  if (!ok) throw ConfigError("worklist workload: literals: " + message);
}

}  // namespace

SatFormula::SatFormula(std::vector<std::int32_t> literals, std::int32_t clauses)
    : literals_(std::move(literals)), clauses_(clauses) {
  require_literals(clauses_ >= 1 && !literals_.empty() && literals_.size() % clauses_ == 0 &&
                       literals_.size() / clauses_ <= kMaxK,
                   std::to_string(literals_.size()) + " literals do not make " +
                       std::to_string(clauses_) + " clauses of k = 1.." + std::to_string(kMaxK) +
                       " literals each");
  k_ = static_cast<std::int32_t>(literals_.size() / clauses_);
  var_.resize(literals_.size());
  for (std::size_t e = 0; e < literals_.size(); ++e) {
    const std::int32_t lit = literals_[e];
    require_literals(lit != 0 && lit != INT32_MIN,
                     "literal " + std::to_string(lit) + " (clause " + std::to_string(e / k_) +
                         ") is not a signed 1-based variable");
    var_[e] = (lit < 0 ? -lit : lit) - 1;
    variables_ = std::max(variables_, var_[e] + 1);
  }
  for (std::int32_t a = 0; a < clauses_; ++a)
    for (std::int32_t q = 0; q < k_; ++q)
      for (std::int32_t r = 0; r < q; ++r)
        require_literals(var_[a * k_ + q] != var_[a * k_ + r],
                         "clause " + std::to_string(a) + " names variable " +
                             std::to_string(var_[a * k_ + q] + 1) + " twice");
  occ_start_.assign(static_cast<std::size_t>(variables_) + 1, 0);
  for (const std::int32_t v : var_) ++occ_start_[v + 1];
  for (std::int32_t v = 0; v < variables_; ++v) occ_start_[v + 1] += occ_start_[v];
  occ_.resize(var_.size());
  std::vector<std::int64_t> at(occ_start_.begin(), occ_start_.end() - 1);
  for (std::size_t e = 0; e < var_.size(); ++e) occ_[at[var_[e]]++] = static_cast<std::int64_t>(e);
}

Surveys::Surveys(const SatFormula& formula, std::uint64_t seed)
    : f_(&formula), eta_(static_cast<std::size_t>(formula.edges())),
      value_(static_cast<std::size_t>(formula.variables()), -1),
      sat_(static_cast<std::size_t>(formula.clauses()), 0) {
  const Philox rng(seed);
  for (std::size_t e = 0; e < eta_.size(); ++e) eta_[e] = rng.uniform(e);
}

void Surveys::clause_etas(std::int32_t a, double* out, bool* free) const {
  const std::int32_t k = f_->k();
  double ratio[kMaxK];
  for (std::int32_t q = 0; q < k; ++q) {
    const std::int64_t e = static_cast<std::int64_t>(a) * k + q;
    const std::int32_t j = f_->variable(e);
    free[q] = value_[j] < 0;
    if (!free[q]) continue;
    double same = 1, opposite = 1;  // P_s, P_u
    const std::int64_t own = static_cast<std::int64_t>(a) * k;
    for (const std::int64_t o : f_->occurrences(j)) {
      if (o >= own && o < own + k) continue;  // a itself
      const double x = 1 - eta_[static_cast<std::size_t>(o)];
      (f_->negated(o) == f_->negated(e) ? same : opposite) *= x;
    }
    const double pi_u = (1 - opposite) * same, pi_s = (1 - same) * opposite;
    const double sum = pi_u + pi_s + same * opposite;
    ratio[q] = sum == 0 ? 0 : pi_u / sum;
  }
  const bool sat = satisfied(a);
  for (std::int32_t q = 0; q < k; ++q) {
    double eta = 1;
    for (std::int32_t r = 0; r < k; ++r)
      if (r != q && free[r]) eta *= ratio[r];
    out[q] = sat || !free[q] ? 0.0 : eta;
  }
}

std::int32_t Surveys::converge(const SurveyParams& p) {
  const std::int32_t k = f_->k();
  double next[kMaxK];
  bool free[kMaxK];
  for (std::int32_t sweep = 1; sweep <= p.max_sweeps; ++sweep) {
    double moved = 0;
    for (std::int32_t a = 0; a < f_->clauses(); ++a) {
      clause_etas(a, next, free);
      for (std::int32_t q = 0; q < k; ++q) {
        if (!free[q]) continue;  // a fixed variable's edge is no longer read
        double& eta = eta_[static_cast<std::size_t>(a) * k + q];
        moved = std::max(moved, std::abs(next[q] - eta));
        eta = next[q];
      }
    }
    if (moved <= p.epsilon) return sweep;
  }
  throw SimulationError("survey propagation did not converge within " +
                        std::to_string(p.max_sweeps) + " sweeps (LonestarGPU: SP UN-CONVERGED)");
}

std::vector<std::int32_t> Surveys::decimate(const SurveyParams& p) {
  const std::int32_t k = f_->k();
  std::vector<std::pair<double, std::int32_t>> bias;  // (-bias, variable): largest first
  std::vector<std::int8_t> side(value_.size(), 0);
  double magnetisation = 0;
  for (std::int32_t v = 0; v < f_->variables(); ++v) {
    if (value_[v] >= 0 || f_->occurrences(v).empty()) continue;
    double pi0 = 1, plus = 1, minus = 1;
    for (const std::int64_t o : f_->occurrences(v)) {
      if (satisfied(static_cast<std::int32_t>(o / k))) continue;
      const double x = 1 - eta_[static_cast<std::size_t>(o)];
      pi0 *= x;
      (f_->negated(o) ? minus : plus) *= x;
    }
    const double pi_p = (1 - plus) * minus, pi_m = (1 - minus) * plus;
    const double sum = pi0 + pi_p + pi_m;
    const double w_p = sum == 0 ? 0 : pi_p / sum, w_m = sum == 0 ? 0 : pi_m / sum;
    side[v] = w_p > w_m ? 1 : 0;
    magnetisation += std::max(w_p, w_m);
    bias.emplace_back(-std::abs(w_p - w_m), v);
  }
  if (bias.empty() || magnetisation / static_cast<double>(bias.size()) < p.paramagnet) return {};
  const auto count = std::min<std::size_t>(
      bias.size(), std::max<std::size_t>(1, static_cast<std::size_t>(p.fix_fraction * f_->variables())));
  std::partial_sort(bias.begin(), bias.begin() + static_cast<std::ptrdiff_t>(count), bias.end());
  std::vector<std::int32_t> touched;
  for (std::size_t i = 0; i < count; ++i) {
    const std::int32_t v = bias[i].second;
    value_[v] = side[v];
    ++fixed_count_;
    for (const std::int64_t o : f_->occurrences(v)) {
      const auto a = static_cast<std::int32_t>(o / k);
      if (satisfied(a)) continue;
      touched.push_back(a);
      if (f_->negated(o) != (side[v] == 1)) sat_[a] = 1;  // the literal is true
    }
  }
  // A clause satisfied by one fixed variable may name another fixed one.
  std::sort(touched.begin(), touched.end());
  touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
  return touched;
}

void Surveys::retire_satisfied() {
  const std::int32_t k = f_->k();
  for (std::int32_t a = 0; a < f_->clauses(); ++a)
    if (satisfied(a))
      for (std::int32_t q = 0; q < k; ++q) eta_[static_cast<std::size_t>(a) * k + q] = 0;
}

}  // namespace tbdse::hwwl
