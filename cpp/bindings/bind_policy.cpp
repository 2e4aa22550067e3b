// User policies (core/policy.hpp) from Python: static priorities, compiled
// callbacks given by address (a Numba @cfunc, ctypes, cffi), or plain Python
// callables behind C trampolines that take the GIL.  A Python callable that
// raises makes its trampoline return NaN (priority) or an invalid SM (place)
// and keep the message, which the scheme asks for through `error`.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include "bindings.hpp"
#include "core/policy.hpp"

namespace tbdse::bindings {

namespace {

struct PyCallables {
  py::object priority;  // None when not given
  py::object place;
};

thread_local std::string last_error;

// The view as NumPy arrays of the C ABI's shapes (copies: the policy may keep them).
py::tuple view_args(const std::int64_t* task, const std::int64_t* parents, const std::int64_t* sms,
                    const double* params) {
  const auto n_parents = static_cast<py::ssize_t>(task[TBDSE_TASK_PARENTS]);
  const auto n_sms = static_cast<py::ssize_t>(task[TBDSE_TASK_SMS]);
  const auto n_params = static_cast<py::ssize_t>(task[TBDSE_TASK_PARAMS]);
  py::array_t<std::int64_t> t(TBDSE_TASK_FIELDS, task);
  py::array_t<std::int64_t> p({n_parents, py::ssize_t{2}}, parents);
  py::array_t<std::int64_t> s(2 * n_sms, sms);
  py::array_t<double> q(n_params, params);
  return py::make_tuple(t, p, s, q);
}

double py_priority(const std::int64_t* task, const std::int64_t* parents, const std::int64_t* sms,
                   const double* params, void* user) {
  py::gil_scoped_acquire gil;
  last_error.clear();
  try {
    const auto& f = static_cast<PyCallables*>(user)->priority;
    return f(*view_args(task, parents, sms, params)).cast<double>();
  } catch (py::error_already_set& e) {
    last_error = e.what();
  } catch (const std::exception& e) {
    last_error = e.what();
  }
  return std::numeric_limits<double>::quiet_NaN();
}

std::int64_t py_place(const std::int64_t* task, const std::int64_t* parents,
                      const std::int64_t* sms, const double* params, void* user) {
  py::gil_scoped_acquire gil;
  last_error.clear();
  try {
    const auto& f = static_cast<PyCallables*>(user)->place;
    return f(*view_args(task, parents, sms, params)).cast<std::int64_t>();
  } catch (py::error_already_set& e) {
    last_error = e.what();
  } catch (const std::exception& e) {
    last_error = e.what();
  }
  return std::numeric_limits<std::int64_t>::min();
}

const char* py_error(void* /*user*/) { return last_error.empty() ? nullptr : last_error.c_str(); }

template <class F>
F from_address(const std::optional<std::uintptr_t>& address) {
  return address ? reinterpret_cast<F>(*address) : nullptr;  // NOLINT: a C function pointer
}

}  // namespace

void register_policy(py::module_& m) {
  m.def(
      "register_policy",
      [](std::uint64_t key, const std::string& name,
         const std::optional<py::array_t<double, py::array::c_style | py::array::forcecast>>&
             priorities,
         std::optional<std::uintptr_t> priority_address,
         std::optional<std::uintptr_t> place_address, std::optional<std::uintptr_t> user_address,
         const py::object& priority_callable, const py::object& place_callable) {
        auto policy = std::make_shared<UserPolicy>();
        policy->name = name;
        if (priorities) {
          const auto& a = *priorities;
          policy->priorities.assign(a.data(), a.data() + a.size());
        }
        policy->priority = from_address<tbdse_priority_fn>(priority_address);
        policy->place = from_address<tbdse_place_fn>(place_address);
        policy->user = user_address ? reinterpret_cast<void*>(*user_address) : nullptr;
        if (!priority_callable.is_none() || !place_callable.is_none()) {
          // Python callables: released only while Python still runs (the
          // registry is a static that may outlive the interpreter).
          auto* held = new PyCallables{priority_callable, place_callable};
          policy->owner = std::shared_ptr<void>(held, [](void* p) {
            if (Py_IsInitialized()) {
              py::gil_scoped_acquire gil;
              delete static_cast<PyCallables*>(p);
            }
          });
          policy->user = held;
          policy->error = py_error;
          if (!priority_callable.is_none()) policy->priority = py_priority;
          if (!place_callable.is_none()) policy->place = py_place;
        }
        tbdse::register_policy(key, std::move(policy));
      },
      py::arg("key"), py::arg("name"), py::arg("priorities") = py::none(),
      py::arg("priority_address") = py::none(), py::arg("place_address") = py::none(),
      py::arg("user_address") = py::none(), py::arg("priority_callable") = py::none(),
      py::arg("place_callable") = py::none(),
      "Registers a user policy under `key` (the scheme 'user_policy''s parameter 'policy').");
  m.attr("POLICY_TASK_FIELDS") = static_cast<int>(TBDSE_TASK_FIELDS);
}

}  // namespace tbdse::bindings
