// Golden cases of the control-flow machines (docs/models/vgiw.md): the
// eight-thread example of VGIW Figs. 1-2, immediate post-dominators of
// hand-made CFGs, and malformed kernels.
#include <doctest/doctest.h>

#include <set>

#include "core/errors.hpp"
#include "models/vgiw/machines.hpp"
#include "models/vgiw/test_support.hpp"

using namespace tbdse;
using namespace tbdse::vgiw;
using tbdse::vgiw::test_support::block;

namespace {

// Fig. 1a with BB1..BB6 as ids 0..5: BB1 -> BB2 | BB3, BB3 -> BB4 | BB5,
// BB2, BB4, BB5 -> BB6.  Threads 1..8 are ids 0..7 with the paths of §2.
CfgKernel fig1_kernel() {
  std::vector<BasicBlock> b = {block({1, 2}, BranchKind::PATHS), block({5}),
                               block({3, 4}, BranchKind::PATHS), block({5}), block({5}), block({})};
  const std::vector<std::int32_t> p12 = {0, 1, 5}, p134 = {0, 2, 3, 5}, p135 = {0, 2, 4, 5};
  return CfgKernel("fig1", b, 8, {p12, p134, p12, p135, p135, p135, p134, p12});
}

ResolvedRun run_of() {
  ResolvedRun r;
  r.model_key = 42;
  return r;
}

}  // namespace

TEST_CASE("Fig. 2: each block's thread vector holds the threads of section 2") {
  const CfgKernel k = fig1_kernel();
  Walker w(k, 1);
  // Run it as vgiw's scheduler does and record who executes each block.
  std::vector<std::set<int>> who(6);
  std::vector<std::set<int>> vec(6);
  for (int t = 0; t < 8; ++t) vec[0].insert(t);
  int configurations = 0;
  for (;;) {
    int b = 0;
    while (b < 6 && vec[b].empty()) ++b;
    if (b == 6) break;
    ++configurations;
    const auto threads = vec[b];
    vec[b].clear();
    for (const int t : threads) {
      who[b].insert(t + 1);  // the paper numbers threads from 1
      const int next = w.next(t, b);
      if (next != k.exit_id()) vec[next].insert(t);
    }
  }
  CHECK(who[0] == std::set<int>{1, 2, 3, 4, 5, 6, 7, 8});
  CHECK(who[1] == std::set<int>{1, 3, 8});
  CHECK(who[2] == std::set<int>{2, 4, 5, 6, 7});
  CHECK(who[3] == std::set<int>{2, 7});
  CHECK(who[4] == std::set<int>{4, 5, 6});
  CHECK(who[5] == std::set<int>{1, 2, 3, 4, 5, 6, 7, 8});
  CHECK(configurations == 6);  // Fig. 2a-f: one configuration per block
}

TEST_CASE("Fig. 1b: simt lane utilisation of the example is 29/48") {
  // One warp of 8 lanes runs all six blocks (one instruction each): 8 + 3 +
  // 5 + 2 + 3 + 8 = 29 active lanes out of 6 x 8 = 48.
  const CfgKernel k = fig1_kernel();
  SimtParams p;
  p.warp_size = 8;
  p.control_instructions = 0;  // Fig. 1b counts the blocks' instructions only
  const RunOutput out = run_simt(p, k, run_of(), true);
  CHECK(out.metrics[LANE_UTILISATION] == doctest::Approx(29.0 / 48.0));
  CHECK(out.metrics[WARP_INSTRUCTIONS] == 6);
  CHECK(out.metrics[BLOCK_EXECUTIONS] == 29);
}

TEST_CASE("simt's warp network: never below any resource's busy time or the stalls over the warps") {
  const double busy[5] = {1000, 400, 0, 800, 100};
  for (double resident : {1.0, 4.0, 48.0}) {
    const double t = warp_network_cycles(busy, 20000, resident, 512);
    CHECK(t >= 1000);
    CHECK(t >= 20000 / resident);
    CHECK(t <= 1000 + 400 + 800 + 100 + 20000);  // one warp at a time: the sum
  }
  // One warp: no overlap at all.
  CHECK(warp_network_cycles(busy, 20000, 1, 512) == doctest::Approx(22300));
  // Many warps: the busiest resource.
  CHECK(warp_network_cycles(busy, 20000, 512, 512) == doctest::Approx(1000).epsilon(0.05));
}

TEST_CASE("vgiw loads six configurations for the example and every machine runs 29 blocks") {
  const CfgKernel k = fig1_kernel();
  const RunOutput v = run_vgiw(VgiwParams{}, k, run_of(), true);
  CHECK(v.metrics[CONFIGURATIONS] == 6);
  CHECK(v.metrics[BLOCK_EXECUTIONS] == 29);
  CHECK(v.metrics[RECONFIG_CYCLES] == 6 * 34);
  const RunOutput s = run_sgmf(SgmfParams{}, k, run_of(), true);
  CHECK(s.metrics[MAPS] == 1);
  CHECK(s.metrics[BLOCK_EXECUTIONS] == 29);
  CHECK(v.values[1].values == s.values[1].values);  // path digests agree
}

TEST_CASE("immediate post-dominators: diamond, nested if, loop, early exit") {
  // Diamond 0 -> 1 | 2 -> 3: ipdom(0) = 3, ipdom(1) = ipdom(2) = 3, ipdom(3) = exit (4).
  CHECK(immediate_post_dominators({{1, 2}, {3}, {3}, {}}) == std::vector<std::int32_t>{3, 3, 3, 4});
  // Loop 0 -> 1, 1 -> 2, 2 -> 1 | 3 (back edge), 3 exit: the latch 2 reconverges at 3.
  CHECK(immediate_post_dominators({{1}, {2}, {1, 3}, {}}) == std::vector<std::int32_t>{1, 2, 3, 4});
  // Early exit: 0 -> 1 | 2, 1 exits, 2 -> 3 exits: only the virtual exit post-dominates 0.
  CHECK(immediate_post_dominators({{1, 2}, {}, {3}, {}}) == std::vector<std::int32_t>{4, 4, 3, 4});
  // Loop with a branch inside: 0 -> 1; 1 -> 2 | 3; 2, 3 -> 4; 4 -> 1 | 5.
  CHECK(immediate_post_dominators({{1}, {2, 3}, {4}, {4}, {1, 5}, {}}) ==
        std::vector<std::int32_t>{1, 4, 4, 4, 5, 6});
}

TEST_CASE("bad kernels name the block and the key") {
  const auto msg = [](std::vector<BasicBlock> b) {
    try {
      CfgKernel("bad", std::move(b), 4);
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(msg({block({1}), block({}), block({})}).find("block 2 is unreachable") != std::string::npos);
  BasicBlock three = block({1, 2, 3}, BranchKind::PROBABILITY);
  CHECK(msg({three, block({}), block({}), block({})}).find("at most two") != std::string::npos);
  CHECK(msg({block({1, 2}), block({}), block({})}).find("'branch'") != std::string::npos);
  CHECK(msg({block({5})}).find("valid ids are 0..0") != std::string::npos);
}

TEST_CASE("a loop runs each thread's trips and every machine sees the same paths") {
  BasicBlock latch = block({1, 2}, BranchKind::LOOP);
  latch.trips_min = 1;
  latch.trips_max = 5;
  latch.ldst = 1;
  const CfgKernel k("loop", {block({1}), latch, block({})}, 1000);
  const RunOutput a = run_simt(SimtParams{}, k, run_of(), true);
  const RunOutput b = run_vgiw(VgiwParams{}, k, run_of(), true);
  const RunOutput c = run_sgmf(SgmfParams{}, k, run_of(), true);
  CHECK(a.values[1].values == b.values[1].values);
  CHECK(a.values[1].values == c.values[1].values);
  for (const double len : a.values[0].values) CHECK((len >= 3 && len <= 7));
}

TEST_CASE("sgmf reports 'does not map' for a kernel bigger than the fabric") {
  BasicBlock big = block({});
  big.alu = 40;  // 32 FPU-ALU units on the fabric
  const CfgKernel k("big", {big}, 64);
  const RunOutput s = run_sgmf(SgmfParams{}, k, run_of(), false);
  CHECK(s.makespan == -1);
  CHECK(s.metrics[MAPS] == 0);
  const RunOutput v = run_vgiw(VgiwParams{}, k, run_of(), false);  // split in two parts
  CHECK(v.metrics[SPLIT_BLOCKS] == 1);
  CHECK(v.metrics[CONFIGURATIONS] == 2);
}
