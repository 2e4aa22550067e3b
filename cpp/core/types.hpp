// Basic scalar types shared by every layer of the simulator.
#pragma once

#include <cstdint>

namespace tbdse {

using Cycle = std::int64_t;     // simulated time: integer core-clock cycles
using TaskId = std::int32_t;    // a node of the task graph (one thread block)
using KernelId = std::int32_t;  // index into a workload's kernel table
using SmId = std::int32_t;      // a streaming multiprocessor

// Simulated time must stay below 2^62 cycles (checked whenever something is
// scheduled); a task's cost is at most 2^48 cycles and a launch delay at most
// about 2^50, so no sum of them can overflow on the way.
inline constexpr Cycle kMaxTime = Cycle{1} << 62;
inline constexpr Cycle kMaxDelay = Cycle{1} << 48;

}  // namespace tbdse
