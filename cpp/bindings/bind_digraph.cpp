// Digraph (data graphs for graph operators): built from NumPy arc arrays, by
// the C++ generators or by the file readers, each with the GIL released; the
// CSR arrays are read-only NumPy views owned by the graph.
#include <pybind11/stl.h>

#include <limits>
#include <string>

#include "bindings.hpp"
#include "core/digraph.hpp"
#include "core/errors.hpp"
#include "core/run_control.hpp"
#include "interruptible.hpp"

namespace tbdse::bindings {

namespace {

using DigraphHolder = std::shared_ptr<Digraph>;
using I64Array = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>;

// An integer array (or anything NumPy makes one of) as int32 values, or
// ConfigError naming the argument.
std::vector<std::int32_t> int32_values(const py::object& given, const char* what) {
  const py::array a = py::array::ensure(given);
  if (!a) {
    PyErr_Clear();
    throw ConfigError(std::string("Digraph.build: '") + what + "' must be an integer array");
  }
  if (a.ndim() != 1)
    throw ConfigError(std::string("Digraph.build: '") + what +
                      "' must be a one-dimensional array; got " + std::to_string(a.ndim()) +
                      " dimensions");
  if (a.size() == 0) return {};
  const char kind = a.dtype().kind();
  if (kind != 'i' && kind != 'u')
    throw ConfigError(std::string("Digraph.build: '") + what + "' must hold integers; got dtype " +
                      py::str(a.dtype()).cast<std::string>());
  const auto values = a.cast<I64Array>();
  std::vector<std::int32_t> out(static_cast<std::size_t>(values.size()));
  const std::int64_t* data = values.data();
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (data[i] < std::numeric_limits<std::int32_t>::min() ||
        data[i] > std::numeric_limits<std::int32_t>::max())
      throw ConfigError(std::string("Digraph.build: ") + what + "[" + std::to_string(i) +
                        "] = " + std::to_string(data[i]) +
                        " is out of range (node ids and weights are below 2^31)");
    out[i] = static_cast<std::int32_t>(data[i]);
  }
  return out;
}

DigraphHolder build_digraph(std::int64_t nodes, const py::object& src, const py::object& dst,
                            const py::object& weight) {
  DigraphInput in;
  in.nodes = nodes;
  in.src = int32_values(src, "src");
  in.dst = int32_values(dst, "dst");
  if (!weight.is_none()) in.weight = int32_values(weight, "weight");
  py::gil_scoped_release release;
  return std::make_shared<Digraph>(Digraph::build(std::move(in)));
}

std::uint64_t seed_arg(std::int64_t seed, const char* generator) {
  if (seed < 0)
    throw ConfigError(std::string(generator) + ": 'seed' must be >= 0; got " +
                      std::to_string(seed));
  return static_cast<std::uint64_t>(seed);
}

// A file reader: Ctrl-C stops it (it polls per line).
template <class F>
DigraphHolder reading(F f) {
  return interruptible([&](const std::atomic<bool>& cancel) {
    const RunScope scope(RunControl{.cancel = &cancel});
    return std::make_shared<Digraph>(f());
  });
}

py::tuple pickled_state(const Digraph& g) {
  std::vector<std::int32_t> src(static_cast<std::size_t>(g.arcs()));
  const auto offsets = g.offsets();
  for (std::int32_t v = 0; v < g.nodes(); ++v)
    std::fill(src.begin() + offsets[v], src.begin() + offsets[v + 1], v);
  const auto targets = g.targets(), weights = g.weights();
  py::object weight = py::none();
  if (g.weighted()) weight = to_numpy(std::vector<std::int32_t>(weights.begin(), weights.end()));
  return py::make_tuple(g.nodes(), to_numpy(std::move(src)),
                        to_numpy(std::vector<std::int32_t>(targets.begin(), targets.end())),
                        weight);
}

}  // namespace

void register_digraph(py::module_& m) {
  py::class_<Digraph, DigraphHolder>(
      m, "Digraph",
      "A directed graph with non-negative integer arc weights in CSR form (immutable).")
      .def_static("build", &build_digraph, py::arg("nodes"), py::arg("src"), py::arg("dst"),
                  py::arg("weight") = py::none(),
                  "Validates and builds; arcs keep their order per source node.")
      .def_property_readonly("nodes", &Digraph::nodes)
      .def_property_readonly("arcs", &Digraph::arcs)
      .def_property_readonly("weighted", &Digraph::weighted)
      .def_property_readonly("max_out_degree", &Digraph::max_out_degree)
      .def_property_readonly("content_hash", &Digraph::content_hash)
      .def("offsets", [](py::object self) {
        return view_numpy(self.cast<const Digraph&>().offsets(), self);
      }, "Per node the start of its arcs in targets() (nodes + 1 entries; read-only view).")
      .def("targets", [](py::object self) {
        return view_numpy(self.cast<const Digraph&>().targets(), self);
      }, "Arc targets grouped by source node (read-only view).")
      .def("weights", [](py::object self) {
        return view_numpy(self.cast<const Digraph&>().weights(), self);
      }, "Arc weights aligned with targets(); all 1 when not weighted (read-only view).")
      .def("__repr__", [](const Digraph& g) {
        return "<Digraph " + std::to_string(g.nodes()) + " nodes, " + std::to_string(g.arcs()) +
               " arcs" + (g.weighted() ? ", weighted>" : ">");
      })
      // Pickled as build's arguments in CSR order: building again gives the
      // same graph and content hash.
      .def(py::pickle([](const Digraph& g) { return pickled_state(g); },
                      [](const py::tuple& state) {
                        if (state.size() != 4) throw ConfigError("Digraph: damaged pickled state");
                        return build_digraph(state[0].cast<std::int64_t>(), state[1], state[2],
                                             state[3]);
                      }));

  m.def("make_grid_digraph",
        [](std::int64_t rows, std::int64_t cols, std::int64_t max_weight, std::int64_t seed) {
          const auto r = arg32(rows, "grid", "rows"), c = arg32(cols, "grid", "cols");
          const auto w = arg32(max_weight, "grid", "max_weight");
          const auto s = seed_arg(seed, "grid");
          return released([&] { return make_grid_digraph(r, c, w, s); });
        },
        py::arg("rows"), py::arg("cols"), py::arg("max_weight") = 1, py::arg("seed") = 0);
  m.def("make_rmat_digraph",
        [](std::int64_t nodes, double degree, double a, double b, double c, bool symmetric,
           std::int64_t max_weight, std::int64_t seed) {
          const auto n = arg32(nodes, "rmat", "nodes");
          const auto w = arg32(max_weight, "rmat", "max_weight");
          const auto s = seed_arg(seed, "rmat");
          return released([&] { return make_rmat_digraph(n, degree, a, b, c, symmetric, w, s); });
        },
        py::arg("nodes"), py::arg("degree"), py::arg("a"), py::arg("b"), py::arg("c"),
        py::arg("symmetric") = false, py::arg("max_weight") = 1, py::arg("seed") = 0);
  m.def("make_uniform_digraph",
        [](std::int64_t nodes, double degree, bool symmetric, std::int64_t max_weight,
           std::int64_t seed) {
          const auto n = arg32(nodes, "uniform", "nodes");
          const auto w = arg32(max_weight, "uniform", "max_weight");
          const auto s = seed_arg(seed, "uniform");
          return released([&] { return make_uniform_digraph(n, degree, symmetric, w, s); });
        },
        py::arg("nodes"), py::arg("degree"), py::arg("symmetric") = false,
        py::arg("max_weight") = 1, py::arg("seed") = 0);
  m.def("make_road_digraph",
        [](std::int64_t nodes, std::int64_t town_size, std::int64_t highway_every,
           std::int64_t seed) {
          const auto n = arg32(nodes, "road", "nodes");
          const auto t = arg32(town_size, "road", "town_size");
          const auto h = arg32(highway_every, "road", "highway_every");
          const auto s = seed_arg(seed, "road");
          return released([&] { return make_road_digraph(n, t, h, s); });
        },
        py::arg("nodes"), py::arg("town_size") = 1024, py::arg("highway_every") = 4,
        py::arg("seed") = 0);
  m.def("read_dimacs_digraph",
        [](const std::string& path) { return reading([&] { return read_dimacs_digraph(path); }); },
        py::arg("path"));
  m.def("read_edge_list_digraph",
        [](const std::string& path, bool one_based) {
          return reading([&] { return read_edge_list_digraph(path, one_based); });
        },
        py::arg("path"), py::arg("one_based") = false);
  m.def("read_matrix_market_digraph",
        [](const std::string& path) {
          return reading([&] { return read_matrix_market_digraph(path); });
        },
        py::arg("path"));
}

}  // namespace tbdse::bindings
