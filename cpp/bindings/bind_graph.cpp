// TaskGraph: built from NumPy edge arrays or by the C++ generators; its CSR
// arrays are exposed as read-only NumPy views owned by the graph.
#include <pybind11/stl.h>

#include <limits>
#include <string>

#include "bindings.hpp"
#include "core/errors.hpp"
#include "core/generators.hpp"
#include "core/model_input.hpp"
#include "core/memory.hpp"
#include "core/task_graph.hpp"

namespace tbdse::bindings {

namespace {

using IntArray = py::array_t<std::int32_t, py::array::c_style | py::array::forcecast>;

std::shared_ptr<TaskGraph> build_task_graph(std::int64_t nodes, const IntArray& src,
                                            const IntArray& dst,
                                            const std::optional<IntArray>& kernel,
                                            const std::optional<CycleArray>& cost,
                                            const std::optional<IntArray>& launch_group) {
  if (nodes < 0 || nodes > std::numeric_limits<std::int32_t>::max())
    throw ConfigError("task graph: node count " + std::to_string(nodes) + " is out of range");
  TaskGraphInput in;
  in.nodes = static_cast<std::int32_t>(nodes);
  in.edge_src = to_vector(src);
  in.edge_dst = to_vector(dst);
  if (kernel) in.kernel = to_vector(*kernel);
  if (cost) in.cost = to_vector(*cost);
  if (launch_group) in.launch_group = to_vector(*launch_group);
  py::gil_scoped_release release;
  return std::make_shared<TaskGraph>(TaskGraph::build(std::move(in)));
}

}  // namespace

void register_inputs(py::module_& m) {
  py::class_<ModelInput, std::shared_ptr<ModelInput>>(
      m, "ModelInput", "The input of a simulator other than the TB engine (abstract).")
      .def_property_readonly("kind", &ModelInput::kind)
      .def_property_readonly("content_hash", &ModelInput::content_hash)
      .def_property_readonly("weight", &ModelInput::weight)
      .def("sizes", &ModelInput::sizes, "Sizes worth a result column each (workload.<name>).");
}

void register_graph(py::module_& m) {
  py::class_<TaskGraph, std::shared_ptr<TaskGraph>>(m, "TaskGraph",
                                                     "An immutable task graph in CSR form.")
      .def_static("build", &build_task_graph, py::arg("nodes"), py::arg("src"), py::arg("dst"),
                  py::arg("kernel") = py::none(), py::arg("cost") = py::none(),
                  py::arg("launch_group") = py::none())
      .def_property_readonly("size", &TaskGraph::size)
      .def_property_readonly("edge_count", &TaskGraph::edge_count)
      .def_property_readonly("num_levels", &TaskGraph::num_levels)
      .def_property_readonly("num_kernels", &TaskGraph::num_kernels)
      .def_property_readonly("has_launch_groups", &TaskGraph::has_launch_groups)
      .def_property_readonly("content_hash", &TaskGraph::content_hash)
      // Arrays are in input-id order (the caller's numbering), as copies.
      .def("edge_starts", [](const TaskGraph& g) { return to_numpy(g.original_csr().first); })
      .def("edges", [](const TaskGraph& g) { return to_numpy(g.original_csr().second); })
      .def("parent_counts", [](const TaskGraph& g) { return to_numpy(g.in_original_order(g.parent_counts())); })
      .def("levels", [](const TaskGraph& g) { return to_numpy(g.in_original_order(g.levels())); })
      .def("kernels", [](const TaskGraph& g) { return to_numpy(g.in_original_order(g.kernels())); })
      .def("costs", [](const TaskGraph& g) { return to_numpy(g.in_original_order(g.costs())); })
      .def("launch_groups", [](const TaskGraph& g) {
        return to_numpy(g.in_original_order(g.launch_groups()));
      })
      .def("level_order", [](py::object self) {
        return view_numpy(self.cast<const TaskGraph&>().original_ids(), self);
      }, "Input task ids in virtual-id order: level by level, by id within a level.")
      // Pickled as TaskGraph.build's arguments in input ids; building again
      // gives the same graph (and content hash).
      .def(py::pickle(
          [](const TaskGraph& g) {
            auto [starts, children] = g.original_csr();
            std::vector<TaskId> src(children.size());
            for (TaskId t = 0; t < g.size(); ++t)
              std::fill(src.begin() + starts[t], src.begin() + starts[t + 1], t);
            py::object groups = py::none();
            if (g.has_launch_groups()) groups = to_numpy(g.in_original_order(g.launch_groups()));
            return py::make_tuple(g.size(), to_numpy(std::move(src)),
                                  to_numpy(std::move(children)),
                                  to_numpy(g.in_original_order(g.kernels())),
                                  to_numpy(g.in_original_order(g.costs())), groups);
          },
          [](const py::tuple& state) {
            if (state.size() != 6) throw ConfigError("TaskGraph: damaged pickled state");
            const auto optional_ids = [](const py::object& o) {
              return o.is_none() ? std::optional<IntArray>() : std::optional(o.cast<IntArray>());
            };
            return build_task_graph(state[0].cast<std::int64_t>(), state[1].cast<IntArray>(),
                                    state[2].cast<IntArray>(), optional_ids(state[3]),
                                    std::optional(state[4].cast<CycleArray>()),
                                    optional_ids(state[5]));
          }))
      .def("critical_path", [](const TaskGraph& g, const CycleArray& cost) {
        const auto c = to_vector(cost);  // by input id
        if (c.size() != static_cast<std::size_t>(g.size()))
          throw ConfigError("critical_path: need one cost per task");
        std::vector<Cycle> by_node(c.size());
        for (TaskId t = 0; t < g.size(); ++t) by_node[t] = c[g.original_id(t)];
        return g.critical_path(by_node);
      });

  m.def("check_graph_fits", [](const std::string& what, double nodes, double edges) {
    require_graph_fits(what, nodes, edges);
  }, py::arg("what"), py::arg("nodes"), py::arg("edges"),
     "ConfigError unless a graph of this size has valid ids and fits in memory.");
  m.def("available_memory", &available_memory_bytes, "Bytes this process can still allocate.");
  m.def("check_memory", [](const std::string& what, double bytes) { require_memory(what, bytes); },
        py::arg("what"), py::arg("bytes"), "ConfigError when `bytes` cannot fit in memory.");

  m.def("make_wavefront", [](std::int64_t rows, std::int64_t cols) {
    const auto r = arg32(rows, "wavefront", "rows"), c = arg32(cols, "wavefront", "cols");
    return released([&] { return make_wavefront(r, c); });
  }, py::arg("rows"), py::arg("cols"));
  m.def("make_barrier", [](std::int64_t width, std::int64_t stages, std::int64_t group) {
    const auto w = arg32(width, "barrier", "width"), s = arg32(stages, "barrier", "stages"),
               g = arg32(group, "barrier", "group");
    return released([&] { return make_barrier(w, s, g); });
  }, py::arg("width"), py::arg("stages"), py::arg("group"));
  m.def("make_layered_random",
        [](std::int64_t layers, std::int64_t width, double edge_prob, std::int64_t span,
           std::int64_t seed) {
          const auto l = arg32(layers, "layered_random", "layers");
          const auto w = arg32(width, "layered_random", "width");
          const auto s = arg32(span, "layered_random", "span");
          if (seed < 0)
            throw ConfigError("layered_random: 'seed' must be >= 0; got " + std::to_string(seed));
          return released([&] {
            return make_layered_random(l, w, edge_prob, s, static_cast<std::uint64_t>(seed));
          });
        },
        py::arg("layers"), py::arg("width"), py::arg("edge_prob"), py::arg("span"), py::arg("seed"));
}

}  // namespace tbdse::bindings
