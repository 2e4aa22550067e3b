// tbdse._core: the compiled simulator.  Private to the tbdse package, whose
// Python modules are the public API.
#include "bindings.hpp"
#include "models/registry.hpp"

namespace tbdse::bindings {
}  // namespace tbdse::bindings

#ifndef TBDSE_VERSION
#define TBDSE_VERSION "dev"
#endif

PYBIND11_MODULE(_core, m) {
  m.doc() = "tbdse simulation core (C++20): task graphs, GPU model, schemes, sweep runner";
  m.attr("__version__") = TBDSE_VERSION;
  tbdse::register_builtin_schemes();
  tbdse::bindings::register_errors(m);
  tbdse::bindings::register_config(m);
  tbdse::bindings::register_inputs(m);
  tbdse::bindings::register_graph(m);
  tbdse::bindings::register_digraph(m);
  tbdse::bindings::register_sweep(m);
  tbdse::bindings::register_application(m);
  tbdse::bindings::register_hwwl(m);
  tbdse::bindings::register_tasks(m);
  tbdse::bindings::register_vgiw(m);
  tbdse::bindings::register_memory(m);
  tbdse::bindings::register_policy(m);
}
