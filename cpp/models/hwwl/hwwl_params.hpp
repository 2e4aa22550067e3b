// Parameters of the worklist machine's schemes (docs/MODELS.md §6): `hwwl`,
// the fine-grain hardware worklist of Kim & Batten (MICRO-47 2014), and its
// software baselines `topology` and `data` (§II, Fig. 1-2).  The machine's
// shape is the GPU's: cores = gpu.sms, lanes = gpu.lanes, warps of 32 threads,
// gpu.threads_per_sm / 32 warps per core (Table IV: 4 x 16 lanes, 48 warps),
// gpu.issue_width warp instructions per cycle, gpu.mem_latency cycles per
// load, gpu.amo_cycles per atomic on one address.
#pragma once

#include <cstdint>
#include <string>

#include "core/params.hpp"

namespace tbdse::hwwl {

struct HwwlParams {
  // The worklist: banks (the HWWL of §III), or one of Fig. 5's idealised
  // designs (§IV-B): ideal_fifo (one shared worklist of unbounded capacity, in
  // push order, no ports or bandwidth limits) or ideal_sorted (the same,
  // smallest work id first: "sorts the worklist by work ID before every
  // pull").  The bank, redistribution and virtualization parameters apply to
  // banks only.  Default banks.
  std::string worklist = "banks";
  // Work redistribution between banks (§III-C): none, threshold, lsorting
  // (per-core ranking), gsorting (one global ranking), magic (perfect balance,
  // no bandwidth limit).  Default lsorting (§IV-D settles on it).
  std::string redistribution = "lsorting";
  // Cycles between redistributions (and interval refills).  Default 10 (§IV-D).
  std::int64_t interval = 10;
  // Work threshold: banks above it are greedy, below it needy.  Default 5 (§IV-D).
  std::int64_t threshold = 5;
  // --- Redistribution bandwidth (docs/models/hwwl.md, "Redistribution
  // bandwidth"); validated against each other by check_redistribution. ---
  // When the WRU redistributes (§III-C names both): interval (every
  // `interval` cycles; the paper's choice, §III-C/§IV-D) or on_demand (a pull
  // that finds its bank empty, or a push that finds it full, makes the core's
  // WRU plan right away, at most once per interval).  Both triggers' moves go
  // through the banks' single ports (the paper's on-demand would need extra
  // ports, §III-C; tbdse compares the triggers at the same area).  Default
  // interval.
  std::string redistribution_trigger = "interval";
  // Ids one bank may give or take per interval, further bounded by its free
  // port cycles (single-port banks, §III-B: a cycle a pull or push uses is
  // lost to redistribution, §III-C "delaying or skipping").  auto = interval:
  // the port's whole bandwidth, one access per cycle (tbdse's choice: the
  // paper names no other limit).  At most interval.
  std::int64_t transfers_per_bank = kAuto;
  // Ids one core's WRU sends per interval, within the core or into the
  // inter-core network (the unit's throughput).  auto = interval: one id per
  // cycle, like the ICRN port (§III-C), i.e. one read and one write path
  // between the core's banks (tbdse's choice: §V-B sizes only the WRU's
  // sorting network, a small unit).
  std::int64_t transfers_per_core = kAuto;
  // Cycles an id takes over the inter-core redistribution network (ICRN),
  // which carries one id in and one out per core per cycle (§III-C).  auto =
  // 2 x ceil(log4 cores) hops: two through the hub on the paper's 4-core
  // machine (§III-C), more levels of radix-4 hubs as cores grow (§V-A: the
  // ICRN latency grows with the core count; tbdse's formula).
  std::int64_t network_latency = kAuto;
  // Entries per lane bank, both partitions together (double-buffered: half
  // each), or unbounded.  Default 32 (§IV-E).
  std::int64_t bank_entries = 32;
  // How spilled work comes back (§III-D): on_demand (a pull from an empty
  // bank loads a warp's worth; the warp stalls) or interval (every interval
  // cycles, when every bank of the core has a free entry).  Default interval.
  std::string refill = "interval";
  // double: pulls and pushes use separate partitions, swapped at a kernel
  // relaunch when every pull partition is empty; single: one worklist.
  // Default double (§IV-A).
  std::string buffering = "double";
  // Overflow buffer entries per core for spilled ids; unbounded = as much as
  // needed.  A push that finds it full is a simulation error (§III-A: the
  // exception).  Default unbounded.
  std::int64_t overflow_entries = kUnbounded;
  // Load-store queue entries per core, one per 128-byte line request in
  // flight (a scattered warp load takes up to 32).  Virtualization requests
  // use what is free (§III-D: "as many ... as there is space in the
  // load-store unit", "normal memory requests are given priority"); warps'
  // own loads wait for entries.  Default 64 (tbdse's; not in Table IV).
  std::int64_t lsu_queue = 64;
  // On-demand virtualization loads in flight per core at most (§III-D:
  // "multiple virtualization loads can be issued up to a limit"); a pull to an
  // empty bank that cannot start its refill returns WAIT.  Interval refills
  // are bounded by free load-store queue entries only.  Default 4 (tbdse's).
  std::int64_t virt_load_limit = 4;
  // Instructions a warp whose threads all pulled WAIT spends before pulling
  // again: useless dynamic work (§III-C).  Default 4 (tbdse's: pull, compare,
  // branch, loop).
  std::int64_t wait_spin = 4;
  // Cycles of the kernel relaunch that swaps the partitions; auto = the GPU's
  // host_launch_us (§III-A).
  std::int64_t relaunch_cycles = kAuto;
  // Cycles between samples of the machine's activity when a run is recorded.
  // Default 500.
  std::int64_t sample_every = 500;
  // Compare the operator's final node values (BFS/SSSP distances) with a
  // reference solution; a mismatch is a simulation error.  Default true.
  bool check_results = true;

  static const ParamTable<HwwlParams>& params();
};

// ConfigError when the redistribution parameters contradict one another
// (transfers_per_bank above interval: a single port gives one id per cycle).
void check_redistribution(const HwwlParams& p);

struct SoftwareParams {
  // Cycles of each super-step's kernel launch; auto = the GPU's host_launch_us.
  std::int64_t relaunch_cycles = kAuto;
  // data: instructions per id read from the pull worklist besides the loop
  // test a hardware pull also needs: the index step, the test against the
  // list's length (a load of it, compare, branch), the slot's address and the
  // load of the id (LonestarGPU's Worklist2::pop_id; docs/models/hwwl.md,
  // "The software worklist's cost").  Default 7.
  std::int64_t pull_instructions = 7;
  // topology: instructions of the check whether a node is active (one load
  // round trip besides).  Default 4 (tbdse's).
  std::int64_t check_instructions = 4;
  // data: instructions per thread of a warp's atomic-reduced push (§II-C),
  // which every thread of a warp runs each iteration whenever the operator
  // can push (warp-uniform): the warp's exclusive scan of push counts, the
  // leader test, the broadcast of the tail's old value, the offset add
  // (LonestarGPU's Worklist::setup_push_warp).  Default 17.
  std::int64_t push_instructions = 17;
  // data: instructions per pushed id: its slot index, the slot's address and
  // the store (Worklist::do_push).  Default 4.
  std::int64_t store_instructions = 4;
  // Load-store queue entries per core, as for hwwl.  Default 64.
  std::int64_t lsu_queue = 64;
  // Threads per thread block of each super-step's kernel: a core runs whole
  // blocks (at most gpu.tb_slots of them, and gpu.threads_per_sm threads), a
  // block's place frees when its last warp ends.  Default 256 (tbdse's: a
  // common LonestarGPU block size).
  std::int64_t block_threads = 256;
  // data: work donating (§II-C, Table I "WDO"): a block's threads share its
  // items through a donation list in shared memory, so a thread that finishes
  // early takes more instead of idling; false = each thread its own
  // contiguous share.  Default false (LSG+W uses it: BH's best, Table II).
  bool work_donating = false;
  // data: instructions per item of donating (estimate, compare with the
  // block's mean, push to or pull from the donation list).  Default 6 (tbdse's).
  std::int64_t donate_instructions = 6;
  std::int64_t sample_every = 500;  // as for hwwl
  bool check_results = true;        // as for hwwl
};

// The tables of the two software schemes: each lists the fields it reads.
struct TopologyParams : SoftwareParams {
  static const ParamTable<TopologyParams>& params();
};
struct DataParams : SoftwareParams {
  static const ParamTable<DataParams>& params();
};

}  // namespace tbdse::hwwl
