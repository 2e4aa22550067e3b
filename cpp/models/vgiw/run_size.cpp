#include "models/vgiw/run_size.hpp"

#include <Eigen/SparseCore>
#include <Eigen/SparseLU>
#include <cmath>
#include <cstdio>
#include <limits>

#include "core/errors.hpp"

namespace tbdse::vgiw {

namespace {

// Chance that a thread at block b goes to succ[0] next.
double first_successor_chance(const std::vector<BasicBlock>& blocks, std::int32_t b,
                              const std::vector<std::vector<std::int32_t>>& paths) {
  const BasicBlock& blk = blocks[static_cast<std::size_t>(b)];
  switch (blk.branch) {
    case BranchKind::LOOP: {
      const double trips = 0.5 * static_cast<double>(blk.trips_min + blk.trips_max);
      return 1.0 - 1.0 / std::max(1.0, trips);
    }
    case BranchKind::PATHS: {
      double first = 0, all = 0;
      for (const auto& p : paths)
        for (std::size_t k = 0; k + 1 < p.size(); ++k)
          if (p[k] == b) {
            all += 1;
            first += p[k + 1] == blk.succ[0];
          }
      return all > 0 ? first / all : 0.5;
    }
    default: return blk.p;
  }
}

std::string number(double v) {
  char out[32];
  std::snprintf(out, sizeof out, "%.3g", v);
  return out;
}

}  // namespace

ExpectedVisits expected_visits(const std::vector<BasicBlock>& blocks,
                               const std::vector<std::vector<std::int32_t>>& paths) {
  // Visits v solve v = e_0 + P^T v, i.e. (I - P^T) v = e_0, P the transition
  // chances between blocks (leaving for the exit is absorbed).
  const auto n = static_cast<Eigen::Index>(blocks.size());
  std::vector<Eigen::Triplet<double>> entries;
  for (Eigen::Index b = 0; b < n; ++b) {
    entries.emplace_back(b, b, 1.0);
    const BasicBlock& blk = blocks[static_cast<std::size_t>(b)];
    if (blk.succ.size() == 1) entries.emplace_back(blk.succ[0], b, -1.0);
    if (blk.succ.size() == 2) {
      const double p = first_successor_chance(blocks, static_cast<std::int32_t>(b), paths);
      entries.emplace_back(blk.succ[0], b, -p);
      entries.emplace_back(blk.succ[1], b, -(1.0 - p));
    }
  }
  Eigen::SparseMatrix<double> a(n, n);
  a.setFromTriplets(entries.begin(), entries.end());  // duplicates add up
  Eigen::SparseLU<Eigen::SparseMatrix<double>> lu;
  lu.compute(a);
  ExpectedVisits out;
  const double inf = std::numeric_limits<double>::infinity();
  if (lu.info() != Eigen::Success) {  // singular: some thread may never leave
    out.per_thread = inf;
    return out;
  }
  Eigen::VectorXd e0 = Eigen::VectorXd::Zero(n);
  e0(0) = 1.0;
  const Eigen::VectorXd v = lu.solve(e0);
  out.per_thread = 0;
  out.block_visits = -1;
  for (Eigen::Index b = 0; b < n; ++b) {
    const double x = v(b);
    if (!std::isfinite(x) || x < -1e-6) {
      out.per_thread = inf;
      continue;
    }
    out.per_thread += std::max(0.0, x);
    if (blocks[static_cast<std::size_t>(b)].succ.size() == 2 && x > out.block_visits) {
      out.block = static_cast<std::int32_t>(b);
      out.block_visits = x;
    }
  }
  return out;
}

void check_run_size(const CfgKernel& k) {
  const ExpectedVisits& v = k.expected_visits();
  const double total = v.per_thread * static_cast<double>(k.threads());
  if (total <= kMaxBlockExecutions) return;
  const BasicBlock& blk = k.blocks()[static_cast<std::size_t>(v.block)];
  const std::string name = blk.name.empty() ? "" : " '" + blk.name + "'";
  std::string branch;
  switch (blk.branch) {
    case BranchKind::LOOP:
      branch = "loop trips_min = " + std::to_string(blk.trips_min) +
               ", trips_max = " + std::to_string(blk.trips_max);
      break;
    case BranchKind::PATHS: branch = "paths"; break;
    default: {
      char p[32];
      std::snprintf(p, sizeof p, "%.10g", blk.p);
      branch = std::string("p = ") + p;
    }
  }
  throw ConfigError("kernel '" + k.name() + "': block " + std::to_string(v.block) + name +
                    " (branch " + branch + ") runs about " + number(v.block_visits) +
                    " times per thread, so " + std::to_string(k.threads()) +
                    " threads would execute about " + number(total) +
                    " blocks, more than the " + number(kMaxBlockExecutions) +
                    " a run may take (hours of simulation); make the loop exit sooner or use "
                    "fewer threads");
}

}  // namespace tbdse::vgiw
