// C++ errors become the Python exception classes of tbdse.errors:
// ConfigError (a ValueError), SimulationError and DeadlockError (RuntimeErrors).
#include <pybind11/stl.h>  // stuck_tasks (a std::vector) becomes a list

#include "bindings.hpp"
#include "core/errors.hpp"

namespace tbdse::bindings {

void register_errors(py::module_& m) {
  // Kept for the life of the process; deliberately never released (the
  // interpreter may be finalising when a translator would drop them).
  static auto* config_error = new py::object(py::module_::import("tbdse.errors").attr("ConfigError"));
  static auto* simulation_error =
      new py::object(py::module_::import("tbdse.errors").attr("SimulationError"));
  static auto* deadlock_error =
      new py::object(py::module_::import("tbdse.errors").attr("DeadlockError"));
  m.attr("ConfigError") = *config_error;
  m.attr("SimulationError") = *simulation_error;
  m.attr("DeadlockError") = *deadlock_error;

  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const DeadlockError& e) {
      py::object exc = (*deadlock_error)(e.what(), py::cast(e.stuck_tasks()));
      PyErr_SetObject(deadlock_error->ptr(), exc.ptr());
    } catch (const SimulationError& e) {
      PyErr_SetString(simulation_error->ptr(), e.what());
    } catch (const ConfigError& e) {
      PyErr_SetString(config_error->ptr(), e.what());
    }
  });
}

}  // namespace tbdse::bindings
