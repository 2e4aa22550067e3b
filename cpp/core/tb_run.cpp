#include "tb_run.hpp"

#include <limits>

#include "engine.hpp"

namespace tbdse {

const std::vector<StatInfo>& tb_engine_metrics() {
  static const std::vector<StatInfo> list = {
      {"sm_utilisation", "fraction",
       "time-average share of SMs holding at least one task TB (0..1)"},
      {"avg_tb_concurrency", "TBs",
       "average number of resident task TBs (their residencies, end - start, over the makespan; "
       "under sm_model 'fixed' the total work over the makespan)"},
      {"slot_utilisation", "fraction", "average TB concurrency / TBs the GPU can hold (0..1)"},
      {"critical_path_cycles", "cycles", "longest dependency chain of task costs (a lower bound)"},
      {"work_bound_cycles", "cycles",
       "total work / TBs the GPU can hold; under sm_model 'shared' also the compute work over "
       "sm_saturation per SM and the bytes of kernels with memory time over mem_bandwidth (a "
       "lower bound)"},
      {"events", "events", "simulation events processed"},
      // The memory hierarchy's counters, for runs whose workload has data
      // footprints (NaN without): the worklist machine's columns.
      {"l1_miss_rate", "fraction",
       "share of L1 sector reads that missed (runs with data footprints; NaN without)"},
      {"l2_hit_rate", "fraction",
       "share of L2 sector reads that hit (runs with data footprints; NaN without)"},
      {"dram_bytes", "bytes",
       "bytes read from and written to DRAM (runs with data footprints; NaN without)"},
      {"avg_load_latency", "cycles",
       "mean cycles from a footprint range's access to its completion (reads: data there; "
       "writes: L2 took them), queueing included (runs with data footprints; NaN without)"},
  };
  return list;
}

void check_task_graph_run(const ResolvedRun& r) {
  (void)r.scheme->create(r.scheme_values, *r.workload, r.gpu);
}

RunOutput simulate_task_graph(const ResolvedRun& r, const RunOptions& options) {
  const std::vector<Cycle> cost = r.cost.materialize(*r.workload->graph, r.cost_key);
  const auto scheme = r.scheme->create(r.scheme_values, *r.workload, r.gpu);
  Engine engine(*r.workload, r.gpu, cost, EngineOptions{.record_timeline = options.record});
  EngineOutput e = engine.run(*scheme, r.scheme->stats.size(), options.values);

  const double makespan = static_cast<double>(e.makespan);
  const double capacity = static_cast<double>(r.workload->tb_capacity(r.gpu));
  const double concurrency = makespan > 0 ? e.resident_cycles / makespan : 0.0;
  RunOutput out;
  out.makespan = e.makespan;
  out.metrics = {
      makespan > 0 ? e.busy_sm_cycles / (static_cast<double>(r.gpu.sms) * makespan) : 0.0,
      concurrency,
      concurrency / capacity,
      static_cast<double>(e.critical_path),
      static_cast<double>(e.work_bound),
      static_cast<double>(e.events),
  };
  constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
  if (e.memory) {
    const MemoryStats& m = *e.memory;
    out.metrics.insert(out.metrics.end(),
                       {m.l1_reads ? 1.0 - m.l1_hit_rate() : 0.0, m.l2_hit_rate(),
                        static_cast<double>(m.dram_bytes()), m.average_latency()});
  } else {
    out.metrics.insert(out.metrics.end(), {kNone, kNone, kNone, kNone});
  }
  out.metrics.insert(out.metrics.end(), e.scheme_stats.begin(), e.scheme_stats.end());
  out.storage_bytes = scheme->storage_bytes();
  out.timeline = std::move(e.timeline);
  out.values = std::move(e.values);
  return out;
}

}  // namespace tbdse
