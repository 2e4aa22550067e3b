#include "models/baselines/dataflow_ideal.hpp"

namespace tbdse {

const ParamTable<DataflowIdealParams>& DataflowIdealParams::params() {
  static const ParamTable<DataflowIdealParams> table = [] {
    ParamTable<DataflowIdealParams> t;
    t.add(&DataflowIdealParams::policy,
          {.name = "policy",
           .doc = "issue order of ready tasks: 'lrr' (smallest virtual id first) or 'fifo' "
                  "(first ready, first issued); SMs round robin",
           .paper_ref = "Wireframe §4.3",
           .choices = {"lrr", "fifo"}});
    return t;
  }();
  return table;
}

std::vector<StatInfo> DataflowIdealScheme::stats() {
  return {{"peak_ready_tasks", "tasks", "most tasks ready but not yet issued at one time"}};
}

DataflowIdealScheme::DataflowIdealScheme(const DataflowIdealParams& params,
                                         const Workload& workload, const GpuConfig& gpu)
    : host_launch_(gpu.us_to_cycles(gpu.host_launch_us)),
      open_parents_(workload.graph->parent_counts().begin(), workload.graph->parent_counts().end()),
      ready_(*workload.graph, params.policy == "fifo" ? IssueOrder::FIFO : IssueOrder::LRR) {}

void DataflowIdealScheme::start(Engine& engine) { engine.post(host_launch_, kLaunched); }

void DataflowIdealScheme::on_event(Engine& engine, const Event& /*event*/) {
  // The single kernel is launched: its root tasks (level 0, the first ids) are ready.
  const TaskGraph& g = engine.graph();
  for (TaskId t = 0; t < g.size() && g.level(t) == 0; ++t) make_ready(engine, t);
}

void DataflowIdealScheme::on_task_finished(Engine& engine, TaskId t) {
  for (const TaskId c : engine.graph().children(t))
    if (--open_parents_[c] == 0) make_ready(engine, c);
}

void DataflowIdealScheme::dispatch(Engine& engine) {
  while (!ready_.empty() && engine.issue_round_robin(ready_.front())) ready_.pop();
}

void DataflowIdealScheme::write_stats(const Engine& /*engine*/, std::span<double> out) const {
  out[0] = static_cast<double>(ready_.peak());
}

}  // namespace tbdse
