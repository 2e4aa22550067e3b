// Golden cases of the worklist machine's load-store queue (lsu_queue.hpp) and
// of the addresses its steps touch (operator_memory.hpp), worked out by hand.
#include <doctest/doctest.h>

#include <memory>

#include "core/coalescer.hpp"
#include "core/digraph.hpp"
#include "models/hwwl/lsu_queue.hpp"
#include "models/hwwl/operator_memory.hpp"

using namespace tbdse;
using namespace tbdse::hwwl;

TEST_CASE("the LSU queue books entries until their release and finds when n are free") {
  LsuQueue q(64);
  CHECK(q.earliest(0, 32) == 0);  // empty: at once
  q.book(32, 300);                // a scattered warp load: 32 entries until 300
  q.book(16, 200);
  CHECK(q.free_at(0) == 16);
  CHECK(q.earliest(10, 16) == 10);   // 16 still free
  CHECK(q.earliest(10, 17) == 200);  // needs the 16 released at 200
  CHECK(q.earliest(10, 64) == 300);  // needs everything
  CHECK(q.earliest(10, 100) == 300); // more than the queue: capped at its size
  CHECK(q.free_at(250) == 32);
  q.release(250);  // the 16 are gone for good
  CHECK(q.free_at(250) == 32);
  CHECK(q.earliest(250, 33) == 300);
  q.release(300);
  CHECK(q.free_at(300) == 64);
  q.book(60, 700);
  CHECK(q.free_at(300) == 4);
  CHECK(q.earliest(300, 5) == 700);
}

TEST_CASE("a BFS item's rounds: the node's offset and value, then per arc its target, then "
          "the target's value") {
  // 0 -> 1, 0 -> 2, 1 -> 2: node 0 has arcs 0 and 1.
  auto g = std::make_shared<Digraph>(Digraph::build({3, {0, 0, 1}, {1, 2, 2}, {}}));
  OperatorSpec spec;
  spec.kind = OperatorKind::BFS;
  const WorklistProblem problem(g, spec);
  const OperatorMemory mem(problem);
  CHECK(mem.rounds(0) == 5);  // 1 + 2 arcs x 2
  CHECK(mem.rounds(2) == 1);  // no arcs
  Access a[2];
  REQUIRE(mem.round_loads(0, 0, a) == 2);
  CHECK(a[0].address == OperatorMemory::word(OperatorMemory::OFFSETS, 0));
  CHECK(a[1].address == OperatorMemory::word(OperatorMemory::VALUES, 0));
  REQUIRE(mem.round_loads(0, 3, a) == 1);  // arc 1's target (BFS: no weight)
  CHECK(a[0].address == OperatorMemory::word(OperatorMemory::TARGETS, 1));
  REQUIRE(mem.round_loads(0, 4, a) == 1);  // arc 1 leads to node 2
  CHECK(a[0].address == OperatorMemory::word(OperatorMemory::VALUES, 2));
}

TEST_CASE("consecutive nodes' values coalesce into one line; ids 32 apart into 32") {
  std::array<std::uint64_t, kWarpSize> near{}, far{};
  for (int k = 0; k < kWarpSize; ++k) {
    near[k] = OperatorMemory::word(OperatorMemory::VALUES, k);
    far[k] = OperatorMemory::word(OperatorMemory::VALUES, 32 * k);
  }
  CHECK(coalesce(near.data(), 0xFFFFFFFFu, 4).count == 1);
  CHECK(coalesce(far.data(), 0xFFFFFFFFu, 4).count == 32);
}

TEST_CASE("overflow slots of different cores and partitions never share a line") {
  const auto a = OperatorMemory::overflow_slot(0, 0, 31);
  const auto b = OperatorMemory::overflow_slot(0, 1, 0);
  const auto c = OperatorMemory::overflow_slot(1, 0, 0);
  CHECK((a >> 7) != (b >> 7));
  CHECK((b >> 7) != (c >> 7));
  CHECK(OperatorMemory::overflow_slot(0, 0, 32) - OperatorMemory::overflow_slot(0, 0, 0) == 128);
}
