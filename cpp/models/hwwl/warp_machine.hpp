// What the hardware worklist (hwwl_machine.*) and its software baselines
// (software_machine.*) share: a GPU of cores running warps of 32 threads in
// lockstep (SIMT), issue slots per core, loads that take mem_latency cycles,
// the operator's state, the event loop and the activity it samples.
//
// Timing model (docs/models/hwwl.md): a warp instruction takes one issue slot
// of its core (gpu.issue_width per cycle, first come first served, a warp's
// run of instructions back to back); a warp executes the largest instruction
// count among its threads (divergent threads idle, masked); a warp's loads
// are coalesced into line requests that go through the GPU's memory
// hierarchy (per-core L1, shared L2, DRAM channels: core/mem_hierarchy.hpp)
// and hold load-store queue entries until they return (an instruction goes
// to the hierarchy only when its entries are free); meanwhile the warp
// issues nothing, so other warps hide the latency.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "core/event_queue.hpp"
#include "core/gpu.hpp"
#include "core/mem_hierarchy.hpp"
#include "core/run.hpp"
#include "core/scheme.hpp"
#include "models/hwwl/lsu_queue.hpp"
#include "models/hwwl/operator_memory.hpp"
#include "models/hwwl/operator_state.hpp"

namespace tbdse::hwwl {

inline constexpr std::int32_t kWarp = 32;  // threads per warp

// The machine's shape, from the GPU (cores = sms).
struct Shape {
  std::int32_t cores = 0;
  std::int32_t lanes = 0;           // SIMD lanes (and worklist banks) per core
  std::int32_t warps_per_core = 0;  // threads_per_sm / 32
  std::int32_t issue_width = 0;
  Cycle amo_cycles = 0;

  // ConfigError unless lanes divides 32 or is a multiple of it, and a core
  // holds at least one warp.
  static Shape of(const GpuConfig& gpu);
  std::int32_t threads() const { return cores * warps_per_core * kWarp; }
  std::int32_t warps() const { return cores * warps_per_core; }
  // The lane thread k of warp w runs on (within its core).
  std::int32_t lane(std::int32_t warp_in_core, std::int32_t k) const {
    return (warp_in_core * kWarp + k) % lanes;
  }
};

// A core's issue slots: `width` instructions start per cycle.
class IssueSlots {
 public:
  explicit IssueSlots(std::int32_t width) : free_at_(static_cast<std::size_t>(width), 0) {}
  // Reserves `count` consecutive instruction slots starting no earlier than
  // `t` (after the turns of the warps spinning in the background); returns
  // the cycle the first one issues.
  Cycle reserve(Cycle t, std::int64_t count) {
    std::size_t best = 0;
    for (std::size_t i = 1; i < free_at_.size(); ++i)
      if (free_at_[i] < free_at_[best]) best = i;
    const Cycle start = std::max(t, free_at_[best]) + background_;
    free_at_[best] = start + count;
    reserved_ += count;
    return start;
  }
  // Instruction slots reserved so far (the slots the spinning warps cannot
  // have: hwwl_machine.cpp charges their WAIT loops only the rest).
  std::int64_t reserved() const { return reserved_; }
  std::int32_t width() const { return static_cast<std::int32_t>(free_at_.size()); }
  // Warps spinning without events (hwwl's WAIT loops) take `slots` issue
  // slots per round of the scheduler: each reservation waits for their turns
  // (round robin among ready warps), slots / width cycles.
  void set_background(std::int64_t slots) {
    background_ = slots / static_cast<std::int64_t>(free_at_.size());
  }
  Cycle background() const { return background_; }

 private:
  std::vector<Cycle> free_at_;
  Cycle background_ = 0;
  std::int64_t reserved_ = 0;
};

// A warp's operator phase (SIMT): it issues the largest instruction count
// among its threads, one share per load round, and makes as many load rounds
// as its longest thread; in each round every thread still looping makes its
// round's loads (OperatorMemory), coalesced as one warp instruction.
struct ComputePhase {
  std::int64_t instructions_left = 0;
  std::array<std::int32_t, kWarp> item{};    // per thread: its item, or -1
  std::array<std::int32_t, kWarp> rounds{};  // per thread: its load rounds
  std::int32_t total = 0, round = 0;         // the most rounds; the next round

  void begin() {
    instructions_left = 0;
    total = round = 0;
    item.fill(-1);
  }
  void add(std::int32_t thread, std::int32_t id, std::int64_t instructions, std::int32_t n) {
    instructions_left = std::max(instructions_left, instructions);
    item[static_cast<std::size_t>(thread)] = id;
    rounds[static_cast<std::size_t>(thread)] = n;
    total = std::max(total, n);
  }
};

// Who holds a load-store queue entry: a warp's own memory instruction (the
// operator, or a software worklist's accesses), a virtualization load
// refilling banks, or a virtualization store spilling ids (HWWL §III-D).
enum class Requester : std::uint8_t { OPERATOR, REFILL, SPILL };

// Metrics every worklist-machine run reports (the kind metrics), in order.
const std::vector<StatInfo>& worklist_metrics();

class WarpMachine {
 public:
  WarpMachine(const WorklistProblem& problem, const GpuConfig& gpu, const ResolvedRun& run,
              bool record, std::int64_t sample_every, std::int64_t lsu_entries);
  virtual ~WarpMachine() = default;

  // Runs to completion; DeadlockError if it stops making progress.
  RunOutput run(const char* scheme, bool check_results, bool values);

 protected:
  enum Priority : std::int32_t { ARRIVAL = 1, INTERVAL = 2, WARP = 3, SAMPLE = 4 };
  static constexpr std::int32_t kSampleEvent = 1'000'000;
  // The memory instructions' own events (warp_memory.cpp): an instruction's
  // cycle has come; a core's queue entries may have freed up.
  static constexpr std::int32_t kMemReady = 1'000'001;
  static constexpr std::int32_t kLsuRetry = 1'000'002;

  virtual void start() = 0;
  virtual void handle(const Event& event) = 0;
  virtual bool finished() const = 0;
  // Scheme-specific statistics, after the kind metrics.
  virtual std::vector<double> stats() const = 0;
  // Extra sampled series (name, value now); the base samples active threads.
  virtual void sample_more(std::vector<Series>& trace, bool first) = 0;

  void post(Cycle t, Priority priority, std::int32_t kind, std::int64_t payload = 0);
  // Threads holding an item changed by `delta` (kept as a time integral).
  void hold(std::int32_t delta);
  // Adds thread k's item to a warp's operator phase: applies the operator now
  // (its activations appended to activated_) and counts its instructions.
  void apply(ComputePhase& c, std::int32_t k, std::int32_t id);
  // The next step of a warp's operator phase on `core` at now_: issues the
  // round's instructions and loads and posts `kind` (WARP priority, payload)
  // for when the loads return, or (done) when the phase's last instructions
  // have issued.
  void compute_step(std::int32_t core, ComputePhase& c, bool& done, std::int32_t kind,
                    std::int64_t payload);

  // Memory instructions (warp_memory.cpp).  A memory instruction reaches the
  // memory hierarchy when it leaves the core: at its cycle t, once the
  // core's load-store queue has an entry free for each of its line requests
  // (waiting instructions go in order of their cycles).  Every hierarchy
  // call is then made at the simulated now_, in time order, as its in-order
  // ports, MSHRs and channels assume (hwwl_audit.md 2026-11-29: booking an
  // instruction at the future cycle its entries free up queued earlier
  // requests behind it).  When an instruction returns is known only when it
  // issues, so callers group instructions and get an event when all have
  // returned (a load: its data is there; a store: the hierarchy accepted it).

  // A group whose completion posts `kind` (with `payload`, at `priority`);
  // kind < 0: none (stores nobody waits for).
  std::int32_t open_group(Priority priority, std::int32_t kind, std::int64_t payload = 0);
  // No more instructions join the group; its event comes no earlier than
  // `floor`.
  void close_group(std::int32_t group, Cycle floor);
  // A warp memory instruction from `core` at t (threads in `active`, `bytes`
  // each), in `group`.
  void warp_access(std::int32_t group, std::int32_t core, Cycle t, const std::uint64_t* addresses,
                   std::uint32_t active, std::int64_t bytes, bool is_write);
  // One contiguous access of `bytes` at `base` (a coalesced list or buffer
  // access), in `group`: in parts of at most 64 line requests.
  void range_access(std::int32_t group, std::int32_t core, Cycle t, std::uint64_t base,
                    std::int64_t bytes, bool is_write, Requester who = Requester::OPERATOR);
  // A virtualization load of `bytes` at `base` issued now with entries the
  // caller found free (lsu_free), ahead of the instructions waiting for
  // theirs (HWWL §III-D); returns when its data is there.
  Cycle refill_access(std::int32_t core, std::uint64_t base, std::int64_t bytes);
  // Load-store queue entries of `core` free now.
  std::int64_t lsu_free(std::int32_t core) const {
    return lsu_[static_cast<std::size_t>(core)].free_at(now_);
  }

  // Load-store queue use by requester (the HWWL's LSU counters, audit H4b):
  // line requests, entry-cycles held, and cycles waited for free entries.
  struct LsuUse {
    std::int64_t requests = 0, entry_cycles = 0, wait_cycles = 0;
  };
  const LsuUse& lsu_use(Requester who) const { return lsu_use_[static_cast<std::size_t>(who)]; }

  // A work item was processed: resets the no-progress watchdog.
  void progress() { since_progress_ = 0; }
  std::int32_t holding() const { return holding_; }  // threads holding an item

  const WorklistProblem& problem_;
  Shape shape_;
  Cycle now_ = 0;
  Cycle end_ = 0;  // when the run finished
  EventQueue queue_;
  std::vector<IssueSlots> issue_;
  MemoryHierarchy memory_;
  std::vector<LsuQueue> lsu_;  // per core
  OperatorMemory layout_;
  OperatorState op_;
  std::vector<std::int32_t> activated_;  // scratch for OperatorState::apply

  // kind metrics
  std::int64_t useful_instructions_ = 0;
  std::int64_t dynamic_instructions_ = 0;
  std::int64_t supersteps_ = 0;
  std::int64_t events_ = 0;
  std::int64_t loads_ = 0, load_lines_ = 0, lines_ = 0;  // warp loads; their line requests; all

 private:
  void sample();

  // A memory instruction not issued yet, or a group of them.
  struct MemRequest {
    std::int32_t group = 0, core = 0;
    Cycle ready = 0;  // when it left the core
    bool is_write = false;
    Requester who = Requester::OPERATOR;
    CoalescedWarp lines;
  };
  struct MemGroup {
    Cycle done = 0;
    std::int32_t left = 0;  // instructions not issued yet
    bool open = true;
    std::int32_t priority = 0, kind = -1;
    std::int64_t payload = 0;
  };
  void submit(std::int32_t group, std::int32_t core, Cycle t, const CoalescedWarp& lines,
              bool is_write, Requester who);
  void handle_memory(const Event& e);
  // Issues the core's waiting instructions whose entries are free now.
  void pump(std::int32_t core);
  // Sends one instruction to the hierarchy at now_; returns when it is done.
  Cycle issue(std::int32_t core, const CoalescedWarp& lines, bool is_write, Requester who,
              Cycle ready);
  void finish(std::int32_t group, Cycle done);
  static std::int64_t entries(const CoalescedWarp& lines, const LsuQueue& lsu) {
    return std::min<std::int64_t>(lines.count, lsu.capacity());
  }

  std::vector<MemGroup> groups_;
  std::vector<std::int32_t> free_groups_;
  std::vector<MemRequest> waiting_;  // instructions waiting for their cycle or entries
  std::vector<std::int32_t> free_waiting_;
  std::vector<std::deque<std::int32_t>> lsu_fifo_;  // per core, in order of their cycles
  std::vector<Cycle> lsu_retry_;  // per core: the retry posted, kNoRetry when none
  static constexpr Cycle kNoRetry = -1;

  std::array<LsuUse, 3> lsu_use_{};

  bool record_;
  Cycle sample_every_;
  std::vector<Series> trace_;
  std::int32_t holding_ = 0;
  double holding_area_ = 0;  // integral of threads holding an item over time
  Cycle holding_since_ = 0;
  std::int64_t since_progress_ = 0;
  std::int64_t pending_ = 0;  // events other than samples: none left means nothing can happen
};

}  // namespace tbdse::hwwl
