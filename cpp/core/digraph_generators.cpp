// Seeded data-graph generators.  Every draw is a pure function of (seed, arc
// index, attempt), so the arcs can be drawn in parallel and the graph is the
// same on any machine and thread count.
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <limits>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "digraph.hpp"
#include "errors.hpp"
#include "memory.hpp"
#include "rng.hpp"

namespace tbdse {

namespace {

// Philox keys, one per generator, so equal seeds give unrelated graphs.
constexpr std::uint64_t kGridKey = 0x67726964ULL;     // "grid"
constexpr std::uint64_t kRmatKey = 0x726D6174ULL;     // "rmat"
constexpr std::uint64_t kUniformKey = 0x756E6966ULL;  // "unif"
// Weights use streams of their own (structure draws use small stream numbers).
constexpr std::uint64_t kWeightStream = std::uint64_t{1} << 63;
// Redraws allowed per arc; the acceptance checks make reaching it practically
// impossible, but a bound keeps a bad case an error instead of a hang.
constexpr int kMaxAttempts = 10000;
constexpr std::size_t kGrain = 1 << 15;

void require_at_least(std::int64_t value, std::int64_t lo, const char* name, const char* gen) {
  if (value < lo)
    throw ConfigError(std::string(gen) + ": '" + name + "' must be >= " + std::to_string(lo) +
                      "; got " + std::to_string(value));
}

std::string fmt(double x) {
  std::ostringstream out;
  out << x;
  return out.str();
}

// round(nodes * degree) arcs, checked to fit (with reverses when symmetric).
std::size_t arc_count(std::int32_t nodes, double degree, bool symmetric, const char* gen) {
  require_at_least(nodes, 1, "nodes", gen);
  if (!std::isfinite(degree) || degree < 0)
    throw ConfigError(std::string(gen) + ": 'degree' must be a finite number >= 0; got " +
                      fmt(degree));
  const double drawn = std::round(static_cast<double>(nodes) * degree);
  require_digraph_fits(gen, nodes, drawn * (symmetric ? 2.0 : 1.0));
  return static_cast<std::size_t>(drawn);
}

// Uniform integer weight in [1, max_weight] for draw `index`.
std::int32_t weight_of(const Philox& rng, std::uint64_t index, std::int32_t max_weight) {
  const auto w = static_cast<std::int32_t>(rng.uniform(index, kWeightStream) * max_weight);
  return 1 + std::min(w, max_weight - 1);  // the product can round up to max_weight
}

// Draws arcs 0..drawn-1 in parallel: draw(i) returns the arc or {-1, -1} when
// it ran out of attempts.  Symmetric graphs store arc i at 2i, its reverse at 2i+1.
template <class Draw>
DigraphInput draw_arcs(std::int32_t nodes, std::size_t drawn, bool symmetric,
                       std::int32_t max_weight, const Philox& rng, const char* gen, Draw draw) {
  DigraphInput in;
  in.nodes = nodes;
  const std::size_t m = drawn * (symmetric ? 2 : 1);
  in.src.resize(m);
  in.dst.resize(m);
  if (max_weight > 1) in.weight.resize(m);
  std::atomic<std::size_t> failed{drawn};  // lowest arc that found no valid draw
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, drawn, kGrain), [&](const auto& range) {
    for (std::size_t i = range.begin(); i != range.end(); ++i) {
      const auto [u, v] = draw(i);
      if (u < 0) {
        std::size_t seen = failed.load();
        while (i < seen && !failed.compare_exchange_weak(seen, i)) {
        }
        return;
      }
      const std::int32_t w = max_weight > 1 ? weight_of(rng, i, max_weight) : 1;
      const std::size_t at = symmetric ? 2 * i : i;
      in.src[at] = u;
      in.dst[at] = v;
      if (max_weight > 1) in.weight[at] = w;
      if (symmetric) {
        in.src[at + 1] = v;
        in.dst[at + 1] = u;
        if (max_weight > 1) in.weight[at + 1] = w;
      }
    }
  });
  if (failed.load() < drawn)
    throw ConfigError(std::string(gen) + ": arc " + std::to_string(failed.load()) +
                      " found no valid endpoints in " + std::to_string(kMaxAttempts) +
                      " draws; the parameters leave too few valid arcs");
  return in;
}

// Probability that one R-MAT draw in the 2^levels id space gives u, v < nodes
// and u != v, by dynamic programming over the bits from the top: per endpoint
// "prefix equal to that of nodes - 1" or "already below it", and "u == v so far".
double rmat_acceptance(std::int32_t nodes, int levels, const double p[4]) {
  double state[2][2][2] = {};  // [u below][v below][u, v differ]
  state[0][0][0] = 1.0;
  for (int bit = levels - 1; bit >= 0; --bit) {
    const int nb = ((nodes - 1) >> bit) & 1;
    double next[2][2][2] = {};
    for (int ub = 0; ub < 2; ++ub)
      for (int vb = 0; vb < 2; ++vb)
        for (int df = 0; df < 2; ++df) {
          if (state[ub][vb][df] == 0.0) continue;
          for (int q = 0; q < 4; ++q) {
            const int ubit = q >> 1, vbit = q & 1;  // a = (0,0), b = (0,1), c = (1,0), d = (1,1)
            if ((!ub && ubit > nb) || (!vb && vbit > nb)) continue;  // above nodes: rejected
            next[ub || ubit < nb][vb || vbit < nb][df || ubit != vbit] += state[ub][vb][df] * p[q];
          }
        }
    std::copy(&next[0][0][0], &next[0][0][0] + 8, &state[0][0][0]);
  }
  // Every surviving id is <= nodes - 1; count the pairs that differ.
  return state[0][0][1] + state[0][1][1] + state[1][0][1] + state[1][1][1];
}

// Quadrant probabilities a, b, c, d in units of 2^-16, rounded cumulatively
// so that they sum to exactly 2^16.
std::array<std::uint64_t, 4> rmat_quanta(double a, double b, double c) {
  const auto at = [](double p) {
    return static_cast<std::uint64_t>(std::min(65536.0, std::round(p * 65536.0)));
  };
  const std::uint64_t t1 = at(a), t2 = std::max(t1, at(a + b)), t3 = std::max(t2, at(a + b + c));
  return {t1, t2 - t1, t3 - t2, 65536 - t3};
}

// R-MAT quadrants of two levels at once from one 16-bit uniform r:
// table[r] = (u bits << 2) | v bits, the upper level in the high bit of each.
// Outcome (q1, q2) gets quanta[q1] * quanta[q2] / 65536 of the values,
// rounded in integers: the same table on every machine.
std::vector<std::uint8_t> rmat_pair_table(const std::array<std::uint64_t, 4>& quanta) {
  std::vector<std::uint8_t> table(65536);
  std::uint64_t cumulative = 0;  // in units of 2^-32; ends at exactly 2^32
  std::size_t from = 0;
  for (int q1 = 0; q1 < 4; ++q1)
    for (int q2 = 0; q2 < 4; ++q2) {
      cumulative += quanta[q1] * quanta[q2];
      const auto to = static_cast<std::size_t>((cumulative + (1U << 15)) >> 16);
      // Quadrant q is (row bit, column bit) = (q >> 1, q & 1): a, b, c, d.
      const auto code = static_cast<std::uint8_t>(((q1 >> 1) << 3) | ((q2 >> 1) << 2) |
                                                  ((q1 & 1) << 1) | (q2 & 1));
      for (; from < to; ++from) table[from] = code;
    }
  return table;
}

}  // namespace

Digraph make_grid_digraph(std::int32_t rows, std::int32_t cols, std::int32_t max_weight,
                          std::uint64_t seed) {
  require_at_least(rows, 1, "rows", "grid");
  require_at_least(cols, 1, "cols", "grid");
  require_at_least(max_weight, 1, "max_weight", "grid");
  const std::int64_t n = std::int64_t{rows} * cols;
  if (n > std::numeric_limits<std::int32_t>::max())
    throw ConfigError("grid: " + std::to_string(rows) + " x " + std::to_string(cols) + " = " +
                      std::to_string(n) + " nodes exceed the limit of 2147483647");
  const std::int64_t horizontal = std::int64_t{rows} * (cols - 1);
  const std::int64_t m = 2 * (horizontal + std::int64_t{cols} * (rows - 1));
  require_digraph_fits("grid", static_cast<double>(n), static_cast<double>(m));

  // Both directions of an edge share its weight: edges are numbered
  // horizontal ones first (row-major), then vertical ones.
  const Philox rng(rng_key(seed, kGridKey, 0, RngPurpose::GRAPH_STRUCTURE));
  DigraphInput in;
  in.nodes = n;
  in.src.reserve(static_cast<std::size_t>(m));
  in.dst.reserve(static_cast<std::size_t>(m));
  if (max_weight > 1) in.weight.reserve(static_cast<std::size_t>(m));
  const auto add = [&](std::int64_t u, std::int64_t v, std::int64_t edge) {
    in.src.push_back(static_cast<std::int32_t>(u));
    in.dst.push_back(static_cast<std::int32_t>(v));
    if (max_weight > 1)
      in.weight.push_back(weight_of(rng, static_cast<std::uint64_t>(edge), max_weight));
  };
  // Per node by increasing target id: up, left, right, down.
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t c = 0; c < cols; ++c) {
      const std::int64_t id = r * cols + c;
      if (r > 0) add(id, id - cols, horizontal + (r - 1) * cols + c);
      if (c > 0) add(id, id - 1, r * (cols - 1) + c - 1);
      if (c + 1 < cols) add(id, id + 1, r * (cols - 1) + c);
      if (r + 1 < rows) add(id, id + cols, horizontal + r * cols + c);
    }
  return Digraph::build(std::move(in));
}

Digraph make_rmat_digraph(std::int32_t nodes, double degree, double a, double b, double c,
                          bool symmetric, std::int32_t max_weight, std::uint64_t seed) {
  const char* gen = "rmat";
  require_at_least(max_weight, 1, "max_weight", gen);
  for (const auto& [name, p] : {std::pair{"a", a}, std::pair{"b", b}, std::pair{"c", c}})
    if (!(p >= 0.0 && p <= 1.0))
      throw ConfigError(std::string("rmat: quadrant probability '") + name +
                        "' must be in [0, 1]; got " + fmt(p));
  if (a + b + c > 1.0 + 1e-9)
    throw ConfigError("rmat: a + b + c = " + fmt(a + b + c) +
                      " exceeds 1 (d = 1 - a - b - c must be >= 0)");
  const std::size_t drawn = arc_count(nodes, degree, symmetric, gen);

  int levels = 0;
  while ((std::int64_t{1} << levels) < nodes) ++levels;
  const auto quanta = rmat_quanta(a, b, c);
  double p[4];
  for (int q = 0; q < 4; ++q) p[q] = static_cast<double>(quanta[q]) / 65536.0;
  if (drawn > 0) {
    if (nodes == 1)
      throw ConfigError("rmat: a graph of 1 node can only have self loops, which are drawn "
                        "again; use nodes >= 2 or degree 0");
    const double accept = rmat_acceptance(nodes, levels, p);
    if (accept < 0.01)
      throw ConfigError("rmat: with a = " + fmt(a) + ", b = " + fmt(b) + ", c = " + fmt(c) +
                        " only " + fmt(accept * 100) + "% of draws give an arc between two "
                        "different nodes below " + std::to_string(nodes) +
                        " (at least 1% are needed); move probability towards a");
  }
  const auto table = rmat_pair_table(quanta);
  // Levels drawn in pairs; an odd count draws one more and drops it (the
  // lowest bit), which leaves the upper levels' distribution as it is.
  const int pairs = (levels + 1) / 2, dropped = 2 * pairs - levels;
  const Philox rng(rng_key(seed, kRmatKey, 0, RngPurpose::GRAPH_STRUCTURE));
  const auto n = static_cast<std::uint32_t>(nodes);
  const auto draw = [&rng, &table, pairs, dropped, n](std::size_t i) {
    for (std::uint64_t attempt = 0; attempt < kMaxAttempts; ++attempt) {
      std::uint32_t u = 0, v = 0;
      // Up to 16 pairs (32 levels): eight 16-bit uniforms per Philox block.
      for (int first = 0; first < pairs; first += 8) {
        const auto bits = rng.block(i, 2 * attempt + static_cast<std::uint64_t>(first / 8));
        for (int k = 0; k < 8 && first + k < pairs; ++k) {
          const std::uint8_t q = table[(bits[k / 2] >> (16 * (k & 1))) & 0xFFFFU];
          u = (u << 2) | (q >> 2U);
          v = (v << 2) | (q & 3U);
        }
      }
      u >>= dropped;
      v >>= dropped;
      if (u < n && v < n && u != v)
        return std::pair{static_cast<std::int32_t>(u), static_cast<std::int32_t>(v)};
    }
    return std::pair{-1, -1};
  };
  return Digraph::build(draw_arcs(nodes, drawn, symmetric, max_weight, rng, gen, draw));
}

Digraph make_uniform_digraph(std::int32_t nodes, double degree, bool symmetric,
                             std::int32_t max_weight, std::uint64_t seed) {
  const char* gen = "uniform";
  require_at_least(max_weight, 1, "max_weight", gen);
  const std::size_t drawn = arc_count(nodes, degree, symmetric, gen);
  if (drawn > 0 && nodes == 1)
    throw ConfigError("uniform: a graph of 1 node can only have self loops, which are drawn "
                      "again; use nodes >= 2 or degree 0");
  const Philox rng(rng_key(seed, kUniformKey, 0, RngPurpose::GRAPH_STRUCTURE));
  const auto draw = [&](std::size_t i) -> std::pair<std::int32_t, std::int32_t> {
    for (std::uint64_t attempt = 0; attempt < kMaxAttempts; ++attempt) {
      const auto x = rng.uniform2(i, attempt);
      const auto pick = [&](double f) {
        return std::min(static_cast<std::int32_t>(f * nodes), nodes - 1);
      };
      const std::int32_t u = pick(x[0]), v = pick(x[1]);
      if (u != v) return {u, v};
    }
    return {-1, -1};
  };
  return Digraph::build(draw_arcs(nodes, drawn, symmetric, max_weight, rng, gen, draw));
}

}  // namespace tbdse
