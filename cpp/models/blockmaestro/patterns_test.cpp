// BlockMaestro's dependency patterns (Table I / Fig. 8) and their plain and
// encoded storage: hand cases for every pattern with the header's formulas,
// and random bipartite graphs against a brute-force classifier.
#include "models/blockmaestro/patterns.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "models/blockmaestro/access_ranges_test_support.hpp"

using namespace tbdse::blockmaestro;
using tbdse::blockmaestro::test_support::Rng;
using tbdse::blockmaestro::test_support::uniform;

namespace {

using Edges = std::vector<std::pair<std::int32_t, std::int32_t>>;  // (parent, child)

PairShape run(std::int64_t n, std::int64_t m, const Edges& edges, bool full = false) {
  std::vector<std::int32_t> ep, ec;
  for (const auto& [p, c] : edges) {
    ep.push_back(p);
    ec.push_back(c);
  }
  return classify(n, m, ep, ec, full);
}

struct Want {
  Pattern pattern;
  std::int64_t edges, max_parents_per_child, max_children_per_parent, plain, encoded;
};

void check_shape(const PairShape& s, std::int64_t n, std::int64_t m, const Want& w) {
  CHECK(s.parents == n);
  CHECK(s.children == m);
  CHECK(pattern_name(s.pattern) == pattern_name(w.pattern));
  CHECK(s.edges == w.edges);
  CHECK(s.max_parents_per_child == w.max_parents_per_child);
  CHECK(s.max_children_per_parent == w.max_children_per_parent);
  CHECK(s.plain_bytes == w.plain);
  CHECK(s.encoded_bytes == w.encoded);
  CHECK(s.encoded_bytes <= s.plain_bytes);
}

// The header's definitions, computed the plain way: degrees, connected
// components by BFS over adjacency lists, and a component is a complete
// bipartite group when each of its parents is linked to each of its children.
PairShape brute_classify(std::int64_t n, std::int64_t m, const Edges& edges, bool full) {
  PairShape s;
  s.parents = n;
  s.children = m;
  std::vector<std::vector<std::int32_t>> kids(static_cast<std::size_t>(n)), pars(static_cast<std::size_t>(m));
  if (full) {
    for (std::int32_t p = 0; p < n; ++p)
      for (std::int32_t c = 0; c < m; ++c) {
        kids[static_cast<std::size_t>(p)].push_back(c);
        pars[static_cast<std::size_t>(c)].push_back(p);
      }
  } else {
    for (const auto& [p, c] : edges) {
      kids[static_cast<std::size_t>(p)].push_back(c);
      pars[static_cast<std::size_t>(c)].push_back(p);
    }
  }
  for (const auto& k : kids) {
    s.edges += static_cast<std::int64_t>(k.size());
    s.max_children_per_parent = std::max(s.max_children_per_parent, static_cast<std::int64_t>(k.size()));
  }
  for (const auto& p : pars) s.max_parents_per_child = std::max(s.max_parents_per_child, static_cast<std::int64_t>(p.size()));

  bool complete = true;
  std::vector<int> seen_p(static_cast<std::size_t>(n), 0), seen_c(static_cast<std::size_t>(m), 0);
  for (std::int32_t start = 0; start < n; ++start) {
    if (seen_p[static_cast<std::size_t>(start)] || kids[static_cast<std::size_t>(start)].empty()) continue;
    std::vector<std::int32_t> ps, cs;
    std::deque<std::pair<bool, std::int32_t>> queue{{true, start}};  // (is parent, id)
    seen_p[static_cast<std::size_t>(start)] = 1;
    while (!queue.empty()) {
      const auto [is_parent, v] = queue.front();
      queue.pop_front();
      (is_parent ? ps : cs).push_back(v);
      for (const std::int32_t w : is_parent ? kids[static_cast<std::size_t>(v)] : pars[static_cast<std::size_t>(v)]) {
        int& seen = is_parent ? seen_c[static_cast<std::size_t>(w)] : seen_p[static_cast<std::size_t>(w)];
        if (!seen) {
          seen = 1;
          queue.push_back({!is_parent, w});
        }
      }
    }
    for (const std::int32_t p : ps)
      for (const std::int32_t c : cs) {
        const auto& k = kids[static_cast<std::size_t>(p)];
        if (std::find(k.begin(), k.end(), c) == k.end()) complete = false;
      }
  }

  const std::int64_t e = s.edges;
  if (e == 0) s.pattern = Pattern::INDEPENDENT;
  else if (e == n * m) s.pattern = Pattern::FULLY_CONNECTED;
  else if (s.max_children_per_parent == 1 && s.max_parents_per_child == 1) s.pattern = Pattern::ONE_TO_ONE;
  else if (s.max_parents_per_child == 1) s.pattern = Pattern::ONE_TO_N;
  else if (s.max_children_per_parent == 1) s.pattern = Pattern::N_TO_ONE;
  else if (complete) s.pattern = Pattern::N_GROUP;
  else s.pattern = Pattern::OVERLAPPED;

  s.plain_bytes = e == 0 ? 0 : 4 * (n + e);
  std::int64_t enc = 0;
  switch (s.pattern) {
    case Pattern::INDEPENDENT: enc = 0; break;
    case Pattern::FULLY_CONNECTED: enc = 1; break;
    case Pattern::N_GROUP: enc = 4 * (n + m); break;
    case Pattern::ONE_TO_ONE: enc = 4 * n; break;
    case Pattern::ONE_TO_N: enc = 4 * (n + m); break;
    case Pattern::N_TO_ONE: enc = 4 * n; break;
    case Pattern::OVERLAPPED: enc = 4 * (n + m * s.max_parents_per_child); break;
  }
  s.encoded_bytes = std::min(enc, s.plain_bytes);
  return s;
}

// Random bipartite graphs of several shapes, so that every pattern occurs.
Edges random_edges(Rng& rng, std::int32_t n, std::int32_t m) {
  std::vector<std::vector<char>> adj(static_cast<std::size_t>(n), std::vector<char>(static_cast<std::size_t>(m), 0));
  const auto link = [&](std::int64_t p, std::int64_t c) { adj[static_cast<std::size_t>(p)][static_cast<std::size_t>(c)] = 1; };
  switch (uniform(rng, 0, 6)) {
    case 0: {  // random density
      const std::int64_t pct = uniform(rng, 0, 100);
      for (std::int32_t p = 0; p < n; ++p)
        for (std::int32_t c = 0; c < m; ++c)
          if (uniform(rng, 1, 100) <= pct) link(p, c);
      break;
    }
    case 1: {  // a partial matching
      std::vector<std::int32_t> cs(static_cast<std::size_t>(m));
      for (std::int32_t c = 0; c < m; ++c) cs[static_cast<std::size_t>(c)] = c;
      std::shuffle(cs.begin(), cs.end(), rng);
      for (std::int32_t p = 0; p < std::min(n, m); ++p)
        if (uniform(rng, 0, 3) > 0) link(p, cs[static_cast<std::size_t>(p)]);
      break;
    }
    case 2:  // each child at most one parent
      for (std::int32_t c = 0; c < m; ++c)
        if (uniform(rng, 0, 4) > 0) link(uniform(rng, 0, n - 1), c);
      break;
    case 3:  // each parent at most one child
      for (std::int32_t p = 0; p < n; ++p)
        if (uniform(rng, 0, 4) > 0) link(p, uniform(rng, 0, m - 1));
      break;
    case 4:
    case 5: {  // complete groups over a random partition (group -1: no edges); 5 perturbs one edge
      const std::int64_t groups = uniform(rng, 1, 3);
      std::vector<std::int64_t> gp(static_cast<std::size_t>(n)), gc(static_cast<std::size_t>(m));
      for (auto& g : gp) g = uniform(rng, -1, groups - 1);
      for (auto& g : gc) g = uniform(rng, -1, groups - 1);
      for (std::int32_t p = 0; p < n; ++p)
        for (std::int32_t c = 0; c < m; ++c)
          if (gp[static_cast<std::size_t>(p)] >= 0 && gp[static_cast<std::size_t>(p)] == gc[static_cast<std::size_t>(c)]) link(p, c);
      if (uniform(rng, 4, 5) == 5) {
        const std::int64_t p = uniform(rng, 0, n - 1), c = uniform(rng, 0, m - 1);
        adj[static_cast<std::size_t>(p)][static_cast<std::size_t>(c)] ^= 1;
      }
      break;
    }
    default: {  // a band: child c reads parents around c * n / m (a stencil)
      const std::int64_t halo = uniform(rng, 0, 2);
      for (std::int32_t c = 0; c < m; ++c) {
        const std::int64_t mid = c * n / m;
        for (std::int64_t p = std::max<std::int64_t>(0, mid - halo); p <= std::min<std::int64_t>(n - 1, mid + halo); ++p)
          link(p, c);
      }
    }
  }
  Edges edges;
  for (std::int32_t p = 0; p < n; ++p)
    for (std::int32_t c = 0; c < m; ++c)
      if (adj[static_cast<std::size_t>(p)][static_cast<std::size_t>(c)]) edges.push_back({p, c});
  std::shuffle(edges.begin(), edges.end(), rng);  // classify takes edges in any order
  return edges;
}

}  // namespace

TEST_CASE("pattern names and Table I numbers") {
  const std::array<std::pair<Pattern, std::pair<const char*, int>>, 7> all = {{
      {Pattern::FULLY_CONNECTED, {"fully_connected", 1}},
      {Pattern::N_GROUP, {"n_group", 2}},
      {Pattern::ONE_TO_ONE, {"1_to_1", 3}},
      {Pattern::ONE_TO_N, {"1_to_n", 4}},
      {Pattern::N_TO_ONE, {"n_to_1", 5}},
      {Pattern::OVERLAPPED, {"overlapped", 6}},
      {Pattern::INDEPENDENT, {"independent", 7}},
  }};
  for (const auto& [p, info] : all) {
    CHECK(pattern_name(p) == info.first);
    CHECK(pattern_number(p) == info.second);
  }
}

TEST_CASE("classify: independent (P#7)") {
  check_shape(run(3, 4, {}), 3, 4, {Pattern::INDEPENDENT, 0, 0, 0, 0, 0});
  check_shape(run(0, 0, {}), 0, 0, {Pattern::INDEPENDENT, 0, 0, 0, 0, 0});
  // full with no TBs on one side: nothing to depend on.
  check_shape(run(0, 5, {}, true), 0, 5, {Pattern::INDEPENDENT, 0, 0, 0, 0, 0});
  check_shape(run(4, 0, {}, true), 4, 0, {Pattern::INDEPENDENT, 0, 0, 0, 0, 0});
}

TEST_CASE("classify: fully_connected (P#1), from the edges or from full") {
  // N = 2, M = 3, all 6 edges in any order: plain 4 (2 + 6) = 32, encoded a 1-byte flag.
  check_shape(run(2, 3, {{1, 2}, {0, 0}, {1, 0}, {0, 2}, {1, 1}, {0, 1}}), 2, 3,
              {Pattern::FULLY_CONNECTED, 6, 2, 3, 32, 1});
  // A single edge between single TBs is fully connected too: plain 4 (1 + 1) = 8.
  check_shape(run(1, 1, {{0, 0}}), 1, 1, {Pattern::FULLY_CONNECTED, 1, 1, 1, 8, 1});
  // full = true (extract_pair gave up): E = N M = 35, the spans are ignored;
  // plain 4 (5 + 35) = 160.
  const std::vector<std::int32_t> junk = {99, -7};
  const PairShape f = classify(5, 7, junk, std::vector<std::int32_t>{3}, true);
  check_shape(f, 5, 7, {Pattern::FULLY_CONNECTED, 35, 5, 7, 160, 1});
  // Large full pair: no edge list is built.
  check_shape(run(100000, 200000, {}, true), 100000, 200000,
              {Pattern::FULLY_CONNECTED, 20000000000, 100000, 200000, 4 * (100000 + 20000000000LL), 1});
}

TEST_CASE("classify: 1_to_1 (P#3), TBs without edges do not matter") {
  // N = 4, M = 5, edges p0-c1, p1-c0, p3-c4 (p2, c2, c3 without edges):
  // plain 4 (4 + 3) = 28, encoded 4 N = 16.
  check_shape(run(4, 5, {{0, 1}, {1, 0}, {3, 4}}), 4, 5, {Pattern::ONE_TO_ONE, 3, 1, 1, 28, 16});
  // A permutation: plain 4 (3 + 3) = 24, encoded 12.
  check_shape(run(3, 3, {{0, 2}, {1, 1}, {2, 0}}), 3, 3, {Pattern::ONE_TO_ONE, 3, 1, 1, 24, 12});
}

TEST_CASE("classify: 1_to_n (P#4)") {
  // N = 2, M = 4, p0 -> c0, c1; p1 -> c2, c3: plain 4 (2 + 4) = 24, encoded 4 (2 + 4) = 24.
  check_shape(run(2, 4, {{0, 0}, {0, 1}, {1, 2}, {1, 3}}), 2, 4, {Pattern::ONE_TO_N, 4, 1, 2, 24, 24});
  // N = 3, M = 5, p0 -> c0, c1, c2; p2 -> c4 (p1, c3 without edges): plain
  // 4 (3 + 4) = 28; encoded 4 (3 + 5) = 32 would be more: the plain list is kept.
  check_shape(run(3, 5, {{0, 0}, {0, 1}, {0, 2}, {2, 4}}), 3, 5, {Pattern::ONE_TO_N, 4, 1, 3, 28, 28});
}

TEST_CASE("classify: n_to_1 (P#5)") {
  // N = 5, M = 3, p0, p1, p2 -> c0; p3 -> c1 (p4, c2 without edges):
  // plain 4 (5 + 4) = 36, encoded 4 N = 20.
  check_shape(run(5, 3, {{0, 0}, {1, 0}, {2, 0}, {3, 1}}), 5, 3, {Pattern::N_TO_ONE, 4, 3, 1, 36, 20});
  // One child, several parents and a parent without edges: not fully connected.
  check_shape(run(3, 1, {{0, 0}, {2, 0}}), 3, 1, {Pattern::N_TO_ONE, 2, 2, 1, 20, 12});
  check_shape(run(3, 1, {{0, 0}, {1, 0}, {2, 0}}), 3, 1, {Pattern::FULLY_CONNECTED, 3, 3, 1, 24, 1});
}

TEST_CASE("classify: n_group (P#2)") {
  // Groups {p0, p1} x {c0, c1} and {p2, p3} x {c2, c3}: E = 8, plain
  // 4 (4 + 8) = 48, encoded 4 (4 + 4) = 32.
  check_shape(run(4, 4, {{0, 0}, {0, 1}, {1, 0}, {1, 1}, {2, 2}, {2, 3}, {3, 2}, {3, 3}}), 4, 4,
              {Pattern::N_GROUP, 8, 2, 2, 48, 32});
  // {p0, p1} x {c0, c1, c2} and {p3} x {c4}; p2, p4, c3, c5 without edges:
  // E = 7, plain 4 (5 + 7) = 48, encoded 4 (5 + 6) = 44.
  check_shape(run(5, 6, {{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {1, 2}, {3, 4}}), 5, 6,
              {Pattern::N_GROUP, 7, 2, 3, 48, 44});
  // A complete 2 x 2 block plus a child without edges: not fully connected
  // (E = 4 != N M = 6) but one complete group: plain 4 (2 + 4) = 24, encoded 4 (2 + 3) = 20.
  check_shape(run(2, 3, {{0, 0}, {0, 1}, {1, 0}, {1, 1}}), 2, 3, {Pattern::N_GROUP, 4, 2, 2, 24, 20});
  // ... and with 10 children the group ids cost more than the list: 4 (2 + 10) = 48 > 24.
  check_shape(run(2, 10, {{0, 0}, {0, 1}, {1, 0}, {1, 1}}), 2, 10, {Pattern::N_GROUP, 4, 2, 2, 24, 24});
}

TEST_CASE("classify: overlapped (P#6)") {
  // 1-D stencil, N = M = 4, child j depends on parents j - 1 .. j + 1:
  // E = 2 + 3 + 3 + 2 = 10, deg_max 3, plain 4 (4 + 10) = 56, encoded
  // 4 (4 + 4 * 3) = 64 > 56: plain kept.
  check_shape(run(4, 4, {{0, 0}, {1, 0}, {0, 1}, {1, 1}, {2, 1}, {1, 2}, {2, 2}, {3, 2}, {2, 3}, {3, 3}}), 4, 4,
              {Pattern::OVERLAPPED, 10, 3, 3, 56, 56});
  // Cyclic stencil: every child has deg_max parents, so 4 (N + M deg_max) =
  // 4 (N + E) = 4 (4 + 12) = 64 for both.
  Edges cyclic;
  for (std::int32_t c = 0; c < 4; ++c)
    for (std::int32_t d = -1; d <= 1; ++d) cyclic.push_back({(c + d + 4) % 4, c});
  check_shape(run(4, 4, cyclic), 4, 4, {Pattern::OVERLAPPED, 12, 3, 3, 64, 64});
  // A 2 x 2 group missing one edge: p0 -> c0, c1; p1 -> c0: plain 4 (2 + 3) = 20,
  // encoded 4 (2 + 2 * 2) = 24 -> 20.
  check_shape(run(2, 2, {{0, 0}, {0, 1}, {1, 0}}), 2, 2, {Pattern::OVERLAPPED, 3, 2, 2, 20, 20});
  // TBs without edges added around it do not change that.
  check_shape(run(5, 6, {{0, 0}, {0, 1}, {1, 0}}), 5, 6, {Pattern::OVERLAPPED, 3, 2, 2, 32, 32});
}

TEST_CASE("classify equals a brute-force classifier on random bipartite graphs") {
  std::array<int, 7> seen{};
  int full_cases = 0;
  for (std::uint64_t seed = 1; seed <= 3000; ++seed) {
    Rng rng(seed);
    const auto n = static_cast<std::int32_t>(uniform(rng, 1, 7));
    const auto m = static_cast<std::int32_t>(uniform(rng, 1, 7));
    const Edges edges = random_edges(rng, n, m);
    const bool full = uniform(rng, 0, 19) == 0;
    full_cases += full;
    const PairShape want = brute_classify(n, m, edges, full);
    const PairShape got = run(n, m, edges, full);
    std::string text;
    for (const auto& [p, c] : edges) text.append(" ").append(std::to_string(p)).append("-").append(std::to_string(c));
    INFO("seed " << seed << " N " << n << " M " << m << (full ? " full" : "") << " edges" << text);
    check_shape(got, n, m,
                {want.pattern, want.edges, want.max_parents_per_child, want.max_children_per_parent,
                 want.plain_bytes, want.encoded_bytes});
    ++seen[static_cast<std::size_t>(pattern_number(want.pattern) - 1)];
  }
  for (std::size_t i = 0; i < seen.size(); ++i) {
    CAPTURE(i + 1);
    CHECK(seen[i] > 50);  // every pattern is exercised
  }
  CHECK(full_cases > 50);
}
