#include "models/baselines/register.hpp"

#include "models/baselines/dataflow_ideal.hpp"
#include "models/baselines/group_barrier.hpp"
#include "models/registry.hpp"

namespace tbdse {

namespace {

// The three barrier baselines share one implementation and differ in what a
// group boundary costs; each gets a thin constructor for the registry.
template <GroupBoundary B>
struct BarrierScheme : GroupBarrierScheme {
  BarrierScheme(const GroupBarrierParams& p, const Workload& w, const GpuConfig& g)
      : GroupBarrierScheme(p, w, g, B) {}
};

}  // namespace

void register_baseline_schemes(SchemeRegistry& registry) {
  registry.add(describe_scheme<GroupBarrierParams, BarrierScheme<GroupBoundary::HOST_LAUNCH>>(
      "global_barrier",
      "one host kernel launch per launch group (wave); each launch waits for the previous kernel",
      "Wireframe §2.1 Code Block 1, §5.1", GroupBarrierScheme::stats()));
  registry.add(describe_scheme<GroupBarrierParams, BarrierScheme<GroupBoundary::DEVICE_LAUNCH>>(
      "cdp",
      "nested CUDA dynamic parallelism: a resident parent TB launches one child kernel per group",
      "Wireframe §2.1 Code Block 3, §5.1", GroupBarrierScheme::stats()));
  registry.add(
      describe_scheme<GroupBarrierParams, BarrierScheme<GroupBoundary::DEPENDENCY_EDGES>>(
          "deplinks",
          "one launch; barriers between consecutive groups as dependency edges, no launch cost",
          "Wireframe §2.2 Fig. 2, §5.1", GroupBarrierScheme::stats()));
  registry.add(describe_scheme<DataflowIdealParams, DataflowIdealScheme>(
      "dataflow_ideal",
      "one launch, fine-grain dependencies, unlimited scheduler buffers (the upper bound)",
      "MODELS.md §2", DataflowIdealScheme::stats()));
}

}  // namespace tbdse
