#include "models/baselines/dataflow_ideal.hpp"

#include "models/common/issue.hpp"

namespace tbdse {

const ParamTable<DataflowIdealParams>& DataflowIdealParams::params() {
  static const ParamTable<DataflowIdealParams> table = [] {
    ParamTable<DataflowIdealParams> t;
    t.add(&DataflowIdealParams::policy,
          {.name = "policy",
           .doc = "issue order of ready tasks: 'lrr' (smallest virtual id first), 'lvl' (lrr, "
                  "running TBs at most level_bound levels apart) or 'fifo' (first ready, first "
                  "issued); SMs round robin",
           .paper_ref = "Wireframe §4.3",
           .choices = {"lrr", "lvl", "fifo"}});
    t.add(&DataflowIdealParams::level_bound,
          {.name = "level_bound",
           .unit = "levels",
           .doc = "policy 'lvl': a task of level l starts only if l - (lowest running level) "
                  "<= level_bound (0: one level at a time)",
           .paper_ref = "Wireframe §4.3, §5.1 (3)",
           .min_value = 0,
           .max_value = 1e9,
           .read_when = {{"policy", {"lvl"}}}});
    return t;
  }();
  return table;
}

std::vector<StatInfo> DataflowIdealScheme::stats() {
  return {{"peak_ready_tasks", "tasks", "most tasks ready but not yet issued at one time"},
          {"max_level_range", "levels",
           "largest spread (max - min level) of the TBs running at one time"}};
}

DataflowIdealScheme::DataflowIdealScheme(const DataflowIdealParams& params,
                                         const Workload& workload, const GpuConfig& gpu)
    : host_launch_(gpu.us_to_cycles(gpu.host_launch_us)),
      level_bound_(params.policy == "lvl" ? params.level_bound : -1),
      open_parents_(workload.graph->parent_counts().begin(), workload.graph->parent_counts().end()),
      ready_(*workload.graph, params.policy == "fifo" ? IssueOrder::FIFO : IssueOrder::LRR),
      running_(workload.graph->num_levels()) {
  workload.require_edges_complete("dataflow_ideal");
}

void DataflowIdealScheme::start(Engine& engine) { engine.post(host_launch_, kLaunched); }

void DataflowIdealScheme::on_event(Engine& engine, const Event& /*event*/) {
  // The single kernel is launched: its root tasks (level 0, the first ids) are ready.
  const TaskGraph& g = engine.graph();
  for (TaskId t = 0; t < g.size() && g.level(t) == 0; ++t) make_ready(engine, t);
}

void DataflowIdealScheme::on_task_finished(Engine& engine, TaskId t) {
  running_.remove(engine.graph().level(t));
  for (const TaskId c : engine.graph().children(t))
    if (--open_parents_[c] == 0) make_ready(engine, c);
}

void DataflowIdealScheme::dispatch(Engine& engine) {
  issue_ready(engine, ready_, running_, level_bound_, [](TaskId) {});
}

void DataflowIdealScheme::write_stats(const Engine& /*engine*/, std::span<double> out) const {
  out[0] = static_cast<double>(ready_.peak());
  out[1] = static_cast<double>(running_.max_range());
}

}  // namespace tbdse
