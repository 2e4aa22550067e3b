// Helpers shared by the control-flow kernels' doctest files (*_test.cpp).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "models/vgiw/kernel.hpp"

namespace tbdse::vgiw::test_support {

// A basic block with these successors and branch model (p: the chance of
// succ[0] for a 'probability' or 'predicate' branch).
inline BasicBlock block(std::vector<std::int32_t> succ, BranchKind branch = BranchKind::NONE,
                        double p = 0.5) {
  BasicBlock b;
  b.succ = std::move(succ);
  b.branch = branch;
  b.p = p;
  return b;
}

}  // namespace tbdse::vgiw::test_support
