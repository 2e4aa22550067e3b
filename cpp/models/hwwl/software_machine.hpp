// The software implementations the hardware worklist is compared with (HWWL
// §II, Fig. 1a and Fig. 2), on the same warp machine:
//  * topology: every super-step a kernel of one thread per node; each thread
//    loads its node's active flag and, if set, applies the operator; activated
//    nodes set their flag for the next super-step (no atomics, duplicates merge);
//  * data (double-buffered worklist, Fig. 2): every super-step a kernel whose
//    threads split the pull worklist statically (no atomics on pulls; as many
//    threads as items, at most the GPU's, as variable kernel configuration
//    does); each item's id is loaded from memory; when the operator can push,
//    every warp iteration runs a warp scan of its threads' push counts and
//    one atomic on the worklist tail (atomic-reduced updates, LonestarGPU's
//    setup_push_warp), serialised with every other warp's at gpu.amo_cycles
//    each, then stores its ids.
// The better of the two is the paper's baseline (§IV-A).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "models/hwwl/hwwl_params.hpp"
#include "models/hwwl/operator_memory.hpp"
#include "models/hwwl/warp_machine.hpp"

namespace tbdse::hwwl {

class SoftwareMachine final : public WarpMachine {
 public:
  enum class Mode { TOPOLOGY, DATA };

  SoftwareMachine(Mode mode, const SoftwareParams& params, const WorklistProblem& problem,
                  const GpuConfig& gpu, const ResolvedRun& run, bool record);

  static const std::vector<StatInfo>& stat_info();

 private:
  enum Kind : std::int32_t { WARP_STEP = 1, LAUNCH };
  enum class Phase : std::uint8_t { FETCH, LOADED, COMPUTE, PUSH, AMO_DONE, DONE };

  struct Warp {
    std::int32_t core = 0, block = 0;
    std::int32_t first = 0;      // data: items [begin[k], end[k]) per thread; topology: nodes
    std::int32_t iteration = 0;  // data: the item index each thread is at (its chunk + iteration)
    Phase phase = Phase::FETCH;
    std::array<std::int32_t, kWarp> item{};
    std::array<std::int64_t, kWarp> slot{};  // data: each item's index in the pull list
    std::uint32_t holding = 0;
    ComputePhase compute;
    std::int32_t most_pushes = 0;
    std::vector<std::int32_t> pushes;  // data: ids activated by this iteration's items
  };

  void start() override;
  void handle(const Event& e) override;
  bool finished() const override { return done_; }
  std::vector<double> stats() const override;
  void sample_more(std::vector<Series>&, bool) override {}

  void launch();
  // Starts queued blocks on `core` while it has room for a whole block.
  void dispatch(std::int32_t core);
  void step(std::int32_t w);
  void fetch(std::int32_t w);
  void loaded(std::int32_t w);
  void compute_round(std::int32_t w);
  void push(std::int32_t w);
  void warp_finished(std::int32_t w);
  // data: the pull-list index thread k of warp w handles at its current
  // iteration, or -1.
  std::int64_t data_slot(const Warp& warp, std::int32_t k);
  // topology: the address of node v's active flag for super-step parity `part`.
  static std::uint64_t flag(std::int32_t part, std::int32_t v) {
    return OperatorMemory::word(OperatorMemory::FLAGS, (std::int64_t{part} << 24) + v);
  }

  Mode mode_;
  SoftwareParams p_;
  Cycle relaunch_;
  std::vector<Warp> warps_;                  // this kernel's warps
  std::int32_t warps_per_block_ = 1, blocks_per_core_ = 1;
  std::int32_t next_block_ = 0, blocks_ = 0;  // blocks started so far; this kernel's
  std::vector<std::int32_t> block_warps_;    // per block: its warps still running
  std::vector<std::int64_t> block_next_, block_end_;  // data, work donating: each block's items
  std::vector<std::int32_t> resident_;       // per core: blocks running
  std::int32_t warps_left_ = 0;
  std::vector<std::int32_t> list_, next_list_;  // data: pull / push worklists
  std::int32_t parity_ = 0;                     // which list / flag array is pulled
  std::vector<char> active_, next_active_;      // topology: active flags
  std::int64_t next_count_ = 0;
  std::int32_t threads_ = 0;  // this kernel's threads
  Cycle amo_free_ = 0;        // the worklist tail's atomic unit is busy until then
  bool done_ = false;
  bool can_push_ = false;  // the operator activates ids: the kernel has a push

  std::int64_t amos_ = 0, overhead_instructions_ = 0, checks_ = 0;
};

}  // namespace tbdse::hwwl
