// What runs: a task graph plus the kernels its tasks belong to (name and TB
// footprint per kernel id).  Shared, immutable; a sweep over thousands of
// configurations refers to a handful of these.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gpu.hpp"
#include "task_graph.hpp"

namespace tbdse {

struct KernelInfo {
  std::string name = "kernel";
  TbFootprint footprint;
  std::int64_t mem_requests = 0;  // global-memory requests one TB makes (0 = not stated)
};

struct Workload {
  std::string name = "workload";  // for messages and result tables
  TaskGraphPtr graph;
  std::vector<KernelInfo> kernels;  // indexed by kernel id

  const TbFootprint& footprint(TaskId t) const { return kernels[graph->kernel(t)].footprint; }

  // Every kernel id has an entry and fits at least once on an SM of `gpu`;
  // ConfigError naming the kernel and the resource otherwise.
  void validate(const GpuConfig& gpu) const;

  // TBs that can be resident at once on the whole GPU (an upper bound when
  // kernels of different footprints mix).
  std::int64_t tb_capacity(const GpuConfig& gpu) const;

  // Global-memory requests of all tasks together (from the kernels' mem_requests).
  std::int64_t mem_requests() const;

  std::uint64_t hash() const;
};

using WorkloadPtr = std::shared_ptr<const Workload>;

}  // namespace tbdse
