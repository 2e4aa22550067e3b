#include "models/hwwl/warp_machine.hpp"

#include <algorithm>
#include <cmath>
#include <functional>

#include "core/engine.hpp"
#include "core/errors.hpp"
#include "core/run_control.hpp"

namespace tbdse::hwwl {

namespace {

double mean(const std::vector<double>& v) {
  double sum = 0;
  for (const double x : v) sum += x;
  return v.empty() ? 0.0 : sum / static_cast<double>(v.size());
}

// The hierarchy as the TB engine books it (engine.cpp): an instruction's
// line requests past its core's free MSHRs start later than it issues, and
// calls from other cores at cycles between come after them, so the shared
// L2 bank ports and DRAM channels fill gaps rather than queue behind them
// (hwwl_audit.md, 2026-11-29 after the booking fix); DRAM writes wait in
// GPGPU-Sim's write queue.
MemoryConfig worklist_memory(const GpuConfig& gpu) {
  MemoryConfig mc = memory_config(gpu);
  mc.booking = Booking::gap_filling;
  mc.dram_write_queue = kDramWriteQueueSectors;
  return mc;
}

}  // namespace

Shape Shape::of(const GpuConfig& gpu) {
  Shape s;
  s.cores = static_cast<std::int32_t>(gpu.sms);
  s.lanes = static_cast<std::int32_t>(gpu.lanes);
  s.warps_per_core = static_cast<std::int32_t>(gpu.threads_per_sm / kWarp);
  s.issue_width = static_cast<std::int32_t>(gpu.issue_width);
  s.amo_cycles = gpu.amo_cycles;
  if (kWarp % s.lanes != 0 && s.lanes % kWarp != 0)
    throw ConfigError("GPU '" + gpu.name + "': lanes = " + std::to_string(s.lanes) +
                      " must divide the warp size 32 or be a multiple of it");
  if (s.warps_per_core < 1)
    throw ConfigError("GPU '" + gpu.name + "': threads_per_sm = " +
                      std::to_string(gpu.threads_per_sm) + " holds no warp of 32 threads");
  if (s.cores > 4096 || s.warps_per_core > 4096)
    throw ConfigError("GPU '" + gpu.name + "': the worklist machine models at most 4096 cores " +
                      "of at most 4096 warps");
  return s;
}

void WarpMachine::apply(ComputePhase& c, std::int32_t k, std::int32_t id) {
  const ItemCost cost = op_.apply(id, activated_);
  c.add(k, id, cost.instructions, layout_.rounds(id));
  useful_instructions_ += cost.instructions;
  dynamic_instructions_ += cost.instructions;
}

void WarpMachine::compute_step(std::int32_t core, ComputePhase& c, bool& done, std::int32_t kind,
                               std::int64_t payload) {
  if (c.round >= c.total) {  // the instructions after the last load
    done = true;
    const Cycle at = c.instructions_left > 0 ? issue_[core].reserve(now_, c.instructions_left) : now_;
    post(at + c.instructions_left, WARP, kind, payload);
    c.instructions_left = 0;
    return;
  }
  done = false;
  const std::int32_t left = c.total - c.round;
  const std::int64_t chunk = std::max<std::int64_t>(1, (c.instructions_left + left - 1) / left);
  const Cycle at = issue_[core].reserve(now_, chunk);
  c.instructions_left = std::max<std::int64_t>(0, c.instructions_left - chunk);
  // The round's loads: one warp instruction per independent load (a node's
  // row offset and value; an arc's target and weight), waited for together.
  std::array<std::array<std::uint64_t, kWarp>, 2> address{};
  std::array<std::uint32_t, 2> active{};
  std::array<std::int32_t, 2> bytes{4, 4};
  for (std::int32_t k = 0; k < kWarp; ++k) {
    if (c.item[k] < 0 || c.rounds[k] <= c.round) continue;
    Access loads[2];
    const std::int32_t n = layout_.round_loads(c.item[k], c.round, loads);
    for (std::int32_t i = 0; i < n; ++i) {
      address[i][k] = loads[i].address;
      active[i] |= 1u << k;
      bytes[i] = loads[i].bytes;
    }
  }
  ++c.round;
  const Cycle issued = at + chunk;
  const std::int32_t group = open_group(WARP, kind, payload);
  for (std::size_t i = 0; i < 2; ++i)
    if (active[i]) warp_access(group, core, issued, address[i].data(), active[i], bytes[i], false);
  close_group(group, issued);
}

const std::vector<StatInfo>& worklist_metrics() {
  static const std::vector<StatInfo> list = {
      {"items", "items", "work items processed (pulls returning a work id, or node visits)"},
      {"useful_instructions", "instructions",
       "thread instructions of the operator itself (the work of the items)"},
      {"dynamic_instructions", "instructions",
       "every thread instruction: operator, worklist accesses, checks and WAIT spins (the "
       "paper's dynamic-instruction count)"},
      {"supersteps", "launches", "kernel launches (super-steps, or partition swaps)"},
      {"mean_active_threads", "fraction",
       "time-average share of the GPU's threads holding a work item (0..1)"},
      {"mem_requests", "requests",
       "128-byte line requests of every warp memory instruction (loads, stores, spills, "
       "refills)"},
      {"requests_per_load", "requests",
       "line requests per warp load: 1 when coalesced, up to 32 when scattered (the paper's "
       "Reqs/Load, Table II)"},
      {"l1_miss_rate", "fraction",
       "share of L1 sector reads that missed (the paper's L1C Miss, Table II)"},
      {"l2_hit_rate", "fraction", "share of L2 sector reads that hit"},
      {"dram_bytes", "bytes", "bytes read from and written to DRAM"},
      {"avg_load_latency", "cycles",
       "mean cycles from a memory instruction's issue to its data (queueing included)"},
      {"dram_queue", "sectors",
       "DRAM backlog (32-byte transfers queued or in service, all channels), sampled every "
       "1000 cycles and averaged"},
      {"events", "events", "simulation events processed"},
  };
  return list;
}

WarpMachine::WarpMachine(const WorklistProblem& problem, const GpuConfig& gpu,
                         const ResolvedRun& run, bool record, std::int64_t sample_every,
                         std::int64_t lsu_entries)
    : problem_(problem),
      shape_(Shape::of(gpu)),
      issue_(static_cast<std::size_t>(shape_.cores), IssueSlots(shape_.issue_width)),
      memory_(worklist_memory(gpu)),
      lsu_(static_cast<std::size_t>(shape_.cores), LsuQueue(lsu_entries)),
      layout_(problem),
      op_(problem, run.model_key),
      lsu_fifo_(static_cast<std::size_t>(shape_.cores)),
      lsu_retry_(static_cast<std::size_t>(shape_.cores), kNoRetry),
      record_(record),
      sample_every_(sample_every) {}

void WarpMachine::post(Cycle t, Priority priority, std::int32_t kind, std::int64_t payload) {
  if (t >= kMaxTime)
    throw SimulationError("the run passes cycle 2^62, the longest the simulator can represent");
  if (kind != kSampleEvent) ++pending_;
  queue_.push(t, priority, kind, payload);
}

void WarpMachine::hold(std::int32_t delta) {
  holding_area_ += static_cast<double>(holding_) * static_cast<double>(now_ - holding_since_);
  holding_since_ = now_;
  holding_ += delta;
}

void WarpMachine::sample() {
  const bool first = trace_.empty();
  if (first) trace_ = {{"cycle", {}}, {"active_threads", {}}};
  trace_[0].values.push_back(static_cast<double>(now_));
  trace_[1].values.push_back(static_cast<double>(holding_) / shape_.threads());
  sample_more(trace_, first);
}

RunOutput WarpMachine::run(const char* scheme, bool check_results, bool values) {
  // A run that handles this many events without processing an item is stuck.
  const std::int64_t limit = std::max<std::int64_t>(
      20'000'000, 200LL * static_cast<std::int64_t>(problem_.weight()));
  start();
  if (record_) post(0, SAMPLE, kSampleEvent);
  while (pending_ > 0 && !finished()) {
    poll_run();  // Ctrl-C and the run's time limit
    const Event e = queue_.pop();
    now_ = e.time;
    ++events_;
    if (e.kind == kSampleEvent) {
      sample();
      post(now_ + sample_every_, SAMPLE, kSampleEvent);
      continue;
    }
    --pending_;
    if (e.kind == kMemReady || e.kind == kLsuRetry) handle_memory(e);
    else handle(e);
    if (++since_progress_ > limit)
      throw DeadlockError(std::string("scheme '") + scheme + "': the worklist machine handled " +
                              std::to_string(limit) + " events at cycle " +
                              std::to_string(now_) + " without processing a work item",
                          {});
  }
  if (!finished())
    throw DeadlockError(std::string("scheme '") + scheme + "': nothing left to happen at cycle " +
                            std::to_string(now_) + " with work unfinished",
                        {});
  now_ = end_;
  hold(0);
  if (record_) sample();
  if (check_results) op_.check(scheme);

  RunOutput out;
  out.makespan = end_;
  const double threads = shape_.threads();
  out.metrics = {
      static_cast<double>(op_.items()),
      static_cast<double>(useful_instructions_),
      static_cast<double>(dynamic_instructions_),
      static_cast<double>(supersteps_),
      end_ > 0 ? holding_area_ / (threads * static_cast<double>(end_)) : 0.0,
      static_cast<double>(lines_),
      loads_ ? static_cast<double>(load_lines_) / static_cast<double>(loads_) : 0.0,
      memory_.stats().l1_reads ? 1.0 - memory_.stats().l1_hit_rate() : 0.0,
      memory_.stats().l2_hit_rate(),
      static_cast<double>(memory_.stats().dram_bytes()),
      memory_.stats().average_latency(),
      mean(memory_.dram_queue_samples()),
      static_cast<double>(events_),
  };
  const auto own = stats();
  out.metrics.insert(out.metrics.end(), own.begin(), own.end());
  if (record_) out.trace = std::move(trace_);
  if (values && problem_.op().kind != OperatorKind::SYNTHETIC)
    out.values.push_back({"distance", op_.values()});
  return out;
}

}  // namespace tbdse::hwwl
