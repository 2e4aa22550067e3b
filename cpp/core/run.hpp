// One run of a sweep as every simulator sees it: its resolved configuration
// in, its metrics (and, on request, its time series) out.  The TB engine is
// one simulator behind this interface (core/tb_run.*); the worklist machine
// and VGIW are others (docs/ARCHITECTURE.md, "Simulators").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cost_model.hpp"
#include "gpu.hpp"
#include "timeline.hpp"
#include "types.hpp"
#include "workload.hpp"

namespace tbdse {

struct SchemeInfo;

// A run's configuration after overrides, validated.
struct ResolvedRun {
  const Workload* workload = nullptr;
  GpuConfig gpu;
  const SchemeInfo* scheme = nullptr;
  std::vector<double> scheme_values;
  CostModel cost;
  std::int32_t replicate = 0;
  std::uint64_t config_hash = 0;  // workload + GPU + scheme + cost model (not replicate, not seed)
  std::uint64_t cost_key = 0;     // RNG key of task costs: seed, workload, cost model, replicate
  std::uint64_t model_key = 0;    // RNG key of a simulator's own draws: seed, workload, replicate
};

struct RunOptions {
  // Record the run over time: the TB engine's per-task timeline, or a
  // simulator's sampled series (RunOutput::trace).
  bool record = false;
  // Return per-item results (RunOutput::values); sweeps do not keep them.
  bool values = false;
};

// A named column of numbers (a sampled series, or one value per node).
struct Series {
  std::string name;
  std::vector<double> values;
};

struct RunOutput {
  Cycle makespan = 0;           // cycles from start to the end of the run
  std::vector<double> metrics;  // the scheme's kind metrics, then its own stats (SchemeInfo order)
  // Hardware storage the mechanism adds to the GPU, in bytes (the common
  // metric storage_bytes): 0 for software schemes, +inf for unbounded buffers.
  double storage_bytes = 0;
  std::optional<Timeline> timeline;  // TB engine, when recorded
  std::vector<Series> trace;         // sampled over time, when recorded (same length each)
  std::vector<Series> values;        // per-item results worth checking (e.g. BFS distances)
};

}  // namespace tbdse
