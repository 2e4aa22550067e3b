// The fine-grain hardware worklist (Kim & Batten, MICRO-47 2014, §III): the
// data-driven kernel of Fig. 1b on a GPU whose lanes each own a worklist bank.
// Every hardware thread loops: pull a work id from its lane's bank (WAIT when
// the bank is empty but work exists elsewhere, DONE when none does), apply
// the operator, push the ids it activates to its bank.  Banks are single-port
// FIFOs; a redistribution unit moves ids between them every `interval`
// cycles (redistribution.hpp); ids that do not fit spill to a per-core
// overflow buffer and come back on demand or at intervals (§III-D).
// Double-buffered, pushes go to the other partition, swapped at a kernel
// relaunch once every pull partition is empty (§III-A).  docs/models/hwwl.md
// lists the interpretations.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include <optional>

#include "models/hwwl/hwwl_params.hpp"
#include "models/hwwl/ideal_worklist.hpp"
#include "models/hwwl/redistribution.hpp"
#include "models/hwwl/warp_machine.hpp"
#include "models/hwwl/worklist_banks.hpp"

namespace tbdse::hwwl {

class HwwlMachine final : public WarpMachine {
 public:
  HwwlMachine(const HwwlParams& params, const WorklistProblem& problem, const GpuConfig& gpu,
              const ResolvedRun& run, bool record);

  static const std::vector<StatInfo>& stat_info();
  static Cycle relaunch_cycles(const HwwlParams& params, const GpuConfig& gpu);
  // network_latency with 'auto' resolved (auto_network_latency).
  static Cycle network_latency(const HwwlParams& params, const GpuConfig& gpu);
  // transfers_per_bank / _core with 'auto' resolved: one id per cycle.
  static std::int32_t per_interval(std::int64_t transfers, std::int64_t interval);
  // The hardware worklist's storage for the whole GPU (storage_bytes, §V-B):
  // cores x lanes x bank_entries x 24-bit ids, +inf for unbounded banks.
  static double storage_bytes(const HwwlParams& params, const GpuConfig& gpu);
  // §V-B's area estimate of the WRU sorting network, 162 um^2 per core at
  // 40 nm, for lsorting; 0 for none and threshold (no sorting network); NaN
  // for gsorting and magic (the paper sizes no such unit).
  static double sort_network_mm2(const HwwlParams& params, std::int32_t cores);

 private:
  enum Kind : std::int32_t { WARP_STEP = 1, TICK, TRANSFER, ARRIVE, LOAD_DONE, STORE_DONE, RELAUNCH };
  enum class Phase : std::uint8_t { PULL_REQ, PULL, COMPUTE, PUSH_REQ, PUSH, REFILL_WAIT, SPIN, DONE };

  struct Warp {
    std::int32_t core = 0, slot = 0;  // its core, and its index there
    Phase phase = Phase::PULL_REQ;
    double spin_mark = 0;  // SPIN: its core's spin clock when its WAIT loop began
    std::uint32_t live = 0;     // threads that have not pulled DONE in this kernel
    std::uint32_t holding = 0;  // threads holding a work item
    std::array<std::int32_t, kWarp> item{};
    ComputePhase compute;
    std::vector<std::int32_t> pushes;                 // activated ids, thread by thread
    std::array<std::int32_t, kWarp + 1> push_start{};  // thread k's ids: [start[k], start[k+1])
  };
  struct Request {  // a virtualization load or store
    std::int32_t core = 0, warp = -1;
    std::vector<std::int32_t> ids, banks;
  };
  struct CoreState {
    IdQueue overflow[2];                // spilled ids per partition
    std::int64_t storing = 0;           // ids on their way to the overflow buffer
    std::int64_t stored[2] = {0, 0};    // ids ever spilled per partition (the buffer's tail)
    std::int64_t loaded[2] = {0, 0};    // ids ever refilled per partition (its head)
    std::int32_t virt_loads = 0;        // virtualization loads in flight
    std::int32_t refill_rr = 0;
    // The core's spin clock (advance_spin): WAIT-loop rounds each sleeping
    // warp has made, at the issue rate the awake warps leave them.
    double spin_clock = 0;
    double spin_pulls = 0;       // the sleepers' pulls since the last tick (on-demand trigger)
    Cycle spin_at = 0;           // the clock was advanced to here
    std::int64_t spin_seen = 0;  // the core's reserved issue slots then
    std::int64_t spin_debt = 0;  // slots reserved then but not yet issuable
  };

  void start() override;
  void handle(const Event& e) override;
  bool finished() const override { return done_; }
  std::vector<double> stats() const override;
  double lsu_stat(int which) const;  // lsu_occupancy, lsu_wait, lsu_refill_share, lsu_spill_share
  // Most ids pushed by one bank's threads over the mean per bank; NaN for an
  // ideal worklist (no banks) or when nothing was pushed.
  double bank_push_imbalance() const;
  void sample_more(std::vector<Series>& trace, bool first) override;

  std::int32_t bank_of(const Warp& w, std::int32_t k) const {
    return w.core * shape_.lanes + shape_.lane(w.slot, k);
  }
  std::int32_t push_side() const { return double_ ? 1 - pull_ : pull_; }
  std::int64_t room(std::int32_t b) const;  // free entries of the pull partition
  bool work_exists() const;
  void use_port(Bank& bank) { bank.port_free = std::max(bank.port_free, now_) + 1; }
  // After an id enters a bank's pull partition: the occupancy high-water
  // mark, and the core's spinning warps look again.
  void track(const Bank& bank) {
    peak_bank_ = std::max(peak_bank_, bank.part[pull_].size() + bank.reserved);
    wake(static_cast<std::int32_t>(&bank - banks_.data()) / shape_.lanes);
  }
  // Spinning warps (all threads pulled WAIT) sleep without events until their
  // core's banks change, or work runs out; wake() charges the WAIT loop
  // rounds they made meanwhile, read off the core's spin clock (the issue
  // slots the awake warps left them), and resumes them at the next round's pull.
  void spin(std::int32_t w);
  void wake(std::int32_t core);
  void advance_spin(std::int32_t core);
  // Per-sleeper rounds per cycle with n sleepers on an idle core.
  double spin_rate(std::int64_t n) const;
  void wake_all();

  void step(std::int32_t w);
  void pull(std::int32_t w);
  void compute_round(std::int32_t w);
  void push(std::int32_t w);
  void warp_done(std::int32_t w);
  // Redistribution (hwwl_redistribute.cpp).
  void tick();
  Cycle redistribute(std::int32_t core);  // core -1: every core (interval trigger)
  void redistribute_on_demand(std::int32_t core);
  void move(std::int32_t transfer);
  void arrive(std::int32_t flight);
  void refill_interval(std::int32_t core);
  bool refill_on_demand(std::int32_t w, const std::vector<std::int32_t>& empty_banks);
  void load(std::int32_t core, const std::vector<std::int32_t>& targets, std::int32_t warp);
  void load_done(std::int32_t request);
  // A virtualization load can start now: below the in-flight limit, with a
  // free load-store queue entry for each line it reads.
  bool can_load(std::int32_t core, std::int64_t ids) const;
  // Line requests of a refill of `ids` ids from the core's overflow buffer.
  std::int64_t refill_lines(std::int32_t core, std::int64_t ids) const;
  void spill(std::int32_t core, const std::vector<std::int32_t>& ids, Cycle t);
  void store_done(std::int32_t request);
  void end_of_kernel();
  void relaunch();
  // Starts a kernel's warps: double-buffered, the data-driven kernel's
  // variable configuration (one thread per pull-worklist id, at least one
  // warp per core so that every bank has pullers), else every warp.
  void launch();
  std::int32_t new_request(Request r);

  HwwlParams p_;
  Redistribution scheme_;
  bool double_, on_demand_, finite_;
  std::int64_t capacity_;  // entries per partition
  Cycle relaunch_;
  std::int32_t pull_ = 0;  // partition pulled from (double: the other one is pushed to)
  Cycle last_tick_ = 0;    // the current redistribution interval began here

  std::vector<Warp> warps_;
  std::vector<Bank> banks_;
  std::vector<CoreState> cores_;
  std::optional<IdealWorklist> ideal_;  // Fig. 5's idealised worklist instead of banks
  std::vector<std::vector<std::int32_t>> spinning_;  // per core: warps asleep in SPIN
  std::int64_t asleep_ = 0;
  std::vector<Request> requests_;
  std::vector<std::int32_t> free_requests_;
  RedistributionState rr_;
  std::vector<std::int32_t> loads_;  // scratch: bank loads for the planner
  std::vector<std::int32_t> empty_banks_, spills_, targets_;  // scratch
  std::vector<std::int64_t> left_;                            // scratch
  std::vector<char> spilling_;  // scratch: cores whose overflow holds pull-partition ids

  // Work anywhere, for WAIT vs DONE: ids in pull partitions, in overflow
  // buffers' pull regions, in flight to a bank (refills, network).
  std::int64_t pull_ids_ = 0, push_ids_ = 0, overflow_ids_[2] = {0, 0}, in_flight_ = 0;
  std::int32_t warps_done_ = 0, launched_ = 0;  // warps finished / started in this kernel
  bool relaunch_posted_ = false, done_ = false;

  std::int64_t pulls_ = 0, wait_pulls_ = 0, done_pulls_ = 0, wait_instructions_ = 0;
  std::int64_t transfers_ = 0, inter_core_ = 0;
  std::int64_t skipped_port_ = 0, skipped_empty_ = 0;  // dropped moves: no port cycle; nothing to move
  std::int64_t virt_loads_ = 0, virt_stores_ = 0, spilled_ = 0, peak_overflow_ = 0;
  std::int64_t pushed_ = 0, peak_bank_ = 0;
  std::vector<std::int64_t> bank_pushes_;  // ids pushed by each bank's threads (into it)
  double occupancy_sum_ = 0;
  std::int64_t occupancy_samples_ = 0;

  // Redistribution bandwidth (hwwl_redistribute.cpp, docs/models/hwwl.md).
  struct Transfer {  // a planned move under way: `left` ids, one per cycle, before `until`
    std::int32_t from = 0, to = 0, left = 0;
    bool ports = true;  // uses the banks' single ports (interval trigger)
    Cycle until = 0;
  };
  struct Flight {  // an id on the inter-core network, to `core`
    std::int32_t id = 0, core = 0;
    bool ejected = false;  // through the core's input port, waiting for a bank port
  };
  bool on_demand_redist_;
  Cycle network_latency_;
  std::int32_t per_bank_, per_core_;  // transfers_per_bank / _core resolved
  std::vector<Transfer> moving_;
  std::vector<Flight> flights_;
  std::vector<std::int32_t> free_moving_, free_flights_;
  std::vector<Cycle> net_out_, net_in_, wru_free_;  // per core: ICRN ports, WRU busy (on demand)
  std::vector<std::int32_t> bank_budget_, core_budget_;  // scratch for the planner
  std::int64_t plans_ = 0;
};

}  // namespace tbdse::hwwl
