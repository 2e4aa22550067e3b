#include "core/task_graph.hpp"

#include <doctest/doctest.h>

#include <functional>

#include "core/errors.hpp"
#include "core/generators.hpp"
#include "core/test_support.hpp"

using namespace tbdse;
using tbdse::test_support::message_of;

namespace {
TaskGraph from_edges(std::int32_t n, std::vector<std::pair<TaskId, TaskId>> edges) {
  TaskGraphInput in;
  in.nodes = n;
  for (auto [s, d] : edges) {
    in.edge_src.push_back(s);
    in.edge_dst.push_back(d);
  }
  return TaskGraph::build(std::move(in));
}

}  // namespace

TEST_CASE("CSR: children sorted, duplicates merged, parent counts") {
  // 0 -> {2, 1, 2 again}, 1 -> 3, 2 -> 3
  const auto g = from_edges(4, {{0, 2}, {0, 1}, {0, 2}, {1, 3}, {2, 3}});
  CHECK(g.size() == 4);
  CHECK(g.edge_count() == 4);  // the duplicate 0 -> 2 counts once
  CHECK(std::vector<TaskId>(g.children(0).begin(), g.children(0).end()) ==
        std::vector<TaskId>{1, 2});
  CHECK(g.edge_starts()[0] == 0);
  CHECK(g.edge_starts()[1] == 2);  // node 1's children start after node 0's two
  CHECK(g.parent_count(0) == 0);
  CHECK(g.parent_count(3) == 2);
  CHECK(g.child_count(3) == 0);
}

TEST_CASE("levels are 1 + max parent level, roots at 0") {
  // 0 -> 1 -> 2 and 0 -> 2: task 2 has parents at levels 0 and 1, so level 2.
  const auto g = from_edges(4, {{0, 1}, {1, 2}, {0, 2}});
  const auto level_of = [&](TaskId input) { return g.level(g.node_of(input)); };
  CHECK(level_of(0) == 0);
  CHECK(level_of(1) == 1);
  CHECK(level_of(2) == 2);
  CHECK(level_of(3) == 0);  // isolated task is a root
  CHECK(g.num_levels() == 3);
  // Stored renamed level by level: 0 and 3 (level 0), then 1, then 2.
  CHECK(std::vector<TaskId>(g.original_ids().begin(), g.original_ids().end()) ==
        std::vector<TaskId>{0, 3, 1, 2});
  // Node 0 (task 0) has children tasks 1 and 2 = nodes 2 and 3.
  CHECK(std::vector<TaskId>(g.children(0).begin(), g.children(0).end()) ==
        std::vector<TaskId>{2, 3});
  const auto [starts, children] = g.original_csr();
  CHECK(starts == std::vector<std::int64_t>{0, 2, 3, 3, 3});
  CHECK(children == std::vector<TaskId>{1, 2, 2});
}

TEST_CASE("virtual ids order nodes level by level (Wireframe §3.2.2)") {
  // 3x3 wavefront, row-major ids; levels are anti-diagonals i + j.
  const auto g = make_wavefront(3, 3);
  const std::vector<TaskId> expected = {0, 1, 3, 2, 4, 6, 5, 7, 8};
  for (std::int32_t v = 0; v < 9; ++v) CHECK(g.original_id(v) == expected[v]);
  for (TaskId t = 0; t < 9; ++t) CHECK(g.original_id(g.node_of(t)) == t);
  CHECK(g.level(8) == 4);  // the last node is the last tile
  for (TaskId v = 1; v < 9; ++v) CHECK(g.level(v - 1) <= g.level(v));
}

TEST_CASE("wavefront edges go west->east and north->south") {
  const auto g = make_wavefront(2, 3);  // ids 0 1 2 / 3 4 5
  const auto [starts, children] = g.original_csr();
  CHECK(std::vector<TaskId>(children.begin() + starts[0], children.begin() + starts[1]) ==
        std::vector<TaskId>{1, 3});
  CHECK(g.parent_count(g.node_of(4)) == 2);
  CHECK(g.edge_count() == 7);  // 2 rows x 2 horizontal + 3 vertical
}

TEST_CASE("critical path sums costs along the longest chain") {
  const auto g = from_edges(4, {{0, 1}, {1, 3}, {0, 2}, {2, 3}});  // already in level order
  const std::vector<Cycle> cost = {10, 5, 20, 1};
  CHECK(g.critical_path(cost) == 31);  // 0 -> 2 -> 3: 10 + 20 + 1
}

TEST_CASE("a cycle is rejected naming a node on it") {
  const std::string msg = message_of([] { from_edges(5, {{0, 1}, {1, 2}, {2, 3}, {3, 1}, {3, 4}}); });
  CHECK(msg.find("cycle") != std::string::npos);
  // the cycle is 1 -> 2 -> 3 -> 1; node 4 is only downstream of it
  CHECK((msg.find("node 1") != std::string::npos || msg.find("node 2") != std::string::npos ||
         msg.find("node 3") != std::string::npos));
  CHECK(msg.find("1 -> 2 -> 3") != std::string::npos);
}

TEST_CASE("self loops, missing nodes, empty graphs and bad attributes are rejected") {
  CHECK(message_of([] { from_edges(3, {{1, 1}}); }).find("self loop on node 1") !=
        std::string::npos);
  CHECK(message_of([] { from_edges(3, {{0, 7}}); }).find("refers to node 7") != std::string::npos);
  CHECK(message_of([] { from_edges(3, {{-1, 2}}); }).find("refers to node -1") !=
        std::string::npos);
  CHECK(message_of([] { from_edges(0, {}); }).find("empty") != std::string::npos);
  CHECK(message_of([] {
          TaskGraphInput in;
          in.nodes = 2;
          in.cost = {5, -1};
          TaskGraph::build(in);
        }).find("node 1 has negative cost") != std::string::npos);
}

TEST_CASE("content hash depends on structure and costs") {
  const auto a = make_wavefront(4, 4);
  const auto b = make_wavefront(4, 4);
  const auto c = make_wavefront(4, 5);
  CHECK(a.content_hash() == b.content_hash());
  CHECK(a.content_hash() != c.content_hash());
}

TEST_CASE("barrier graphs: global and pairwise (Wireframe Fig. 2)") {
  const auto global = make_barrier(4, 2, 4);
  CHECK(global.edge_count() == 16);  // every block of stage 1 depends on all 4 of stage 0
  CHECK(global.parent_count(4) == 4);
  const auto pairwise = make_barrier(4, 3, 2);
  CHECK(pairwise.edge_count() == 16);  // 2 boundaries x 2 pairs x 4 edges
  CHECK(pairwise.parent_count(5) == 2);  // stages are levels, so ids are already virtual ids
  CHECK(std::vector<TaskId>(pairwise.children(2).begin(), pairwise.children(2).end()) ==
        std::vector<TaskId>{6, 7});
}

TEST_CASE("layered random DAGs are seeded and keep one level per layer") {
  const auto a = make_layered_random(6, 10, 0.2, 2, 42);
  const auto b = make_layered_random(6, 10, 0.2, 2, 42);
  const auto c = make_layered_random(6, 10, 0.2, 2, 43);
  CHECK(a.content_hash() == b.content_hash());
  CHECK(a.content_hash() != c.content_hash());
  for (TaskId t = 0; t < a.size(); ++t) CHECK(a.level(t) == t / 10);
}
