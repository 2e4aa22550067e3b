// How long a control-flow kernel's run is, known before it runs: the
// expected number of blocks one thread executes, from the branch models as
// an absorbing Markov chain (a loop whose branch almost never exits makes it
// huge), and the cap on a run's expected block executions above which every
// machine's check refuses the run instead of simulating for hours.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/vgiw/kernel.hpp"

namespace tbdse::vgiw {

// A run may execute at most this many blocks (threads x expected blocks per
// thread): every machine walks each thread's path, ~3e7 blocks a second, so
// the cap is about five minutes of simulation.
inline constexpr double kMaxBlockExecutions = 1e10;

struct ExpectedVisits {
  double per_thread = 0;   // expected blocks one thread executes (inf: it may never leave)
  std::int32_t block = 0;  // the two-way branch visited most: the loop that dominates
  double block_visits = 0;
};

// Expected visits per thread.  A 'probability' or 'predicate' branch takes
// succ[0] with chance p, a 'loop' block its back edge with chance
// 1 - 1/mean trips (the same mean trip count), a 'paths' branch each successor
// as often as the kernel's paths take it.
ExpectedVisits expected_visits(const std::vector<BasicBlock>& blocks,
                               const std::vector<std::vector<std::int32_t>>& paths);

// ConfigError naming the loop block and the estimate when the kernel's run
// would execute more than kMaxBlockExecutions blocks.
void check_run_size(const CfgKernel& k);

}  // namespace tbdse::vgiw
