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

namespace {

using Ids = std::vector<std::int32_t>;

struct Planner {
  std::int32_t cores, lanes, threshold;
  std::span<const std::int32_t> loads;
  RedistributionState& state;
  std::vector<Move> moves;
  std::vector<char> busy;  // bank already in a pair this interval

  std::int32_t bank(std::int32_t core, std::int32_t lane) const { return core * lanes + lane; }

  // Pairs donors (most loaded first) with receivers (least loaded first),
  // each bank once, while the donor holds at least two more.
  void pair(const Ids& donors, const Ids& receivers) {
    std::size_t r = 0;
    for (const std::int32_t d : donors) {
      while (r < receivers.size() && busy[receivers[r]]) ++r;
      if (r == receivers.size()) return;
      if (busy[d] || loads[d] < loads[receivers[r]] + 2) continue;
      moves.push_back({d, receivers[r], 1});
      busy[d] = busy[receivers[r]] = 1;
      ++r;
    }
  }

  Ids sorted_lanes(std::int32_t core, bool descending) const {
    Ids out(static_cast<std::size_t>(lanes));
    std::iota(out.begin(), out.end(), bank(core, 0));
    std::stable_sort(out.begin(), out.end(), [&](std::int32_t a, std::int32_t b) {
      return descending ? loads[a] > loads[b] : loads[a] < loads[b];
    });
    return out;
  }

  std::int32_t least_loaded(std::int32_t core) const {
    std::int32_t best = bank(core, 0);
    for (std::int32_t l = 1; l < lanes; ++l)
      if (loads[bank(core, l)] < loads[best]) best = bank(core, l);
    return best;
  }

  // Global greedy bits: more banks above the threshold than below it.
  std::vector<char> greedy_cores() const {
    std::vector<char> out(static_cast<std::size_t>(cores), 0);
    for (std::int32_t c = 0; c < cores; ++c) {
      std::int32_t greedy = 0, needy = 0;
      for (std::int32_t l = 0; l < lanes; ++l) {
        greedy += loads[bank(c, l)] > threshold;
        needy += loads[bank(c, l)] < threshold;
      }
      out[c] = greedy > needy;
    }
    return out;
  }

  // One id from `donor` (of a greedy core) to the next core, round robin,
  // whose greedy bit is clear; the receiving core takes it into its
  // least-loaded bank.  At most one in and one out per core.
  void inter_core(std::int32_t core, std::int32_t donor, const std::vector<char>& greedy,
                  std::vector<char>& received) {
    if (donor < 0 || loads[donor] == 0) return;
    for (std::int32_t k = 1; k < cores; ++k) {
      const std::int32_t target = (state.core_rr[core] + k) % cores;
      if (target == core || greedy[target] || received[target]) continue;
      const std::int32_t to = least_loaded(target);
      if (loads[donor] < loads[to] + 2) continue;
      moves.push_back({donor, to, 1});
      received[target] = 1;
      state.core_rr[core] = target;
      return;
    }
  }

  // threshold: greedy banks give round robin to needy ones within the core; a
  // greedy core's first unmatched greedy bank sends to another core.
  void threshold_scheme() {
    const auto greedy = greedy_cores();
    std::vector<char> received(static_cast<std::size_t>(cores), 0);
    for (std::int32_t c = 0; c < cores; ++c) {
      Ids donors, needy;
      for (std::int32_t l = 0; l < lanes; ++l) {
        const std::int32_t b = bank(c, l);
        if (loads[b] > threshold) donors.push_back(b);
        if (loads[b] < threshold) needy.push_back(b);
      }
      const auto pairs = std::min(donors.size(), needy.size());
      for (std::size_t i = 0; i < pairs; ++i) {
        const std::int32_t to = needy[(static_cast<std::size_t>(state.needy_rr[c]) + i) % needy.size()];
        moves.push_back({donors[i], to, 1});
        busy[donors[i]] = busy[to] = 1;
      }
      if (!needy.empty()) state.needy_rr[c] = (state.needy_rr[c] + 1) % static_cast<std::int32_t>(needy.size());
      if (greedy[c] && donors.size() > pairs) inter_core(c, donors[pairs], greedy, received);
    }
  }

  // lsorting: banks ranked per core; the fullest give to those below the
  // threshold; when all are below it, the fuller half gives to the emptier half.
  void lsorting_scheme() {
    const auto greedy = greedy_cores();
    std::vector<char> received(static_cast<std::size_t>(cores), 0);
    for (std::int32_t c = 0; c < cores; ++c) {
      const Ids ranked = sorted_lanes(c, true);
      Ids needy;
      for (auto it = ranked.rbegin(); it != ranked.rend(); ++it)
        if (loads[*it] < threshold) needy.push_back(*it);
      if (needy.size() == ranked.size()) {
        const Ids top(ranked.begin(), ranked.begin() + lanes / 2);
        const Ids bottom(ranked.rbegin(), ranked.rbegin() + lanes / 2);
        pair(top, bottom);
      } else if (!needy.empty()) {
        pair(ranked, needy);
      }
      if (greedy[c]) {
        std::int32_t donor = -1;  // the fullest bank not already giving
        for (const std::int32_t b : ranked)
          if (!busy[b] && loads[b] > threshold) {
            donor = b;
            break;
          }
        inter_core(c, donor, greedy, received);
      }
    }
  }

  // gsorting: one ranking of all banks; the top half greedy, the bottom half
  // needy, banks below the threshold receiving first whatever their rank.
  // Donations stay in the core when they can; excess donors send to other
  // cores' unmatched receivers.
  void gsorting_scheme() {
    const auto total = static_cast<std::int32_t>(loads.size());
    Ids ranked(static_cast<std::size_t>(total));
    std::iota(ranked.begin(), ranked.end(), 0);
    std::stable_sort(ranked.begin(), ranked.end(),
                     [&](std::int32_t a, std::int32_t b) { return loads[a] > loads[b]; });
    std::vector<char> is_greedy(loads.size(), 0), is_needy(loads.size(), 0);
    for (std::int32_t i = 0; i < total; ++i) {
      const std::int32_t b = ranked[i];
      if (loads[b] < threshold || i >= total - total / 2) is_needy[b] = 1;
      else if (i < total / 2) is_greedy[b] = 1;
    }
    Ids excess, unmatched;
    for (std::int32_t c = 0; c < cores; ++c) {
      Ids donors, receivers;
      for (const std::int32_t b : ranked)
        if (b / lanes == c && is_greedy[b]) donors.push_back(b);
      for (auto it = ranked.rbegin(); it != ranked.rend(); ++it)  // below threshold first
        if (*it / lanes == c && is_needy[*it] && loads[*it] < threshold) receivers.push_back(*it);
      for (auto it = ranked.rbegin(); it != ranked.rend(); ++it)
        if (*it / lanes == c && is_needy[*it] && loads[*it] >= threshold) receivers.push_back(*it);
      pair(donors, receivers);
      for (const std::int32_t d : donors)
        if (!busy[d]) excess.push_back(d);
      for (const std::int32_t r : receivers)
        if (!busy[r]) unmatched.push_back(r);
    }
    std::stable_sort(excess.begin(), excess.end(),
                     [&](std::int32_t a, std::int32_t b) { return loads[a] > loads[b]; });
    std::stable_sort(unmatched.begin(), unmatched.end(),
                     [&](std::int32_t a, std::int32_t b) { return loads[a] < loads[b]; });
    std::vector<char> sent(static_cast<std::size_t>(cores), 0), got(static_cast<std::size_t>(cores), 0);
    for (const std::int32_t d : excess) {
      if (sent[d / lanes]) continue;
      for (const std::int32_t r : unmatched) {
        if (busy[r] || r / lanes == d / lanes || got[r / lanes] || loads[d] < loads[r] + 2) continue;
        moves.push_back({d, r, 1});
        busy[d] = busy[r] = 1;
        sent[d / lanes] = got[r / lanes] = 1;
        break;
      }
    }
  }

  // magic: every pull partition holds the same number of ids (to within one,
  // the first banks one more), bandwidth unlimited.
  void magic_scheme(std::int32_t capacity) {
    const auto total = static_cast<std::int32_t>(loads.size());
    std::int64_t sum = 0;
    for (const std::int32_t l : loads) sum += l;
    std::vector<std::int64_t> target(loads.size());
    for (std::int32_t b = 0; b < total; ++b)
      target[b] = std::min<std::int64_t>(capacity, sum / total + (b < sum % total ? 1 : 0));
    Ids over, under;
    for (std::int32_t b = 0; b < total; ++b) {
      if (loads[b] > target[b]) over.push_back(b);
      if (loads[b] < target[b]) under.push_back(b);
    }
    std::vector<std::int64_t> have(loads.begin(), loads.end());
    std::size_t u = 0;
    for (const std::int32_t o : over) {
      while (have[o] > target[o] && u < under.size()) {
        const std::int32_t r = under[u];
        const auto n = static_cast<std::int32_t>(std::min(have[o] - target[o], target[r] - have[r]));
        moves.push_back({o, r, n});
        have[o] -= n;
        have[r] += n;
        if (have[r] == target[r]) ++u;
      }
    }
  }
};

}  // namespace

std::vector<Move> plan_redistribution(Redistribution scheme, std::int32_t cores,
                                      std::int32_t lanes, std::span<const std::int32_t> loads,
                                      std::int32_t threshold, std::int32_t capacity,
                                      RedistributionState& state) {
  if (state.needy_rr.size() != static_cast<std::size_t>(cores)) {
    state.needy_rr.assign(static_cast<std::size_t>(cores), 0);
    state.core_rr.assign(static_cast<std::size_t>(cores), 0);
  }
  Planner p{cores, lanes, threshold, loads, state, {}, std::vector<char>(loads.size(), 0)};
  switch (scheme) {
    case Redistribution::NONE: break;
    case Redistribution::THRESHOLD: p.threshold_scheme(); break;
    case Redistribution::LSORTING: p.lsorting_scheme(); break;
    case Redistribution::GSORTING: p.gsorting_scheme(); break;
    case Redistribution::MAGIC: p.magic_scheme(capacity); break;
  }
  return std::move(p.moves);
}

}  // namespace tbdse::hwwl
