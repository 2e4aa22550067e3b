// A directed graph with non-negative integer arc weights in CSR form: the data
// graph an operator runs over (the worklist machine's BFS and SSSP,
// docs/MODELS.md §6).  Unlike a TaskGraph it is not a dependency DAG: cycles,
// parallel arcs and self loops are kept as given (a road network has the
// first two).  Node ids are 0..nodes-1; arcs keep their input order per node.
// Immutable once built; built only through Digraph::build (validated), the
// generators or the readers below.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace tbdse {

struct DigraphInput {
  std::int64_t nodes = 0;
  std::vector<std::int32_t> src, dst;  // one entry per arc
  std::vector<std::int32_t> weight;    // per arc, >= 0; empty = every arc weighs 1
};

class Digraph {
 public:
  // Validates (1 <= nodes <= 2^31 - 1, ids in range, weights >= 0, sizes that
  // fit in memory) and builds; ConfigError naming the arc or the limit.
  static Digraph build(DigraphInput input);

  std::int32_t nodes() const { return static_cast<std::int32_t>(offset_.size() - 1); }
  std::int64_t arcs() const { return static_cast<std::int64_t>(target_.size()); }
  bool weighted() const { return weighted_; }  // false: every weight is 1

  std::int32_t out_degree(std::int32_t v) const {
    return static_cast<std::int32_t>(offset_[v + 1] - offset_[v]);
  }
  std::span<const std::int32_t> neighbours(std::int32_t v) const {
    return {target_.data() + offset_[v], static_cast<std::size_t>(out_degree(v))};
  }
  // Weights of v's arcs, aligned with neighbours(v).
  std::span<const std::int32_t> arc_weights(std::int32_t v) const {
    return {weight_.data() + offset_[v], static_cast<std::size_t>(out_degree(v))};
  }
  std::int32_t max_out_degree() const { return max_degree_; }

  std::span<const std::int64_t> offsets() const { return offset_; }  // nodes() + 1
  std::span<const std::int32_t> targets() const { return target_; }
  std::span<const std::int32_t> weights() const { return weight_; }

  // Stable digest of nodes, arcs (in order) and weights.
  std::uint64_t content_hash() const { return hash_; }

 private:
  Digraph() = default;

  std::vector<std::int64_t> offset_;
  std::vector<std::int32_t> target_;
  std::vector<std::int32_t> weight_;
  bool weighted_ = false;
  std::int32_t max_degree_ = 0;
  std::uint64_t hash_ = 0;
};

using DigraphPtr = std::shared_ptr<const Digraph>;

// ---- generators (seeded through the counter-based RNG: same seed, same graph)
// Weights are 1 when max_weight == 1, else uniform integers in [1, max_weight];
// both directions of a grid edge, and an arc and the reverse that `symmetric`
// adds, weigh the same.  Arcs are drawn in parallel (TBB), each a function of
// its index only.

// rows x cols 2-D grid, node id r * cols + c; an arc to each of the (up to
// four) neighbours, so every edge exists in both directions.
Digraph make_grid_digraph(std::int32_t rows, std::int32_t cols, std::int32_t max_weight,
                          std::uint64_t seed);

// R-MAT (Chakrabarti et al., SDM 2004) with quadrant probabilities a, b, c
// (d = 1 - a - b - c): round(nodes * degree) arcs drawn in the 2^ceil(log2
// nodes) id space, an endpoint outside [0, nodes) or a self loop drawn again.
// `symmetric` adds every arc's reverse.  Two levels are drawn from one 16-bit
// uniform, so the probabilities count at a resolution of about 2^-16;
// ConfigError when fewer than 1% of draws would be valid arcs.
Digraph make_rmat_digraph(std::int32_t nodes, double degree, double a, double b, double c,
                          bool symmetric, std::int32_t max_weight, std::uint64_t seed);

// Uniform random (Erdős–Rényi G(n, m)): round(nodes * degree) arcs with both
// endpoints uniform, self loops drawn again.
Digraph make_uniform_digraph(std::int32_t nodes, double degree, bool symmetric,
                             std::int32_t max_weight, std::uint64_t seed);

// A road-network-like graph of exactly `nodes` nodes (digraph_road.cpp):
// about nodes / town_size towns, each a street grid thinned to a random
// spanning tree plus 30% of the other blocks (undirected degree 1-4, mean
// ~2.6, like DIMACS road graphs), of lognormal sizes; rural roads (chains of
// 1-8 nodes; those beyond a spanning tree of the town grid kept half the
// time, the rest dead-end lanes) join neighbouring towns; highways run along
// every highway_every-th row and column of towns (0: none), one node between
// exits, each exit ramping into its town.  Every edge both ways with one
// weight, its length in metres (>= 1).  Ids go town by town, row by row.
Digraph make_road_digraph(std::int32_t nodes, std::int32_t town_size, std::int32_t highway_every,
                          std::uint64_t seed);

// ---- readers: ConfigError "<path>:<line>: <what is wrong>" for bad input,
// never a crash; the file must be UTF-8/ASCII text.

// 9th DIMACS Challenge shortest-path format: 'c' comments, one 'p sp N M'
// line, M lines 'a U V W' with 1-based ids (converted to 0-based).
Digraph read_dimacs_digraph(const std::string& path);

// One arc per line: 'U V' or 'U V W' (spaces, tabs or commas), '#' or '%'
// comments; ids are 0-based unless one_based; nodes = largest id + 1.
Digraph read_edge_list_digraph(const std::string& path, bool one_based);

// Matrix Market coordinate format ('%%MatrixMarket matrix coordinate
// <pattern|integer|real> <general|symmetric>'): entry (i, j) is arc i -> j
// (1-based); symmetric files add j -> i for i != j; real values must be
// whole numbers >= 0 (the weight); pattern entries weigh 1.
Digraph read_matrix_market_digraph(const std::string& path);

}  // namespace tbdse
