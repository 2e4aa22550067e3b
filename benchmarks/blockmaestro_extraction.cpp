// BlockMaestro dependency extraction: extract_pair (BlockMaestro ISCA 2021
// §III-B, Algorithm 1 — per child TB, the parent TBs whose clipped affine box
// meets its own, found by inverting the affine bounds) on kernel pairs of
// >= 100K TBs, against two references measured in the same run:
//
//   * all-pairs: the straightforward algorithm — every TB's clipped box
//     computed once, then every (child, parent) pair tested for intersection
//     — timed on the same shape with a 32 x 32-TB child grid and extrapolated
//     quadratically (by parent TBs x child TBs) to the large pair; a 64 x 64
//     run checks the extrapolation;
//   * CSR write: a lower bound for any extractor — writing the very same CSR
//     (child_start and parents) from a precomputed flat list.
//
// Pairs (RAW, 16 x 16-element tiles of a 2-D buffer, 320 x 320 child TBs):
//   stencil  each child reads its tile with a 1-element halo: up to 9 parents
//            (overlapped, E = (3*320 - 2)^2 = 917,764)
//   1_to_1   each child reads the tile its parent wrote (E = 102,400)
//   n_to_1   640 x 640 parents write 8 x 8 tiles; each child reads 4 (E = 409,600)
//
// Correctness first: on the 32 x 32 pairs extract_pair must equal all-pairs
// exactly, and on the large pairs the edge counts must match the formulas
// above; otherwise the benchmark exits 1.
//
// Output per pair: TBs, edges, pattern, ms (best / median of --reps), ns per
// edge and per child TB; the speed-up over all-pairs, the ratio to the
// CSR-write bound, and the growth from a 160 x 160 to the 320 x 320 pair
// (x4 when linear in TBs + edges, x16 when quadratic).
// Targets: extract_pair >= 100x faster than all-pairs (it is not quadratic),
// and within 10x of the CSR-write lower bound (cost ~ proportional to TBs +
// edges) on every pair.
// Exit status: 0 = ran and the results agree (whether or not the targets are
// met), 1 = a correctness check failed, 2 = bad arguments or an error.
//
// Usage: tbdse_blockmaestro_extraction [--reps N]
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <limits>
#include <string>
#include <vector>

#include "models/blockmaestro/access_ranges.hpp"
#include "models/blockmaestro/patterns.hpp"
#include "timing.hpp"

namespace {

namespace bm = tbdse::blockmaestro;

constexpr std::int64_t kTile = 16;

struct Pair {
  std::string name;
  std::vector<bm::BufferShape> buffers;
  bm::KernelAccess parent, child;
  std::int64_t expected_edges = -1;  // by formula, -1 when not checked
};

bm::Affine on(int coord, std::int64_t coef, std::int64_t c0) {
  bm::Affine f;
  f.c0 = c0;
  (coord == 0 ? f.cx : f.cy) = coef;
  return f;
}

// A 2-D tile access: element rows [t*by - halo, t*by + t + halo), columns the
// same in bx (dimension 0 = x).
bm::Access tile(std::int64_t t, std::int64_t halo) {
  bm::Access a;
  a.buffer = 0;
  a.dims = {{on(0, t, -halo), on(0, t, t + halo)}, {on(1, t, -halo), on(1, t, t + halo)}};
  return a;
}

// The three shapes with a g x g child grid.
Pair stencil(std::int64_t g) {
  Pair p;
  p.name = "stencil";
  p.buffers = {{"A", {g * kTile, g * kTile}}};
  p.parent = {"producer", {g, g, 1}, {}, {tile(kTile, 0)}};
  p.child = {"consumer", {g, g, 1}, {tile(kTile, 1)}, {}};
  p.expected_edges = (3 * g - 2) * (3 * g - 2);
  return p;
}
Pair one_to_one(std::int64_t g) {
  Pair p = stencil(g);
  p.name = "1_to_1";
  p.child.reads = {tile(kTile, 0)};
  p.expected_edges = g * g;
  return p;
}
Pair n_to_one(std::int64_t g) {
  Pair p;
  p.name = "n_to_1";
  p.buffers = {{"A", {g * kTile, g * kTile}}};
  p.parent = {"producer", {2 * g, 2 * g, 1}, {}, {tile(kTile / 2, 0)}};
  p.child = {"consumer", {g, g, 1}, {tile(kTile, 0)}, {}};
  p.expected_edges = 4 * g * g;
  return p;
}

// ------------------------------------------------------------ all pairs
struct Box {
  std::int64_t lo[2], hi[2];
  bool empty;
};

std::vector<Box> boxes(const bm::Access& a, const bm::BufferShape& b, const bm::Grid& g) {
  std::vector<Box> out(static_cast<std::size_t>(g.size()));
  for (std::int64_t t = 0; t < g.size(); ++t) {
    const auto c = g.coords(t);
    Box& x = out[static_cast<std::size_t>(t)];
    x.empty = false;
    for (std::size_t d = 0; d < 2; ++d) {
      x.lo[d] = std::clamp<std::int64_t>(a.dims[d].lo.at(c[0], c[1], c[2]), 0, b.extent[d]);
      x.hi[d] = std::clamp<std::int64_t>(a.dims[d].hi.at(c[0], c[1], c[2]), 0, b.extent[d]);
      x.empty = x.empty || x.hi[d] <= x.lo[d];
    }
  }
  return out;
}

// Every child TB against every parent TB (one read and one write access of
// one 2-D buffer, which is what the pairs here have).
bm::PairDependencies all_pairs(const Pair& p) {
  const std::vector<Box> pw = boxes(p.parent.writes[0], p.buffers[0], p.parent.grid);
  const std::vector<Box> cr = boxes(p.child.reads[0], p.buffers[0], p.child.grid);
  bm::PairDependencies out;
  out.child_start.reserve(cr.size() + 1);
  out.child_start.push_back(0);
  for (const Box& c : cr) {
    if (!c.empty)
      for (std::size_t j = 0; j < pw.size(); ++j) {
        const Box& w = pw[j];
        if (!w.empty && w.lo[0] < c.hi[0] && c.lo[0] < w.hi[0] && w.lo[1] < c.hi[1] && c.lo[1] < w.hi[1])
          out.parents.push_back(static_cast<std::int32_t>(j));
      }
    out.child_start.push_back(static_cast<std::int64_t>(out.parents.size()));
  }
  return out;
}

// ------------------------------------------------------------ CSR write bound
// The same CSR written child by child from a precomputed flat list (its
// size known: no reallocation).
bm::PairDependencies csr_write(const std::vector<std::int32_t>& flat, const std::vector<std::int64_t>& start) {
  bm::PairDependencies out;
  out.child_start.reserve(start.size());
  out.parents.reserve(flat.size());
  out.child_start.push_back(0);
  for (std::size_t c = 0; c + 1 < start.size(); ++c) {
    out.parents.insert(out.parents.end(), flat.begin() + start[c], flat.begin() + start[c + 1]);
    out.child_start.push_back(static_cast<std::int64_t>(out.parents.size()));
  }
  return out;
}

bm::PairDependencies fast(const Pair& p) {
  return bm::extract_pair(p.buffers, p.parent, p.child, bm::Hazards::RAW, std::numeric_limits<std::int64_t>::max());
}

using Times = tbdse::bench::Timing;

volatile std::int64_t g_sink = 0;  // keeps the timed results alive

template <class F>
double seconds(F&& f) {
  return tbdse::bench::seconds([&] { g_sink = f().edges(); });
}

bool same(const bm::PairDependencies& a, const bm::PairDependencies& b) {
  return a.full == b.full && a.child_start == b.child_start && a.parents == b.parents;
}

std::string pattern_of(const Pair& p, const bm::PairDependencies& d) {
  std::vector<std::int32_t> ep, ec;
  ep.reserve(d.parents.size());
  ec.reserve(d.parents.size());
  for (std::size_t c = 0; c + 1 < d.child_start.size(); ++c)
    for (std::int64_t e = d.child_start[c]; e < d.child_start[c + 1]; ++e) {
      ep.push_back(d.parents[static_cast<std::size_t>(e)]);
      ec.push_back(static_cast<std::int32_t>(c));
    }
  return bm::pattern_name(bm::classify(p.parent.grid.size(), p.child.grid.size(), ep, ec, d.full).pattern);
}

int parse_reps(const char* text) {
  return static_cast<int>(tbdse::bench::parse_count("blockmaestro_extraction", "--reps", text, 1, 1000));
}

}  // namespace

int main(int argc, char** argv) try {
  int reps = 5;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (i + 1 < argc && arg == "--reps") reps = parse_reps(argv[++i]);
    else {
      std::fprintf(stderr, "usage: %s [--reps N]\n", argv[0]);
      return 2;
    }
  }
  constexpr std::int64_t kLarge = 320, kSmall = 32, kMedium = 64;
  Pair (*const shapes[])(std::int64_t) = {stencil, one_to_one, n_to_one};

  std::printf("blockmaestro_extraction: extract_pair (RAW) on 2-D tile pairs, %lld x %lld child TBs, "
              "16 x 16-element tiles; best / median of %d\n",
              static_cast<long long>(kLarge), static_cast<long long>(kLarge), reps);

  // Correctness: exact equality with all-pairs on the small pairs, edge
  // counts by formula on the large ones.
  int failures = 0;
  for (const auto shape : shapes) {
    for (const std::int64_t g : {kSmall, kMedium}) {
      const Pair p = shape(g);
      const bm::PairDependencies a = fast(p), b = all_pairs(p);
      if (!same(a, b) || a.edges() != p.expected_edges) {
        std::fprintf(stderr, "blockmaestro_extraction: %s %lldx%lld: extract_pair (%lld edges) differs from "
                             "all-pairs (%lld edges; expected %lld)\n",
                     p.name.c_str(), static_cast<long long>(g), static_cast<long long>(g),
                     static_cast<long long>(a.edges()), static_cast<long long>(b.edges()),
                     static_cast<long long>(p.expected_edges));
        ++failures;
      }
    }
  }
  if (failures) return 1;
  std::printf("  check: extract_pair == all-pairs brute force (identical CSR) on the 32x32 and 64x64 pairs: OK\n");

  std::printf("\n  %-8s %-11s %9s %9s %9s %9s %10s %8s %8s\n", "pair", "pattern", "parents", "children",
              "edges", "best ms", "median ms", "ns/edge", "ns/child");
  struct Row {
    std::string name;
    double fast_s, bound_s, ap_small_s, ap_medium_s, ap_extrapolated_s, predicted_medium_s, scale_s;
  };
  std::vector<Row> rows;
  bool met_speedup = true, met_bound = true;
  for (const auto shape : shapes) {
    const Pair big = shape(kLarge), small = shape(kSmall), medium = shape(kMedium), half = shape(kLarge / 2);
    const bm::PairDependencies want = fast(big);
    if (want.full || want.edges() != big.expected_edges) {
      std::fprintf(stderr, "blockmaestro_extraction: %s %lldx%lld: %lld edges, expected %lld\n", big.name.c_str(),
                   static_cast<long long>(kLarge), static_cast<long long>(kLarge),
                   static_cast<long long>(want.edges()), static_cast<long long>(big.expected_edges));
      return 1;
    }
    const std::vector<std::int32_t> flat = want.parents;
    const std::vector<std::int64_t> start = want.child_start;
    if (!same(csr_write(flat, start), want)) return 1;

    Times t_fast, t_bound, t_ap, t_half;
    for (int r = 0; r < reps; ++r) {  // interleaved, so drift affects all alike
      t_fast.s.push_back(seconds([&] { return fast(big); }));
      t_bound.s.push_back(seconds([&] { return csr_write(flat, start); }));
      t_ap.s.push_back(seconds([&] { return all_pairs(small); }));
      t_half.s.push_back(seconds([&] { return fast(half); }));
    }
    Times t_ap_medium;  // checks the quadratic extrapolation (16x the small pair's work)
    for (int r = 0; r < std::min(reps, 3); ++r) t_ap_medium.s.push_back(seconds([&] { return all_pairs(medium); }));

    const auto pairs_of = [](const Pair& p) {
      return static_cast<double>(p.parent.grid.size()) * static_cast<double>(p.child.grid.size());
    };
    Row row{big.name,
            t_fast.best(),
            t_bound.best(),
            t_ap.best(),
            t_ap_medium.best(),
            t_ap.best() * pairs_of(big) / pairs_of(small),
            t_ap.best() * pairs_of(medium) / pairs_of(small),
            t_half.best()};
    const double edges = static_cast<double>(want.edges());
    const double children = static_cast<double>(big.child.grid.size());
    std::printf("  %-8s %-11s %9lld %9lld %9lld %9.2f %10.2f %8.2f %8.2f\n", big.name.c_str(),
                pattern_of(big, want).c_str(), static_cast<long long>(big.parent.grid.size()),
                static_cast<long long>(big.child.grid.size()), static_cast<long long>(want.edges()),
                1e3 * t_fast.best(), 1e3 * t_fast.median(), 1e9 * t_fast.best() / edges, 1e9 * t_fast.best() / children);
    met_speedup = met_speedup && row.ap_extrapolated_s / row.fast_s >= 100;
    met_bound = met_bound && row.fast_s / row.bound_s <= 10;
    rows.push_back(row);
  }

  std::printf("\n  references (same run, best of %d):\n", reps);
  for (const Row& r : rows) {
    std::printf("  %-8s all-pairs 32x32: %.2f ms -> %lldx%lld: %.1f s extrapolated (64x64: %.1f ms measured, "
                "%.1f ms predicted); extract_pair %.0fx faster\n",
                r.name.c_str(), 1e3 * r.ap_small_s, static_cast<long long>(kLarge), static_cast<long long>(kLarge),
                r.ap_extrapolated_s, 1e3 * r.ap_medium_s, 1e3 * r.predicted_medium_s, r.ap_extrapolated_s / r.fast_s);
    std::printf("  %-8s CSR write from a precomputed list: %.2f ms; extract_pair / CSR write: %.1fx; "
                "extract_pair %lldx%lld -> %lldx%lld: x%.2f (linear: x4, quadratic: x16)\n",
                "", 1e3 * r.bound_s, r.fast_s / r.bound_s, static_cast<long long>(kLarge / 2),
                static_cast<long long>(kLarge / 2), static_cast<long long>(kLarge), static_cast<long long>(kLarge),
                r.fast_s / r.scale_s);
  }
  std::printf("  target extract_pair >= 100x faster than all-pairs on every pair: %s\n",
              met_speedup ? "MET" : "NOT MET");
  std::printf("  target extract_pair within 10x of the CSR-write lower bound on every pair: %s\n",
              met_bound ? "MET" : "NOT MET");
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "blockmaestro_extraction: %s\n", e.what());
  return 2;
}
