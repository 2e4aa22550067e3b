// Work redistribution between worklist banks (HWWL §III-C): given how many ids
// each bank's pull partition holds, which ids move where this interval.  A
// pure function of the loads and a little round-robin state, so each scheme
// can be tested on hand-made loads (redistribution_test.cpp).
//
// Interpretations (docs/models/hwwl.md): one id moves per donor/receiver pair
// per interval (single-port banks); a bank is in at most one pair; a donor
// gives only to a bank holding at least two fewer ids (no ping-pong); each
// core sends and receives at most one id over the inter-core network per
// interval (one injection and one ejection per cycle), into the receiving
// core's least-loaded bank.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace tbdse::hwwl {

enum class Redistribution { NONE, THRESHOLD, LSORTING, GSORTING, MAGIC };

Redistribution redistribution_from(const std::string& name);

// Banks are numbered core * lanes + lane.
struct Move {
  std::int32_t from = 0, to = 0;
  std::int32_t count = 1;  // > 1 only under magic
};

struct RedistributionState {
  std::vector<std::int32_t> needy_rr;  // per core: threshold's round-robin start among needy banks
  std::vector<std::int32_t> core_rr;   // per core: next core to try for an inter-core donation
};

// loads[b] = ids (and reserved entries) in bank b's pull partition;
// capacity = entries of a pull partition (for magic; INT32_MAX = unbounded).
std::vector<Move> plan_redistribution(Redistribution scheme, std::int32_t cores,
                                      std::int32_t lanes, std::span<const std::int32_t> loads,
                                      std::int32_t threshold, std::int32_t capacity,
                                      RedistributionState& state);

}  // namespace tbdse::hwwl
