// What the sweep runner knows of a scheme (SchemeInfo): its documented
// parameters, the statistics it reports, the kind of workload it simulates
// and how to check and simulate one run.  A scheme is either a TB scheduler
// on the engine (the Scheme interface below: events in — simulation start, TB
// finished, the scheme's own timed events — decisions out — which ready TB
// goes to which SM) or a simulator of its own kind (the worklist machine,
// VGIW); schemes are created by name from the registry in cpp/models
// (docs/ARCHITECTURE.md, "Simulators").
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "event_queue.hpp"
#include "gpu.hpp"
#include "params.hpp"
#include "run.hpp"
#include "types.hpp"
#include "workload.hpp"

namespace tbdse {

class Engine;

class Scheme {
 public:
  virtual ~Scheme() = default;

  // Called once at cycle 0, before anything runs: post launches, mark roots ready.
  virtual void start(Engine& engine) = 0;
  // Task t's TB finished at engine.now(); its SM resources are already free.
  virtual void on_task_finished(Engine& engine, TaskId t) = 0;
  // An event this scheme posted came due.
  virtual void on_event(Engine& /*engine*/, const Event& /*event*/) {}
  // After every event at the current cycle: issue ready TBs to SMs.
  virtual void dispatch(Engine& engine) = 0;
  // For deadlock reports: why unfinished task t cannot make progress ("" = engine's default).
  virtual std::string stuck_reason(const Engine& /*engine*/, TaskId /*t*/) const { return {}; }
  // For deadlock reports: the root cause when the scheme knows it, said before
  // the per-task reasons ("" = none).
  virtual std::string deadlock_cause(const Engine& /*engine*/) const { return {}; }
  // When the run ends if that is after its last TB (an application's final
  // copy to the host); 0 = at the last TB.  The makespan is the later of the two.
  virtual Cycle end_time(const Engine& /*engine*/) const { return 0; }
  // Scheme-specific statistics, in the order of SchemeInfo::stats.
  virtual void write_stats(const Engine& /*engine*/, std::span<double> /*out*/) const {}
  // Per-item results worth returning on request (RunOutput::values), e.g.
  // tasks per worker; every series of one scheme has the same length.
  virtual void write_values(const Engine& /*engine*/, std::vector<Series>& /*out*/) const {}
  // The least fraction of its cost a task can take (a scheme that runs some
  // tasks faster, e.g. Juggler's locality speed-up, returns < 1): the
  // critical-path bound is scaled by it.
  virtual double min_work_factor() const { return 1.0; }
  // Hardware storage the mechanism adds to the GPU, in bytes, for the sizes
  // this run resolved (the common metric storage_bytes; +inf for unbounded
  // buffers).  0 for software schemes; each mechanism's formula and paper
  // section are in its docs/models page.
  virtual double storage_bytes() const { return 0.0; }
};

struct StatInfo {
  std::string name;
  std::string unit;
  std::string doc;
};

struct SchemeInfo {
  std::string name;       // registry key, short and lowercase
  std::string summary;    // one line
  std::string paper_ref;  // where the mechanism is described
  std::vector<ParamInfo> params;
  std::vector<double> defaults;  // encoded, one per param
  std::vector<StatInfo> stats;   // the scheme's own statistics
  // What it simulates: "task_graph" (a TB scheme on the engine) or the kind of
  // a ModelInput ("worklist", "cfg"); a run pairs it with workloads of that kind.
  std::string workload_kind = "task_graph";
  // Metrics every simulator of its kind reports, before `stats` (for TB
  // schemes the engine's utilisation and bounds, core/tb_run.hpp).
  std::vector<StatInfo> kind_metrics;
  // TB schemes: builds the scheduler for one run; throws ConfigError when the
  // combination can be known to be impossible before running.
  std::function<std::unique_ptr<Scheme>(std::span<const double> params, const Workload& workload,
                                        const GpuConfig& gpu)>
      create;
  // Checks one run without simulating it (ConfigError when it cannot work).
  std::function<void(const ResolvedRun& run)> check;
  // Simulates one run: RunOutput::metrics holds kind_metrics then stats.
  std::function<RunOutput(const ResolvedRun& run, const RunOptions& options)> simulate;

  std::size_t metric_count() const { return kind_metrics.size() + stats.size(); }
};

// A scheme with concrete parameter values (encoded as in ParamTable).
struct SchemeConfig {
  const SchemeInfo* info = nullptr;
  std::vector<double> values;
};

}  // namespace tbdse
