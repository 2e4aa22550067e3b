#include "models/hwwl/operator_memory.hpp"

#include <algorithm>
#include <span>

namespace tbdse::hwwl {

namespace {

// A 64-bit mix (splitmix64's finaliser): the synthetic operator's neighbour
// choice, the same under every scheme and run.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

}  // namespace

OperatorMemory::OperatorMemory(const WorklistProblem& problem)
    : problem_(problem),
      graph_(problem.graph()),
      synthetic_(problem.synthetic()),
      weighted_(problem.op().kind == OperatorKind::SSSP),
      nodes_(problem.nodes()),
      window_(problem.op().locality > 0 ? problem.op().locality : problem.nodes()) {}

std::int32_t OperatorMemory::rounds(std::int32_t u) const {
  if (!graph_ || synthetic_) return problem_.op().mem_rounds;
  const auto degree = static_cast<std::int64_t>(graph_->neighbours(u).size());
  return static_cast<std::int32_t>(std::min<std::int64_t>(1 + 2 * degree, INT32_MAX));
}

std::int32_t OperatorMemory::round_loads(std::int32_t u, std::int32_t round, Access out[2]) const {
  if (synthetic_) {
    std::int64_t id = u;
    const auto next = graph_ ? graph_->neighbours(u) : std::span<const std::int32_t>{};
    if (round > 0 && !next.empty()) {  // the input's neighbours, in turn
      id = next[static_cast<std::size_t>(round - 1) % next.size()];
    } else if (round > 0 && !graph_) {  // a neighbouring record (a tree cell, a triangle, a clause)
      const std::uint64_t h = mix(static_cast<std::uint64_t>(u) << 20 ^ static_cast<std::uint64_t>(round));
      const std::int64_t offset = static_cast<std::int64_t>(h % static_cast<std::uint64_t>(2 * window_ + 1)) - window_;
      id = ((u + offset) % nodes_ + nodes_) % nodes_;
    }
    out[0] = {base(RECORDS) + static_cast<std::uint64_t>(id) * kRecordBytes, kRecordBytes};
    return 1;
  }
  if (round == 0) {  // the node's row offset and its own value
    out[0] = {word(OFFSETS, u), 4};
    out[1] = {word(VALUES, u), 4};
    return 2;
  }
  const std::int64_t arc = graph_->offsets()[static_cast<std::size_t>(u)] + (round - 1) / 2;
  if (round % 2 == 1) {  // the arc's target (and weight)
    out[0] = {word(TARGETS, arc), 4};
    if (!weighted_) return 1;
    out[1] = {word(WEIGHTS, arc), 4};
    return 2;
  }
  out[0] = {word(VALUES, graph_->neighbours(u)[static_cast<std::size_t>((round - 2) / 2)]), 4};
  return 1;
}

}  // namespace tbdse::hwwl
