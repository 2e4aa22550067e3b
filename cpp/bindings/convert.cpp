// Python descriptions of configurations -> validated C++ structs.
#include <limits>

#include "bindings.hpp"
#include "core/errors.hpp"
#include "models/registry.hpp"

namespace tbdse::bindings {

GpuConfig make_gpu(const NamedValues& spec) {
  const auto& [name, values] = spec;
  GpuConfig g;
  g.name = name;
  const auto& table = GpuConfig::params();
  const std::string owner = "GPU '" + name + "'";
  for (const auto& [key, v] : values) table.set(g, find_param(table.infos(), key, owner), v, owner);
  check_gpu(g);
  return g;
}

SchemeConfig make_scheme(const NamedValues& spec) {
  const auto& [name, values] = spec;
  const std::vector<std::pair<std::string, double>> pairs(values.begin(), values.end());
  return make_scheme_config(name, pairs);
}

CostModel make_cost(const CostTuple& spec) {
  const auto& [kind, params, values] = spec;
  CostModel m = CostModel::make(CostModel::kind_from_name(kind));
  for (const auto& [key, v] : params) m.set_param(key, v);
  if (values) m.set_table(to_vector(*values));
  return m;
}

WorkloadPtr make_workload(const WorkloadTuple& spec) {
  const auto& [name, graph, kernels, application, input] = spec;
  const bool has_graph = graph && *graph, has_input = input && *input;
  if (has_graph == has_input)
    throw ConfigError("workload '" + name + "' needs either a task graph or a model input");
  auto w = std::make_shared<Workload>();
  w->name = name;
  if (has_graph) w->graph = *graph;
  if (has_input) w->input = *input;
  for (const auto& [kname, threads, regs, smem, requests, mem_fraction, issue_interval] : kernels)
    w->kernels.push_back(KernelInfo{kname, TbFootprint{threads, regs, smem}, requests, mem_fraction,
                                    issue_interval});
  if (application) w->application = *application;
  return w;
}

std::int32_t arg32(std::int64_t value, const char* generator, const char* name) {
  if (value < std::numeric_limits<std::int32_t>::min() ||
      value > std::numeric_limits<std::int32_t>::max())
    throw ConfigError(std::string(generator) + ": '" + name + "' = " + std::to_string(value) +
                      " is out of range (at most 2147483647)");
  return static_cast<std::int32_t>(value);
}

}  // namespace tbdse::bindings
