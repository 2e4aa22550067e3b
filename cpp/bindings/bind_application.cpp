// Multi-kernel applications: the host command queue (core/application.hpp)
// and BlockMaestro's dependency extraction and pattern analysis
// (models/blockmaestro), for tbdse.workloads.application.
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "core/errors.hpp"
#include "models/blockmaestro/access_ranges.hpp"
#include "models/blockmaestro/footprints.hpp"
#include "models/blockmaestro/launch_plan.hpp"

namespace tbdse::bindings {

namespace {

namespace bm = tbdse::blockmaestro;

using CommandTuple = std::tuple<std::string, std::int32_t, std::int64_t, std::int32_t>;
using AffineTuple = std::tuple<std::int64_t, std::int64_t, std::int64_t, std::int64_t>;
using AccessTuple = std::tuple<std::int32_t, bool, std::vector<std::pair<AffineTuple, AffineTuple>>>;
using KernelAccessTuple = std::tuple<std::string, std::tuple<std::int64_t, std::int64_t, std::int64_t>,
                                     std::vector<AccessTuple>, std::vector<AccessTuple>>;

// Data footprints (docs/models/blockmaestro.md "Locality"): CSR start by
// input task, range bases, bytes and write flags; all empty for none.
using FootprintTuple = std::tuple<std::vector<std::int64_t>, std::vector<std::uint64_t>,
                                  std::vector<std::int64_t>, std::vector<std::uint8_t>>;

std::shared_ptr<Application> make_application(
    std::vector<std::string> buffers, const std::vector<CommandTuple>& commands,
    std::vector<std::vector<std::int32_t>> reads, std::vector<std::vector<std::int32_t>> writes,
    std::vector<std::int32_t> waits_for, std::optional<FootprintTuple> footprints) {
  auto app = std::make_shared<Application>();
  if (footprints) {
    app->data_start = std::move(std::get<0>(*footprints));
    app->data_base = std::move(std::get<1>(*footprints));
    app->data_bytes = std::move(std::get<2>(*footprints));
    app->data_write = std::move(std::get<3>(*footprints));
  }
  app->buffers = std::move(buffers);
  for (const auto& [kind, buffer, bytes, launch] : commands)
    app->commands.push_back({command_kind(kind), buffer, bytes, launch});
  app->launch_reads = std::move(reads);
  app->launch_writes = std::move(writes);
  app->launch_waits_for = std::move(waits_for);
  app->validate();
  return app;
}

bm::Affine affine(const AffineTuple& t) {
  return {std::get<0>(t), std::get<1>(t), std::get<2>(t), std::get<3>(t)};
}

std::vector<bm::Access> accesses(const std::vector<AccessTuple>& list) {
  std::vector<bm::Access> out;
  for (const auto& [buffer, indirect, dims] : list) {
    bm::Access a;
    a.buffer = buffer;
    a.indirect = indirect;
    for (const auto& [lo, hi] : dims) a.dims.push_back({affine(lo), affine(hi)});
    out.push_back(std::move(a));
  }
  return out;
}

py::dict extract(const std::vector<std::pair<std::string, std::vector<std::int64_t>>>& buffers,
                 const std::vector<KernelAccessTuple>& kernels, const std::string& hazards,
                 std::int64_t max_edges, const std::vector<std::int64_t>& element_bytes,
                 std::int64_t max_ranges) {
  if (hazards != "raw" && hazards != "all")
    throw ConfigError("hazards must be 'raw' or 'all'; got '" + hazards + "'");
  std::vector<bm::BufferShape> shapes;
  for (const auto& [name, extent] : buffers) {
    for (const std::int64_t e : extent)
      if (e < 1)
        throw ConfigError("buffer '" + name + "': every extent must be >= 1; got " + std::to_string(e));
    shapes.push_back({name, extent});
  }
  std::vector<bm::KernelAccess> ks;
  for (const auto& [name, grid, reads, writes] : kernels) {
    bm::KernelAccess k;
    k.name = name;
    k.grid = {std::get<0>(grid), std::get<1>(grid), std::get<2>(grid)};
    k.reads = accesses(reads);
    k.writes = accesses(writes);
    bm::check_kernel(shapes, k);
    ks.push_back(std::move(k));
  }
  const auto h = hazards == "raw" ? bm::Hazards::RAW : bm::Hazards::ALL;
  py::list pairs;
  std::vector<std::int32_t> skip;
  bm::Footprints fp;
  const bool footprints = max_ranges > 0;
  if (footprints && element_bytes.size() != shapes.size())
    throw ConfigError("extract_dependencies: one element size per buffer is needed");
  {
    std::vector<bm::PairDependencies> deps(ks.size());
    {
      py::gil_scoped_release release;
      for (std::size_t i = 1; i < ks.size(); ++i) deps[i] = bm::extract_pair(shapes, ks[i - 1], ks[i], h, max_edges);
      skip = bm::skip_dependencies(shapes, ks, h);
      if (footprints) {
        const auto bases = bm::buffer_bases(shapes, element_bytes);
        for (const auto& k : ks) bm::append_footprints(shapes, element_bytes, bases, k, max_ranges, fp);
      }
    }
    for (std::size_t i = 1; i < ks.size(); ++i) {
      py::dict d;
      d["full"] = deps[i].full;
      d["child_start"] = to_numpy(std::move(deps[i].child_start));
      d["parents"] = to_numpy(std::move(deps[i].parents));
      pairs.append(d);
    }
  }
  py::dict out;
  out["pairs"] = pairs;
  out["skip"] = skip;
  if (footprints)
    out["footprints"] = py::make_tuple(to_numpy(std::move(fp.start)), to_numpy(std::move(fp.base)),
                                       to_numpy(std::move(fp.bytes)), to_numpy(std::move(fp.write)));
  return out;
}

py::list launch_pairs(const WorkloadTuple& spec, std::int64_t parent_counter_bits) {
  const WorkloadPtr w = make_workload(spec);
  bm::LaunchPlan plan;
  {
    py::gil_scoped_release release;
    plan = bm::LaunchPlan::build(*w, parent_counter_bits);
  }
  py::list rows;
  for (std::int32_t i = 0; i < plan.size(); ++i) {
    const auto& L = plan.launches[i];
    py::dict d;
    d["launch"] = i;
    d["tbs"] = L.tbs.size();
    d["parents"] = L.pair.parents;
    d["edges"] = L.pair.edges;
    d["pattern"] = bm::pattern_name(L.pair.pattern);
    d["pattern_number"] = bm::pattern_number(L.pair.pattern);
    d["max_parents_per_child"] = L.pair.max_parents_per_child;
    d["max_children_per_parent"] = L.pair.max_children_per_parent;
    d["plain_bytes"] = L.pair.plain_bytes;
    d["encoded_bytes"] = L.pair.encoded_bytes;
    d["per_kernel"] = L.barrier;
    d["counter_overflow"] = L.overflow;
    d["waits_for"] = L.waits_for;
    rows.append(d);
  }
  return rows;
}

}  // namespace

void register_application(py::module_& m) {
  py::class_<Application, std::shared_ptr<Application>>(
      m, "Application", "A multi-kernel application's host command queue (validated).")
      .def(py::init(&make_application), py::arg("buffers"), py::arg("commands"),
           py::arg("launch_reads"), py::arg("launch_writes"), py::arg("launch_waits_for"),
           py::arg("footprints") = py::none())
      .def_property_readonly("launches", &Application::launches)
      .def_property_readonly("data_ranges",
                             [](const Application& app) { return app.data_base.size(); })
      .def_property_readonly("content_hash", &Application::hash)
      // Pickled as the constructor's arguments, rebuilt (and validated) by it.
      .def(py::pickle(
          [](const Application& app) {
            std::vector<CommandTuple> commands;
            for (const auto& c : app.commands)
              commands.emplace_back(command_kind_name(c.kind), c.buffer, c.bytes, c.launch);
            return py::make_tuple(app.buffers, commands, app.launch_reads, app.launch_writes,
                                  app.launch_waits_for,
                                  FootprintTuple{app.data_start, app.data_base, app.data_bytes,
                                                 app.data_write});
          },
          [](const py::tuple& state) {
            if (state.size() != 6) throw ConfigError("Application: damaged pickled state");
            return make_application(
                state[0].cast<std::vector<std::string>>(),
                state[1].cast<std::vector<CommandTuple>>(),
                state[2].cast<std::vector<std::vector<std::int32_t>>>(),
                state[3].cast<std::vector<std::vector<std::int32_t>>>(),
                state[4].cast<std::vector<std::int32_t>>(), state[5].cast<FootprintTuple>());
          }));
  m.def("extract_dependencies", &extract, py::arg("buffers"), py::arg("kernels"),
        py::arg("hazards"), py::arg("max_edges"), py::arg("element_bytes") = std::vector<std::int64_t>{},
        py::arg("max_ranges") = 0,
        "TB dependencies between consecutive kernels from per-TB access ranges "
        "(BlockMaestro Algorithm 1), and each kernel's latest dependency further back.");
  m.def("launch_pairs", &launch_pairs, py::arg("workload"), py::arg("parent_counter_bits") = 6,
        "Per launch: the pattern (Table I) and storage of its dependencies on the previous one.");
}

}  // namespace tbdse::bindings
