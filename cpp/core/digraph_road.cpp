// A road-network-like data graph (make_road_digraph, digraph.hpp): towns of
// thinned street grids, rural roads between neighbouring towns and highways
// along every highway_every-th row and column of towns.  Modelled on DIMACS
// road graphs (rome99: undirected degree 1-4, mostly 3, 14% dead ends, arcs
// in metres, median 268, long-tailed): planar but for highway interchanges,
// high diameter, and wide BFS frontiers because highways reach the many
// towns at nearly the same depth and each town then floods its streets.
// Every draw is a pure function of (seed, town or arc index, purpose).
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "digraph.hpp"
#include "errors.hpp"
#include "memory.hpp"
#include "rng.hpp"

namespace tbdse {

namespace {

constexpr std::uint64_t kRoadKey = 0x726F6164ULL;  // "road"
// Draw purposes (Philox streams).
enum Stream : std::uint64_t { SIZE = 1, CHAIN, TREE, KEEP, WEIGHT, RURAL_TREE, RURAL_KEEP };
constexpr std::int32_t kMinTown = 8;     // room for four rural roads and a ramp
constexpr double kStreetKeep = 0.3;      // non-tree street edges kept: mean degree ~2.6
constexpr double kRuralKeep = 0.5;       // rural roads beyond a spanning tree kept
constexpr double kTownSigma = 1.0;       // lognormal spread of town sizes
constexpr std::int32_t kHighwayLink = 1;  // highway nodes between consecutive exits
constexpr double kBlock = 100.0;         // metres per street block

struct Edge {
  std::int32_t u, v, w;
};

struct UnionFind {
  std::vector<std::int32_t> parent;
  explicit UnionFind(std::size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), 0); }
  std::int32_t find(std::int32_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  }
  bool unite(std::int32_t a, std::int32_t b) {
    a = find(a), b = find(b);
    if (a == b) return false;
    parent[a] = b;
    return true;
  }
};

std::int32_t metres(double x) { return std::max(1, static_cast<std::int32_t>(std::lround(x))); }

// A random spanning tree of candidate edges (Kruskal on random keys) plus each
// other edge with probability keep: connected, degree within the grid's 4.
template <class Key, class Keep>
std::vector<std::size_t> thin(std::int32_t nodes, const std::vector<std::pair<int, int>>& cand,
                              Key key, Keep keep) {
  std::vector<std::size_t> order(cand.size());
  std::iota(order.begin(), order.end(), 0);
  std::vector<double> k(cand.size());
  for (std::size_t e = 0; e < cand.size(); ++e) k[e] = key(e);
  std::sort(order.begin(), order.end(), [&](auto a, auto b) { return k[a] < k[b]; });
  UnionFind uf(static_cast<std::size_t>(nodes));
  std::vector<std::size_t> kept;
  for (const std::size_t e : order)
    if (uf.unite(cand[e].first, cand[e].second) || keep(e)) kept.push_back(e);
  std::sort(kept.begin(), kept.end());
  return kept;
}

// Grid neighbours of m nodes laid out row by row, `width` to a row.
std::vector<std::pair<int, int>> grid_edges(std::int32_t m, std::int32_t width) {
  std::vector<std::pair<int, int>> out;
  for (std::int32_t i = 0; i < m; ++i) {
    if ((i + 1) % width != 0 && i + 1 < m) out.emplace_back(i, i + 1);
    if (i + width < m) out.emplace_back(i, i + width);
  }
  return out;
}

}  // namespace

Digraph make_road_digraph(std::int32_t nodes, std::int32_t town_size, std::int32_t highway_every,
                          std::uint64_t seed) {
  const auto fail = [](const std::string& m) { throw ConfigError("road: " + m); };
  if (nodes < 1) fail("'nodes' must be >= 1; got " + std::to_string(nodes));
  if (town_size < kMinTown)
    fail("'town_size' must be >= " + std::to_string(kMinTown) + "; got " +
         std::to_string(town_size));
  if (highway_every < 0) fail("'highway_every' must be >= 0; got " + std::to_string(highway_every));
  require_digraph_fits("road", nodes, 2.0 * 2.5 * nodes);
  const Philox rng(rng_key(seed, kRoadKey, 0, RngPurpose::GRAPH_STRUCTURE));

  // Towns on a cols x rows grid, row by row; rural road (t, t+1) and (t, t+cols).
  std::int64_t towns = std::max<std::int64_t>(1, std::llround(double(nodes) / town_size));
  const auto layout = [&](std::int64_t t) {
    const auto c = static_cast<std::int32_t>(std::ceil(std::sqrt(double(t))));
    return std::pair{c, static_cast<std::int32_t>((t + c - 1) / c)};
  };
  // Per town: the rural road nodes it owns (east, south), highway nodes (two
  // exits and the links to the next exits east and south).
  const double spacing = 1.5 * std::sqrt(double(town_size)) * kBlock;  // metres between towns
  std::vector<std::int32_t> rural_len;  // per rural road candidate 2t (east), 2t+1 (south)
  std::int64_t extra = 0;
  for (;;) {
    const auto [cols, rows] = layout(towns);
    rural_len.assign(static_cast<std::size_t>(2 * towns), 0);
    extra = 0;
    for (std::int64_t t = 0; t < towns; ++t)
      for (int d = 0; d < 2; ++d) {
        const std::int64_t nb = d == 0 ? ((t + 1) % cols ? t + 1 : towns) : t + cols;
        if (nb >= towns) continue;
        const auto len = 1 + static_cast<std::int32_t>(rng.uniform(2 * t + d, CHAIN) * 8);
        rural_len[2 * t + d] = len;
        extra += len;
      }
    if (highway_every > 0)  // at most two exits and two links per town
      for (std::int64_t t = 0; t < towns; ++t) {
        const std::int64_t r = t / cols, c = t % cols;
        if (r % highway_every == 0) extra += 1 + kHighwayLink;
        if (c % highway_every == 0) extra += 1 + kHighwayLink;
      }
    if (towns == 1 || nodes - extra >= towns * kMinTown) break;
    towns = std::max<std::int64_t>(1, towns / 2);  // too few nodes for this many towns
  }
  const auto [cols, rows] = layout(towns);
  if (towns == 1) extra = 0, rural_len.assign(2, 0);

  // Town sizes: lognormal shares of what the roads leave, at least kMinTown.
  const std::int64_t street_nodes = nodes - extra;
  std::vector<double> share(static_cast<std::size_t>(towns));
  for (std::int64_t t = 0; t < towns; ++t)
    share[t] = std::exp(kTownSigma * rng.normal(static_cast<std::uint64_t>(t), SIZE));
  const double total = std::accumulate(share.begin(), share.end(), 0.0);
  const std::int64_t spare = street_nodes - (towns > 1 ? kMinTown * towns : 0);
  std::vector<std::int32_t> size(static_cast<std::size_t>(towns));
  std::int64_t given = 0;
  for (std::int64_t t = 0; t < towns; ++t) {
    size[t] = static_cast<std::int32_t>((towns > 1 ? kMinTown : 0) +
                                        std::floor(double(spare) * share[t] / total));
    given += size[t];
  }
  for (std::int64_t t = 0; given < street_nodes; t = (t + 1) % towns, ++given) ++size[t];

  // Ids town by town: its streets, its rural roads east and south, then its
  // highway exits and links, so that nearby places have nearby ids.
  std::vector<std::int64_t> first(static_cast<std::size_t>(towns) + 1, 0);
  for (std::int64_t t = 0; t < towns; ++t) {
    std::int64_t own = size[t] + rural_len[2 * t] + rural_len[2 * t + 1];
    if (highway_every > 0 && towns > 1) {
      if ((t / cols) % highway_every == 0) own += 1 + kHighwayLink;
      if ((t % cols) % highway_every == 0) own += 1 + kHighwayLink;
    }
    first[t + 1] = first[t] + own;
  }

  // Streets, town by town in parallel: a thinned grid, block lengths lognormal.
  std::vector<std::vector<Edge>> streets(static_cast<std::size_t>(towns));
  tbb::parallel_for(std::int64_t{0}, towns, [&](std::int64_t t) {
    const std::int32_t m = size[t];
    const auto width = static_cast<std::int32_t>(std::ceil(std::sqrt(double(m))));
    const auto cand = grid_edges(m, width);
    const auto base = static_cast<std::uint64_t>(2 * first[t]);  // unique per candidate
    const auto kept = thin(
        m, cand, [&](std::size_t e) { return rng.uniform(base + e, TREE); },
        [&](std::size_t e) { return rng.uniform(base + e, KEEP) < kStreetKeep; });
    auto& out = streets[t];
    out.reserve(kept.size());
    const auto at = static_cast<std::int32_t>(first[t]);
    for (const std::size_t e : kept)
      out.push_back({at + cand[e].first, at + cand[e].second,
                     metres(kBlock * std::exp(0.5 * rng.normal(base + e, WEIGHT)))});
  });

  std::vector<Edge> edges;
  std::vector<std::uint8_t> degree(static_cast<std::size_t>(nodes), 0);
  const auto add = [&](std::int32_t u, std::int32_t v, std::int32_t w) {
    edges.push_back({u, v, w});
    ++degree[u], ++degree[v];
  };
  for (const auto& s : streets)
    for (const Edge& e : s) add(e.u, e.v, e.w);
  streets = {};

  // A town's node with a free degree slot nearest to a side's middle
  // (0 east, 1 south, 2 west, 3 north, 4 centre): where a road attaches.
  const auto attach = [&](std::int64_t t, int side) {
    const std::int32_t m = size[t];
    const auto width = static_cast<std::int32_t>(std::ceil(std::sqrt(double(m))));
    const std::int32_t height = (m + width - 1) / width;
    const std::int32_t r = side == 1 ? height - 1 : side == 3 ? 0 : height / 2;
    const std::int32_t c = side == 0 ? width - 1 : side == 2 ? 0 : width / 2;
    std::int32_t best = -1, best_d = 1 << 30;
    for (std::int32_t i = 0; i < m; ++i) {  // towns are small: a scan is cheap
      const std::int32_t d = std::abs(i / width - r) + std::abs(i % width - c);
      const auto v = static_cast<std::int32_t>(first[t] + i);
      if (degree[v] < 4 && d < best_d) best = v, best_d = d;
    }
    if (best < 0) throw SimulationError("road: internal: town " + std::to_string(t) + " is full");
    return best;
  };

  // Rural roads: a spanning tree of the town grid plus half of the rest.
  if (towns > 1) {
    std::vector<std::pair<int, int>> cand;
    std::vector<std::size_t> slot;
    for (std::int64_t t = 0; t < towns; ++t)
      for (int d = 0; d < 2; ++d)
        if (rural_len[2 * t + d] > 0) {
          cand.emplace_back(int(t), int(d == 0 ? t + 1 : t + cols));
          slot.push_back(2 * t + d);
        }
    const auto kept = thin(
        static_cast<std::int32_t>(towns), cand,
        [&](std::size_t e) { return rng.uniform(slot[e], RURAL_TREE); },
        [&](std::size_t e) { return rng.uniform(slot[e], RURAL_KEEP) < kRuralKeep; });
    std::vector<char> built(cand.size(), 0);
    for (const std::size_t e : kept) built[e] = 1;
    for (std::size_t e = 0; e < cand.size(); ++e) {
      const std::int64_t t = cand[e].first, d = static_cast<std::int64_t>(slot[e] % 2);
      const std::int32_t len = rural_len[slot[e]];
      auto v = static_cast<std::int32_t>(first[t] + size[t] + (d == 1 ? rural_len[2 * t] : 0));
      const double arc = spacing / (len + 1) * std::exp(0.3 * rng.normal(slot[e], WEIGHT));
      if (!built[e]) {  // an unbuilt road's nodes become a dead-end lane
        add(attach(t, int(d)), v, metres(arc));
        for (std::int32_t k = 1; k < len; ++k) add(v + k - 1, v + k, metres(arc));
        continue;
      }
      std::int32_t prev = attach(t, int(d));
      for (std::int32_t k = 0; k < len; ++k, prev = v++) add(prev, v, metres(arc));
      add(prev, attach(cand[e].second, d == 0 ? 2 : 3), metres(arc));
    }
  }

  // Highways along town rows r % highway_every == 0 (exit h) and columns
  // c % highway_every == 0 (exit v): exits joined by kHighwayLink nodes; an
  // exit ramps into its town; where two highways cross, the column's exit
  // joins the row's instead (an interchange).
  if (highway_every > 0 && towns > 1) {
    const auto exits = [&](std::int64_t t) {
      std::int64_t at = first[t] + size[t] + rural_len[2 * t] + rural_len[2 * t + 1];
      std::int32_t h = -1, v = -1;
      if ((t / cols) % highway_every == 0) h = static_cast<std::int32_t>(at), at += 1 + kHighwayLink;
      if ((t % cols) % highway_every == 0) v = static_cast<std::int32_t>(at);
      return std::pair{h, v};
    };
    const double link = spacing / (kHighwayLink + 1);
    for (std::int64_t t = 0; t < towns; ++t) {
      const auto [h, v] = exits(t);
      if (h >= 0) add(h, attach(t, 4), metres(0.3 * spacing));
      if (v >= 0) add(v, h >= 0 ? h : attach(t, 4), metres(0.1 * spacing));
      for (int d = 0; d < 2; ++d) {
        const std::int32_t from = d == 0 ? h : v;
        const std::int64_t nb = d == 0 ? ((t + 1) % cols ? t + 1 : towns) : t + cols;
        if (from < 0) continue;
        std::int32_t prev = from;
        for (std::int32_t k = 1; k <= kHighwayLink; prev = from + k, ++k)
          add(prev, from + k, metres(link));
        if (nb < towns) add(prev, d == 0 ? exits(nb).first : exits(nb).second, metres(link));
      }
    }
  }

  DigraphInput in;
  in.nodes = nodes;
  in.src.reserve(2 * edges.size());
  in.dst.reserve(2 * edges.size());
  in.weight.reserve(2 * edges.size());
  for (const Edge& e : edges) {  // both directions, the same length
    in.src.push_back(e.u), in.dst.push_back(e.v), in.weight.push_back(e.w);
    in.src.push_back(e.v), in.dst.push_back(e.u), in.weight.push_back(e.w);
  }
  return Digraph::build(std::move(in));
}

}  // namespace tbdse
