#include "models/blockmaestro/patterns.hpp"

#include <algorithm>
#include <numeric>
#include <vector>

namespace tbdse::blockmaestro {

std::string pattern_name(Pattern p) {
  switch (p) {
    case Pattern::INDEPENDENT: return "independent";
    case Pattern::FULLY_CONNECTED: return "fully_connected";
    case Pattern::N_GROUP: return "n_group";
    case Pattern::ONE_TO_ONE: return "1_to_1";
    case Pattern::ONE_TO_N: return "1_to_n";
    case Pattern::N_TO_ONE: return "n_to_1";
    case Pattern::OVERLAPPED: return "overlapped";
  }
  return "unknown";
}

int pattern_number(Pattern p) {
  switch (p) {
    case Pattern::FULLY_CONNECTED: return 1;
    case Pattern::N_GROUP: return 2;
    case Pattern::ONE_TO_ONE: return 3;
    case Pattern::ONE_TO_N: return 4;
    case Pattern::N_TO_ONE: return 5;
    case Pattern::OVERLAPPED: return 6;
    case Pattern::INDEPENDENT: return 7;
  }
  return 0;
}

namespace {

// Union-find over parents [0, N) and children [N, N + M).
class Components {
 public:
  explicit Components(std::size_t n) : up_(n) { std::iota(up_.begin(), up_.end(), std::size_t{0}); }
  std::size_t find(std::size_t v) {
    while (up_[v] != v) v = up_[v] = up_[up_[v]];  // path halving
    return v;
  }
  void join(std::size_t a, std::size_t b) {
    a = find(a);
    b = find(b);
    if (a != b) up_[std::max(a, b)] = std::min(a, b);
  }

 private:
  std::vector<std::size_t> up_;
};

// Every connected component (of the TBs with an edge) is a complete bipartite group.
bool complete_groups(std::int64_t parents, std::int64_t children, std::span<const std::int32_t> ep,
                     std::span<const std::int32_t> ec) {
  const auto n = static_cast<std::size_t>(parents);
  Components uf(n + static_cast<std::size_t>(children));
  for (std::size_t e = 0; e < ep.size(); ++e) uf.join(static_cast<std::size_t>(ep[e]), n + static_cast<std::size_t>(ec[e]));
  struct Count {
    std::int64_t parents = 0, children = 0, edges = 0;
  };
  std::vector<Count> count(n + static_cast<std::size_t>(children));
  std::vector<char> touched(count.size(), 0);
  for (std::size_t e = 0; e < ep.size(); ++e) {
    touched[static_cast<std::size_t>(ep[e])] = touched[n + static_cast<std::size_t>(ec[e])] = 1;
    ++count[uf.find(static_cast<std::size_t>(ep[e]))].edges;
  }
  for (std::size_t v = 0; v < count.size(); ++v) {
    if (!touched[v]) continue;
    Count& c = count[uf.find(v)];
    (v < n ? c.parents : c.children) += 1;
  }
  for (const Count& c : count)
    if (c.edges != c.parents * c.children) return false;
  return true;
}

std::int64_t encoded_bytes(const PairShape& s) {
  const std::int64_t n = s.parents, m = s.children;
  switch (s.pattern) {
    case Pattern::INDEPENDENT: return 0;
    case Pattern::FULLY_CONNECTED: return 1;  // a flag
    case Pattern::N_GROUP: return 4 * (n + m);
    case Pattern::ONE_TO_ONE: return 4 * n;
    case Pattern::ONE_TO_N: return 4 * (n + m);
    case Pattern::N_TO_ONE: return 4 * n;
    case Pattern::OVERLAPPED: return 4 * (n + m * s.max_parents_per_child);
  }
  return s.plain_bytes;
}

}  // namespace

PairShape classify(std::int64_t parents, std::int64_t children, std::span<const std::int32_t> edge_parent,
                   std::span<const std::int32_t> edge_child, bool full) {
  PairShape s;
  s.parents = parents;
  s.children = children;
  if (full && parents > 0 && children > 0) {
    s.edges = parents * children;
    s.max_parents_per_child = parents;
    s.max_children_per_parent = children;
  } else if (!full) {
    s.edges = static_cast<std::int64_t>(edge_parent.size());
    std::vector<std::int64_t> per_parent(static_cast<std::size_t>(parents), 0);
    std::vector<std::int64_t> per_child(static_cast<std::size_t>(children), 0);
    for (std::size_t e = 0; e < edge_parent.size(); ++e) {
      s.max_children_per_parent = std::max(s.max_children_per_parent, ++per_parent[static_cast<std::size_t>(edge_parent[e])]);
      s.max_parents_per_child = std::max(s.max_parents_per_child, ++per_child[static_cast<std::size_t>(edge_child[e])]);
    }
  }
  if (s.edges == 0) s.pattern = Pattern::INDEPENDENT;
  else if (s.edges == parents * children) s.pattern = Pattern::FULLY_CONNECTED;
  else if (s.max_children_per_parent == 1 && s.max_parents_per_child == 1) s.pattern = Pattern::ONE_TO_ONE;
  else if (s.max_parents_per_child == 1) s.pattern = Pattern::ONE_TO_N;
  else if (s.max_children_per_parent == 1) s.pattern = Pattern::N_TO_ONE;
  else if (complete_groups(parents, children, edge_parent, edge_child)) s.pattern = Pattern::N_GROUP;
  else s.pattern = Pattern::OVERLAPPED;
  s.plain_bytes = s.edges == 0 ? 0 : 4 * (parents + s.edges);
  s.encoded_bytes = std::min(encoded_bytes(s), s.plain_bytes);
  return s;
}

}  // namespace tbdse::blockmaestro
