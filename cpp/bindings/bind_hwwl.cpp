// The worklist machine's workload: an operator over a graph (or the synthetic
// stand-in), as a ModelInput Python can put in a Workload and pickle.
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "core/digraph.hpp"
#include "core/errors.hpp"
#include "models/hwwl/problem.hpp"

namespace tbdse::bindings {

namespace {

using hwwl::OperatorKind;
using hwwl::OperatorSpec;
using hwwl::WorklistProblem;

OperatorKind operator_kind(const std::string& name) {
  if (name == "bfs") return OperatorKind::BFS;
  if (name == "sssp") return OperatorKind::SSSP;
  if (name == "synthetic") return OperatorKind::SYNTHETIC;
  throw ConfigError("unknown worklist operator '" + name + "'; valid: bfs, sssp, synthetic");
}

const char* operator_name(OperatorKind kind) {
  switch (kind) {
    case OperatorKind::BFS: return "bfs";
    case OperatorKind::SSSP: return "sssp";
    case OperatorKind::SYNTHETIC: return "synthetic";
  }
  return "?";
}

// The operator's fields by name (what Python gives, and what a pickle keeps).
using Fields = std::map<std::string, double>;

OperatorSpec spec_from(const std::string& op, const Fields& fields) {
  OperatorSpec s;
  s.kind = operator_kind(op);
  const auto whole = [](double v, const std::string& key) {
    if (!(v == std::floor(v) && std::abs(v) < 9.2e18))
      throw ConfigError("worklist operator field '" + key + "' must be a whole number");
    return static_cast<std::int64_t>(v);
  };
  for (const auto& [key, v] : fields) {
    if (key == "source") s.source = static_cast<std::int32_t>(std::clamp<std::int64_t>(whole(v, key), -1, INT32_MAX));
    else if (key == "node_instructions") s.node_instructions = whole(v, key);
    else if (key == "arc_instructions") s.arc_instructions = whole(v, key);
    else if (key == "nodes") s.nodes = static_cast<std::int32_t>(std::clamp<std::int64_t>(whole(v, key), -1, INT32_MAX));
    else if (key == "initial") s.initial = v;
    else if (key == "work_mean") s.work_mean = v;
    else if (key == "work_sigma") s.work_sigma = v;
    else if (key == "work_growth") s.work_growth = v;
    else if (key == "mem_rounds") s.mem_rounds = static_cast<std::int32_t>(std::clamp<std::int64_t>(whole(v, key), -1, INT32_MAX));
    else if (key == "activations") s.activations = v;
    else if (key == "max_activations") s.max_activations = static_cast<std::int32_t>(std::clamp<std::int64_t>(whole(v, key), -1, INT32_MAX));
    else if (key == "spread") s.spread = static_cast<std::int32_t>(std::clamp<std::int64_t>(whole(v, key), -1, INT32_MAX));
    else if (key == "locality") s.locality = static_cast<std::int32_t>(std::clamp<std::int64_t>(whole(v, key), -1, INT32_MAX));
    else if (key == "generations") s.generations = static_cast<std::int32_t>(std::clamp<std::int64_t>(whole(v, key), -1, INT32_MAX));
    else if (key == "work_smooth") s.work_smooth = v;
    else if (key == "arc_activation") s.arc_activation = v;
    else if (key == "work_corr") s.work_corr = static_cast<std::int32_t>(std::clamp<std::int64_t>(whole(v, key), -1, INT32_MAX));
    else if (key == "survey_epsilon") s.survey_epsilon = v;
    else if (key == "decimations") s.decimations = static_cast<std::int32_t>(std::clamp<std::int64_t>(whole(v, key), -1, INT32_MAX));
    else if (key == "fix_fraction") s.fix_fraction = v;
    else throw ConfigError("unknown worklist operator field '" + key + "'");
  }
  return s;
}

Fields fields_of(const OperatorSpec& s) {
  return {{"source", s.source},           {"node_instructions", static_cast<double>(s.node_instructions)},
          {"arc_instructions", static_cast<double>(s.arc_instructions)},
          {"nodes", s.nodes},             {"initial", s.initial},
          {"work_mean", s.work_mean},     {"work_sigma", s.work_sigma},
          {"work_growth", s.work_growth}, {"mem_rounds", s.mem_rounds},
          {"activations", s.activations}, {"max_activations", s.max_activations},
          {"spread", s.spread},           {"generations", s.generations},
          {"locality", s.locality},
          {"work_smooth", s.work_smooth}, {"work_corr", s.work_corr},
          {"arc_activation", s.arc_activation},
          {"survey_epsilon", s.survey_epsilon}, {"decimations", s.decimations},
          {"fix_fraction", s.fix_fraction}};
}

std::shared_ptr<WorklistProblem> make_problem(const std::optional<std::shared_ptr<Digraph>>& graph,
                                              const std::string& op, const Fields& fields,
                                              std::vector<float> work_scale,
                                              std::vector<std::int32_t> initial,
                                              std::vector<std::int32_t> literals) {
  DigraphPtr g = graph ? *graph : nullptr;
  return std::make_shared<WorklistProblem>(std::move(g), spec_from(op, fields),
                                           std::move(work_scale), std::move(initial),
                                           std::move(literals));
}

}  // namespace

void register_hwwl(py::module_& m) {
  py::class_<WorklistProblem, ModelInput, std::shared_ptr<WorklistProblem>>(
      m, "WorklistProblem",
      "An operator over work items (BFS, SSSP on a Digraph, or the synthetic stand-in): the "
      "worklist machine's workload.")
      .def(py::init(&make_problem), py::arg("graph"), py::arg("operator"), py::arg("fields"),
           py::arg("work_scale") = std::vector<float>{}, py::arg("initial") = std::vector<std::int32_t>{},
           py::arg("literals") = std::vector<std::int32_t>{})
      .def_property_readonly("work_scale", [](const WorklistProblem& p) { return p.work_scale(); })
      .def_property_readonly("initial_ids", [](const WorklistProblem& p) { return p.initial_ids(); })
      .def_property_readonly("operator", [](const WorklistProblem& p) { return operator_name(p.op().kind); })
      .def_property_readonly("fields", [](const WorklistProblem& p) { return fields_of(p.op()); })
      .def_property_readonly("graph", [](const WorklistProblem& p) -> py::object {
        if (!p.graph()) return py::none();
        return py::cast(std::const_pointer_cast<Digraph>(p.graph_ptr()));
      })
      .def_property_readonly("nodes", &WorklistProblem::nodes)
      .def_property_readonly("literals", [](const WorklistProblem& p) {
        return p.formula() ? p.formula()->literals() : std::vector<std::int32_t>{};
      })
      .def("survey_start", [](const WorklistProblem& p) -> py::object {
        if (!p.formula()) return py::none();
        const hwwl::SurveyStart* s;
        {
          py::gil_scoped_release release;
          s = &p.survey_start();
        }
        std::int64_t satisfied = 0;
        for (std::int32_t a = 0; a < p.formula()->clauses(); ++a) satisfied += s->surveys.satisfied(a);
        py::dict out;
        out["sweeps"] = s->sweeps;
        out["fixed_variables"] = s->surveys.fixed_variables();
        out["satisfied_clauses"] = satisfied;
        out["seeds"] = s->seeds.size();
        out["eta"] = to_numpy(std::vector<double>(s->surveys.eta()));
        return out;
      }, "SP: where the simulated pass starts (host sweeps, variables fixed, satisfied "
         "clauses, initial items, the surveys); None for other operators.")
      .def("initial_items", [](const WorklistProblem& p) { return to_numpy(p.initial_items()); })
      .def("reference_distances", [](const WorklistProblem& p) {
        std::vector<std::int64_t> d;
        {
          py::gil_scoped_release release;
          d = p.reference_distances();
        }
        for (auto& v : d)
          if (v == hwwl::kUnreached) v = -1;
        return to_numpy(std::move(d));
      }, "Each node's distance from the source (BFS levels or Dijkstra); -1 where unreached.")
      .def(py::pickle(
          [](const WorklistProblem& p) {
            py::object graph = py::none();
            if (p.graph()) graph = py::cast(std::const_pointer_cast<Digraph>(p.graph_ptr()));
            return py::make_tuple(graph, operator_name(p.op().kind), fields_of(p.op()),
                                  p.work_scale(), p.initial_ids(),
                                  p.formula() ? p.formula()->literals() : std::vector<std::int32_t>{});
          },
          [](const py::tuple& state) {
            if (state.size() != 6) throw ConfigError("WorklistProblem: damaged pickled state");
            std::optional<std::shared_ptr<Digraph>> graph;
            if (!state[0].is_none()) graph = state[0].cast<std::shared_ptr<Digraph>>();
            return make_problem(graph, state[1].cast<std::string>(), state[2].cast<Fields>(),
                                state[3].cast<std::vector<float>>(),
                                state[4].cast<std::vector<std::int32_t>>(),
                                state[5].cast<std::vector<std::int32_t>>());
          }));
}

}  // namespace tbdse::bindings
