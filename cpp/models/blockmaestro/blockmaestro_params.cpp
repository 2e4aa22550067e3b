// Parameter tables and statistics of the multi-kernel schemes.
#include "models/blockmaestro/blockmaestro.hpp"

namespace tbdse {

const ParamTable<BaselineParams>& BaselineParams::params() {
  static const ParamTable<BaselineParams> table;
  return table;
}

namespace {

ParamInfo depth_info() {
  return {.name = "prelaunch_depth", .unit = "kernels",
          .doc = "kernels launched ahead of the oldest incomplete one (depth + 1 resident)",
          .paper_ref = "BlockMaestro §III-C, §IV-B Fig. 9 (1, 2, 3)", .min_value = 0,
          .max_value = 1e6};
}

ParamInfo reorder_info() {
  return {.name = "reorder_queue",
          .doc = "move launches ahead of calls they have no data dependency with and make "
                 "calls non-blocking except copies to the host",
          .paper_ref = "BlockMaestro §III-C, Fig. 5"};
}

ParamInfo overlap_info() {
  return {.name = "overlap_launches",
          .doc = "launches of pre-launched kernels overlap one another (in order) instead of "
                 "queueing for one launch engine",
          .paper_ref = "tbdse interpretation of BlockMaestro §III-C (Fig. 9's gains with 2-3 "
                       "pre-launched kernels)"};
}

}  // namespace

const ParamTable<PrelaunchParams>& PrelaunchParams::params() {
  static const ParamTable<PrelaunchParams> table = [] {
    ParamTable<PrelaunchParams> t;
    t.add(&PrelaunchParams::prelaunch_depth, depth_info());
    t.add(&PrelaunchParams::reorder_queue, reorder_info());
    t.add(&PrelaunchParams::overlap_launches, overlap_info());
    return t;
  }();
  return table;
}

const ParamTable<BlockMaestroParams>& BlockMaestroParams::params() {
  static const ParamTable<BlockMaestroParams> table = [] {
    ParamTable<BlockMaestroParams> t;
    t.add(&BlockMaestroParams::prelaunch_depth, depth_info());
    t.add(&BlockMaestroParams::priority,
          {.name = "priority",
           .doc = "'producer': a kernel's TBs only after every TB of the kernels before it was "
                  "scheduled; 'consumer': the newest kernel's ready TBs first",
           .paper_ref = "BlockMaestro §III-D1 Scheduling policies", .choices = {"producer", "consumer"}});
    t.add(&BlockMaestroParams::reorder_queue, reorder_info());
    t.add(&BlockMaestroParams::overlap_launches, overlap_info());
    t.add(&BlockMaestroParams::dependency_list_entries,
          {.name = "dependency_list_entries", .unit = "entries",
           .doc = "Dependency List Buffer entries; auto = sms x tb_slots, or what the widest TB needs", .paper_ref = "BlockMaestro §IV-C (896)",
           .unbounded_ok = true, .auto_ok = true, .min_value = 1, .max_value = 1e12});
    t.add(&BlockMaestroParams::children_per_entry,
          {.name = "children_per_entry", .unit = "TBs", .doc = "child TB ids per dependency-list entry",
           .paper_ref = "BlockMaestro §IV-C (4)", .min_value = 1, .max_value = 1e6});
    t.add(&BlockMaestroParams::parent_counter_entries,
          {.name = "parent_counter_entries", .unit = "entries",
           .doc = "Parent Counter Buffer entries; auto = sms x tb_slots, or the most child TBs of one TB", .paper_ref = "BlockMaestro §IV-C (896)",
           .unbounded_ok = true, .auto_ok = true, .min_value = 1, .max_value = 1e12});
    t.add(&BlockMaestroParams::parent_counter_bits,
          {.name = "parent_counter_bits", .unit = "bits",
           .doc = "bits of a parent counter; a pair with a child of more parents is tracked as "
                  "fully connected",
           .paper_ref = "BlockMaestro §IV-C (6)", .min_value = 1, .max_value = 62});
    t.add(&BlockMaestroParams::when_full,
          {.name = "when_full",
           .doc = "a TB whose buffer entries cannot be allocated is scheduled unbuffered in its turn "
                  "('bypass'), or waits while any TB runs ('wait')",
           .paper_ref = "tbdse interpretation (the paper sizes the buffers so they do not fill)",
           .choices = {"bypass", "wait"}});
    return t;
  }();
  return table;
}

std::vector<StatInfo> BlockMaestroScheme::stats() {
  return {
      {"launches", "kernels", "kernel launches"},
      {"launch_overhead_cycles", "cycles", "cycles spent launching kernels (overlapped or not)"},
      {"host_blocked_cycles", "cycles", "cycles the host waited on blocking calls"},
      {"copy_cycles", "cycles", "cycles of host<->device copies"},
      {"max_resident_kernels", "kernels", "most kernels launched and not completed at once"},
      {"dep_stall_mean", "x run time",
       "mean over TBs of (start - dependencies met) / run time (Fig. 11)"},
      {"dep_stall_q1", "x run time", "first quartile of the normalised dependency stall"},
      {"dep_stall_median", "x run time", "median of the normalised dependency stall"},
      {"dep_stall_q3", "x run time", "third quartile of the normalised dependency stall"},
      {"sched_mem_requests", "requests",
       "memory requests for dependency lists and parent counters (blockmaestro)"},
      {"mem_request_ratio", "fraction",
       "sched_mem_requests / the workload's own (kernel mem_requests); NaN if not stated (Fig. 13)"},
      {"buffer_bytes", "bytes", "Dependency List and Parent Counter Buffer storage (§IV-C)"},
      {"dl_peak", "entries", "most Dependency List Buffer entries in use at once"},
      {"pc_peak", "entries", "most Parent Counter Buffer entries in use at once"},
      {"entry_stalls", "TBs", "TBs that waited for buffer entries"},
      {"graph_plain_bytes", "bytes", "bipartite dependency graphs stored plain (Table III)"},
      {"graph_encoded_bytes", "bytes", "the same with Table I's encodings (Table III)"},
      {"barrier_pairs", "pairs", "kernel pairs tracked per kernel (fully connected, overflow)"},
      {"overflow_pairs", "pairs", "pairs tracked per kernel because a counter would overflow"},
      {"skip_waits", "launches", "launches that wait for a kernel further back than the previous"},
      {"entry_bypasses", "TBs",
       "TBs scheduled unbuffered because their buffer entries could not be allocated "
       "(when_full 'bypass'; under 'wait' only when nothing was running)"},
  };
}

}  // namespace tbdse
