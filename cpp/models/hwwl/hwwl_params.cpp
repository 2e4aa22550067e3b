#include "models/hwwl/hwwl_params.hpp"

#include <string>

#include "core/errors.hpp"

namespace tbdse::hwwl {

const ParamTable<HwwlParams>& HwwlParams::params() {
  static const ParamTable<HwwlParams> table = [] {
    ParamTable<HwwlParams> t;
    t.add(&HwwlParams::worklist,
          {.name = "worklist",
           .doc = "banks (the hardware worklist of §III) or Fig. 5's idealised designs: "
                  "ideal_fifo (one shared worklist, unbounded, in push order, no ports or "
                  "bandwidth limits) or ideal_sorted (the same, smallest work id first)",
           .paper_ref = "HWWL §III, §IV-B, Fig. 5",
           .choices = {"banks", "ideal_fifo", "ideal_sorted"}});
    t.add(&HwwlParams::redistribution,
          {.name = "redistribution",
           .doc = "work redistribution between banks: none, threshold (greedy banks above the "
                  "threshold give to needy ones below it), lsorting (banks ranked per core), "
                  "gsorting (ranked across all cores), magic (perfect balance, no bandwidth "
                  "limit)",
           .paper_ref = "HWWL §III-C, §IV-D",
           .choices = {"none", "threshold", "lsorting", "gsorting", "magic"},
           .read_when = {{"worklist", {"banks"}}}});
    t.add(&HwwlParams::interval,
          {.name = "interval", .unit = "cycles",
           .doc = "cycles between redistributions (and interval refills)",
           .paper_ref = "HWWL §IV-D (10)", .min_value = 1, .max_value = 1e9});
    t.add(&HwwlParams::threshold,
          {.name = "threshold", .unit = "ids",
           .doc = "banks holding more are greedy (donate), fewer needy (receive)",
           .paper_ref = "HWWL §III-C, §IV-D (5)", .min_value = 0, .max_value = 1e9,
           .read_when = {{"worklist", {"banks"}}, {"redistribution", {"none"}, false}}});
    t.add(&HwwlParams::redistribution_trigger,
          {.name = "redistribution_trigger",
           .doc = "when the redistribution unit moves ids: interval (every interval cycles) or "
                  "on_demand (right away when a pull finds its bank empty or a push finds it "
                  "full, at most once per interval); both through the banks' single ports",
           .paper_ref = "HWWL §III-C", .choices = {"interval", "on_demand"},
           .read_when = {{"worklist", {"banks"}}, {"redistribution", {"none"}, false}}});
    t.add(&HwwlParams::transfers_per_bank,
          {.name = "transfers_per_bank", .unit = "ids",
           .doc = "ids one bank may give or take per interval, also bounded by its free port "
                  "cycles (a cycle used by a pull or push is lost); auto = interval (the "
                  "single port's bandwidth); at most interval",
           .paper_ref = "HWWL §III-B, §III-C (tbdse assumption)", .auto_ok = true,
           .min_value = 1, .max_value = 1e9, .read_when = {{"worklist", {"banks"}}, {"redistribution", {"none"}, false}}});
    t.add(&HwwlParams::transfers_per_core,
          {.name = "transfers_per_core", .unit = "ids",
           .doc = "ids one core's redistribution unit sends per interval, within the core or "
                  "over the inter-core network, handed out in the scheme's donor priority "
                  "order; auto = interval (one id per cycle)",
           .paper_ref = "HWWL §III-C, §IV-D (tbdse assumption)", .auto_ok = true,
           .min_value = 1, .max_value = 1e9, .read_when = {{"worklist", {"banks"}}, {"redistribution", {"none"}, false}}});
    t.add(&HwwlParams::network_latency,
          {.name = "network_latency", .unit = "cycles",
           .doc = "cycles an id takes over the inter-core redistribution network (one id in "
                  "and one out per core per cycle); auto = 2 x ceil(log4 cores): two hops "
                  "through the hub on 4 cores, a level of radix-4 hubs more per 4x cores",
           .paper_ref = "HWWL §III-C, §V-A", .auto_ok = true, .min_value = 1,
           .max_value = 1e6, .read_when = {{"worklist", {"banks"}}, {"redistribution", {"none"}, false}}});
    t.add(&HwwlParams::bank_entries,
          {.name = "bank_entries", .unit = "entries",
           .doc = "entries per lane bank, both partitions together (double-buffered: half "
                  "each); ids beyond it spill to the overflow buffer",
           .paper_ref = "HWWL §III-B, §IV-E (32)", .unbounded_ok = true, .min_value = 2,
           .max_value = 1e9, .read_when = {{"worklist", {"banks"}}}});
    t.add(&HwwlParams::refill,
          {.name = "refill",
           .doc = "how spilled ids return: on_demand (a pull from an empty bank loads up to a "
                  "warp's worth; the whole warp stalls) or interval (every interval cycles, "
                  "when every bank of the core has a free entry, into reserved entries)",
           .paper_ref = "HWWL §III-D, §IV-E", .choices = {"interval", "on_demand"},
           // only finite banks spill ids that must come back
           .read_when = {{"worklist", {"banks"}}, {"bank_entries", {"unbounded"}, false}}});
    t.add(&HwwlParams::buffering,
          {.name = "buffering",
           .doc = "double (pull and push partitions, swapped at a kernel relaunch when every "
                  "pull partition is empty) or single (one worklist, one kernel)",
           .paper_ref = "HWWL §III-A, §IV-A, §V-C", .choices = {"double", "single"}});
    t.add(&HwwlParams::overflow_entries,
          {.name = "overflow_entries", .unit = "ids",
           .doc = "overflow buffer per core for spilled ids; a push that finds it full is a "
                  "simulation error",
           .paper_ref = "HWWL §III-A, §III-D", .unbounded_ok = true, .min_value = 0,
           .max_value = 1e12, .read_when = {{"worklist", {"banks"}}, {"bank_entries", {"unbounded"}, false}}});
    t.add(&HwwlParams::lsu_queue,
          {.name = "lsu_queue", .unit = "requests",
           .doc = "load-store queue entries per core, one per line request in flight (a "
                  "scattered warp load takes up to 32); virtualization requests use what is "
                  "free, the warps' own loads wait for entries",
           .paper_ref = "HWWL §III-D (size: tbdse assumption)", .min_value = 1,
           .max_value = 1e6});
    t.add(&HwwlParams::virt_load_limit,
          {.name = "virt_load_limit", .unit = "loads",
           .doc = "on-demand virtualization loads in flight per core at most; a pull to an "
                  "empty bank that cannot start its refill returns WAIT (interval refills are "
                  "bounded by free load-store queue entries only)",
           .paper_ref = "HWWL §III-D (\"up to a limit\"; value: tbdse assumption)",
           .min_value = 1, .max_value = 1e6,
           .read_when = {{"worklist", {"banks"}}, {"bank_entries", {"unbounded"}, false}, {"refill", {"on_demand"}}}});
    t.add(&HwwlParams::wait_spin,
          {.name = "wait_spin", .unit = "instructions",
           .doc = "instructions a warp whose threads all pulled WAIT spends before pulling "
                  "again (useless dynamic work)",
           .paper_ref = "HWWL §III-C, §IV-C (tbdse assumption)", .min_value = 1,
           .max_value = 1e6});
    t.add(&HwwlParams::relaunch_cycles,
          {.name = "relaunch_cycles", .unit = "cycles",
           .doc = "kernel relaunch that swaps the partitions; auto = the GPU's host_launch_us",
           .paper_ref = "HWWL §III-A", .auto_ok = true, .min_value = 0, .max_value = 1e12});
    t.add(&HwwlParams::sample_every,
          {.name = "sample_every", .unit = "cycles",
           .doc = "cycles between samples of active threads and bank occupancy when recorded",
           .paper_ref = "HWWL Fig. 8", .min_value = 1, .max_value = 1e12});
    t.add(&HwwlParams::check_results,
          {.name = "check_results",
           .doc = "compare final node values (BFS/SSSP distances) with a reference solution",
           .paper_ref = "tbdse"});
    return t;
  }();
  return table;
}

void check_redistribution(const HwwlParams& p) {
  if (p.transfers_per_bank != kAuto && p.transfers_per_bank > p.interval)
    throw ConfigError("hwwl parameter 'transfers_per_bank' must be 'auto' or between 1 and "
                      "interval (" + std::to_string(p.interval) +
                      "): a single-port bank gives or takes at most one id per cycle; got " +
                      std::to_string(p.transfers_per_bank));
}

namespace {

// The software worklists' table: topology-driven kernels check each node
// (check_instructions) and never pull or push; data-driven ones pull, push and
// may donate work, and check nothing (issue 29: a scheme lists only the
// parameters it reads).
template <class P>
ParamTable<P> software_table(bool data) {
    ParamTable<P> t;
    t.add(&SoftwareParams::relaunch_cycles,
          {.name = "relaunch_cycles", .unit = "cycles",
           .doc = "each super-step's kernel launch; auto = the GPU's host_launch_us",
           .paper_ref = "HWWL §II-A, Fig. 1-2", .auto_ok = true, .min_value = 0,
           .max_value = 1e12});
    if (data) t.add(&SoftwareParams::pull_instructions,
          {.name = "pull_instructions", .unit = "instructions",
           .doc = "data: per id read from the pull worklist (index step, test against the "
                  "list's length, slot address, the load of the id)",
           .paper_ref = "HWWL Fig. 2; LonestarGPU Worklist2::pop_id (docs/models/hwwl.md)",
           .min_value = 0, .max_value = 1e6});
    if (!data) t.add(&SoftwareParams::check_instructions,
          {.name = "check_instructions", .unit = "instructions",
           .doc = "topology: checking whether a thread's node is active (plus one load)",
           .paper_ref = "HWWL Fig. 1a (tbdse assumption)", .min_value = 0, .max_value = 1e6});
    if (data) t.add(&SoftwareParams::push_instructions,
          {.name = "push_instructions", .unit = "instructions",
           .doc = "data: per thread of a warp's atomic-reduced push (warp scan of push "
                  "counts, leader test, broadcast of the tail, offset), run by every thread "
                  "each iteration when the operator can push; then one atomic per warp",
           .paper_ref = "HWWL §II-C; LonestarGPU Worklist::setup_push_warp (docs/models/hwwl.md)",
           .min_value = 0, .max_value = 1e6});
    if (data) t.add(&SoftwareParams::store_instructions,
          {.name = "store_instructions", .unit = "instructions",
           .doc = "data: per pushed id (slot index, address, store)",
           .paper_ref = "LonestarGPU Worklist::do_push (docs/models/hwwl.md)", .min_value = 0,
           .max_value = 1e6});
    t.add(&SoftwareParams::lsu_queue,
          {.name = "lsu_queue", .unit = "requests",
           .doc = "load-store queue entries per core, one per line request in flight (as for "
                  "hwwl)",
           .paper_ref = "HWWL §III-D (size: tbdse assumption)", .min_value = 1,
           .max_value = 1e6});
    t.add(&SoftwareParams::block_threads,
          {.name = "block_threads", .unit = "threads",
           .doc = "threads per thread block of each super-step's kernel; a core runs whole "
                  "blocks (at most tb_slots, threads_per_sm), and a block's place frees when "
                  "its last warp ends",
           .paper_ref = "HWWL §II, Table II (LonestarGPU's kernels; size: tbdse assumption)",
           .min_value = 32, .max_value = 65536});
    if (data) t.add(&SoftwareParams::work_donating,
          {.name = "work_donating",
           .doc = "data: a block's threads share its items through a donation list in shared "
                  "memory (a thread done early takes more); false: a contiguous share each",
           .paper_ref = "HWWL §II-C, Table I (WDO)"});
    if (data) t.add(&SoftwareParams::donate_instructions,
          {.name = "donate_instructions", .unit = "instructions",
           .doc = "data with work_donating: instructions per item to estimate, donate or take it",
           .paper_ref = "HWWL §II-C (tbdse assumption)", .min_value = 0, .max_value = 1e6,
           .read_when = {{"work_donating", {"true"}}}});
    t.add(&SoftwareParams::sample_every,
          {.name = "sample_every", .unit = "cycles",
           .doc = "cycles between samples of active threads when recorded",
           .paper_ref = "HWWL Fig. 8", .min_value = 1, .max_value = 1e12});
    t.add(&SoftwareParams::check_results,
          {.name = "check_results",
           .doc = "compare final node values (BFS/SSSP distances) with a reference solution",
           .paper_ref = "tbdse"});
    return t;
}

}  // namespace

const ParamTable<TopologyParams>& TopologyParams::params() {
  static const ParamTable<TopologyParams> table = software_table<TopologyParams>(false);
  return table;
}

const ParamTable<DataParams>& DataParams::params() {
  static const ParamTable<DataParams> table = software_table<DataParams>(true);
  return table;
}

}  // namespace tbdse::hwwl
