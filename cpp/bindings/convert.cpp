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

// The rows (input task, base, bytes, write) as the Workload's CSR by virtual
// id, each task's ranges in the order given; ConfigError naming the row's task
// and the field otherwise.
static void set_data_ranges(Workload& w, const TaskGraph* graph, const DataTuple& data) {
  const auto& [task_array, base_array, bytes_array, write_array] = data;
  const auto rows = static_cast<std::size_t>(task_array.size());
  if (static_cast<std::size_t>(base_array.size()) != rows ||
      static_cast<std::size_t>(bytes_array.size()) != rows ||
      static_cast<std::size_t>(write_array.size()) != rows)
    throw ConfigError("workload '" + w.name + "': data ranges need as many bases, bytes and "
                      "write flags as tasks (" + std::to_string(rows) + ")");
  if (!graph) throw ConfigError("workload '" + w.name + "': data ranges need a task graph");
  const std::int64_t* tasks = task_array.data();
  const std::int64_t* bases = base_array.data();
  const std::int64_t* bytes = bytes_array.data();
  const bool* writes = write_array.data();
  const TaskGraph& g = *graph;
  const auto n = static_cast<std::int64_t>(g.size());
  std::vector<std::int64_t> virtual_of(static_cast<std::size_t>(n));
  for (TaskId v = 0; v < g.size(); ++v) virtual_of[static_cast<std::size_t>(g.original_id(v))] = v;
  std::vector<std::int64_t> start(static_cast<std::size_t>(n) + 1, 0);
  for (std::size_t i = 0; i < rows; ++i) {
    const auto where = [&] {
      return "workload '" + w.name + "': data range of task " + std::to_string(tasks[i]) + ": ";
    };
    if (tasks[i] < 0 || tasks[i] >= n)
      throw ConfigError(where() + "'task' must be in [0, " + std::to_string(n) + ")");
    if (bytes[i] < 0 || bytes[i] > (std::int64_t{1} << 40))
      throw ConfigError(where() + "'bytes' = " + std::to_string(bytes[i]) + " must be in [0, 2^40]");
    if (bases[i] < 0 || bases[i] >= (std::int64_t{1} << 62))
      throw ConfigError(where() + "'base' = " + std::to_string(bases[i]) + " must be in [0, 2^62)");
    ++start[static_cast<std::size_t>(virtual_of[static_cast<std::size_t>(tasks[i])]) + 1];
  }
  for (std::size_t t = 0; t < static_cast<std::size_t>(n); ++t) start[t + 1] += start[t];
  std::vector<std::int64_t> next(start.begin(), start.end() - 1);
  w.data_ranges.resize(rows);
  for (std::size_t i = 0; i < rows; ++i) {
    const auto v = static_cast<std::size_t>(virtual_of[static_cast<std::size_t>(tasks[i])]);
    w.data_ranges[static_cast<std::size_t>(next[v]++)] =
        DataRange{static_cast<std::uint64_t>(bases[i]), bytes[i], writes[i]};
  }
  w.data_start = std::move(start);
}

namespace {

// The application's TB data footprints (by input task id) as the engine's
// Workload::data_start / data_ranges (by graph node, its virtual id).
void add_footprints(Workload& w) {
  const Application& app = *w.application;
  if (!w.graph)
    throw ConfigError("workload '" + w.name + "': data footprints need a task graph");
  const TaskGraph& g = *w.graph;
  const auto n = static_cast<std::size_t>(g.size());
  if (app.data_start.size() != n + 1)
    throw ConfigError("workload '" + w.name + "': data footprints for " +
                      std::to_string(app.data_start.size() - 1) + " tasks, the graph has " +
                      std::to_string(n));
  w.data_start.reserve(n + 1);
  w.data_ranges.reserve(app.data_base.size());
  w.data_start.push_back(0);
  for (std::size_t t = 0; t < n; ++t) {
    const auto id = static_cast<std::size_t>(g.original_id(static_cast<TaskId>(t)));
    for (auto i = static_cast<std::size_t>(app.data_start[id]);
         i < static_cast<std::size_t>(app.data_start[id + 1]); ++i)
      w.data_ranges.push_back(DataRange{app.data_base[i], app.data_bytes[i], app.data_write[i] != 0});
    w.data_start.push_back(static_cast<std::int64_t>(w.data_ranges.size()));
  }
}

}  // namespace

WorkloadPtr make_workload(const WorkloadTuple& spec) {
  const auto& [name, graph, kernels, application, input, data] = spec;
  const bool has_graph = graph && *graph, has_input = input && *input;
  if (has_graph == has_input)
    throw ConfigError("workload '" + name + "' needs either a task graph or a model input");
  auto w = std::make_shared<Workload>();
  w->name = name;
  if (data) set_data_ranges(*w, has_graph ? graph->get() : nullptr, *data);
  if (has_graph) w->graph = *graph;
  if (has_input) w->input = *input;
  for (const auto& [kname, threads, regs, smem, requests, mem_fraction, issue_interval, reuse] :
       kernels) {
    if (reuse < 1 || reuse > kMaxReuse)
      throw ConfigError("kernel '" + kname + "': reuse must be in [1, " +
                        std::to_string(kMaxReuse) + "]; got " + std::to_string(reuse));
    w->kernels.push_back(KernelInfo{kname, TbFootprint{threads, regs, smem}, requests, mem_fraction,
                                    issue_interval, static_cast<std::int32_t>(reuse)});
  }
  if (application) {
    w->application = *application;
    if (!(*application)->data_start.empty()) {
      if (data)
        throw ConfigError("workload '" + name + "': data footprints come either from the "
                          "application or from the workload's data, not both");
      add_footprints(*w);
    }
  }
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
