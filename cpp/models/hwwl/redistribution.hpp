// Work redistribution between worklist banks (HWWL §III-C): given how many ids
// each bank's pull partition holds and the bandwidth the hardware has, which
// ids move where.  A pure function of the loads, the bandwidth and a little
// round-robin state, so each scheme can be tested on hand-made loads
// (redistribution_test.cpp).
//
// The plan is made in rounds, one per cycle of the interval (docs/models/
// hwwl.md, "Redistribution bandwidth"): in a round each bank gives or takes at
// most one id (a single-port bank), each core injects at most one id into the
// inter-core network and receives at most one (§III-C: "inject one work ID
// and receive one work ID per cycle").  A pair keeps moving ids round after
// round while the donor holds at least two more than the receiver (no
// ping-pong) and both have budget left: per bank (`transfers_per_bank`,
// bounded by the bank's free port cycles) and per core WRU
// (`transfers_per_core`).  Each scheme visits donors in its own priority
// order, so when bandwidth is scarce the scheme decides who gets it (§IV-D).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace tbdse::hwwl {

enum class Redistribution { NONE, THRESHOLD, LSORTING, GSORTING, MAGIC };

Redistribution redistribution_from(const std::string& name);

// Banks are numbered core * lanes + lane.  `count` ids move from `from` to
// `to`, one per cycle starting `round` cycles after the plan (magic: all at
// once, round 0).  For an inter-core move `to` is the receiving core's
// least-loaded bank when planned; the machine delivers into the core's
// least-loaded bank when the id arrives.
struct Move {
  std::int32_t from = 0, to = 0;
  std::int32_t count = 1;
  std::int32_t round = 0;
};

struct RedistributionState {
  std::vector<std::int32_t> needy_rr;  // per core: threshold's round-robin position among needy banks
  std::vector<std::int32_t> core_rr;   // per core: last core it sent an id to (round robin)
  std::int32_t hub_rr = 0;             // the hub's round-robin start among sending cores
};

// What the hardware can move in one plan.  Magic ignores all of it.
struct Bandwidth {
  std::int32_t rounds = 1;             // cycles the plan spans (the interval)
  std::span<const std::int32_t> bank;  // per bank: ids it may give or take
  std::span<const std::int32_t> core;  // per core: ids its WRU may send (intra moves + injections)
  // Per core: its overflow buffer holds ids for the pull partition (empty
  // span: none).  Such a core sets its global greedy bit and any of its banks
  // holding two ids or more may send over the network (tbdse's reading: the
  // work a core has spilled is work it has too much of).
  std::span<const char> spilling = {};
};

// loads[b] = ids (and reserved entries) in bank b's pull partition;
// capacity = entries of a pull partition (INT32_MAX = unbounded).
std::vector<Move> plan_redistribution(Redistribution scheme, std::int32_t cores,
                                      std::int32_t lanes, std::span<const std::int32_t> loads,
                                      std::int32_t threshold, std::int32_t capacity,
                                      const Bandwidth& bandwidth, RedistributionState& state);

// Cycles an id takes over the inter-core network when network_latency is
// auto: a tree of hubs of radix 4 (the paper's 4-core machine hangs every core
// off one hub: two hops, §III-C), ceil(log4 cores) levels up and as many down
// (§V-A: the latency grows with the core count); one cycle per hop.
std::int64_t auto_network_latency(std::int32_t cores);

}  // namespace tbdse::hwwl
