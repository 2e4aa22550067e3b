// Shared declarations of the binding layer: one register function per area
// (boost-histogram style), and helpers that move C++ buffers into NumPy.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "core/cost_model.hpp"
#include "core/gpu.hpp"
#include "core/model_input.hpp"
#include "core/scheme.hpp"
#include "core/workload.hpp"

namespace tbdse::bindings {

namespace py = pybind11;

void register_errors(py::module_& m);
void register_config(py::module_& m);
void register_graph(py::module_& m);
void register_sweep(py::module_& m);
void register_application(py::module_& m);
void register_inputs(py::module_& m);
void register_hwwl(py::module_& m);
void register_vgiw(py::module_& m);
void register_digraph(py::module_& m);
void register_tasks(py::module_& m);
void register_memory(py::module_& m);
void register_policy(py::module_& m);

using CycleArray = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>;

// A task graph's data footprints (docs/simulation.md "Data footprints"), one
// row per byte range: (input task id, base address, bytes, is_write), as
// arrays (read in place: a footprint workload has hundreds of thousands of
// rows).  make_workload turns them into the Workload's CSR by virtual id.
using FlagArray = py::array_t<bool, py::array::c_style | py::array::forcecast>;
using DataTuple = std::tuple<CycleArray, CycleArray, CycleArray, FlagArray>;

// How Python describes configurations (see tbdse/_plan.py):
//   a kernel:    (name, threads, regs_per_thread, smem_bytes, mem_requests, mem_fraction,
//                 issue_interval, reuse)
//   a workload:  (name, TaskGraph or None, [kernel, ...], Application or None,
//                 ModelInput or None)  -- a task graph or a model input
//   a GPU:       (name, {field: value})        a scheme: (name, {param: value})
//   a cost model: (kind, {param: value}, per-kernel or per-task cycles or None)
using KernelTuple = std::tuple<std::string, std::int64_t, std::int64_t, std::int64_t, std::int64_t,
                               double, double, std::int64_t>;
using WorkloadTuple =
    std::tuple<std::string, std::optional<std::shared_ptr<TaskGraph>>, std::vector<KernelTuple>,
               std::optional<std::shared_ptr<Application>>,
               std::optional<std::shared_ptr<ModelInput>>, std::optional<DataTuple>>;
using NamedValues = std::tuple<std::string, std::map<std::string, double>>;
using CostTuple = std::tuple<std::string, std::map<std::string, double>, std::optional<CycleArray>>;

// Validated conversions; ConfigError names the offending field.
GpuConfig make_gpu(const NamedValues& spec);
SchemeConfig make_scheme(const NamedValues& spec);
CostModel make_cost(const CostTuple& spec);
WorkloadPtr make_workload(const WorkloadTuple& spec);
// A generator argument as int32, or ConfigError naming the generator and argument.
std::int32_t arg32(std::int64_t value, const char* generator, const char* name);

// A NumPy array that owns `values` (no copy): the vector moves to the heap and
// a capsule deletes it when the array dies.
template <class T>
py::array_t<T> to_numpy(std::vector<T>&& values) {
  auto* heap = new std::vector<T>(std::move(values));
  py::capsule owner(heap, [](void* p) { delete static_cast<std::vector<T>*>(p); });
  return py::array_t<T>({static_cast<py::ssize_t>(heap->size())}, {sizeof(T)}, heap->data(),
                        owner);
}

// A read-only NumPy view of memory owned by `owner` (kept alive by the array).
template <class T>
py::array_t<T> view_numpy(std::span<const T> values, py::handle owner) {
  py::array_t<T> a({static_cast<py::ssize_t>(values.size())}, {sizeof(T)}, values.data(), owner);
  py::detail::array_proxy(a.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return a;
}

// What f() builds (a TaskGraph, a Digraph), built with the GIL released, in a
// shared_ptr (the Python class's holder).
template <class F>
auto released(F f) {
  py::gil_scoped_release release;
  return std::make_shared<decltype(f())>(f());
}

// A 1-D array argument as a std::vector (any integer/float dtype is converted).
template <class T>
std::vector<T> to_vector(const py::array_t<T, py::array::c_style | py::array::forcecast>& a) {
  if (a.ndim() != 1) throw py::value_error("expected a one-dimensional array");
  return std::vector<T>(a.data(), a.data() + a.size());
}

}  // namespace tbdse::bindings
