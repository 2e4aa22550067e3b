#include "digraph.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <string>

#include "errors.hpp"
#include "hash.hpp"
#include "memory.hpp"

namespace tbdse {

namespace {

std::string arc_str(std::size_t e, std::int32_t s, std::int32_t d) {
  return "arc " + std::to_string(e) + " (" + std::to_string(s) + " -> " + std::to_string(d) + ")";
}

void validate(const DigraphInput& in) {
  constexpr auto max_nodes = std::numeric_limits<std::int32_t>::max();
  if (in.nodes < 1 || in.nodes > max_nodes)
    throw ConfigError("digraph: node count " + std::to_string(in.nodes) +
                      " is out of range (a graph has 1..2147483647 nodes)");
  const std::size_t m = in.src.size();
  if (in.dst.size() != m)
    throw ConfigError("digraph: " + std::to_string(m) + " arc sources but " +
                      std::to_string(in.dst.size()) + " targets (one of each per arc)");
  if (!in.weight.empty() && in.weight.size() != m)
    throw ConfigError("digraph: " + std::to_string(in.weight.size()) + " weights for " +
                      std::to_string(m) + " arcs (give one per arc, or none: every arc weighs 1)");
  const auto n = static_cast<std::int32_t>(in.nodes);
  for (std::size_t e = 0; e < m; ++e) {
    const std::int32_t s = in.src[e], d = in.dst[e];
    // One unsigned comparison per id: negative ids wrap above n.
    const auto outside = [n](std::int32_t v) {
      return static_cast<std::uint32_t>(v) >= static_cast<std::uint32_t>(n);
    };
    if (outside(s) || outside(d)) {
      const std::int32_t bad = outside(s) ? s : d;
      throw ConfigError("digraph: " + arc_str(e, s, d) + " refers to node " + std::to_string(bad) +
                        ", but the graph has " + std::to_string(n) + " nodes (valid ids 0.." +
                        std::to_string(n - 1) + ")");
    }
    if (!in.weight.empty() && in.weight[e] < 0)
      throw ConfigError("digraph: " + arc_str(e, s, d) + " has negative weight " +
                        std::to_string(in.weight[e]) + " (weights are 0..2147483647)");
  }
}

// 32-bit values two to a word: half the mixing of add_span on the largest arrays.
void add_pairs(Hasher& h, std::span<const std::int32_t> values) {
  h.add(values.size());
  const std::size_t even = values.size() & ~std::size_t{1};
  for (std::size_t i = 0; i < even; i += 2)
    h.add(static_cast<std::uint32_t>(values[i]) |
          (std::uint64_t{static_cast<std::uint32_t>(values[i + 1])} << 32));
  if (even < values.size()) h.add(static_cast<std::uint32_t>(values[even]));
}

}  // namespace

Digraph Digraph::build(DigraphInput in) {
  validate(in);
  const auto n = static_cast<std::int32_t>(in.nodes);
  const std::size_t m = in.src.size();
  require_digraph_fits("digraph", n, static_cast<double>(m));

  Digraph g;
  g.weighted_ = !in.weight.empty();

  // CSR by a counting sort on the source; arcs keep their input order per node.
  g.offset_.assign(static_cast<std::size_t>(n) + 1, 0);
  for (const std::int32_t s : in.src) ++g.offset_[static_cast<std::size_t>(s) + 1];
  std::partial_sum(g.offset_.begin(), g.offset_.end(), g.offset_.begin());
  std::int64_t widest = 0;
  for (std::int32_t v = 0; v < n; ++v) widest = std::max(widest, g.offset_[v + 1] - g.offset_[v]);
  g.max_degree_ = static_cast<std::int32_t>(std::min<std::int64_t>(
      widest, std::numeric_limits<std::int32_t>::max()));

  g.target_.resize(m);
  // All 1 when unweighted, so that arc_weights() is always valid.
  g.weight_.assign(m, 1);
  {
    std::vector<std::int64_t> fill(g.offset_.begin(), g.offset_.end() - 1);
    if (g.weighted_) {
      for (std::size_t e = 0; e < m; ++e) {
        const auto at = static_cast<std::size_t>(fill[static_cast<std::size_t>(in.src[e])]++);
        g.target_[at] = in.dst[e];
        g.weight_[at] = in.weight[e];
      }
    } else {
      for (std::size_t e = 0; e < m; ++e) {
        const auto at = static_cast<std::size_t>(fill[static_cast<std::size_t>(in.src[e])]++);
        g.target_[at] = in.dst[e];
      }
    }
  }

  // A seed of its own, so a digraph never shares a digest with a TaskGraph.
  Hasher h(0x6469677261706868ULL);
  h.add(static_cast<std::uint64_t>(n)).add(g.weighted_ ? 1 : 0);
  h.add_span<std::int64_t>(g.offset_);
  add_pairs(h, g.target_);
  if (g.weighted_) add_pairs(h, g.weight_);
  g.hash_ = h.digest();
  return g;
}

}  // namespace tbdse
