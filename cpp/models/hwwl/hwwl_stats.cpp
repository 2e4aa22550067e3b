// HwwlMachine, what a run reports: its statistics (in stat_info's order),
// the sampled activity, and the hardware's storage and area (§V-B).
#include <algorithm>
#include <bit>
#include <limits>

#include "models/hwwl/hwwl_machine.hpp"

namespace tbdse::hwwl {

const std::vector<StatInfo>& HwwlMachine::stat_info() {
  static const std::vector<StatInfo> list = {
      {"pulls", "pulls", "thread pulls from the worklist banks"},
      {"wait_pulls", "pulls", "pulls returning WAIT: the bank was empty, work existed elsewhere"},
      {"done_pulls", "pulls", "pulls returning DONE"},
      {"wait_instructions", "instructions", "thread instructions spent spinning on WAIT"},
      {"transfers", "ids", "ids moved between banks of a core by redistribution"},
      {"inter_core_transfers", "ids", "ids moved between cores over the redistribution network"},
      {"skipped_transfers", "ids",
       "planned moves dropped (skipped_port_busy + skipped_nothing_to_move)"},
      {"virt_loads", "requests", "virtualization loads refilling banks from the overflow buffer"},
      {"virt_stores", "requests", "virtualization stores spilling ids to the overflow buffer"},
      {"spilled_ids", "ids", "ids spilled to the overflow buffer"},
      {"peak_overflow", "ids", "most ids in one core's overflow buffer at once"},
      {"mean_bank_occupancy", "ids", "ids per bank (both partitions), averaged over intervals"},
      {"hwwl_bytes", "bytes", "worklist storage per core: lanes x bank_entries x 24 bit"},
      {"pushed_ids", "ids", "ids pushed by threads (items = initial ids + pushed ids)"},
      {"peak_bank_ids", "ids", "most ids one bank partition held (reserved entries included)"},
      {"sort_network_mm2", "mm2",
       "area of the work redistribution units' sorting networks, 162 um^2 per core at 40 nm "
       "(§V-B, lsorting); 0 without one (none, threshold), NaN where the paper sizes none "
       "(gsorting, magic)"},
      // Named as the parameter: the result table shows it as relaunch_cycles_resolved
      // beside the parameter column, which keeps 'auto' (python/tbdse/results.py).
      {"relaunch_cycles", "cycles", "kernel relaunch cost the run used ('auto' resolved)"},
      // Redistribution bandwidth (hwwl_redistribute.cpp), 'auto' resolved likewise.
      {"network_latency", "cycles", "cycles an id took over the inter-core network"},
      {"transfers_per_bank", "ids", "ids a bank could give or take per interval"},
      {"transfers_per_core", "ids", "ids a core's redistribution unit could send per interval"},
      {"redistributions", "plans", "redistributions planned: interval ticks, or on-demand triggers"},
      {"skipped_port_busy", "ids",
       "planned moves dropped because no bank port (or network injection) cycle was free before "
       "the interval ended"},
      {"skipped_nothing_to_move", "ids",
       "planned moves dropped because the donor bank emptied or the receiver filled first"},
      // The load-store queues (audit H4b): who holds their entries, and how long
      // memory instructions wait for one (avg_load_latency starts after that wait).
      {"lsu_occupancy", "entries", "load-store queue entries held per core, averaged over the run"},
      {"lsu_wait", "cycles",
       "mean cycles a warp's line request waited for a free load-store queue entry"},
      {"lsu_refill_share", "fraction",
       "share of load-store queue entry-cycles held by virtualization loads (refills)"},
      {"lsu_spill_share", "fraction",
       "share of load-store queue entry-cycles held by virtualization stores (spills)"},
      // Where the pushes landed: a bank's threads push into it, so this is
      // how unevenly the operator's activations arose over the banks.
      {"bank_push_imbalance", "ratio",
       "most ids pushed into one bank by its threads over the mean per bank (1 = even); NaN "
       "for an ideal worklist or when nothing was pushed"},
  };
  return list;
}

double HwwlMachine::storage_bytes(const HwwlParams& params, const GpuConfig& gpu) {
  if (params.bank_entries == kUnbounded || params.worklist != "banks")  // ideal: unbounded
    return std::numeric_limits<double>::infinity();
  const Shape shape = Shape::of(gpu);
  // §III-B: a 24-bit work id per entry; §V-B: 16 lanes x 32 entries x 24 bit
  // = 1536 B per core ("approximately 1.6 KB").  The WRU's greedy bits and
  // sort network, the ICRN (one id in flight per port) and the HVU's address
  // registers are logic the paper does not size in bytes; the overflow buffer
  // is ordinary memory.
  return static_cast<double>(shape.cores) * static_cast<double>(shape.lanes) *
         static_cast<double>(params.bank_entries) * 3.0;
}

double HwwlMachine::sort_network_mm2(const HwwlParams& params, std::int32_t cores) {
  constexpr double kSortNetworkMm2PerCore = 162e-6;  // §V-B: 162 um^2, TSMC 40 nm
  if (params.worklist != "banks") return std::numeric_limits<double>::quiet_NaN();  // an ideal
  switch (redistribution_from(params.redistribution)) {
    case Redistribution::NONE:
    case Redistribution::THRESHOLD: return 0.0;
    case Redistribution::LSORTING:
      return kSortNetworkMm2PerCore * static_cast<double>(cores);
    case Redistribution::GSORTING:
    case Redistribution::MAGIC: break;
  }
  return std::numeric_limits<double>::quiet_NaN();
}

std::vector<double> HwwlMachine::stats() const {
  const double bytes =
      finite_ ? static_cast<double>(shape_.lanes * p_.bank_entries * 3)
              : std::numeric_limits<double>::infinity();
  return {static_cast<double>(pulls_),
          static_cast<double>(wait_pulls_),
          static_cast<double>(done_pulls_),
          static_cast<double>(wait_instructions_),
          static_cast<double>(transfers_),
          static_cast<double>(inter_core_),
          static_cast<double>(skipped_port_ + skipped_empty_),
          static_cast<double>(virt_loads_),
          static_cast<double>(virt_stores_),
          static_cast<double>(spilled_),
          static_cast<double>(peak_overflow_),
          occupancy_samples_ ? occupancy_sum_ / static_cast<double>(occupancy_samples_) : 0.0,
          bytes,
          static_cast<double>(pushed_),
          static_cast<double>(peak_bank_),
          sort_network_mm2(p_, shape_.cores),
          static_cast<double>(relaunch_),
          static_cast<double>(network_latency_),
          static_cast<double>(per_bank_),
          static_cast<double>(per_core_),
          static_cast<double>(plans_),
          static_cast<double>(skipped_port_),
          static_cast<double>(skipped_empty_),
          lsu_stat(0),
          lsu_stat(1),
          lsu_stat(2),
          lsu_stat(3),
          bank_push_imbalance()};
}

double HwwlMachine::bank_push_imbalance() const {
  if (ideal_ || pushed_ == 0) return std::numeric_limits<double>::quiet_NaN();
  std::int64_t most = 0, total = 0;
  for (const std::int64_t n : bank_pushes_) most = std::max(most, n), total += n;
  return static_cast<double>(most) * static_cast<double>(bank_pushes_.size()) /
         static_cast<double>(total);
}

double HwwlMachine::lsu_stat(int which) const {
  const LsuUse& op = lsu_use(Requester::OPERATOR);
  const LsuUse& refill = lsu_use(Requester::REFILL);
  const LsuUse& spill = lsu_use(Requester::SPILL);
  const auto held = static_cast<double>(op.entry_cycles + refill.entry_cycles + spill.entry_cycles);
  switch (which) {
    case 0:
      return end_ > 0 ? held / (static_cast<double>(shape_.cores) * static_cast<double>(end_)) : 0.0;
    case 1:
      return op.requests ? static_cast<double>(op.wait_cycles) / static_cast<double>(op.requests) : 0.0;
    case 2: return held > 0 ? static_cast<double>(refill.entry_cycles) / held : 0.0;
    default: return held > 0 ? static_cast<double>(spill.entry_cycles) / held : 0.0;
  }
}

void HwwlMachine::sample_more(std::vector<Series>& trace, bool first) {
  if (first) {
    trace.push_back({"waiting_threads", {}});
    trace.push_back({"bank_occupancy", {}});
    trace.push_back({"overflow_ids", {}});
  }
  std::int64_t live = 0, in_banks = 0;
  for (const auto& w : warps_) live += std::popcount(w.live) - std::popcount(w.holding);
  for (const auto& b : banks_) in_banks += b.part[0].size() + b.part[1].size();
  const double threads = shape_.threads();
  trace[2].values.push_back(static_cast<double>(live) / threads);
  trace[3].values.push_back(static_cast<double>(in_banks) / static_cast<double>(banks_.size()));
  trace[4].values.push_back(static_cast<double>(overflow_ids_[0] + overflow_ids_[1]));
}

}  // namespace tbdse::hwwl
