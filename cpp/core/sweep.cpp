#include "sweep.hpp"

#include <cmath>
#include <limits>
#include <new>
#include <sstream>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "errors.hpp"
#include "hash.hpp"
#include "rng.hpp"

namespace tbdse {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

const char* target_name(ParamOverride::Target t) {
  switch (t) {
    case ParamOverride::Target::GPU: return "gpu";
    case ParamOverride::Target::SCHEME: return "scheme";
    case ParamOverride::Target::COST: return "cost";
  }
  return "?";
}

// Column layout of a spec's result table, and where each scheme's metrics go.
struct Columns {
  std::vector<std::string> names;
  std::vector<std::vector<std::size_t>> scheme_metric_column;  // per scheme config

  explicit Columns(const SweepSpec& spec) {
    for (const auto& m : common_metrics()) names.push_back(m.name);
    for (const auto& sc : spec.schemes) {
      std::vector<std::size_t> where;
      for (const auto* list : {&sc.info->kind_metrics, &sc.info->stats})
        for (const auto& stat : *list) {
          std::size_t c = 0;
          while (c < names.size() && names[c] != stat.name) ++c;
          if (c == names.size()) names.push_back(stat.name);
          where.push_back(c);
        }
      scheme_metric_column.push_back(std::move(where));
    }
  }
};

RunOutput simulate_resolved(const ResolvedRun& r, bool record, bool values = false) {
  RunOutput out = r.scheme->simulate(r, RunOptions{.record = record, .values = values});
  if (out.metrics.size() != r.scheme->metric_count())
    throw SimulationError("internal: scheme '" + r.scheme->name + "' reported " +
                          std::to_string(out.metrics.size()) + " metrics, not " +
                          std::to_string(r.scheme->metric_count()));
  return out;
}

void write_row(Eigen::MatrixXd& m, Eigen::Index row, const ResolvedRun& r, const RunOutput& out,
               const std::vector<std::size_t>& metric_column) {
  // A simulator that has no makespan for a run (e.g. a kernel that does not
  // map onto a fabric) reports a negative one: NaN in the table.
  const bool has_makespan = out.makespan >= 0;
  m(row, 0) = has_makespan ? static_cast<double>(out.makespan) : kNaN;
  m(row, 1) = has_makespan ? r.gpu.cycles_to_us(out.makespan) : kNaN;
  m(row, 2) = out.storage_bytes;  // a property of the design, reported with or without a makespan
  for (std::size_t s = 0; s < metric_column.size(); ++s)
    m(row, static_cast<Eigen::Index>(metric_column[s])) = out.metrics[s];
}

SweepResult empty_result(const Columns& cols, std::size_t rows) {
  SweepResult res;
  res.columns = cols.names;
  res.metrics = Eigen::MatrixXd::Constant(static_cast<Eigen::Index>(rows),
                                          static_cast<Eigen::Index>(cols.names.size()), kNaN);
  res.config_hash.assign(rows, 0);
  res.status.assign(rows, static_cast<std::int8_t>(RunStatus::OK));
  res.errors.assign(rows, std::string());
  return res;
}

}  // namespace

const std::vector<StatInfo>& common_metrics() {
  static const std::vector<StatInfo> list = {
      {"makespan_cycles", "cycles", "cycle at which the run ended (its last thread block or item)"},
      {"makespan_us", "us", "makespan in microseconds at the GPU clock"},
      {"storage_bytes", "bytes",
       "hardware storage the mechanism adds to the GPU, in bytes (0 for software schemes; inf "
       "for unbounded buffers); formula and paper section per scheme in docs/models"},
  };
  return list;
}

std::vector<std::string> result_columns(const SweepSpec& spec) { return Columns(spec).names; }

void SweepSpec::check_shape() const {
  const std::size_t n = runs();
  for (const auto* col : {&gpu_of, &scheme_of, &cost_of, &replicate_of})
    if (col->size() != n) throw ConfigError("sweep: per-run index columns differ in length");
  const auto check = [](const std::vector<std::int32_t>& idx, std::size_t size, const char* what) {
    for (const auto i : idx)
      if (i < 0 || static_cast<std::size_t>(i) >= size)
        throw ConfigError(std::string("sweep: ") + what + " index " + std::to_string(i) +
                          " out of range");
  };
  check(workload_of, workloads.size(), "workload");
  check(gpu_of, gpus.size(), "gpu");
  check(scheme_of, schemes.size(), "scheme");
  check(cost_of, costs.size(), "cost model");
  for (const auto& w : workloads)
    if (!w || (!w->graph && !w->input))
      throw ConfigError("sweep: a workload has neither a task graph nor a model input");
  for (const auto& s : schemes)
    if (!s.info || s.values.size() != s.info->params.size())
      throw ConfigError("sweep: a scheme configuration is incomplete");
  for (const auto& ov : overrides)
    if (ov.values.size() != n)
      throw ConfigError("sweep: override '" + ov.name + "' has " + std::to_string(ov.values.size()) +
                        " values for " + std::to_string(n) + " runs");
}

std::string describe_run(const SweepSpec& spec, std::size_t run) {
  const auto& sc = spec.schemes[spec.scheme_of[run]];
  std::string out = "run " + std::to_string(run) + ": scheme '" + sc.info->name +
                    "' on workload '" + spec.workloads[spec.workload_of[run]]->name +
                    "', gpu '" + spec.gpus[spec.gpu_of[run]].name + "'";
  std::string set;
  for (const auto& ov : spec.overrides) {
    const double v = ov.values[run];
    if (std::isnan(v)) continue;
    std::ostringstream value;
    value << v;
    set += (set.empty() ? "" : ", ") + std::string(target_name(ov.target)) + "." + ov.name + "=" +
           value.str();
  }
  if (!set.empty()) out += " with " + set;
  out += ", replicate " + std::to_string(spec.replicate_of[run]);
  return out;
}

std::vector<std::uint64_t> workload_hashes(const SweepSpec& spec,
                                           const std::vector<std::size_t>& runs) {
  std::vector<std::uint8_t> used(spec.workloads.size(), runs.empty() ? 1 : 0);
  for (const std::size_t i : runs) used[static_cast<std::size_t>(spec.workload_of[i])] = 1;
  std::vector<std::uint64_t> out(spec.workloads.size(), 0);
  tbb::parallel_for(std::size_t{0}, out.size(), [&](std::size_t w) {
    if (used[w]) out[w] = spec.workloads[w]->hash();
  });
  return out;
}

ResolvedRun resolve_run(const SweepSpec& spec, std::size_t run,
                        const std::vector<std::uint64_t>* hashes) {
  ResolvedRun r;
  r.workload = spec.workloads[spec.workload_of[run]].get();
  r.gpu = spec.gpus[spec.gpu_of[run]];
  const SchemeConfig& sc = spec.schemes[spec.scheme_of[run]];
  r.scheme = sc.info;
  r.scheme_values = sc.values;
  r.cost = spec.costs[spec.cost_of[run]];
  r.replicate = spec.replicate_of[run];

  const std::string scheme_owner = "scheme '" + sc.info->name + "'";
  for (const auto& ov : spec.overrides) {
    const double v = ov.values[run];
    if (std::isnan(v)) continue;
    switch (ov.target) {
      case ParamOverride::Target::GPU: {
        const auto& table = GpuConfig::params();
        table.set(r.gpu, find_param(table.infos(), ov.name, "GPU"), v, "GPU");
        break;
      }
      case ParamOverride::Target::SCHEME: {
        const std::size_t i = find_param(sc.info->params, ov.name, scheme_owner);
        check_param_value(sc.info->params[i], v, scheme_owner);
        r.scheme_values[i] = v;
        break;
      }
      case ParamOverride::Target::COST: r.cost.set_param(ov.name, v); break;
    }
  }
  check_gpu(r.gpu);
  if (r.workload->kind() != r.scheme->workload_kind)
    throw ConfigError("scheme '" + r.scheme->name + "' simulates " + r.scheme->workload_kind +
                      " workloads; workload '" + r.workload->name + "' is a " +
                      r.workload->kind() + " workload");
  r.workload->validate(r.gpu);
  if (r.workload->graph) r.cost.validate(*r.workload->graph);

  const std::uint64_t workload_hash =
      hashes ? (*hashes)[static_cast<std::size_t>(spec.workload_of[run])] : r.workload->hash();
  Hasher h(0x5EED);
  h.add(workload_hash);
  const auto& gpu_table = GpuConfig::params();
  for (std::size_t i = 0; i < gpu_table.size(); ++i) h.add_double(gpu_table.get(r.gpu, i));
  h.add_string(r.scheme->name);
  for (const double v : r.scheme_values) h.add_double(v);
  const std::uint64_t cost_hash = r.cost.hash();
  h.add(cost_hash);
  r.config_hash = h.digest();
  const std::uint64_t input_hash =
      r.workload->graph ? r.workload->graph->content_hash() : r.workload->input->content_hash();
  r.cost_key = rng_key(spec.seed, mix64(input_hash) ^ cost_hash,
                       static_cast<std::uint64_t>(r.replicate), RngPurpose::TASK_COST);
  r.model_key = rng_key(spec.seed, workload_hash, static_cast<std::uint64_t>(r.replicate),
                        RngPurpose::MODEL);
  return r;
}

SweepValidation check_sweep(const SweepSpec& spec, int threads,
                            const std::vector<std::size_t>& runs,
                            const std::atomic<bool>* cancel) {
  spec.check_shape();
  const std::size_t n = runs.empty() ? spec.runs() : runs.size();
  for (const std::size_t i : runs)
    if (i >= spec.runs())
      throw ConfigError("sweep: run " + std::to_string(i) + " does not exist (" +
                        std::to_string(spec.runs()) + " runs)");
  SweepValidation out{std::vector<std::uint64_t>(n, 0), std::vector<std::string>(n)};
  tbb::task_arena arena(threads > 0 ? threads : tbb::task_arena::automatic);
  arena.execute([&] {
    const std::vector<std::uint64_t> hashes = workload_hashes(spec, runs);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n), [&](const auto& range) {
      for (std::size_t row = range.begin(); row != range.end(); ++row) {
        const std::size_t i = runs.empty() ? row : runs[row];
        check_cancelled(cancel);
        try {
          const RunScope scope(RunControl{.cancel = cancel});  // a check that polls
          const ResolvedRun r = resolve_run(spec, i, &hashes);
          out.hashes[row] = r.config_hash;  // kept when only the check below fails
          r.scheme->check(r);
        } catch (const ConfigError& e) {
          out.errors[row] = describe_run(spec, i) + ": " + e.what();
        }
      }
    });
  });
  return out;
}

std::vector<std::uint64_t> validate_sweep(const SweepSpec& spec, int threads,
                                          const std::vector<std::size_t>& runs,
                                          const std::atomic<bool>* cancel) {
  SweepValidation v = check_sweep(spec, threads, runs, cancel);
  for (const auto& e : v.errors)  // the first failing run, whatever the threads did
    if (!e.empty()) throw ConfigError(e);
  return std::move(v.hashes);
}

SweepResult run_sweep(const SweepSpec& spec, const SweepOptions& options) {
  spec.check_shape();
  std::vector<std::size_t> runs = options.runs;
  if (runs.empty()) {
    runs.resize(spec.runs());
    for (std::size_t i = 0; i < runs.size(); ++i) runs[i] = i;
  }
  for (const std::size_t i : runs)
    if (i >= spec.runs())
      throw ConfigError("sweep: run " + std::to_string(i) + " does not exist (" +
                        std::to_string(spec.runs()) + " runs)");
  const Columns cols(spec);
  SweepResult res = empty_result(cols, runs.size());
  std::vector<std::uint64_t> hashes;  // filled in the arena, before any run

  const auto body = [&](const tbb::blocked_range<std::size_t>& range) {
    for (std::size_t row = range.begin(); row != range.end(); ++row) {
      const std::size_t i = runs[row];
      RunStatus status = RunStatus::OK;
      std::string error;
      try {
        const RunScope scope(RunControl{.cancel = options.cancel, .timeout_s = options.timeout_s});
        const ResolvedRun r = resolve_run(spec, i, &hashes);
        res.config_hash[row] = r.config_hash;
        const RunOutput out = simulate_resolved(r, false);
        write_row(res.metrics, static_cast<Eigen::Index>(row), r, out,
                  cols.scheme_metric_column[spec.scheme_of[i]]);
      } catch (const RunCancelled&) {
        throw;  // the whole call stops; its rows are dropped
      } catch (const ConfigError& e) {
        status = RunStatus::CONFIG_ERROR;
        error = e.what();
      } catch (const RunTimedOut& e) {
        status = RunStatus::TIMED_OUT;
        error = e.what();
      } catch (const DeadlockError& e) {
        status = RunStatus::DEADLOCK;
        error = e.what();
      } catch (const std::bad_alloc&) {
        status = RunStatus::SIMULATION_ERROR;
        error = "out of memory: the run needed more memory than this process could allocate; "
                "use a smaller workload or fewer threads";
      } catch (const std::exception& e) {
        status = RunStatus::SIMULATION_ERROR;
        error = e.what();
      }
      if (status != RunStatus::OK) {
        res.status[row] = static_cast<std::int8_t>(status);
        res.errors[row] = describe_run(spec, i) + ": " + error;
      }
    }
  };
  tbb::task_arena arena(options.threads > 0 ? options.threads : tbb::task_arena::automatic);
  arena.execute([&] {
    hashes = workload_hashes(spec, runs);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, runs.size()), body);
  });
  return res;
}

SingleRun run_single(const SweepSpec& spec, std::size_t run, bool record,
                     const RunControl& control) {
  spec.check_shape();
  if (run >= spec.runs()) throw ConfigError("sweep: no run " + std::to_string(run));
  const Columns cols(spec);
  SingleRun single{empty_result(cols, 1), {}};
  ResolvedRun r;
  try {
    const RunScope scope(control);
    r = resolve_run(spec, run);
    single.row.config_hash[0] = r.config_hash;
    single.output = simulate_resolved(r, record, true);
  } catch (const DeadlockError& e) {
    throw DeadlockError(describe_run(spec, run) + ": " + e.what(), e.stuck_tasks());
  } catch (const ConfigError& e) {
    throw ConfigError(describe_run(spec, run) + ": " + e.what());
  } catch (const RunTimedOut& e) {
    throw RunTimedOut(describe_run(spec, run) + ": " + e.what());
  } catch (const SimulationError& e) {
    throw SimulationError(describe_run(spec, run) + ": " + e.what());
  } catch (const std::bad_alloc&) {
    throw SimulationError(describe_run(spec, run) +
                          ": out of memory: the run needed more memory than this process could "
                          "allocate; use a smaller workload");
  }
  write_row(single.row.metrics, 0, r, single.output, cols.scheme_metric_column[spec.scheme_of[run]]);
  return single;
}

}  // namespace tbdse
