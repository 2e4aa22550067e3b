// Descriptions of everything configurable: GPU fields and presets, schemes
// with their documented parameters and statistics, cost-model kinds, and the
// metrics every run reports.  Python builds its listings and validation from
// these, so there is one source of truth.
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "core/cost_model.hpp"
#include "core/gpu.hpp"
#include "core/sweep.hpp"
#include "models/registry.hpp"

namespace tbdse::bindings {

namespace {

const char* kind_name(ParamKind k) {
  switch (k) {
    case ParamKind::INT: return "int";
    case ParamKind::FLOAT: return "float";
    case ParamKind::BOOL: return "bool";
    case ParamKind::CHOICE: return "choice";
  }
  return "?";
}

// The Python value of an encoded parameter value.
py::object decode(const ParamInfo& info, double v) {
  if (std::isinf(v) && v > 0) return py::str("unbounded");
  if (info.auto_ok && v == kAutoValue) return py::str("auto");
  switch (info.kind) {
    case ParamKind::INT: return py::int_(static_cast<long long>(v));
    case ParamKind::BOOL: return py::bool_(v != 0.0);
    case ParamKind::CHOICE: return py::str(info.choices.at(static_cast<std::size_t>(v)));
    case ParamKind::FLOAT: break;
  }
  return py::float_(v);
}

py::dict describe(const ParamInfo& info, double default_value) {
  py::dict d;
  d["name"] = info.name;
  d["kind"] = kind_name(info.kind);
  d["unit"] = info.unit;
  d["doc"] = info.doc;
  d["paper_ref"] = info.paper_ref;
  d["choices"] = info.choices;
  d["unbounded_ok"] = info.unbounded_ok;
  d["auto_ok"] = info.auto_ok;
  d["min"] = info.min_value;
  d["max"] = info.max_value;
  d["default"] = decode(info, default_value);
  // Conditions that must all hold, each a list of terms of which any must
  // (python/tbdse/schemes/reads.py evaluates them).
  py::list read_when;
  for (const ReadWhen& w : info.read_when) {
    py::list any;
    for (const ReadTerm& t : w.any) {
      py::dict c;
      c["param"] = t.param;
      c["values"] = t.values;
      c["among"] = t.among;
      any.append(c);
    }
    read_when.append(any);
  }
  d["read_when"] = read_when;
  d["read_when_text"] = read_when_words(info);
  return d;
}

py::list describe_stats(const std::vector<StatInfo>& stats) {
  py::list out;
  for (const auto& s : stats) {
    py::dict d;
    d["name"] = s.name;
    d["unit"] = s.unit;
    d["doc"] = s.doc;
    out.append(d);
  }
  return out;
}

py::dict describe_scheme(const SchemeInfo& s) {
  py::dict d;
  d["name"] = s.name;
  d["summary"] = s.summary;
  d["paper_ref"] = s.paper_ref;
  py::list params;
  for (std::size_t i = 0; i < s.params.size(); ++i) params.append(describe(s.params[i], s.defaults[i]));
  d["params"] = params;
  d["stats"] = describe_stats(s.stats);
  d["kind_metrics"] = describe_stats(s.kind_metrics);
  d["workload_kind"] = s.workload_kind;
  return d;
}

}  // namespace

void register_config(py::module_& m) {
  m.def("gpu_params", [] {
    const auto& table = GpuConfig::params();
    const GpuConfig defaults;
    py::list out;
    for (std::size_t i = 0; i < table.size(); ++i)
      out.append(describe(table.infos()[i], table.get(defaults, i)));
    return out;
  });
  m.def("gpu_preset_names", &gpu_preset_names);
  m.def("gpu_preset", [](const std::string& name) {
    const GpuConfig g = gpu_preset(name);
    const auto& table = GpuConfig::params();
    py::dict values;
    for (std::size_t i = 0; i < table.size(); ++i)
      values[py::str(table.infos()[i].name)] = decode(table.infos()[i], table.get(g, i));
    return values;
  }, py::arg("name"), "Field values of a GPU preset; ConfigError for an unknown name.");

  m.def("scheme_names", [] { return scheme_registry().names(); });
  m.def("scheme_info", [](const std::string& name) { return describe_scheme(scheme_registry().get(name)); },
        py::arg("name"));

  m.def("cost_kinds", [] {
    py::dict out;
    for (const auto& kind : CostModel::kind_names()) {
      const CostModel model = CostModel::make(CostModel::kind_from_name(kind));
      py::dict params;
      const auto& names = CostModel::param_names(model.kind);
      for (std::size_t i = 0; i < names.size(); ++i) params[py::str(names[i])] = model.params[i];
      out[py::str(kind)] = params;
    }
    return out;
  }, "Cost-model kinds and their parameters with defaults.");

  m.def("check_gpu", [](const std::string& name, const std::map<std::string, double>& values) {
    (void)make_gpu({name, values});
  }, py::arg("name"), py::arg("values"), "ConfigError unless the GPU description is valid.");
  m.def("check_scheme", [](const std::string& name, const std::map<std::string, double>& values) {
    (void)make_scheme({name, values});
  }, py::arg("name"), py::arg("values"), "ConfigError unless the scheme description is valid.");
  m.def("check_cost", [](const std::string& kind, const std::map<std::string, double>& params,
                         const std::optional<CycleArray>& values) {
    make_cost({kind, params, values}).check_params();
  }, py::arg("kind"), py::arg("params"), py::arg("values") = py::none(),
     "ConfigError unless the cost model's parameters are valid.");

  m.def("common_metrics", [] { return describe_stats(common_metrics()); });
}

}  // namespace tbdse::bindings
