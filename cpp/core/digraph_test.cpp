#include "core/digraph.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <tuple>
#include <unistd.h>

#include "core/errors.hpp"
#include "core/test_support.hpp"

using namespace tbdse;
using tbdse::test_support::message_of;

namespace {

Digraph from_arcs(std::int64_t n, std::vector<std::pair<std::int32_t, std::int32_t>> arcs,
                  std::vector<std::int32_t> weight = {}) {
  DigraphInput in;
  in.nodes = n;
  for (auto [s, d] : arcs) {
    in.src.push_back(s);
    in.dst.push_back(d);
  }
  in.weight = std::move(weight);
  return Digraph::build(std::move(in));
}

template <class T>
std::vector<T> vec(std::span<const T> s) {
  return {s.begin(), s.end()};
}

// A file in the temp directory holding `text`, removed when the test ends.
struct TempFile {
  std::string path;
  explicit TempFile(const std::string& text, const std::string& suffix = ".txt") {
    static int counter = 0;
    path = (std::filesystem::temp_directory_path() /
            ("tbdse_digraph_test_" + std::to_string(::getpid()) + "_" +
             std::to_string(counter++) + suffix))
               .string();
    std::ofstream(path, std::ios::binary) << text;
  }
  ~TempFile() { std::remove(path.c_str()); }
};

std::string dimacs_error(const std::string& text) {
  TempFile f(text, ".gr");
  return message_of([&] { read_dimacs_digraph(f.path); });
}
std::string edge_list_error(const std::string& text, bool one_based = false) {
  TempFile f(text);
  return message_of([&] { read_edge_list_digraph(f.path, one_based); });
}
std::string mm_error(const std::string& text) {
  TempFile f(text, ".mtx");
  return message_of([&] { read_matrix_market_digraph(f.path); });
}

std::int64_t self_loops(const Digraph& g) {
  std::int64_t loops = 0;
  for (std::int32_t u = 0; u < g.nodes(); ++u)
    for (const auto v : g.neighbours(u)) loops += v == u;
  return loops;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("digraph CSR: counting sort by source, input order kept per node") {
  // Arcs in input order: 2->0, 0->3, 1->2, 0->1, 2->1; node 3 has none.
  const auto g = from_arcs(4, {{2, 0}, {0, 3}, {1, 2}, {0, 1}, {2, 1}}, {5, 7, 2, 9, 4});
  CHECK(g.nodes() == 4);
  CHECK(g.arcs() == 5);
  CHECK(g.weighted());
  // Node 0's arcs (to 3, then 1, as given), node 1's (to 2), node 2's (to 0, then 1).
  CHECK(vec(g.offsets()) == std::vector<std::int64_t>{0, 2, 3, 5, 5});
  CHECK(vec(g.targets()) == std::vector<std::int32_t>{3, 1, 2, 0, 1});
  CHECK(vec(g.weights()) == std::vector<std::int32_t>{7, 9, 2, 5, 4});
  CHECK(vec(g.neighbours(2)) == std::vector<std::int32_t>{0, 1});
  CHECK(vec(g.arc_weights(2)) == std::vector<std::int32_t>{5, 4});
  CHECK(g.out_degree(3) == 0);
  CHECK(g.max_out_degree() == 2);
}

TEST_CASE("digraph keeps parallel arcs, self loops and cycles") {
  // 0->1 twice, a self loop on 1 and the cycle 0->1->0.
  const auto g = from_arcs(2, {{0, 1}, {1, 1}, {0, 1}, {1, 0}});
  CHECK(g.arcs() == 4);
  CHECK(vec(g.neighbours(0)) == std::vector<std::int32_t>{1, 1});
  CHECK(vec(g.neighbours(1)) == std::vector<std::int32_t>{1, 0});
  CHECK_FALSE(g.weighted());
  CHECK(vec(g.weights()) == std::vector<std::int32_t>{1, 1, 1, 1});  // unweighted: all 1
}

TEST_CASE("digraph content hash covers arcs, order and weights") {
  const auto base = from_arcs(3, {{0, 1}, {0, 2}});
  CHECK(base.content_hash() == from_arcs(3, {{0, 1}, {0, 2}}).content_hash());
  CHECK(base.content_hash() != from_arcs(3, {{0, 2}, {0, 1}}).content_hash());  // order
  CHECK(base.content_hash() != from_arcs(4, {{0, 1}, {0, 2}}).content_hash());  // nodes
  CHECK(base.content_hash() != from_arcs(3, {{0, 1}, {0, 2}}, {1, 2}).content_hash());
  CHECK(from_arcs(3, {{0, 1}, {0, 2}}, {1, 3}).content_hash() !=
        from_arcs(3, {{0, 1}, {0, 2}}, {1, 2}).content_hash());
}

TEST_CASE("digraph validation names the arc or limit") {
  CHECK(contains(message_of([] { from_arcs(0, {}); }), "node count 0 is out of range"));
  CHECK(contains(message_of([] { from_arcs(std::int64_t{1} << 31, {}); }),
                 "1..2147483647 nodes"));
  CHECK(contains(message_of([] { from_arcs(3, {{0, 1}, {1, 3}}); }),
                 "arc 1 (1 -> 3) refers to node 3, but the graph has 3 nodes (valid ids 0..2)"));
  CHECK(contains(message_of([] { from_arcs(3, {{-1, 1}}); }), "refers to node -1"));
  CHECK(contains(message_of([] { from_arcs(3, {{0, 1}, {1, 2}}, {4, -2}); }),
                 "arc 1 (1 -> 2) has negative weight -2"));
  CHECK(contains(message_of([] { from_arcs(3, {{0, 1}}, {1, 2}); }), "2 weights for 1 arcs"));
  DigraphInput uneven;
  uneven.nodes = 2;
  uneven.src = {0, 1};
  uneven.dst = {1};
  CHECK(contains(message_of([&] { Digraph::build(uneven); }), "2 arc sources but 1 targets"));
  CHECK(from_arcs(1, {}).arcs() == 0);  // one node, no arcs: fine
}

TEST_CASE("digraph sizes that cannot fit in memory are refused up front") {
  // 2e9 nodes x degree 16 would take about 640 GB.
  const auto msg = message_of(
      [] { make_rmat_digraph(2'000'000'000, 16, 0.57, 0.19, 0.19, false, 1, 0); });
  CHECK(contains(msg, "rmat"));
  CHECK(contains(msg, "of memory"));
}

TEST_CASE("grid digraph: 2*(rows*(cols-1) + cols*(rows-1)) arcs, both directions") {
  const auto g = make_grid_digraph(3, 4, 1, 0);
  CHECK(g.nodes() == 12);
  CHECK(g.arcs() == 2 * (3 * 3 + 4 * 2));  // 34
  CHECK_FALSE(g.weighted());
  // Node 5 = (1, 1): up 1, left 4, right 6, down 9.
  CHECK(vec(g.neighbours(5)) == std::vector<std::int32_t>{1, 4, 6, 9});
  CHECK(vec(g.neighbours(0)) == std::vector<std::int32_t>{1, 4});
  CHECK(g.max_out_degree() == 4);
  CHECK(make_grid_digraph(1, 1, 1, 0).arcs() == 0);

  // Weighted: both directions of an edge weigh the same, all in [1, 9].
  const auto w = make_grid_digraph(5, 6, 9, 3);
  CHECK(w.weighted());
  std::map<std::pair<int, int>, int> weight;
  for (std::int32_t u = 0; u < w.nodes(); ++u)
    for (std::int32_t e = 0; e < w.out_degree(u); ++e)
      weight[{u, w.neighbours(u)[e]}] = w.arc_weights(u)[e];
  std::set<int> seen;
  for (const auto& [arc, x] : weight) {
    CHECK(weight.at({arc.second, arc.first}) == x);
    seen.insert(x);
  }
  CHECK(*seen.begin() >= 1);
  CHECK(*seen.rbegin() <= 9);
  CHECK(seen.size() > 1);  // weighted, not constant
  CHECK(w.content_hash() == make_grid_digraph(5, 6, 9, 3).content_hash());
  CHECK(w.content_hash() != make_grid_digraph(5, 6, 9, 4).content_hash());
  CHECK(contains(message_of([] { make_grid_digraph(0, 3, 1, 0); }), "'rows' must be >= 1"));
  CHECK(contains(message_of([] { make_grid_digraph(65536, 65536, 1, 0); }), "exceed"));
}

TEST_CASE("rmat digraph: exact arc count, deterministic per seed, skewed degrees") {
  const auto g = make_rmat_digraph(1 << 12, 16.0, 0.57, 0.19, 0.19, false, 1, 1);
  CHECK(g.nodes() == 4096);
  CHECK(g.arcs() == 4096 * 16);
  // Mean out-degree 16; the R-MAT hubs (low ids) have many times that.
  CHECK(g.max_out_degree() > 10 * 16);
  CHECK(self_loops(g) == 0);  // drawn again
  const auto same = make_rmat_digraph(1 << 12, 16.0, 0.57, 0.19, 0.19, false, 1, 1);
  CHECK(vec(same.targets()) == vec(g.targets()));
  CHECK(same.content_hash() == g.content_hash());
  CHECK(make_rmat_digraph(1 << 12, 16.0, 0.57, 0.19, 0.19, false, 1, 2).content_hash() !=
        g.content_hash());
  // The first level picks quadrant a (both ids below 2048) with probability
  // 0.57, d (both above) with 0.05; 65536 arcs: standard error about 0.002.
  std::int64_t in_a = 0, in_d = 0;
  for (std::int32_t u = 0; u < g.nodes(); ++u)
    for (const auto v : g.neighbours(u)) {
      in_a += u < 2048 && v < 2048;
      in_d += u >= 2048 && v >= 2048;
    }
  const auto arcs = static_cast<double>(g.arcs());
  CHECK(static_cast<double>(in_a) / arcs == doctest::Approx(0.57).epsilon(0.02));
  CHECK(static_cast<double>(in_d) / arcs == doctest::Approx(0.05).epsilon(0.1));
  // Equal probabilities are a uniform graph: no such skew.
  const auto flat = make_rmat_digraph(1 << 12, 16.0, 0.25, 0.25, 0.25, false, 1, 1);
  CHECK(flat.max_out_degree() < 4 * 16);
  // A node count that is not a power of two: ids stay below it.
  const auto odd = make_rmat_digraph(1000, 3.5, 0.57, 0.19, 0.19, false, 100, 7);
  CHECK(odd.arcs() == 3500);
  CHECK(*std::max_element(odd.targets().begin(), odd.targets().end()) < 1000);
  CHECK(*std::min_element(odd.weights().begin(), odd.weights().end()) >= 1);
  CHECK(*std::max_element(odd.weights().begin(), odd.weights().end()) <= 100);
}

TEST_CASE("rmat and uniform symmetric graphs add every arc's reverse with its weight") {
  for (const auto& g : {make_rmat_digraph(500, 4, 0.57, 0.19, 0.19, true, 50, 5),
                        make_uniform_digraph(500, 4, true, 50, 5)}) {
    CHECK(g.arcs() == 2 * 2000);
    std::multiset<std::tuple<int, int, int>> arcs;
    for (std::int32_t u = 0; u < g.nodes(); ++u)
      for (std::int32_t e = 0; e < g.out_degree(u); ++e)
        arcs.insert({u, g.neighbours(u)[e], g.arc_weights(u)[e]});
    std::size_t unmatched = 0;
    for (const auto& [u, v, w] : arcs) unmatched += arcs.count({v, u, w}) != arcs.count({u, v, w});
    CHECK(unmatched == 0);
  }
}

TEST_CASE("uniform digraph: round(nodes * degree) arcs, no self loops, per-seed") {
  const auto g = make_uniform_digraph(1000, 2.5, false, 1, 9);
  CHECK(g.arcs() == 2500);
  CHECK(self_loops(g) == 0);
  CHECK(g.content_hash() == make_uniform_digraph(1000, 2.5, false, 1, 9).content_hash());
  CHECK(g.content_hash() != make_uniform_digraph(1000, 2.5, false, 1, 10).content_hash());
  CHECK(g.max_out_degree() < 20);  // Poisson(2.5): no hubs
  CHECK(make_uniform_digraph(1, 0, false, 1, 0).arcs() == 0);
}

TEST_CASE("generator arguments are checked") {
  CHECK(contains(message_of([] { make_uniform_digraph(1, 2, false, 1, 0); }), "1 node"));
  CHECK(contains(message_of([] { make_rmat_digraph(10, -1, 0.57, 0.19, 0.19, false, 1, 0); }),
                 "'degree' must be a finite number >= 0"));
  CHECK(contains(message_of([] { make_rmat_digraph(10, 2, 0.7, 0.2, 0.2, false, 1, 0); }),
                 "exceeds 1"));
  CHECK(contains(message_of([] { make_rmat_digraph(10, 2, -0.1, 0.2, 0.2, false, 1, 0); }),
                 "'a' must be in [0, 1]"));
  // All mass on d: every draw is the self loop (15, 15) or beyond node 9.
  CHECK(contains(message_of([] { make_rmat_digraph(10, 2, 0, 0, 0, false, 1, 0); }),
                 "of draws give an arc"));
  CHECK(contains(message_of([] { make_uniform_digraph(10, 2, false, 0, 0); }),
                 "'max_weight' must be >= 1"));
}

TEST_CASE("DIMACS reader: 1-based ids, weights, comments") {
  TempFile f("c a road\np sp 3 4\na 1 2 10\na 2 3 5\nc mid comment\na 1 2 7\n\na 3 3 0\n");
  const auto g = read_dimacs_digraph(f.path);
  CHECK(g.nodes() == 3);
  CHECK(g.weighted());
  CHECK(vec(g.offsets()) == std::vector<std::int64_t>{0, 2, 3, 4});
  CHECK(vec(g.targets()) == std::vector<std::int32_t>{1, 1, 2, 2});  // parallel 0->1, loop 2->2
  CHECK(vec(g.weights()) == std::vector<std::int32_t>{10, 7, 5, 0});
}

TEST_CASE("DIMACS reader errors name the line") {
  CHECK(contains(dimacs_error(""), ":1: the file is empty"));
  CHECK(contains(dimacs_error("c x\na 1 2 3\n"), ":2: arc line before the problem line"));
  CHECK(contains(dimacs_error("c only comments\n"), ":1: no problem line"));
  CHECK(contains(dimacs_error("p sp 2 1\na 1 2 3\np sp 2 1\n"),
                 ":3: a second 'p' line (the problem line is line 1)"));
  CHECK(contains(dimacs_error("p max 2 1\n"), ":1: expected the problem line 'p sp"));
  CHECK(contains(dimacs_error("p sp 2 1\na 1 x 3\n"),
                 ":2: node id must be a whole number; got 'x'"));
  CHECK(contains(dimacs_error("p sp 2 1\na 1 3 3\n"),
                 ":2: node id 3 is out of range (valid ids 1..2)"));
  CHECK(contains(dimacs_error("p sp 2 1\na 0 1 3\n"),
                 ":2: node id 0: ids in this file are 1-based"));
  CHECK(contains(dimacs_error("p sp 2 1\na 1 2 -3\n"), ":2: negative weight -3"));
  CHECK(contains(dimacs_error("p sp 2 1\na 1 2 2.5\n"), ":2: weight 2.5 is not a whole number"));
  CHECK(contains(dimacs_error("p sp 2 1\na 1 2 9999999999\n"),
                 ":2: weight 9999999999 is too large"));
  CHECK(contains(dimacs_error("p sp 2 2\na 1 2 1\n"),
                 ":2: the 'p' line (line 1) declares 2 arcs but the file has 1"));
  CHECK(contains(dimacs_error("p sp 2 1\na 1 2 1\na 2 1 1\n"), ":3: more arcs than the 1"));
  CHECK(contains(dimacs_error("p sp 2 1\nq 1 2\n"), ":2: unknown line type 'q'"));
  CHECK(contains(dimacs_error("p sp 2 1\na 1 2\n"), ":2: expected an arc line"));
  CHECK(contains(dimacs_error("p sp 2 1\na 1 2 1\n\x01\x02"), ":3: control character 0x01"));
  CHECK(contains(dimacs_error(std::string("p sp 2 1\na 1\0 2 1\n", 15)), ":2: a NUL byte"));
  CHECK(contains(dimacs_error("p sp 2 1\na 1 2 \xff\n"), ":2: byte 0xFF, which is not UTF-8"));
  CHECK(contains(dimacs_error("p sp 100000000000 1\n"),
                 ":1: node count 100000000000 is out of range"));
  // A header claiming more arcs than memory holds is refused, not allocated.
  CHECK(contains(dimacs_error("p sp 10 1000000000000\n"), ":1: the graph (10 nodes"));
  CHECK(contains(message_of([] { read_dimacs_digraph("/nonexistent/x.gr"); }), "cannot open"));
}

TEST_CASE("edge-list reader: 0- or 1-based, optional weights, comments and commas") {
  TempFile plain("# header\n0 1\n1,2 % trailing comment\n\n2\t0\n2 0\n");
  const auto g = read_edge_list_digraph(plain.path, false);
  CHECK(g.nodes() == 3);
  CHECK_FALSE(g.weighted());
  CHECK(vec(g.targets()) == std::vector<std::int32_t>{1, 2, 0, 0});
  TempFile weighted("1 2 4\r\n3 1 1e3\r\n");
  const auto w = read_edge_list_digraph(weighted.path, true);
  CHECK(w.nodes() == 3);
  CHECK(vec(w.weights()) == std::vector<std::int32_t>{4, 1000});
}

TEST_CASE("edge-list reader errors name the line") {
  CHECK(contains(edge_list_error(""), ":1: the file is empty"));
  CHECK(contains(edge_list_error("# nothing\n"), ":1: no arcs in the file"));
  CHECK(contains(edge_list_error("0 1\n1 a\n"), ":2: node id must be a whole number; got 'a'"));
  CHECK(contains(edge_list_error("0 1\n1 -1\n"), ":2: node id -1 is out of range"));
  CHECK(contains(edge_list_error("1 2\n0 1\n", true),
                 ":2: node id 0: ids in this file are 1-based"));
  CHECK(contains(edge_list_error("0 1 2\n1 2\n"),
                 ":2: this arc has no weight but the first arc (line 1) has one"));
  CHECK(contains(edge_list_error("0 1\n1 2 3 4\n"), ":2: expected an arc 'U V' or 'U V W'"));
  CHECK(contains(edge_list_error("0 1 -5\n"), ":1: negative weight -5"));
  CHECK(contains(edge_list_error("0 1 0.5\n"), ":1: weight 0.5 is not a whole number"));
  CHECK(contains(edge_list_error("0 1\n2147483647 0\n"), ":2: node id 2147483647 is out of range"));
}

TEST_CASE("Matrix Market reader: general, symmetric, pattern, real") {
  TempFile general(
      "%%MatrixMarket matrix coordinate integer general\n% c\n3 3 3\n1 2 5\n3 1 2\n2 2 1\n");
  const auto g = read_matrix_market_digraph(general.path);
  CHECK(g.weighted());
  CHECK(vec(g.offsets()) == std::vector<std::int64_t>{0, 1, 2, 3});
  CHECK(vec(g.targets()) == std::vector<std::int32_t>{1, 1, 0});
  CHECK(vec(g.weights()) == std::vector<std::int32_t>{5, 1, 2});
  // Symmetric pattern: (2, 1) adds 1->0 and 0->1; the diagonal (3, 3) once.
  TempFile sym("%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 3\n");
  const auto s = read_matrix_market_digraph(sym.path);
  CHECK_FALSE(s.weighted());
  CHECK(s.arcs() == 3);
  CHECK(vec(s.offsets()) == std::vector<std::int64_t>{0, 1, 2, 3});
  CHECK(vec(s.targets()) == std::vector<std::int32_t>{1, 0, 2});
  TempFile real("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 3.0e1\n");
  CHECK(read_matrix_market_digraph(real.path).weights()[0] == 30);
}

TEST_CASE("Matrix Market reader errors name the line and what is supported") {
  const std::string head = "%%MatrixMarket matrix coordinate real general\n";
  CHECK(contains(mm_error("3 3 1\n1 2 1\n"), ":1: expected the Matrix Market banner"));
  for (const std::string variant :
       {"array real general", "coordinate complex general", "coordinate real hermitian",
        "coordinate real skew-symmetric"}) {
    const auto msg = mm_error("%%MatrixMarket matrix " + variant + "\n2 2 1\n1 2 1\n");
    CHECK(contains(msg, ":1: "));
    CHECK(contains(msg, "is not supported"));
    CHECK(contains(msg, "supported: '%%MatrixMarket matrix coordinate "
                        "<pattern|integer|real> <general|symmetric>'"));
  }
  CHECK(contains(mm_error(head + "2 3 1\n1 2 1\n"), ":2: the matrix is 2 x 3"));
  CHECK(contains(mm_error(head + "2 2 1\n1 2 -1\n"), ":3: negative weight -1"));
  CHECK(contains(mm_error(head + "2 2 1\n1 2 1.5\n"), ":3: weight 1.5 is not a whole number"));
  CHECK(contains(mm_error(head + "2 2 1\n1 2\n"),
                 ":3: expected an entry '<row> <column> <value>'"));
  CHECK(contains(mm_error(head + "2 2 1\n0 2 1\n"), ":3: node id 0"));
  CHECK(contains(mm_error(head + "2 2 2\n1 2 1\n"),
                 ":3: the size line (line 2) declares 2 entries but the file has 1"));
  CHECK(contains(mm_error(head + "2 2 1\n1 2 1\n2 1 1\n"), ":4: more entries than the 1"));
  CHECK(contains(mm_error(head + "% only comments\n"), ":2: no size line"));
  CHECK(contains(mm_error("%%MatrixMarket matrix coordinate real symmetric\n2 2 1\n1 2 1\n"),
                 ":3: entry (1, 2) lies above the diagonal"));
}
