// Golden cases of the five redistribution schemes (HWWL §III-C): hand-made bank
// loads and the moves each scheme plans, worked out below each case.
#include <doctest/doctest.h>

#include <vector>

#include "models/hwwl/redistribution.hpp"

using namespace tbdse::hwwl;

namespace {

std::vector<Move> plan(Redistribution s, std::int32_t cores, std::int32_t lanes,
                       const std::vector<std::int32_t>& loads, RedistributionState& state,
                       std::int32_t capacity = 1 << 30) {
  return plan_redistribution(s, cores, lanes, loads, 5, capacity, state);
}

bool same(const std::vector<Move>& got, const std::vector<Move>& want) {
  if (got.size() != want.size()) return false;
  for (std::size_t i = 0; i < got.size(); ++i)
    if (got[i].from != want[i].from || got[i].to != want[i].to || got[i].count != want[i].count)
      return false;
  return true;
}

}  // namespace

TEST_CASE("none moves nothing, whatever the imbalance") {
  RedistributionState st;
  CHECK(plan(Redistribution::NONE, 1, 4, {40, 0, 0, 0}, st).empty());
}

TEST_CASE("threshold: greedy banks give round robin to needy ones, in lane order") {
  // Threshold 5: greedy = lanes 0 (8) and 2 (6); needy = lanes 1 (0) and 3 (2).
  // The first interval pairs greedy[i] with needy[i]; the round-robin start
  // then moves on, so the next interval pairs them the other way round.
  RedistributionState st;
  const std::vector<std::int32_t> loads = {8, 0, 6, 2};
  CHECK(same(plan(Redistribution::THRESHOLD, 1, 4, loads, st), {{0, 1, 1}, {2, 3, 1}}));
  CHECK(same(plan(Redistribution::THRESHOLD, 1, 4, loads, st), {{0, 3, 1}, {2, 1, 1}}));
}

TEST_CASE("threshold gives the fullest bank to whichever needy bank comes first") {
  // Loads 3, 9, 0, 7: greedy lanes 1 (9), 3 (7); needy lanes 0 (3), 2 (0) in
  // lane order.  Lane 1 (the fullest) gives to lane 0 although lane 2 is
  // empty: the weakness §IV-D describes.
  RedistributionState st;
  CHECK(same(plan(Redistribution::THRESHOLD, 1, 4, {3, 9, 0, 7}, st), {{1, 0, 1}, {3, 2, 1}}));
}

TEST_CASE("lsorting: the fullest banks give to the emptiest needy ones") {
  // Same loads 3, 9, 0, 7.  Ranked: lane 1 (9), 3 (7), 0 (3), 2 (0); needy,
  // emptiest first: 2 (0), 0 (3).  Pairs: 1 -> 2 and 3 -> 0 (7 >= 3 + 2).
  RedistributionState st;
  CHECK(same(plan(Redistribution::LSORTING, 1, 4, {3, 9, 0, 7}, st), {{1, 2, 1}, {3, 0, 1}}));
}

TEST_CASE("lsorting: when every bank is needy the fuller half gives to the emptier half") {
  // Loads 4, 0, 3, 1 (all below 5).  Ranked: 0 (4), 2 (3), 3 (1), 1 (0).  The
  // top half {0, 2} gives to the bottom half {1, 3}, emptiest first: 0 -> 1
  // (4 >= 0 + 2) and 2 -> 3 (3 >= 1 + 2).
  RedistributionState st;
  CHECK(same(plan(Redistribution::LSORTING, 1, 4, {4, 0, 3, 1}, st), {{0, 1, 1}, {2, 3, 1}}));
  // Loads differing by one move nothing (no ping-pong).
  CHECK(plan(Redistribution::LSORTING, 1, 4, {2, 1, 2, 1}, st).empty());
}

TEST_CASE("threshold and lsorting: a greedy core sends one id to a core whose bit is clear") {
  // Two cores of two lanes: core 0 holds 9 and 7 (two greedy, no needy: its
  // global greedy bit is set), core 1 holds 0 and 1 (bit clear).  Core 0 has
  // no needy bank of its own, so its fullest bank (bank 0) sends one id over
  // the network into core 1's least-loaded bank (bank 2).
  for (const auto scheme : {Redistribution::THRESHOLD, Redistribution::LSORTING}) {
    RedistributionState st;
    const auto moves = plan(scheme, 2, 2, {9, 7, 0, 1}, st);
    REQUIRE(!moves.empty());
    CHECK(moves[0].from == 0);
    CHECK(moves[0].to == 2);
    // core 1's own banks differ by one: nothing moves inside it
    CHECK(moves.size() == 1);
  }
}

TEST_CASE("gsorting: one global ranking, excess donors cross to other cores' receivers") {
  // Loads 10, 8 | 6, 0 over two cores.  Global ranking 10, 8, 6, 0: the top
  // half (banks 0, 1) is greedy, the bottom half (2, 3) needy.  Core 0 has no
  // receiver, so its donors are excess; core 1's receivers are bank 3 (below
  // the threshold, first) then bank 2.  The fullest excess donor (bank 0)
  // sends to the emptiest receiver (bank 3); core 0 may send only one id per
  // interval, so bank 1 waits.
  RedistributionState st;
  CHECK(same(plan(Redistribution::GSORTING, 2, 2, {10, 8, 6, 0}, st), {{0, 3, 1}}));
}

TEST_CASE("gsorting serves banks below the threshold first even when globally greedy") {
  // One core, loads 20, 4, 30, 3, 10, 9 (threshold 5).  Ranking: 30 (2),
  // 20 (0), 10 (4), 9 (5), 4 (1), 3 (3): greedy = banks 2, 0, 4; needy = 5,
  // 1, 3.  Receivers: below the threshold first, emptiest first (3, 1), then
  // the other needy bank (5).  Donors 2 -> 3, 0 -> 1, 4 -> 5 (10 >= 9 + 2? no:
  // that pair is skipped).
  RedistributionState st;
  CHECK(same(plan(Redistribution::GSORTING, 1, 6, {20, 4, 30, 3, 10, 9}, st),
             {{2, 3, 1}, {0, 1, 1}}));
}

TEST_CASE("magic balances every bank to within one id, without bandwidth limits") {
  // 12 ids over four banks: three each.  Bank 0 gives 3, 3 and 1.
  RedistributionState st;
  CHECK(same(plan(Redistribution::MAGIC, 1, 4, {10, 0, 0, 2}, st),
             {{0, 1, 3}, {0, 2, 3}, {0, 3, 1}}));
  // With two entries per partition no bank is filled beyond them.
  CHECK(same(plan(Redistribution::MAGIC, 1, 4, {10, 0, 0, 2}, st, 2), {{0, 1, 2}, {0, 2, 2}}));
  // Across cores too: 7 ids, the first three banks get two.
  CHECK(same(plan(Redistribution::MAGIC, 2, 2, {0, 0, 7, 0}, st), {{2, 0, 2}, {2, 1, 2}, {2, 3, 1}}));
}
