// Task dependencies from depend-clause sections (core/task_sections.hpp), for
// tbdse.workloads.tasks: flat NumPy columns in, edge columns out.
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "core/errors.hpp"
#include "core/task_sections.hpp"

namespace tbdse::bindings {

namespace {

using I32 = py::array_t<std::int32_t, py::array::c_style | py::array::forcecast>;
using I64 = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>;

py::dict task_dependencies(std::vector<std::string> array_names, std::vector<std::int64_t> array_sizes,
                           std::vector<std::string> kind_names, const I32& kind,
                           const std::optional<I32>& launch, const I64& section_start,
                           const I32& array, const I64& lo, const I64& hi, const I32& mode,
                           const std::string& match) {
  TaskList list;
  list.array_names = std::move(array_names);
  list.array_sizes = std::move(array_sizes);
  list.kind_names = std::move(kind_names);
  list.kind = to_vector(kind);
  if (launch) list.launch = to_vector(*launch);
  list.section_start = to_vector(section_start);
  const auto a = to_vector(array), m = to_vector(mode);
  const auto l = to_vector(lo), h = to_vector(hi);
  if (a.size() != l.size() || a.size() != h.size() || a.size() != m.size())
    throw ConfigError("task sections: array, lo, hi and mode columns differ in length");
  list.sections.reserve(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (m[i] < 0 || m[i] > 2) throw ConfigError("task sections: mode must be 0 (in), 1 (out) or 2 (inout)");
    list.sections.push_back({a[i], l[i], h[i], static_cast<SectionMode>(m[i])});
  }
  const SectionMatch how = section_match(match);
  TaskDependencies deps;
  {
    py::gil_scoped_release release;
    deps = build_task_dependencies(list, how);
  }
  py::dict out;
  out["parent"] = to_numpy(std::move(deps.parent));
  out["child"] = to_numpy(std::move(deps.child));
  out["hazards"] = to_numpy(std::move(deps.hazards));
  out["launch_group"] = to_numpy(std::move(deps.launch_group));
  return out;
}

}  // namespace

void register_tasks(py::module_& m) {
  m.def("task_dependencies", &task_dependencies, py::arg("array_names"), py::arg("array_sizes"),
        py::arg("kind_names"), py::arg("kind"), py::arg("launch"), py::arg("section_start"),
        py::arg("array"), py::arg("lo"), py::arg("hi"), py::arg("mode"), py::arg("match"),
        "RAW, WAR and WAW edges between tasks declared in program order with depend-clause "
        "sections (mode 0 in, 1 out, 2 inout), matched 'exact' or 'overlap'; and launch groups.");
}

}  // namespace tbdse::bindings
