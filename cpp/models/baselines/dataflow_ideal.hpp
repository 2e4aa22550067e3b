// dataflow_ideal (docs/MODELS.md §2): one kernel launch, fine-grain task
// dependencies resolved the moment a parent finishes, unlimited scheduler
// buffers.  The upper bound that hardware dependency schedulers approach; with
// unbounded buffers (and no fetch latency) Wireframe must match it exactly.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "core/engine.hpp"
#include "core/params.hpp"
#include "core/scheme.hpp"
#include "models/common/ready_queue.hpp"
#include "models/common/running_levels.hpp"

namespace tbdse {

struct DataflowIdealParams {
  // Which ready task is issued first: 'lrr' = smallest virtual id (Wireframe
  // §4.3 loose round-robin), 'lvl' = lrr bounded by level_bound (§4.3), 'fifo'
  // = first to become ready.  SMs are always visited round robin.  Default lrr.
  std::string policy = "lrr";
  // lvl only: running TBs are at most this many levels apart.  Default 3 (§5.1).
  std::int64_t level_bound = 3;

  static const ParamTable<DataflowIdealParams>& params();
};

class DataflowIdealScheme : public Scheme {
 public:
  DataflowIdealScheme(const DataflowIdealParams& params, const Workload& workload,
                      const GpuConfig& gpu);

  void start(Engine& engine) override;
  void on_task_finished(Engine& engine, TaskId t) override;
  void on_event(Engine& engine, const Event& event) override;
  void dispatch(Engine& engine) override;
  void write_stats(const Engine& engine, std::span<double> out) const override;
  // Unlimited scheduler buffers: +inf, as Wireframe's dgb_bytes with unbounded
  // buffers (docs/models/baselines.md, "Hardware storage").
  double storage_bytes() const override { return std::numeric_limits<double>::infinity(); }

  static std::vector<StatInfo> stats();

 private:
  static constexpr std::int32_t kLaunched = 1;

  void make_ready(Engine& engine, TaskId t) {
    engine.mark_ready(t);
    ready_.push(t);
  }

  Cycle host_launch_;
  std::int64_t level_bound_;  // -1 = no bound
  std::vector<std::int32_t> open_parents_;
  ReadyQueue ready_;
  RunningLevels running_;
};

}  // namespace tbdse
