// Basic scalar types shared by every layer of the simulator.
#pragma once

#include <cstdint>

namespace tbdse {

using Cycle = std::int64_t;     // simulated time: integer core-clock cycles
using TaskId = std::int32_t;    // a node of the task graph (one thread block)
using KernelId = std::int32_t;  // index into a workload's kernel table
using SmId = std::int32_t;      // a streaming multiprocessor

}  // namespace tbdse
