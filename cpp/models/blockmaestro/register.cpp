#include "models/blockmaestro/register.hpp"

#include "models/blockmaestro/blockmaestro.hpp"
#include "models/registry.hpp"

namespace tbdse {

namespace {

using Mode = BlockMaestroScheme::Mode;

// One class in four modes; each registered name gets its own parameter struct.
template <Mode M>
struct NoParamScheme : BlockMaestroScheme {
  NoParamScheme(const BaselineParams&, const Workload& w, const GpuConfig& g)
      : BlockMaestroScheme(M, BlockMaestroParams{}, w, g) {}
};

BlockMaestroParams from(const PrelaunchParams& p) {
  BlockMaestroParams b;
  b.prelaunch_depth = p.prelaunch_depth;
  b.reorder_queue = p.reorder_queue;
  b.independent_start = p.independent_start;
  return b;
}

struct PrelaunchScheme : BlockMaestroScheme {
  PrelaunchScheme(const PrelaunchParams& p, const Workload& w, const GpuConfig& g)
      : BlockMaestroScheme(Mode::PRELAUNCH, from(p), w, g) {}
};

struct FullScheme : BlockMaestroScheme {
  FullScheme(const BlockMaestroParams& p, const Workload& w, const GpuConfig& g)
      : BlockMaestroScheme(Mode::BLOCKMAESTRO, p, w, g) {}
};

}  // namespace

void register_blockmaestro_schemes(SchemeRegistry& registry) {
  const auto stats = BlockMaestroScheme::stats();
  registry.add(describe_scheme<BaselineParams, NoParamScheme<Mode::BASELINE>>(
      "baseline",
      "an application's kernels serialised by its stream: each launched after the previous "
      "completed, blocking copies",
      "BlockMaestro §II-A, §IV-B Fig. 9", stats));
  registry.add(describe_scheme<BaselineParams, NoParamScheme<Mode::IDEAL_BASELINE>>(
      "ideal_baseline", "baseline without kernel launch overhead", "BlockMaestro §IV-B Fig. 9",
      stats));
  registry.add(describe_scheme<PrelaunchParams, PrelaunchScheme>(
      "prelaunch",
      "kernels launched while earlier ones run; TBs wait for the whole previous kernel unless "
      "independent of it",
      "BlockMaestro §III-C, §IV-B Fig. 9", stats));
  registry.add(describe_scheme<BlockMaestroParams, FullScheme>(
      "blockmaestro",
      "pre-launching plus TB-level dependencies between consecutive kernels, resolved in "
      "dependency list / parent counter buffers",
      "BlockMaestro §III, §IV", stats));
}

}  // namespace tbdse
