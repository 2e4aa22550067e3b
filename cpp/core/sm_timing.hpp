// The `shared` timing model of an SM (docs/simulation.md "Timing models",
// docs/MODELS.md §1).  Every resident TB has an issue demand: the share of
// its SM's issue slots it needs to run at full speed.  A TB whose kernel
// states no throughput trait demands 1 / sm_saturation (an SM runs
// `sm_saturation` such TBs at full speed); one whose kernel states an
// `issue_interval` demands warps / (issue_interval x warp instructions the SM
// issues per cycle) (issue_demand below).  Spinning resident TBs and a
// runtime's steps (add_spin) demand issue slots the same way.  When an SM's
// demands sum to at most 1 every TB runs at full speed; beyond that the slots
// are split — evenly (processor sharing: each TB at 1 / total demand of full
// speed) or oldest first (the oldest TBs, lowest level then earliest start
// under oldest_first, earliest start alone under earliest_start,
// take what they demand first, as a GTO warp scheduler favours old warps; the
// rest get what is left, possibly nothing).
//
// Demands are kept in "TB units" of 1 / sm_saturation (a TB without traits is
// exactly 1), so runs whose kernels state no traits compute exactly what they
// did before per-kernel demands existed.
//
// Optional memory term: a kernel's `mem_fraction` f of its cost is memory
// time, which SM sharing does not slow, and its TBs move mem_requests x 128
// bytes each.  A TB at SM share s and memory speed m progresses at
//     rho = 1 / ((1 - f) / s + f / m)
// of full speed, and moves its bytes at rho x bytes / cost per cycle; m (one
// for the whole GPU, at most 1) is the largest speed at which the running TBs
// together stay within `mem_bandwidth`.  A TB whose memory time comes from
// the memory hierarchy (a data footprint, Tb::hierarchy) has f = that time
// over its work and m = 1: the hierarchy's DRAM channels already limit it.
//
// A TB's work is its cost at full speed.  Rates change only when a TB starts
// or ends (or, under the memory term, when the memory speed changes with it),
// so a finish time is computed once per change — an event per residency
// change, never a step per cycle.  Finish times are whole cycles (a TB ends at
// the first cycle by which its work is done); equal finish times go in issue
// order, as under `fixed`.
#pragma once

#include <cstdint>
#include <vector>

#include "finish_heap.hpp"
#include "gpu.hpp"
#include "types.hpp"

namespace tbdse {

// Warp instructions an SM completes per cycle: its issue width, at most what
// its lanes execute (a warp instruction takes 32 / lanes cycles of them).
double sm_issue_rate(const GpuConfig& gpu);

// Share of an SM's issue slots a TB of `threads` threads demands when each of
// its warps issues once every `issue_interval` cycles (KernelInfo), at most 1.
double issue_demand(const GpuConfig& gpu, std::int64_t threads, double issue_interval);

class SharedSms {
 public:
  // What a starting TB brings: its work, its age and its memory traffic.
  struct Tb {
    Cycle cost = 0;              // cycles at full speed
    std::int32_t level = 0;      // task-graph level (age: lower is older)
    std::uint64_t seq = 0;       // issue sequence (the engine's; age and tie-break)
    double mem_fraction = 0.0;   // share of the cost that is memory time
    double bytes = 0.0;          // bytes it moves (mem_requests x 128)
    double units = 1.0;          // issue demand in TB units (issue_demand x sm_saturation)
    bool hierarchy = false;      // mem_fraction is the memory hierarchy's time: memory speed 1
    Cycle started = -1;          // when the TB started, if before now (its next pass: its age)
  };

  // A TB's issue demand in the units start() and add_spin take: TBs' worth
  // at 1 / sm_saturation of the SM's issue slots each.
  double units_of(double demand) const { return demand * saturation_; }

  explicit SharedSms(const GpuConfig& gpu);

  // A TB starts on `sm` at `now`, under the engine's running-TB `handle`.
  void start(std::int32_t handle, SmId sm, const Tb& tb, Cycle now);
  // The TB under `handle` ended at `now` (it was the first to finish);
  // returns when it started.
  Cycle stop(std::int32_t handle, Cycle now);
  std::int64_t running() const { return running_count_; }
  // Adds `weight` TB units of issue demand on `sm` from `now` (negative
  // removes it; units_of converts a share of the issue slots): resident TBs
  // that run no task but spin (persistent workers polling, sleeping, running
  // a runtime's steps) share the SM's issue slots with its running TBs, in
  // the same sum of demands.  Even sharing counts them like any resident;
  // oldest first serves the running TBs first (a polling warp stalls on its
  // loads and yields), so spinners take only what the tasks leave.
  void add_spin(SmId sm, double weight, Cycle now);

  // Cycle at which the next TB finishes (FinishHeap::kNever if none can),
  // after settling the rates of every SM whose residents changed at `now`.
  Cycle next_finish(Cycle now);
  // During the completions at one cycle: the first finish time left and the
  // handle of the TB it belongs to (call pop_first to take it).
  Cycle first_time();
  std::int32_t pop_first();

 private:
  struct Running {
    double remaining = 0.0;  // work left, in full-speed cycles, as of `since`
    double share = 0.0;      // SM share s (0..1)
    double rate = 0.0;       // progress rho (0..1)
    double mem_fraction = 0.0;
    double demand = 0.0;     // bytes per cycle at full speed (bytes / cost)
    double units = 1.0;      // issue demand, TB units
    bool hierarchy = false;  // memory time from the hierarchy (memory speed 1)
    Cycle since = 0;
    Cycle planned = -1;      // finish cycle in the heap, -1: none
    Cycle started = 0;
    std::uint64_t seq = 0;
    std::int32_t level = 0;
    SmId sm = -1;
    bool active = false;
  };

  void touch(SmId sm, Cycle now);       // bring the SM's TBs to `now` before a change
  void settle_shares(SmId sm);          // SM shares of its residents
  double memory_speed() const;          // m for the current shares
  double rate_of(const Running& r) const;
  void plan(std::int32_t handle, Cycle now);
  void drop_stale();
  void compact();

  double saturation_;
  bool oldest_first_;
  bool age_by_level_;                   // oldest_first: level before start (earliest_start: not)
  double bandwidth_;                    // bytes per cycle; 0 = unlimited
  double memory_ = 1.0;                 // memory speed m
  std::int32_t memory_tbs_ = 0;         // running TBs with a bandwidth demand
  std::int64_t running_count_ = 0;
  std::vector<Running> running_;        // by handle
  std::vector<std::vector<std::int32_t>> resident_;  // per SM: handles
  std::vector<Cycle> touched_at_;       // per SM: last cycle its TBs were brought up to date
  std::vector<double> spin_;            // per SM: spinning TBs' issue demand, in TBs (add_spin)
  std::vector<SmId> dirty_;             // SMs whose residents changed at the current cycle
  std::vector<char> is_dirty_;
  FinishHeap heap_;
  std::size_t planned_ = 0;             // running TBs with a finish time (live heap entries)
};

}  // namespace tbdse
