#include "models/hwwl/redistribution.hpp"

#include <algorithm>
#include <numeric>

#include "core/errors.hpp"

namespace tbdse::hwwl {

Redistribution redistribution_from(const std::string& name) {
  if (name == "none") return Redistribution::NONE;
  if (name == "threshold") return Redistribution::THRESHOLD;
  if (name == "lsorting") return Redistribution::LSORTING;
  if (name == "gsorting") return Redistribution::GSORTING;
  if (name == "magic") return Redistribution::MAGIC;
  throw ConfigError("unknown redistribution scheme '" + name +
                    "'; valid: none, threshold, lsorting, gsorting, magic");
}

std::int64_t auto_network_latency(std::int32_t cores) {
  std::int64_t levels = 1;
  for (std::int64_t span = 4; span < cores; span *= 4) ++levels;
  return 2 * levels;
}

namespace {

using Ids = std::vector<std::int32_t>;

// The greedy bits, rankings and needy sets are sampled once, when the plan
// starts (the WRU's inputs at the trigger); the planned loads `load` change
// move by move, so no pair overshoots and the bits a bank emits stay live
// where the scheme reads them live (threshold's greedy and needy bits).
struct Planner {
  std::int32_t cores, lanes, threshold, capacity;
  std::span<const std::int32_t> start;
  std::span<const char> spilling;
  RedistributionState& state;
  Ids load, bank_left, core_left;
  std::vector<Move> moves;
  Ids last_move;                   // per bank: index of its latest move as donor
  std::vector<char> busy;          // bank used this round (one port access per cycle)
  std::vector<char> sent, got;     // core injected / received this round
  std::int32_t round = 0;
  std::int64_t moved = 0;          // ids planned so far

  Planner(std::int32_t c, std::int32_t l, std::int32_t t, std::int32_t cap,
          std::span<const std::int32_t> loads, const Bandwidth& bw, RedistributionState& st)
      : cores(c), lanes(l), threshold(t), capacity(cap), start(loads), spilling(bw.spilling),
        state(st),
        load(loads.begin(), loads.end()), bank_left(bw.bank.begin(), bw.bank.end()),
        core_left(bw.core.begin(), bw.core.end()), last_move(loads.size(), -1),
        busy(loads.size(), 0), sent(static_cast<std::size_t>(c), 0),
        got(static_cast<std::size_t>(c), 0) {}

  std::int32_t core_of(std::int32_t b) const { return b / lanes; }
  std::int32_t bank(std::int32_t core, std::int32_t lane) const { return core * lanes + lane; }

  bool can_give(std::int32_t d) const {
    return !busy[d] && load[d] > 0 && bank_left[d] > 0 && core_left[core_of(d)] > 0;
  }
  bool worth(std::int32_t d, std::int32_t r) const {
    return load[d] >= load[r] + 2 && load[r] < capacity;
  }
  bool can_take(std::int32_t d, std::int32_t r) const {
    return !busy[r] && bank_left[r] > 0 && worth(d, r);
  }

  // One id from d to r this round.  An inter-core id takes the sending core's
  // network output and the receiving core's input for the round, but no
  // receiving bank port: the bank is chosen when the id arrives.
  void give(std::int32_t d, std::int32_t r) {
    const bool inter = core_of(d) != core_of(r);
    --load[d];
    ++load[r];
    --bank_left[d];
    --core_left[core_of(d)];
    ++moved;
    busy[d] = 1;
    if (inter) {
      sent[core_of(d)] = got[core_of(r)] = 1;
    } else {
      --bank_left[r];
      busy[r] = 1;
    }
    const std::int32_t i = last_move[d];
    if (i >= 0 && moves[i].to == r && moves[i].round + moves[i].count == round) {
      ++moves[i].count;  // the same pair again in the next cycle
      return;
    }
    last_move[d] = static_cast<std::int32_t>(moves.size());
    moves.push_back({d, r, 1, round});
  }

  // Runs `one_round` for every cycle of the plan, until a round moves nothing.
  template <class F>
  void rounds(std::int32_t n, F one_round) {
    for (round = 0; round < n; ++round) {
      std::fill(busy.begin(), busy.end(), 0);
      std::fill(sent.begin(), sent.end(), 0);
      std::fill(got.begin(), got.end(), 0);
      const auto before = moved;
      one_round();
      if (moved == before) return;
    }
  }

  std::int32_t least_loaded(std::int32_t core) const {
    std::int32_t best = bank(core, 0);
    for (std::int32_t l = 1; l < lanes; ++l)
      if (load[bank(core, l)] < load[best]) best = bank(core, l);
    return best;
  }

  // Global greedy bits, sampled at the start: more banks above the threshold
  // than below it.
  std::vector<char> greedy_cores() const {
    std::vector<char> out(static_cast<std::size_t>(cores), 0);
    for (std::int32_t c = 0; c < cores; ++c) {
      std::int32_t greedy = 0, needy = 0;
      for (std::int32_t l = 0; l < lanes; ++l) {
        greedy += start[bank(c, l)] > threshold;
        needy += start[bank(c, l)] < threshold;
      }
      out[c] = greedy > needy || spills(c);
    }
    return out;
  }
  bool spills(std::int32_t c) const { return !spilling.empty() && spilling[static_cast<std::size_t>(c)]; }

  // One id from `donor` (of a greedy core) over the network to the next core,
  // round robin, whose greedy bit is clear and whose input is free this round.
  void inter_core(std::int32_t donor, const std::vector<char>& greedy) {
    const std::int32_t core = core_of(donor);
    for (std::int32_t k = 1; k <= cores; ++k) {
      const std::int32_t target = (state.core_rr[core] + k) % cores;
      if (target == core || greedy[target] || got[target]) continue;
      const std::int32_t to = least_loaded(target);
      if (!worth(donor, to)) continue;
      give(donor, to);
      state.core_rr[core] = target;
      return;
    }
  }

  // The inter-core step of a round for threshold and lsorting: every greedy
  // core offers `pick(core)` (its donor, or -1) to the network; the hub serves
  // the cores round robin, so no core's sends starve another's.
  template <class Pick>
  void inter_round(const std::vector<char>& greedy, Pick pick) {
    for (std::int32_t k = 0; k < cores; ++k) {
      const std::int32_t c = (state.hub_rr + k) % cores;
      if (!greedy[c]) continue;
      const std::int32_t d = pick(c);
      if (d >= 0) inter_core(d, greedy);
    }
    state.hub_rr = (state.hub_rr + 1) % cores;
  }

  // threshold: greedy banks (above the threshold, in lane order) give to needy
  // banks (below it) round robin; the bits are live, so a donor stops at the
  // threshold and a receiver at it.  A greedy core's first greedy bank left
  // without a partner in the round sends over the network.
  void threshold_scheme(std::int32_t n) {
    const auto greedy = greedy_cores();
    std::vector<Ids> donors(static_cast<std::size_t>(cores)), needy(donors.size());
    for (std::int32_t b = 0; b < cores * lanes; ++b) {
      if (start[b] > threshold) donors[core_of(b)].push_back(b);
      if (start[b] < threshold) needy[core_of(b)].push_back(b);
    }
    rounds(n, [&] {
      for (std::int32_t c = 0; c < cores; ++c) {
        const auto& nd = needy[c];
        for (const std::int32_t d : donors[c]) {
          if (!can_give(d) || load[d] <= threshold) continue;
          for (std::size_t k = 0; k < nd.size(); ++k) {
            const std::size_t i = (static_cast<std::size_t>(state.needy_rr[c]) + k) % nd.size();
            if (load[nd[i]] >= threshold || !can_take(d, nd[i])) continue;
            give(d, nd[i]);
            state.needy_rr[c] = static_cast<std::int32_t>((i + 1) % nd.size());
            break;
          }
        }
      }
      inter_round(greedy, [&](std::int32_t c) {
        for (const std::int32_t d : donors[c])
          if (can_give(d) && load[d] > threshold) return d;
        if (spills(c))  // its banks may all be below the threshold: the fullest
          for (const std::int32_t d : ranked_lanes(c))
            if (can_give(d) && load[d] >= 2) return d;
        return -1;
      });
    });
  }

  Ids ranked_lanes(std::int32_t core) const {  // fullest first, at the start
    Ids out(static_cast<std::size_t>(lanes));
    std::iota(out.begin(), out.end(), bank(core, 0));
    std::stable_sort(out.begin(), out.end(),
                     [&](std::int32_t a, std::int32_t b) { return start[a] > start[b]; });
    return out;
  }

  // lsorting: banks ranked per core; the fullest give first, to the emptiest
  // needy bank first, while it is below the threshold; when every bank is
  // needy the fuller half gives to the emptier half.  A greedy core's fullest
  // bank above the threshold left without a partner sends over the network.
  void lsorting_scheme(std::int32_t n) {
    const auto greedy = greedy_cores();
    std::vector<Ids> ranked(static_cast<std::size_t>(cores)), donors(ranked.size()),
        receivers(ranked.size());
    std::vector<char> all_needy(ranked.size(), 0);
    for (std::int32_t c = 0; c < cores; ++c) {
      ranked[c] = ranked_lanes(c);
      all_needy[c] = std::all_of(ranked[c].begin(), ranked[c].end(),
                                 [&](std::int32_t b) { return start[b] < threshold; });
      if (all_needy[c]) {
        donors[c].assign(ranked[c].begin(), ranked[c].begin() + lanes / 2);
        receivers[c].assign(ranked[c].rbegin(), ranked[c].rbegin() + lanes / 2);
      } else {
        donors[c] = ranked[c];
        for (auto it = ranked[c].rbegin(); it != ranked[c].rend(); ++it)
          if (start[*it] < threshold) receivers[c].push_back(*it);
      }
    }
    rounds(n, [&] {
      for (std::int32_t c = 0; c < cores; ++c) {
        for (const std::int32_t d : donors[c]) {
          if (!can_give(d)) continue;
          for (const std::int32_t r : receivers[c])
            if ((all_needy[c] || load[r] < threshold) && can_take(d, r)) {
              give(d, r);
              break;
            }
        }
      }
      inter_round(greedy, [&](std::int32_t c) {
        for (const std::int32_t d : ranked[c])
          if (can_give(d) && (load[d] > threshold || (spills(c) && load[d] >= 2))) return d;
        return -1;
      });
    });
  }

  // gsorting: one ranking of all banks at the start; the top half greedy, the
  // bottom half needy, banks below the threshold receiving first whatever
  // their rank.  Donations stay in the core when they can; donors left
  // without a partner in a round send, fullest first, to the globally
  // emptiest receiver of another core.
  void gsorting_scheme(std::int32_t n) {
    const auto total = static_cast<std::int32_t>(start.size());
    Ids ranked(static_cast<std::size_t>(total));
    std::iota(ranked.begin(), ranked.end(), 0);
    std::stable_sort(ranked.begin(), ranked.end(),
                     [&](std::int32_t a, std::int32_t b) { return start[a] > start[b]; });
    std::vector<char> is_greedy(start.size(), 0), is_needy(start.size(), 0);
    for (std::int32_t i = 0; i < total; ++i) {
      const std::int32_t b = ranked[i];
      if (start[b] < threshold || i >= total - total / 2) is_needy[b] = 1;
      else if (i < total / 2) is_greedy[b] = 1;
    }
    std::vector<Ids> donors(static_cast<std::size_t>(cores)), receivers(donors.size());
    Ids all_donors, all_receivers;  // global priority orders
    for (const std::int32_t b : ranked)
      if (is_greedy[b]) {
        donors[core_of(b)].push_back(b);
        all_donors.push_back(b);
      }
    for (const bool below : {true, false})
      for (auto it = ranked.rbegin(); it != ranked.rend(); ++it)
        if (is_needy[*it] && (start[*it] < threshold) == below) receivers[core_of(*it)].push_back(*it);
    for (auto it = ranked.rbegin(); it != ranked.rend(); ++it)
      if (is_needy[*it]) all_receivers.push_back(*it);
    rounds(n, [&] {
      for (std::int32_t c = 0; c < cores; ++c)
        for (const std::int32_t d : donors[c]) {
          if (!can_give(d)) continue;
          for (const std::int32_t r : receivers[c])
            if (can_take(d, r)) {
              give(d, r);
              break;
            }
        }
      for (const std::int32_t d : all_donors) {
        if (!can_give(d) || sent[core_of(d)]) continue;
        for (const std::int32_t r : all_receivers)
          if (core_of(r) != core_of(d) && !got[core_of(r)] && worth(d, r)) {
            give(d, r);
            break;
          }
      }
    });
  }

  // magic: every pull partition holds the same number of ids (to within one,
  // the first banks one more), bandwidth unlimited.
  void magic_scheme() {
    const auto total = static_cast<std::int32_t>(start.size());
    std::int64_t sum = 0;
    for (const std::int32_t l : start) sum += l;
    std::vector<std::int64_t> target(start.size());
    for (std::int32_t b = 0; b < total; ++b)
      target[b] = std::min<std::int64_t>(capacity, sum / total + (b < sum % total ? 1 : 0));
    Ids over, under;
    for (std::int32_t b = 0; b < total; ++b) {
      if (start[b] > target[b]) over.push_back(b);
      if (start[b] < target[b]) under.push_back(b);
    }
    std::vector<std::int64_t> have(start.begin(), start.end());
    std::size_t u = 0;
    for (const std::int32_t o : over) {
      while (have[o] > target[o] && u < under.size()) {
        const std::int32_t r = under[u];
        const auto k = static_cast<std::int32_t>(std::min(have[o] - target[o], target[r] - have[r]));
        moves.push_back({o, r, k, 0});
        have[o] -= k;
        have[r] += k;
        if (have[r] == target[r]) ++u;
      }
    }
  }
};

}  // namespace

std::vector<Move> plan_redistribution(Redistribution scheme, std::int32_t cores,
                                      std::int32_t lanes, std::span<const std::int32_t> loads,
                                      std::int32_t threshold, std::int32_t capacity,
                                      const Bandwidth& bandwidth, RedistributionState& state) {
  if (state.needy_rr.size() != static_cast<std::size_t>(cores)) {
    state.needy_rr.assign(static_cast<std::size_t>(cores), 0);
    state.core_rr.assign(static_cast<std::size_t>(cores), 0);
  }
  if (scheme == Redistribution::NONE) return {};
  if (scheme != Redistribution::MAGIC &&
      (bandwidth.bank.size() != loads.size() || bandwidth.core.size() != static_cast<std::size_t>(cores)))
    throw ConfigError("internal: redistribution bandwidth given for the wrong number of banks or cores");
  Planner p(cores, lanes, threshold, capacity, loads, bandwidth, state);
  switch (scheme) {
    case Redistribution::NONE: break;
    case Redistribution::THRESHOLD: p.threshold_scheme(bandwidth.rounds); break;
    case Redistribution::LSORTING: p.lsorting_scheme(bandwidth.rounds); break;
    case Redistribution::GSORTING: p.gsorting_scheme(bandwidth.rounds); break;
    case Redistribution::MAGIC: p.magic_scheme(); break;
  }
  return std::move(p.moves);
}

}  // namespace tbdse::hwwl
