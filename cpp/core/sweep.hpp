// The sweep runner: a flat list of run configurations simulated in parallel
// with TBB, results as numeric columns.  A run is (workload, GPU, scheme, cost
// model, replicate) by index into shared tables, plus per-run parameter
// overrides given column-wise, so that ten thousand configurations cost ten
// thousand small structs, not ten thousand Python objects.  No run depends on
// another: results are identical on any thread count and in any order.  The
// runner knows no simulator: each scheme's SchemeInfo checks and simulates
// its runs (the TB engine, the worklist machine, VGIW alike).
#pragma once

#include <Eigen/Core>
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "cost_model.hpp"
#include "gpu.hpp"
#include "run.hpp"
#include "run_control.hpp"
#include "scheme.hpp"
#include "workload.hpp"

namespace tbdse {

struct ParamOverride {
  enum class Target { GPU, SCHEME, COST };
  Target target = Target::GPU;
  std::string name;
  std::vector<double> values;  // one per run; NaN = this run keeps its base value
};

struct SweepSpec {
  std::vector<WorkloadPtr> workloads;
  std::vector<GpuConfig> gpus;
  std::vector<SchemeConfig> schemes;
  std::vector<CostModel> costs;
  // One entry per run: indices into the tables above, and the replicate number.
  std::vector<std::int32_t> workload_of, gpu_of, scheme_of, cost_of, replicate_of;
  std::vector<ParamOverride> overrides;
  std::uint64_t seed = 0;

  std::size_t runs() const { return workload_of.size(); }
  // Checks table indices and override shapes; ConfigError otherwise.
  void check_shape() const;
};

// Resolves run `run` of `spec`.  `hashes`, when given, holds
// Workload::hash() of each workload the run may use (workload_hashes() below):
// a footprint workload's hash reads every range, so callers resolving many
// runs compute it once per workload instead of twice per run.
ResolvedRun resolve_run(const SweepSpec& spec, std::size_t run,
                        const std::vector<std::uint64_t>* hashes = nullptr);

// Workload::hash() of every workload that `runs` use (all runs if empty), in
// parallel; 0 for the others.
std::vector<std::uint64_t> workload_hashes(const SweepSpec& spec, const std::vector<std::size_t>& runs);

// TIMED_OUT: the run passed SweepOptions::timeout_s and was stopped.
// INFEASIBLE: the run's configuration failed validation (check_sweep) and was
// never simulated; set by callers that record such runs as rows (the Python
// runner with on_error='record'), never by run_sweep itself.
enum class RunStatus : std::int8_t {
  OK = 0,
  CONFIG_ERROR = 1,
  DEADLOCK = 2,
  SIMULATION_ERROR = 3,
  TIMED_OUT = 4,
  INFEASIBLE = 5
};

// Metrics every run reports, whatever simulated it, before the schemes' kind
// metrics and statistics: makespan_cycles, makespan_us and storage_bytes
// (RunOutput::storage_bytes).
const std::vector<StatInfo>& common_metrics();

struct SweepResult {
  std::vector<std::string> columns;  // common metrics, then scheme statistics (union)
  Eigen::MatrixXd metrics;           // one row per run; NaN where a statistic does not apply
  std::vector<std::uint64_t> config_hash;
  std::vector<std::int8_t> status;   // RunStatus
  std::vector<std::string> errors;   // message per run, "" when OK
};

// Resolves every run and creates its scheme without simulating; throws the
// first ConfigError, prefixed with the run's description.  Returns each run's
// configuration hash (what a checkpoint keys finished runs by).
// `runs` selects which runs (empty = all); the hashes come back in that order.
// Setting `cancel` (from another thread) stops it with RunCancelled.
std::vector<std::uint64_t> validate_sweep(const SweepSpec& spec, int threads = 0,
                                          const std::vector<std::size_t>& runs = {},
                                          const std::atomic<bool>* cancel = nullptr);

// validate_sweep without throwing for a bad run: errors[i] is "" for a valid
// run and its ConfigError message, prefixed with describe_run, otherwise.
// hashes[i] is the configuration hash whenever the run resolved (only the
// scheme's check failed); 0 when resolving it failed (an override out of
// range, a scheme that does not simulate the workload's kind), as no
// configuration exists to hash then.  A malformed spec still throws, and
// `cancel` still stops it with RunCancelled.
struct SweepValidation {
  std::vector<std::uint64_t> hashes;
  std::vector<std::string> errors;
};
SweepValidation check_sweep(const SweepSpec& spec, int threads = 0,
                            const std::vector<std::size_t>& runs = {},
                            const std::atomic<bool>* cancel = nullptr);

struct SweepOptions {
  int threads = 0;                // 0 = all cores
  std::vector<std::size_t> runs;  // which runs, in result-row order; empty = all
  double timeout_s = 0;           // per run (run_control.hpp); 0 = no limit
  const std::atomic<bool>* cancel = nullptr;  // set from another thread to stop
};

// Failed runs are reported per row (status, errors; a run out of memory is a
// simulation_error, one past timeout_s timed_out); the call itself throws only
// for a malformed spec, or RunCancelled when `cancel` was set (the rows are
// then incomplete and must be dropped).
SweepResult run_sweep(const SweepSpec& spec, const SweepOptions& options);

// Names of the metric columns run_sweep returns for this spec.
std::vector<std::string> result_columns(const SweepSpec& spec);

// One run with its full output (timeline or trace on request); errors propagate
// (RunTimedOut past `control.timeout_s`, RunCancelled when cancelled).
struct SingleRun {
  SweepResult row;
  RunOutput output;
};
SingleRun run_single(const SweepSpec& spec, std::size_t run, bool record,
                     const RunControl& control = {});

// "scheme 'cdp' on workload 'wf' (gpu gtx480, sms=1)" for messages.
std::string describe_run(const SweepSpec& spec, std::size_t run);

}  // namespace tbdse
