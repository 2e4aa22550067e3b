// The TB engine as one simulator of the sweep: a TB scheme's check and
// simulate functions (SchemeInfo) materialise the task costs, build the
// scheme and run the Engine, then report the engine's metrics before the
// scheme's own statistics.
#pragma once

#include <vector>

#include "run.hpp"
#include "scheme.hpp"

namespace tbdse {

// What every TB-scheme run reports after makespan: SM and slot utilisation,
// average concurrency, the critical-path and work bounds, events processed.
const std::vector<StatInfo>& tb_engine_metrics();

// ConfigError when the scheme cannot run this workload on this GPU.
void check_task_graph_run(const ResolvedRun& run);

// Runs the Engine; DeadlockError / SimulationError when the run cannot finish.
RunOutput simulate_task_graph(const ResolvedRun& run, const RunOptions& options);

}  // namespace tbdse
