// Parameter tables and statistics of the multi-kernel schemes.
#include "models/blockmaestro/blockmaestro.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tbdse {

const ParamTable<BaselineParams>& BaselineParams::params() {
  static const ParamTable<BaselineParams> table;
  return table;
}

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

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

}  // namespace

const ParamTable<PrelaunchParams>& PrelaunchParams::params() {
  static const ParamTable<PrelaunchParams> table = [] {
    ParamTable<PrelaunchParams> t;
    t.add(&PrelaunchParams::prelaunch_depth, depth_info());
    t.add(&PrelaunchParams::reorder_queue, reorder_info());
    t.add(&PrelaunchParams::independent_start,
          {.name = "independent_start",
           .doc = "a kernel independent of the previous one starts once resident; false: it waits "
                  "for the whole previous kernel like every other (Fig. 9's pre-launch bar)",
           .paper_ref = "BlockMaestro §III-C; §IV-B Fig. 9"});
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
           .choices = {"bypass", "wait"},
           // It acts only when an allocation fails (blockmaestro.cpp), which
           // takes a bounded buffer.
           .read_when = {any_of({{"dependency_list_entries", {"unbounded"}, false},
                                 {"parent_counter_entries", {"unbounded"}, false}})}});
    return t;
  }();
  return table;
}

std::vector<StatInfo> BlockMaestroScheme::stats() {
  return {
      {"launches", "kernels", "kernel launches"},
      {"launch_overhead_cycles", "cycles",
       "cycles during which a launch was in progress (API call or device-side latency); "
       "pipelined launches count once"},
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
      // Named as the parameters: the result table shows them as <param>_resolved
      // beside the parameter column, which keeps 'auto' (python/tbdse/results.py).
      {"dependency_list_entries", "entries",
       "Dependency List Buffer entries the run had ('auto' resolved; blockmaestro)"},
      {"parent_counter_entries", "entries",
       "Parent Counter Buffer entries the run had ('auto' resolved; blockmaestro)"},
  };
}

double BlockMaestroScheme::storage_bytes() const {
  if (!tb_level()) return 0.0;  // baseline, ideal_baseline, prelaunch: no added buffers
  if (buffers_.list_entries() == kUnbounded || buffers_.counter_entries() == kUnbounded)
    return std::numeric_limits<double>::infinity();
  return blockmaestro::DependencyBuffers::storage_bytes(buffers_.list_entries(), children_per_entry_,
                                                        buffers_.counter_entries(), counter_bits_,
                                                        kernel_id_bits_);
}

void BlockMaestroScheme::write_stats(const Engine& engine, std::span<double> out) const {
  std::vector<double> s = stall_;
  const auto quantile = [&](double q) {
    if (s.empty()) return 0.0;
    const auto k = static_cast<std::size_t>(std::llround(q * static_cast<double>(s.size() - 1)));
    std::nth_element(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(k), s.end());
    return s[k];
  };
  double mean = 0;
  for (const double v : s) mean += v;
  mean = s.empty() ? 0.0 : mean / static_cast<double>(s.size());
  double plain = 0, enc = 0, barriers = 0, overflows = 0, skips = 0;
  for (const auto& L : plan_.launches) {
    plain += static_cast<double>(L.pair.plain_bytes);
    enc += static_cast<double>(L.pair.encoded_bytes);
    barriers += L.barrier ? 1 : 0;
    overflows += L.overflow ? 1 : 0;
    skips += L.waits_for >= 0 ? 1 : 0;
  }
  const bool bm = tb_level();
  const std::int64_t own = workload_.mem_requests();
  out[0] = plan_.size();
  out[1] = static_cast<double>(host_.launch_cycles_total());
  out[2] = static_cast<double>(host_.host_blocked_cycles());
  out[3] = static_cast<double>(host_.copy_cycles());
  out[4] = static_cast<double>(max_resident_);
  out[5] = mean;
  out[6] = quantile(0.25);
  out[7] = quantile(0.5);
  out[8] = quantile(0.75);
  out[9] = bm ? static_cast<double>(requests_) : kNaN;
  out[10] = bm && own > 0 ? static_cast<double>(requests_) / static_cast<double>(own) : kNaN;
  out[11] = bm ? storage_bytes() : kNaN;
  out[12] = bm ? static_cast<double>(buffers_.list_peak()) : kNaN;
  out[13] = bm ? static_cast<double>(buffers_.counter_peak()) : kNaN;
  out[14] = bm ? static_cast<double>(entry_stalls_) : kNaN;
  out[15] = plain;
  out[16] = enc;
  out[17] = bm ? barriers : kNaN;
  out[18] = bm ? overflows : kNaN;
  out[19] = skips;
  out[20] = bm ? static_cast<double>(bypasses_) : kNaN;
  out[21] = bm ? static_cast<double>(buffers_.list_entries()) : kNaN;
  out[22] = bm ? static_cast<double>(buffers_.counter_entries()) : kNaN;
  (void)engine;
}

}  // namespace tbdse
