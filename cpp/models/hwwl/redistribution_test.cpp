// Golden cases of the five redistribution schemes (HWWL §III-C) under limited
// bandwidth: hand-made bank loads and the moves each scheme plans, worked out
// round by round (one round = one cycle) below each case.  Threshold 5.
// A move is {from, to, count, round}: count ids in consecutive rounds.
#include <doctest/doctest.h>

#include <vector>

#include "models/hwwl/redistribution.hpp"

using namespace tbdse::hwwl;

namespace {

struct Limits {
  std::int32_t bank = 10, core = 10, rounds = 10, capacity = 1 << 30;
};

std::vector<Move> plan(Redistribution s, std::int32_t cores, std::int32_t lanes,
                       const std::vector<std::int32_t>& loads, RedistributionState& state,
                       Limits lim = {}) {
  const std::vector<std::int32_t> bank(loads.size(), lim.bank);
  const std::vector<std::int32_t> core(static_cast<std::size_t>(cores), lim.core);
  return plan_redistribution(s, cores, lanes, loads, 5, lim.capacity, {lim.rounds, bank, core},
                             state);
}

bool same(const std::vector<Move>& got, const std::vector<Move>& want) {
  if (got.size() != want.size()) return false;
  for (std::size_t i = 0; i < got.size(); ++i)
    if (got[i].from != want[i].from || got[i].to != want[i].to || got[i].count != want[i].count ||
        got[i].round != want[i].round)
      return false;
  return true;
}

}  // namespace

TEST_CASE("none moves nothing, whatever the imbalance") {
  RedistributionState st;
  CHECK(plan(Redistribution::NONE, 1, 4, {40, 0, 0, 0}, st).empty());
}

TEST_CASE("threshold: greedy banks give round robin to needy ones, several ids per pair") {
  // Loads 8, 0, 6, 2: greedy lanes 0, 2; needy lanes 1, 3 (round robin from 1).
  // Round 0: 0 -> 1, 2 -> 3 (loads 7, 1, 5, 3).  Round 1: lane 2 is no longer
  // above the threshold; 0 -> 1 again (6, 2, 5, 3).  Round 2: the round robin
  // has reached lane 3: 0 -> 3 (5, 2, 5, 4).  Round 3: no greedy bank left.
  RedistributionState st;
  CHECK(same(plan(Redistribution::THRESHOLD, 1, 4, {8, 0, 6, 2}, st),
             {{0, 1, 2, 0}, {2, 3, 1, 0}, {0, 3, 1, 2}}));
}

TEST_CASE("scarce WRU bandwidth goes to each scheme's first donor") {
  // Loads 6, 0, 12, 0 and one id per core (transfers_per_core = 1).
  // threshold visits greedy banks in lane order: lane 0 (barely above the
  // threshold) takes the id (§IV-D's weakness).  lsorting ranks the banks:
  // the fullest (lane 2) gives to the emptiest needy bank (lane 3, ties by
  // lane from the bottom of the ranking).  gsorting's global ranking is the
  // same on one core.
  Limits one{.core = 1};
  RedistributionState a, b, c;
  CHECK(same(plan(Redistribution::THRESHOLD, 1, 4, {6, 0, 12, 0}, a, one), {{0, 1, 1, 0}}));
  CHECK(same(plan(Redistribution::LSORTING, 1, 4, {6, 0, 12, 0}, b, one), {{2, 3, 1, 0}}));
  CHECK(same(plan(Redistribution::GSORTING, 1, 4, {6, 0, 12, 0}, c, one), {{2, 3, 1, 0}}));
}

TEST_CASE("lsorting: per-bank and per-core caps") {
  // Loads 20, 20, 0, 0: donors lanes 0, 1 (fullest first), receivers 3, 2
  // (emptiest first, from the bottom of the ranking).  Each round 0 -> 3 and
  // 1 -> 2.  Three ids per bank: three rounds, then every budget is spent.
  RedistributionState st;
  CHECK(same(plan(Redistribution::LSORTING, 1, 4, {20, 20, 0, 0}, st, {.bank = 3}),
             {{0, 3, 3, 0}, {1, 2, 3, 0}}));
  // Four ids for the core: two rounds of two.
  CHECK(same(plan(Redistribution::LSORTING, 1, 4, {20, 20, 0, 0}, st, {.core = 4}),
             {{0, 3, 2, 0}, {1, 2, 2, 0}}));
  // Three rounds (a 3-cycle interval): three ids although the receiver is
  // still needy.
  CHECK(same(plan(Redistribution::LSORTING, 1, 2, {20, 0}, st, {.rounds = 3}), {{0, 1, 3, 0}}));
  // A receiver with room for two ids takes two.
  CHECK(same(plan(Redistribution::LSORTING, 1, 2, {20, 0}, st, {.capacity = 2}), {{0, 1, 2, 0}}));
}

TEST_CASE("lsorting: when every bank is needy the fuller half gives to the emptier half") {
  // Loads 4, 0, 3, 1.  Ranked 0 (4), 2 (3), 3 (1), 1 (0): donors 0, 2;
  // receivers 1, 3.  Round 0: 0 -> 1, 2 -> 3 (3, 1, 2, 2).  Round 1: 0 -> 1
  // (2, 2, 2, 2).  Then all equal.
  RedistributionState st;
  CHECK(same(plan(Redistribution::LSORTING, 1, 4, {4, 0, 3, 1}, st),
             {{0, 1, 2, 0}, {2, 3, 1, 0}}));
  // Loads differing by one move nothing (no ping-pong).
  CHECK(plan(Redistribution::LSORTING, 1, 4, {2, 1, 2, 1}, st).empty());
}

TEST_CASE("threshold and lsorting: a greedy core sends one id per cycle over the network") {
  // Two cores of two lanes: core 0 holds 9 and 7 (its global greedy bit is
  // set), core 1 holds 0 and 1 (clear; its 1 -> 0 is not worth a move).  Each
  // round core 0's first donor above the threshold sends one id into core
  // 1's least-loaded bank: 0 -> 2, 0 -> 2, 0 -> 3, 0 -> 2 (bank 0 is down to
  // 5), then bank 1: 1 -> 3, 1 -> 2.  Loads end 5, 5, 4, 3.
  for (const auto scheme : {Redistribution::THRESHOLD, Redistribution::LSORTING}) {
    RedistributionState st;
    CHECK(same(plan(scheme, 2, 2, {9, 7, 0, 1}, st),
               {{0, 2, 2, 0}, {0, 3, 1, 2}, {0, 2, 1, 3}, {1, 3, 1, 4}, {1, 2, 1, 5}}));
  }
}

TEST_CASE("the network takes one id into a core per cycle; the hub alternates senders") {
  // Three cores of one lane: 9 | 9 | 0.  Cores 0 and 1 are greedy, core 2 is
  // not, and it receives one id per round.  The hub starts at core 0 and
  // moves on each round: round 0 core 0, 1 core 1, 2 core 0 (core 1 would
  // come next but core 2's input is taken), 3 core 0 (hub at 0), 4 and 5
  // core 1 (at 5 core 0's 6 vs 5 is not worth it).  Loads end 6, 6, 6.
  RedistributionState st;
  CHECK(same(plan(Redistribution::LSORTING, 3, 1, {9, 9, 0}, st),
             {{0, 2, 1, 0}, {1, 2, 1, 1}, {0, 2, 2, 2}, {1, 2, 2, 4}}));
}

TEST_CASE("gsorting: excess donors cross to other cores, one id per core per cycle") {
  // Loads 10, 8 | 6, 0.  Global ranking 10, 8, 6, 0: banks 0, 1 greedy, 2, 3
  // needy; core 0 has no receiver.  Core 0 injects one id per round: the
  // fullest donor first, to the emptiest receiver: 0 -> 3 five times (10 and
  // 0 become 5 and 5), then bank 1 (8) -> 3 once (7, 6).  Then nothing is
  // worth moving.
  RedistributionState st;
  CHECK(same(plan(Redistribution::GSORTING, 2, 2, {10, 8, 6, 0}, st),
             {{0, 3, 5, 0}, {1, 3, 1, 5}}));
}

TEST_CASE("gsorting serves banks below the threshold first even when globally greedy") {
  // One core, loads 20, 4, 30, 3, 10, 9.  Ranking: 30 (2), 20 (0), 10 (4),
  // 9 (5), 4 (1), 3 (3): greedy 2, 0, 4; needy 5, 1, 3.  Receivers: below the
  // threshold first, emptiest first (3, 1), then 5.  Two ids per bank:
  // rounds 0 and 1 move 2 -> 3 and 0 -> 1; 4 -> 5 is never worth it (10 < 9 + 2).
  RedistributionState st;
  CHECK(same(plan(Redistribution::GSORTING, 1, 6, {20, 4, 30, 3, 10, 9}, st, {.bank = 2}),
             {{2, 3, 2, 0}, {0, 1, 2, 0}}));
}

TEST_CASE("magic balances every bank to within one id, without bandwidth limits") {
  // 12 ids over four banks: three each.  Bank 0 gives 3, 3 and 1.
  RedistributionState st;
  Limits none{.bank = 0, .core = 0, .rounds = 1};
  CHECK(same(plan(Redistribution::MAGIC, 1, 4, {10, 0, 0, 2}, st, none),
             {{0, 1, 3, 0}, {0, 2, 3, 0}, {0, 3, 1, 0}}));
  // With two entries per partition no bank is filled beyond them.
  none.capacity = 2;
  CHECK(same(plan(Redistribution::MAGIC, 1, 4, {10, 0, 0, 2}, st, none),
             {{0, 1, 2, 0}, {0, 2, 2, 0}}));
  // Across cores too: 7 ids, the first three banks get two.
  CHECK(same(plan(Redistribution::MAGIC, 2, 2, {0, 0, 7, 0}, st),
             {{2, 0, 2, 0}, {2, 1, 2, 0}, {2, 3, 1, 0}}));
}

TEST_CASE("auto network latency: two hops through one hub up to 4 cores, then more levels") {
  CHECK(auto_network_latency(1) == 2);
  CHECK(auto_network_latency(4) == 2);  // §III-C: two hops on the 4-core machine
  CHECK(auto_network_latency(5) == 4);
  CHECK(auto_network_latency(16) == 4);
  CHECK(auto_network_latency(17) == 6);
  CHECK(auto_network_latency(64) == 6);
}
