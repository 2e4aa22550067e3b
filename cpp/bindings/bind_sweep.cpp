// The sweep entry point.  Python describes a sweep as tables (workloads, GPUs,
// schemes, cost models), per-run index columns and per-run override columns;
// everything is converted first, then the GIL is released for the whole C++
// run (boost-histogram fill.hpp: no Python object is touched inside TBB), and
// the metric matrix moves into NumPy without a copy.  The C++ work runs on a
// helper thread so that Ctrl-C stops it (interruptible.hpp).
#include <pybind11/eigen.h>
#include <pybind11/stl.h>

#include <cmath>

#include "bindings.hpp"
#include "interruptible.hpp"
#include "core/errors.hpp"
#include "core/sweep.hpp"
#include "models/registry.hpp"

namespace tbdse::bindings {

namespace {

using IntArray = py::array_t<std::int32_t, py::array::c_style | py::array::forcecast>;
using FloatArray = py::array_t<double, py::array::c_style | py::array::forcecast>;

using OverrideTuple = std::tuple<std::string, std::string, FloatArray>;

ParamOverride::Target target_from(const std::string& t) {
  if (t == "gpu") return ParamOverride::Target::GPU;
  if (t == "scheme") return ParamOverride::Target::SCHEME;
  if (t == "cost") return ParamOverride::Target::COST;
  throw ConfigError("sweep: override target must be gpu, scheme or cost; got '" + t + "'");
}

py::dict result_dict(SweepResult&& res) {
  py::dict d;
  d["columns"] = res.columns;
  d["metrics"] = py::cast(std::move(res.metrics));  // moved into NumPy, no copy
  d["config_hash"] = to_numpy(std::move(res.config_hash));
  d["status"] = to_numpy(std::move(res.status));
  d["errors"] = res.errors;
  return d;
}

// 0 = no limit.
double check_timeout(double seconds) {
  if (!(seconds >= 0) || !std::isfinite(seconds))
    throw ConfigError("timeout_s must be a positive number of seconds; got " +
                      std::to_string(seconds));
  return seconds;
}

py::dict series_dict(std::vector<Series>&& series) {
  py::dict d;
  for (auto& s : series) d[py::str(s.name)] = to_numpy(std::move(s.values));
  return d;
}

class PySweep {
 public:
  PySweep(const std::vector<WorkloadTuple>& workloads, const std::vector<NamedValues>& gpus,
          const std::vector<NamedValues>& schemes, const std::vector<CostTuple>& costs,
          const IntArray& workload_of, const IntArray& gpu_of, const IntArray& scheme_of,
          const IntArray& cost_of, const IntArray& replicate_of,
          const std::vector<OverrideTuple>& overrides, std::uint64_t seed) {
    for (const auto& w : workloads) spec_.workloads.push_back(make_workload(w));
    for (const auto& g : gpus) spec_.gpus.push_back(make_gpu(g));
    for (const auto& s : schemes) spec_.schemes.push_back(make_scheme(s));
    for (const auto& c : costs) spec_.costs.push_back(make_cost(c));
    spec_.workload_of = to_vector(workload_of);
    spec_.gpu_of = to_vector(gpu_of);
    spec_.scheme_of = to_vector(scheme_of);
    spec_.cost_of = to_vector(cost_of);
    spec_.replicate_of = to_vector(replicate_of);
    for (const auto& [target, name, values] : overrides)
      spec_.overrides.push_back(ParamOverride{target_from(target), name, to_vector(values)});
    spec_.seed = seed;
    spec_.check_shape();
  }

  std::size_t runs() const { return spec_.runs(); }
  std::vector<std::string> columns() const { return result_columns(spec_); }

  // Hashes, or with `collect` (hashes, errors): errors[i] "" for a valid run,
  // its message otherwise, and hashes[i] 0 where the run did not even
  // resolve (check_sweep).
  py::object validate(
      const std::optional<py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>>&
          runs,
      bool collect) const {
    std::vector<std::size_t> selected;
    if (runs) {
      if (runs->size() == 0) {
        py::array_t<std::uint64_t> none = to_numpy(std::vector<std::uint64_t>{});
        if (!collect) return none;
        return py::make_tuple(none, py::list());
      }
      for (const std::int64_t i : to_vector(*runs)) {
        if (i < 0) throw ConfigError("sweep: negative run index");
        selected.push_back(static_cast<std::size_t>(i));
      }
    }
    if (!collect) {
      std::vector<std::uint64_t> hashes = interruptible([&](const std::atomic<bool>& cancel) {
        return validate_sweep(spec_, 0, selected, &cancel);
      });
      return to_numpy(std::move(hashes));
    }
    SweepValidation v = interruptible([&](const std::atomic<bool>& cancel) {
      return check_sweep(spec_, 0, selected, &cancel);
    });
    py::list errors = py::cast(v.errors);
    return py::make_tuple(to_numpy(std::move(v.hashes)), errors);
  }

  py::dict run(const py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>& runs,
               int threads, double timeout_s) const {
    if (runs.size() == 0) {  // an empty selection (SweepOptions reads empty as "all")
      SweepResult empty;
      empty.columns = result_columns(spec_);
      empty.metrics = Eigen::MatrixXd(0, static_cast<Eigen::Index>(empty.columns.size()));
      return result_dict(std::move(empty));
    }
    SweepOptions options{.threads = threads, .runs = {}, .timeout_s = check_timeout(timeout_s)};
    options.runs.reserve(static_cast<std::size_t>(runs.size()));
    for (const std::int64_t i : to_vector(runs)) {
      if (i < 0) throw ConfigError("sweep: negative run index");
      options.runs.push_back(static_cast<std::size_t>(i));
    }
    SweepResult res = interruptible([&](const std::atomic<bool>& cancel) {
      SweepOptions o = options;
      o.cancel = &cancel;
      return run_sweep(spec_, o);
    });
    return result_dict(std::move(res));
  }

  py::dict run_single(std::size_t index, bool record, double timeout_s) const {
    const double limit = check_timeout(timeout_s);
    SingleRun single = interruptible([&](const std::atomic<bool>& cancel) {
      return tbdse::run_single(spec_, index, record, {.cancel = &cancel, .timeout_s = limit});
    });
    py::dict d = result_dict(std::move(single.row));
    if (single.output.timeline) {
      Timeline& t = *single.output.timeline;
      py::dict tl;
      tl["sm"] = to_numpy(std::move(t.sm));
      tl["slot"] = to_numpy(std::move(t.slot));
      tl["ready"] = to_numpy(std::move(t.ready));
      tl["start"] = to_numpy(std::move(t.start));
      tl["end"] = to_numpy(std::move(t.end));
      // None when no scheme told dependencies apart from readiness (= ready).
      tl["deps_met"] = t.deps_met.empty() ? py::object(py::none())
                                          : py::object(to_numpy(std::move(t.deps_met)));
      d["timeline"] = tl;
    } else {
      d["timeline"] = py::none();
    }
    d["trace"] = series_dict(std::move(single.output.trace));
    d["values"] = series_dict(std::move(single.output.values));
    return d;
  }

 private:
  SweepSpec spec_;
};

}  // namespace

void register_sweep(py::module_& m) {
  py::class_<PySweep>(m, "Sweep", "A flat list of run configurations ready to simulate.")
      .def(py::init<const std::vector<WorkloadTuple>&, const std::vector<NamedValues>&,
                    const std::vector<NamedValues>&, const std::vector<CostTuple>&,
                    const IntArray&, const IntArray&, const IntArray&, const IntArray&,
                    const IntArray&, const std::vector<OverrideTuple>&, std::uint64_t>(),
           py::arg("workloads"), py::arg("gpus"), py::arg("schemes"), py::arg("costs"),
           py::arg("workload_of"), py::arg("gpu_of"), py::arg("scheme_of"), py::arg("cost_of"),
           py::arg("replicate_of"), py::arg("overrides"), py::arg("seed"))
      .def_property_readonly("runs", &PySweep::runs)
      .def_property_readonly("columns", &PySweep::columns, "Metric columns of the results.")
      .def("validate", &PySweep::validate, py::arg("runs") = py::none(), py::arg("collect") = false,
           "Resolve the given runs (default: all) and create their schemes without simulating; "
           "ConfigError on the first bad one.  Returns each run's configuration hash.  With "
           "collect=True nothing is raised for a bad run: returns (hashes, errors), errors[i] "
           "'' for a valid run and its message for an invalid one (hash 0 if the run could not "
           "even be resolved).")
      .def("run", &PySweep::run, py::arg("runs"), py::arg("threads") = 0,
           py::arg("timeout_s") = 0.0,
           "Simulate the given runs in parallel, one result row each, in that order; failures "
           "are reported per row (status 4: past timeout_s seconds, 0 = no limit).  Ctrl-C "
           "stops it and raises KeyboardInterrupt.")
      .def("run_single", &PySweep::run_single, py::arg("index"), py::arg("record") = false,
           py::arg("timeout_s") = 0.0,
           "Simulate one run (recording its timeline or trace on request); errors raise.");
}

}  // namespace tbdse::bindings
