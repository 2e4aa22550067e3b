// The interface every scheduling scheme implements (docs/ARCHITECTURE.md):
// events in (simulation start, TB finished, the scheme's own timed events),
// decisions out (which ready TB goes to which SM, through the Engine).  A
// scheme is described by a SchemeInfo: its documented parameters, the
// statistics it reports and a factory; schemes are created by name from the
// registry in cpp/models.
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "event_queue.hpp"
#include "gpu.hpp"
#include "params.hpp"
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
  std::vector<StatInfo> stats;
  // Builds a scheme for one run; throws ConfigError when the combination can
  // be known to be impossible before running.
  std::function<std::unique_ptr<Scheme>(std::span<const double> params, const Workload& workload,
                                        const GpuConfig& gpu)>
      create;
};

// A scheme with concrete parameter values (encoded as in ParamTable).
struct SchemeConfig {
  const SchemeInfo* info = nullptr;
  std::vector<double> values;
};

}  // namespace tbdse
