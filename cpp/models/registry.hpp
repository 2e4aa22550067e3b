// Schemes by name.  The registry is filled by an explicit
// register_builtin_schemes() call: static self-registration from a static
// library is silently dropped by the linker (docs/ARCHITECTURE.md).
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/params.hpp"
#include "core/scheme.hpp"
#include "core/tb_run.hpp"

namespace tbdse {

class SchemeRegistry {
 public:
  void add(SchemeInfo info);  // ConfigError on a duplicate name
  // ConfigError naming the valid schemes (and the closest one) when unknown.
  const SchemeInfo& get(std::string_view name) const;
  std::vector<std::string> names() const;

 private:
  std::vector<std::unique_ptr<SchemeInfo>> schemes_;  // stable addresses
};

SchemeRegistry& scheme_registry();

// Registers every built-in scheme once; safe to call repeatedly and concurrently.
void register_builtin_schemes();

// A scheme configuration from name=value pairs over the defaults (values
// encoded as in ParamTable); ConfigError for unknown names or invalid values.
SchemeConfig make_scheme_config(std::string_view name,
                                std::span<const std::pair<std::string, double>> params = {});

// SchemeInfo for TB scheme class S constructed as S(const P&, const Workload&,
// const GpuConfig&), with P documented by P::params(); it runs on the engine.
template <class P, class S>
SchemeInfo describe_scheme(std::string name, std::string summary, std::string paper_ref,
                           std::vector<StatInfo> stats) {
  SchemeInfo info;
  info.params = P::params().infos();
  info.defaults = P::params().encode(P{});
  info.stats = std::move(stats);
  info.create = [owner = "scheme '" + name + "'"](std::span<const double> values,
                                                  const Workload& workload,
                                                  const GpuConfig& gpu) {
    const P params = P::params().decode(std::vector<double>(values.begin(), values.end()), owner);
    return std::unique_ptr<Scheme>(std::make_unique<S>(params, workload, gpu));
  };
  info.workload_kind = "task_graph";
  info.kind_metrics = tb_engine_metrics();
  info.check = check_task_graph_run;
  info.simulate = simulate_task_graph;
  info.name = std::move(name);
  info.summary = std::move(summary);
  info.paper_ref = std::move(paper_ref);
  return info;
}

}  // namespace tbdse
