// The TB engine's record of a run: where and when each task ran.
#pragma once

#include <cstdint>
#include <vector>

#include "types.hpp"

namespace tbdse {

// One row per task, indexed by input task id (TaskGraph::original_id).
struct Timeline {
  std::vector<SmId> sm;
  std::vector<std::int32_t> slot;
  std::vector<Cycle> ready, start, end;
  // When the task's data dependencies were met, for schemes that tell this
  // apart from "ready" (a TB whose inputs exist but whose kernel is not
  // launched yet); empty when no scheme did (then it equals `ready`).
  std::vector<Cycle> deps_met;
};

}  // namespace tbdse
