// Schemes by name.  The registry is filled by an explicit
// register_builtin_schemes() call: static self-registration from a static
// library is silently dropped by the linker (docs/ARCHITECTURE.md).
#pragma once

#include <functional>
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
// encoded as in ParamTable); ConfigError for unknown names or invalid values,
// and for a parameter given where the others' values leave it unread
// (ParamInfo::read_when): pass only the parameters a user set.
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

// SchemeInfo for a simulator of its own kind (not the TB engine), whose
// parameters P are documented by P::params(): it runs workloads of
// `workload_kind`, reports `kind_metrics` then `stats`, and is given decoded
// parameters to check one run (ConfigError when impossible) and simulate it.
// `storage` gives the hardware storage the mechanism adds, in bytes
// (RunOutput::storage_bytes; none = 0, a software scheme).
template <class P>
SchemeInfo describe_simulator(
    std::string name, std::string summary, std::string paper_ref, std::string workload_kind,
    std::vector<StatInfo> kind_metrics, std::vector<StatInfo> stats,
    std::function<void(const P&, const ResolvedRun&)> check,
    std::function<RunOutput(const P&, const ResolvedRun&, const RunOptions&)> simulate,
    std::function<double(const P&, const ResolvedRun&)> storage = {}) {
  SchemeInfo info;
  info.params = P::params().infos();
  info.defaults = P::params().encode(P{});
  info.stats = std::move(stats);
  info.kind_metrics = std::move(kind_metrics);
  info.workload_kind = std::move(workload_kind);
  const std::string owner = "scheme '" + name + "'";
  const auto decode = [owner](const ResolvedRun& r) {
    return P::params().decode(r.scheme_values, owner);
  };
  info.check = [decode, check](const ResolvedRun& r) { check(decode(r), r); };
  info.simulate = [decode, check, simulate, storage](const ResolvedRun& r, const RunOptions& o) {
    const P params = decode(r);
    check(params, r);
    RunOutput out = simulate(params, r, o);
    out.storage_bytes = storage ? storage(params, r) : 0.0;
    return out;
  };
  info.name = std::move(name);
  info.summary = std::move(summary);
  info.paper_ref = std::move(paper_ref);
  return info;
}

}  // namespace tbdse
