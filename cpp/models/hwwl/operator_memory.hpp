// Where the worklist machine's data lives and which addresses each step
// touches, so that its loads and stores go through the memory hierarchy
// (core/mem_hierarchy.hpp, docs/models/hwwl.md "Memory"): the graph in CSR
// form (4-byte row offsets, arc targets and weights), a 4-byte value per node
// (BFS level, SSSP distance), the synthetic operator's 16-byte records, the
// software worklists and active flags, and each core's overflow buffer.
// Every array has its own region of the address space (no memory is
// allocated: only addresses), so locality comes from the ids a step touches:
// a road graph's neighbouring ids share lines, an R-MAT hub's do not.
#pragma once

#include <cstdint>

#include "models/hwwl/problem.hpp"

namespace tbdse::hwwl {

// One thread's access in one step.
struct Access {
  std::uint64_t address = 0;
  std::int32_t bytes = 4;
};

class OperatorMemory {
 public:
  // Regions of the address space (each 2^36 bytes apart).
  enum Region : std::uint64_t {
    OFFSETS = 1, TARGETS, WEIGHTS, VALUES, RECORDS, FLAGS, LIST, OVERFLOW
  };
  static constexpr std::int32_t kRecordBytes = 16;  // synthetic: a body's position and mass

  explicit OperatorMemory(const WorklistProblem& problem);

  // The load round trips item `u` makes (ItemCost::rounds): BFS/SSSP one for
  // the node (its row offsets and value, two independent loads) and two per
  // arc (the arc's target — and weight — then the target's value, which
  // depends on it); the synthetic operator its mem_rounds.
  std::int32_t rounds(std::int32_t u) const;

  // The independent loads of round `round` of item `u` (one or two), into
  // out[0..n); returns n.  Synthetic: round 0 reads the item's record, later
  // rounds the record of an id within `locality` of it (anywhere when 0;
  // hashed from the item and round, so every scheme touches the same
  // addresses), or, over an input's graph, its neighbours' records in turn.
  std::int32_t round_loads(std::int32_t u, std::int32_t round, Access out[2]) const;

  static std::uint64_t base(Region r) { return static_cast<std::uint64_t>(r) << 36; }
  // Element `index` of 4-byte words in a region (worklist slots, flags).
  static std::uint64_t word(Region r, std::int64_t index) {
    return base(r) + static_cast<std::uint64_t>(index) * 4;
  }
  // Slot `index` of list `list` (0, 1: the data-driven pull and push lists).
  static std::uint64_t list_slot(std::int32_t list, std::int64_t index) {
    return word(LIST, index) + (static_cast<std::uint64_t>(list) << 34);
  }
  // Word `index` (a running count, wrapping at 2^24 ids) of core `core`'s
  // overflow buffer for partition `part`.
  static std::uint64_t overflow_slot(std::int32_t core, std::int32_t part, std::int64_t index) {
    const std::uint64_t slot = static_cast<std::uint64_t>(index) & ((1u << 24) - 1);
    return base(OVERFLOW) + (static_cast<std::uint64_t>(core) << 27) +
           (static_cast<std::uint64_t>(part) << 26) + slot * 4;
  }

 private:
  const WorklistProblem& problem_;
  const Digraph* graph_;
  bool synthetic_;
  bool weighted_;
  std::int32_t nodes_;
  std::int64_t window_;  // synthetic: ids a later round may read on either side
};

}  // namespace tbdse::hwwl
