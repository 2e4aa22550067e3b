// What runs: a task graph plus the kernels its tasks belong to (name and TB
// footprint per kernel id), or the input of another simulator (a ModelInput:
// a graph with an operator, a control-flow kernel).  Shared, immutable; a
// sweep over thousands of configurations refers to a handful of these.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "application.hpp"
#include "gpu.hpp"
#include "model_input.hpp"
#include "errors.hpp"
#include "task_graph.hpp"

namespace tbdse {

inline constexpr std::int32_t kMaxReuse = 1024;  // passes over a TB's footprint, at most

struct KernelInfo {
  std::string name = "kernel";
  TbFootprint footprint;
  std::int64_t mem_requests = 0;  // global-memory requests one TB makes (0 = not stated)
  // Share of a TB's cost that is memory time (sm_model 'shared': SM sharing
  // does not slow it; its mem_requests x 128 bytes meet the GPU's mem_bandwidth).
  double mem_fraction = 0.0;
  // Issue throughput trait (sm_model 'shared', docs/simulation.md "Per-kernel
  // throughput"): cycles between one warp's instruction issues while it
  // computes — its instruction mix's dependent-issue latency over its ILP
  // (>= 1).  A TB of ceil(threads / 32) warps then demands warps / (interval x
  // the SM's warp instructions per cycle) of its SM's issue slots.  0 = not
  // stated: the TB demands 1 / gpu.sm_saturation, as before.
  double issue_interval = 0.0;
  // Passes a TB's warps make over its read footprint (docs/simulation.md
  // "Reuse"): the data footprint is read `reuse` times, each pass with
  // 1 / reuse of the TB's compute, the first at issue and each next one when
  // the previous ends, through the memory hierarchy at that time, so what
  // co-resident TBs touched in between decides its hits.  1 = read once at issue (as before).  Needs data footprints.
  std::int32_t reuse = 1;
};

// A byte range a TB reads or writes (its data footprint, docs/simulation.md
// "Data footprints"): reads go through the memory hierarchy when the TB
// starts, writes when it ends.
struct DataRange {
  std::uint64_t base = 0;
  std::int64_t bytes = 0;
  bool is_write = false;
  bool operator==(const DataRange&) const = default;
};

struct Workload {
  std::string name = "workload";  // for messages and result tables
  TaskGraphPtr graph;             // a task-graph workload (the TB engine's) ...
  ModelInputPtr input;            // ... or another simulator's input; exactly one is set
  std::vector<KernelInfo> kernels;  // indexed by kernel id
  // For a multi-kernel application: the host's API calls around its launches
  // (launch i = launch group i of the graph).  Null for a plain task graph.
  ApplicationPtr application;
  // Optional per-task data footprints, CSR by graph node (virtual id): node
  // t's ranges are data_ranges[data_start[t] .. data_start[t+1]).  Empty =
  // no task has one, and the engine runs exactly as without a memory model.
  std::vector<std::int64_t> data_start;
  std::vector<DataRange> data_ranges;
  bool has_data_ranges() const { return !data_start.empty(); }

  const TbFootprint& footprint(TaskId t) const { return kernels[graph->kernel(t)].footprint; }

  // "task_graph", or the model input's kind.
  std::string kind() const { return graph ? "task_graph" : input ? input->kind() : "none"; }

  // The model input as the type a simulator expects; ConfigError otherwise.
  template <class T>
  const T& input_as() const {
    const auto* typed = dynamic_cast<const T*>(input.get());
    if (!typed)
      throw ConfigError("workload '" + name + "' (" + kind() + ") is not the input this simulator needs");
    return *typed;
  }

  // Every kernel id has an entry and fits at least once on an SM of `gpu`, and
  // an application matches the graph's launch groups (every launch has TBs,
  // every edge points to a later launch); ConfigError naming the kernel and
  // the resource (or the command, task or launch) otherwise.
  void validate(const GpuConfig& gpu) const;

  // TBs that can be resident at once on the whole GPU (an upper bound when
  // kernels of different footprints mix).
  std::int64_t tb_capacity(const GpuConfig& gpu) const;

  // Global-memory requests of all tasks together (from the kernels' mem_requests).
  std::int64_t mem_requests() const;

  std::uint64_t hash() const;

  // For schemes that follow task-graph edges only (dataflow_ideal, wireframe):
  // ConfigError when the application has kernel-level dependencies the graph
  // does not list (a launch waiting for a whole earlier launch: a pair with
  // too many TB edges to list, or a dependency that skips a kernel).
  void require_edges_complete(const std::string& scheme) const;
};

using WorkloadPtr = std::shared_ptr<const Workload>;

}  // namespace tbdse
