#include "models/hwwl/warp_machine.hpp"

#include <algorithm>
#include <cmath>
#include <functional>

#include "core/engine.hpp"
#include "core/errors.hpp"
#include "core/run_control.hpp"

namespace tbdse::hwwl {

Shape Shape::of(const GpuConfig& gpu) {
  Shape s;
  s.cores = static_cast<std::int32_t>(gpu.sms);
  s.lanes = static_cast<std::int32_t>(gpu.lanes);
  s.warps_per_core = static_cast<std::int32_t>(gpu.threads_per_sm / kWarp);
  s.issue_width = static_cast<std::int32_t>(gpu.issue_width);
  s.mem_latency = gpu.mem_latency;
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

MemorySystem::MemorySystem(const GpuConfig& gpu, Cycle latency)
    : per_cycle_(gpu.mem_bandwidth > 0 ? gpu.mem_bandwidth * 1e3 / (128.0 * gpu.clock_mhz) : 0.0),
      latency_(latency) {}

Cycle MemorySystem::access(Cycle t, std::int32_t requests) {
  requests_ += requests;
  ++accesses_;
  if (per_cycle_ <= 0) return t + latency_;
  const double start = std::max(static_cast<double>(t), free_);
  free_ = start + requests / per_cycle_;
  return static_cast<Cycle>(std::ceil(free_)) + latency_;
}

void WarpMachine::ready(ComputePhase& c) {
  std::sort(c.rounds.begin(), c.rounds.begin() + c.threads, std::greater<>());
  c.looping = c.threads;
}

Cycle WarpMachine::compute_step(std::int32_t core, ComputePhase& c, bool& done) {
  const std::int32_t total = c.threads ? c.rounds[0] : 0;
  if (c.round >= total) {  // the instructions after the last load
    done = true;
    const Cycle at = c.instructions_left > 0 ? issue_[core].reserve(now_, c.instructions_left) : now_;
    const Cycle end = at + c.instructions_left;
    c.instructions_left = 0;
    return end;
  }
  done = false;
  const std::int32_t left = total - c.round;
  const std::int64_t chunk = std::max<std::int64_t>(1, (c.instructions_left + left - 1) / left);
  const Cycle at = issue_[core].reserve(now_, chunk);
  c.instructions_left = std::max<std::int64_t>(0, c.instructions_left - chunk);
  while (c.looping > 0 && c.rounds[c.looping - 1] <= c.round) --c.looping;
  const std::int32_t requests = c.round == 0 && c.coalesced_first ? 1 : c.looping;
  ++c.round;
  return memory_.access(at + chunk, requests);
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
      {"mem_requests", "requests", "128-byte memory requests (loads, stores, spills, refills)"},
      {"requests_per_load", "requests",
       "memory requests per warp memory access: 1 when coalesced, up to 32 when scattered "
       "(the paper's Reqs/Load, Table II)"},
      {"events", "events", "simulation events processed"},
  };
  return list;
}

WarpMachine::WarpMachine(const WorklistProblem& problem, const GpuConfig& gpu,
                         const ResolvedRun& run, bool record, std::int64_t sample_every)
    : problem_(problem),
      shape_(Shape::of(gpu)),
      issue_(static_cast<std::size_t>(shape_.cores), IssueSlots(shape_.issue_width)),
      memory_(gpu, shape_.mem_latency),
      op_(problem, run.model_key),
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
    handle(e);
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
      static_cast<double>(memory_.requests()),
      memory_.accesses()
          ? static_cast<double>(memory_.requests()) / static_cast<double>(memory_.accesses())
          : 0.0,
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
