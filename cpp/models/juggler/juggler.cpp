#include "models/juggler/juggler.hpp"

#include <algorithm>
#include <cmath>

#include "core/errors.hpp"
#include "core/hash.hpp"

namespace tbdse {

namespace {

// A worker TB must hold any task it runs: the largest footprint of the kernels.
// A worker TB: the largest task kernel's footprint plus the runtime's shared
// memory (Eq. 1 counts what fits of this).
TbFootprint worker_footprint(const Workload& w, std::int64_t runtime_smem_per_thread) {
  TbFootprint fp;
  for (const KernelInfo& k : w.kernels) {
    fp.threads = std::max(fp.threads, k.footprint.threads);
    fp.regs_per_thread = std::max(fp.regs_per_thread, k.footprint.regs_per_thread);
    fp.smem_bytes = std::max(fp.smem_bytes, k.footprint.smem_bytes);
  }
  fp.smem_bytes += fp.threads * runtime_smem_per_thread;
  return fp;
}

// The largest issue_interval of the kernels (0: none states one).  A
// spinning worker's warp runs cosine_sleep, a dependent chain (§5.2): it
// issues as the least parallel of the workload's kernels does.
double slowest_interval(const Workload& w) {
  double most = 0;
  for (const KernelInfo& k : w.kernels) most = std::max(most, k.issue_interval);
  return most;
}

// §6.1's host-side overhead, before the runtime kernel's launch: the
// inspection loop and CSR build (inspect_us per task), five device
// allocations (tasks[], the CSR, queues[], IQS[], queueEndIndex[]) and three
// copies (the task array, the CSR, the runtime context with the initial
// queues): 16 B per task, 4 B per edge, 4 B per initial queue entry.  The
// counts are tbdse's reading of Listings 5-6.
Cycle host_cycles(const GpuConfig& gpu, const TaskGraph& g, double inspect_us) {
  const double tasks = static_cast<double>(g.size());
  const double bytes = 20.0 * tasks + 4.0 * static_cast<double>(g.edge_count());
  return gpu.us_to_cycles(inspect_us * tasks + 5.0 * gpu.malloc_us + 3.0 * gpu.copy_latency_us +
                          bytes / (gpu.copy_gbps * 1e3));
}

}  // namespace

JugglerScheme::JugglerScheme(const JugglerParams& p, const Workload& workload, const GpuConfig& gpu)
    : workload_(workload),
      gpu_(gpu),
      policy_(p.policy == "grr" ? Policy::GRR : p.policy == "lf" ? Policy::LF : Policy::LRR),
      host_(host_cycles(gpu, *workload.graph, p.host_inspect_us_per_task)),
      // §6.1: reported times include the host's overhead; the kernel starts after it.
      launch_at_((p.host_inclusive ? host_ : 0) + gpu.us_to_cycles(gpu.host_launch_us)),
      host_inclusive_(p.host_inclusive),
      poll_(p.poll_cycles),
      sleep_(p.sleep_cycles),
      dequeue_(p.dequeue_cycles),
      resolve_(p.resolve_cycles),
      enqueue_(p.enqueue_cycles),
      atomic_(p.global_atomic_cycles == kAuto ? gpu.amo_cycles : p.global_atomic_cycles),
      contention_factor_(p.runtime_contention),
      locality_(p.locality_speedup),
      bandwidth_(gpu.mem_bandwidth * 1000.0 / gpu.clock_mhz),
      footprint_(worker_footprint(workload, p.runtime_smem_per_thread)),
      // auto: one warp of the worker spins (its first thread polls IQS and
      // runs cosine_sleep; the others wait at a barrier and issue nothing).
      spin_(p.spin_weight >= 0 ? p.spin_weight
                               : 32.0 / static_cast<double>(std::max<std::int64_t>(32, footprint_.threads))),
      spin_is_share_(p.spin_weight < 0 && slowest_interval(workload) > 0),
      batch_cap_(static_cast<std::size_t>(footprint_.threads)) {
  // With per-kernel throughput traits, the auto spin is that warp's share of
  // its SM's issue slots (docs/simulation.md "Per-kernel throughput").
  if (spin_is_share_) spin_ = issue_demand(gpu, 32, slowest_interval(workload));
  // With data footprints a child on its parent's SM already finds what the
  // parent left in its L1 and the L2 (docs/models/juggler.md): the fitted
  // shortcut would count that locality twice.
  if (locality_ > 0 && workload.has_data_ranges())
    throw ConfigError("scheme 'juggler': locality_speedup = " + std::to_string(locality_) +
                      " but the workload carries data footprints, whose reads already time "
                      "the locality of a child run after its parent; use locality_speedup 0, or "
                      "a workload without footprints (juggler_app(locality=False))");
  const TaskGraph& g = *workload.graph;
  const std::int64_t fit = gpu.sms * occupancy(gpu, footprint_);
  if (fit == 0)
    throw ConfigError("scheme 'juggler': no worker TB fits on an SM of GPU '" + gpu.name +
                      "': the largest task kernel's footprint (" +
                      std::to_string(footprint_.threads) + " threads) with the runtime's " +
                      "shared memory makes " + std::to_string(footprint_.smem_bytes) +
                      " bytes of shared memory per TB, limited by " +
                      occupancy_limiter(gpu, footprint_) + " (runtime_smem_per_thread sets the "
                      "runtime's share)");
  const std::int64_t n = p.workers == kAuto ? fit : p.workers;
  if (n > fit)
    throw ConfigError("scheme 'juggler': workers = " + std::to_string(n) + " but at most " +
                      std::to_string(fit) + " worker TBs fit on GPU '" + gpu.name + "' at once (" +
                      std::to_string(gpu.sms) + " SMs x " +
                      std::to_string(occupancy(gpu, footprint_)) +
                      " TBs of the largest task kernel's footprint with the runtime's shared "
                      "memory, limited by " +
                      occupancy_limiter(gpu, footprint_) + "); persistent workers must all be "
                      "resident (Juggler Eq. 1)");
  workers_.resize(static_cast<std::size_t>(n));
  for (std::size_t w = 0; w < workers_.size(); ++w) {
    workers_[w].sm = static_cast<SmId>(static_cast<std::int64_t>(w) % gpu.sms);
    workers_[w].counter = lrr_start(p.lrr_start, w, static_cast<std::uint64_t>(n));
  }
  open_.assign(g.parent_counts().begin(), g.parent_counts().end());
  worker_of_.assign(static_cast<std::size_t>(g.size()), -1);
  parent_sm_.assign(static_cast<std::size_t>(g.size()), -1);
  for (const KernelInfo& k : workload.kernels) demand_.push_back(128.0 * static_cast<double>(k.mem_requests));
}

std::int64_t JugglerScheme::lrr_start(const std::string& mode, std::uint64_t worker,
                                      std::uint64_t workers) {
  if (mode == "next") return static_cast<std::int64_t>(worker) + 1;
  if (mode == "zero") return 0;
  return static_cast<std::int64_t>(mix64(worker) % workers);  // scattered
}

void JugglerScheme::start(Engine& engine) { engine.post(launch_at_, LAUNCHED); }

Cycle JugglerScheme::first_read_at_or_after(const Worker& w, Cycle t) const {
  const Cycle first = w.poll_start + poll_;
  if (t <= first) return first;
  const Cycle period = poll_ + sleep_;
  if (period == 0) return t;
  return first + (t - first + period - 1) / period * period;
}

void JugglerScheme::launch(Engine& engine) {
  const TaskGraph& g = engine.graph();
  for (Worker& w : workers_) {
    w.slot = engine.hold(w.sm, footprint_);
    spin(engine, w.sm, 1);  // polling from the launch on
    w.poll_start = engine.now();
  }
  // The host's ready list, round robin from worker 0, visible at launch.
  std::size_t next = 0;
  for (TaskId t = 0; t < g.size(); ++t)
    if (open_[t] == 0) make_visible(engine, t, static_cast<std::int32_t>(next++ % workers_.size()));
}

void JugglerScheme::make_visible(Engine& engine, TaskId task, std::int32_t w) {
  engine.mark_ready(task);
  Worker& wk = workers_[w];
  wk.queue.push_back(task);
  if (wk.idle && wk.read_at < 0) {
    wk.read_at = first_read_at_or_after(wk, engine.now());
    engine.post(wk.read_at, POLL_READ, w);
  }
}

void JugglerScheme::poll_read(Engine& engine, std::int32_t w) {
  Worker& wk = workers_[w];
  const Cycle now = engine.now();
  wk.read_at = -1;
  const Cycle period = poll_ + sleep_;
  polls_ += 1 + (period > 0 ? (now - wk.poll_start - poll_) / period : 0);
  wk.idle_cycles += static_cast<double>(now - poll_ - wk.poll_start);
  wk.runtime_cycles += static_cast<double>(poll_ + dequeue_);
  wk.idle = false;
  wk.batch.clear();
  wk.next = 0;
  while (!wk.queue.empty() && (batch_cap_ == 0 || wk.batch.size() < batch_cap_)) {
    wk.batch.push_back(wk.queue.front());
    wk.queue.pop_front();
  }
  engine.post(now + dequeue_, RUN_NEXT, w);
}

void JugglerScheme::run_next(Engine& engine, std::int32_t w) {
  Worker& wk = workers_[w];
  if (wk.next == wk.batch.size()) {  // back to polling
    wk.idle = true;
    wk.poll_start = engine.now();
    last_busy_end_ = std::max(last_busy_end_, engine.now());
    if (!wk.queue.empty()) {
      wk.read_at = first_read_at_or_after(wk, engine.now());
      engine.post(wk.read_at, POLL_READ, w);
    }
    return;
  }
  const TaskId t = wk.batch[wk.next++];
  const bool local = parent_sm_[t] == wk.sm;
  local_tasks_ += local;
  const Cycle cost = engine.cost(t);
  const Cycle work =
      local && locality_ > 0 ? static_cast<Cycle>(std::ceil(static_cast<double>(cost) * (1 - locality_)))
                             : cost;
  engine.unhold(wk.sm, footprint_, wk.slot);
  spin(engine, wk.sm, -1);  // the worker's TB is the task's now
  engine.issue(t, wk.sm, work);
  wk.running = t;
  wk.task_start = engine.now();
  worker_of_[t] = w;
  wk.demand = work > 0 ? demand_[engine.graph().kernel(t)] / static_cast<double>(work) : 0.0;
  running_demand_ += wk.demand;
}

void JugglerScheme::on_task_finished(Engine& engine, TaskId t) {
  const std::int32_t w = worker_of_[t];
  Worker& wk = workers_[w];
  wk.slot = engine.hold(wk.sm, footprint_);
  spin(engine, wk.sm, 1);  // runtime steps and polling until its next task
  ++wk.tasks;
  ++finished_;
  const Cycle ran = engine.now() - wk.task_start;
  wk.task_cycles += static_cast<double>(ran);
  running_demand_ = std::max(0.0, running_demand_ - wk.demand);
  const Cycle round = scaled(resolve_);
  wk.runtime_cycles += static_cast<double>(round);
  engine.post(engine.now() + round, RESOLVED, w);
}

double JugglerScheme::contention() const {
  if (contention_factor_ <= 0 || bandwidth_ <= 0) return 1.0;
  return 1.0 + contention_factor_ * running_demand_ / bandwidth_;
}

Cycle JugglerScheme::scaled(std::int64_t cycles) const {
  return static_cast<Cycle>(std::llround(static_cast<double>(cycles) * contention()));
}

std::int32_t JugglerScheme::target(std::int32_t w, std::size_t nth_freed) {
  const auto n = static_cast<std::int64_t>(workers_.size());
  if (policy_ == Policy::GRR) return static_cast<std::int32_t>(grr_counter_++ % n);
  if (policy_ == Policy::LF) {
    // §5.6: the first freed child stays local, the others go to the
    // neighbours "in an increasing fashion": a per-worker counter that keeps
    // increasing across parents (w+1, w+2, ..., wrapping past w), so the
    // second children of successive parents do not all land on w+1.
    if (nth_freed == 0 || n == 1) return w;
    return static_cast<std::int32_t>((w + 1 + workers_[w].lf_next++ % (n - 1)) % n);
  }
  return static_cast<std::int32_t>(workers_[w].counter++ % n);  // lrr
}

void JugglerScheme::resolved(Engine& engine, std::int32_t w) {
  Worker& wk = workers_[w];
  const TaskId done = wk.running;
  wk.running = -1;
  const Cycle insert = scaled(enqueue_);
  Cycle t = engine.now();
  freed_.clear();  // the round's shared-memory buffer of freed children (§5.4 step 3)
  for (const TaskId c : engine.graph().children(done)) {
    if (--open_[c] != 0) continue;
    engine.note_dependencies_met(c, engine.now());
    freed_.push_back(c);
  }
  if (policy_ == Policy::GRR && !freed_.empty()) {
    // One atomicAdd(counter, k) per resolve round reserves k consecutive
    // targets.  The counter serves one same-address atomic per atomic_
    // cycles; a worker waits only for atomics already issued, never for
    // another worker's insertions (they follow its reservation, off the counter).
    const Cycle begin = std::max(t, grr_free_at_);
    grr_wait_ += static_cast<double>(begin - t);
    grr_free_at_ = begin + atomic_;
    t = grr_free_at_;
  }
  for (std::size_t i = 0; i < freed_.size(); ++i) {
    const TaskId c = freed_[i];
    const std::int32_t to = target(w, i);
    t += insert;
    parent_sm_[c] = wk.sm;
    engine.post(t, VISIBLE, (static_cast<std::int64_t>(to) << 32) | c);
  }
  wk.runtime_cycles += static_cast<double>(t - engine.now());
  engine.post(t, RUN_NEXT, w);
}

void JugglerScheme::on_event(Engine& engine, const Event& event) {
  const auto w = static_cast<std::int32_t>(event.payload);
  switch (event.kind) {
    case LAUNCHED: launch(engine); break;
    case POLL_READ: poll_read(engine, w); break;
    case RUN_NEXT: run_next(engine, w); break;
    case RESOLVED: resolved(engine, w); break;
    case VISIBLE:
      make_visible(engine, static_cast<TaskId>(event.payload & 0xffffffff),
                   static_cast<std::int32_t>(event.payload >> 32));
      break;
    default: throw SimulationError("internal: unknown Juggler event");
  }
}

// Termination (§5.5): after the last task's bookkeeping, the first worker to
// read an empty queue sets every IQS to -1; each worker exits at its next read.
Cycle JugglerScheme::end_time(const Engine& engine) const {
  if (finished_ < engine.graph().size() || workers_.empty()) return 0;
  Cycle detect = kMaxTime;
  for (const Worker& w : workers_) detect = std::min(detect, first_read_at_or_after(w, last_busy_end_));
  Cycle end = detect;
  for (const Worker& w : workers_) end = std::max(end, first_read_at_or_after(w, detect));
  return end;
}

std::string JugglerScheme::stuck_reason(const Engine& engine, TaskId t) const {
  if (engine.state(t) == TaskState::READY) return "in a worker's queue, never fetched";
  return {};
}

void JugglerScheme::write_stats(const Engine& engine, std::span<double> out) const {
  const Cycle end = std::max(end_time(engine), engine.now());
  std::int64_t lo = workers_.empty() ? 0 : workers_[0].tasks, hi = lo;
  double busy = 0, runtime = 0, idle = 0;
  for (const Worker& w : workers_) {
    lo = std::min(lo, w.tasks);
    hi = std::max(hi, w.tasks);
    busy += w.task_cycles;
    runtime += w.runtime_cycles;
    idle += w.idle_cycles + static_cast<double>(end - std::min(end, w.poll_start));
  }
  const TaskGraph& g = engine.graph();
  std::int64_t wide = 0;
  for (TaskId t = 0; t < g.size(); ++t) wide += g.children(t).size() > 255;
  const double n = static_cast<double>(g.size());
  const double kernel = static_cast<double>(end - launch_at_);
  const double nw = static_cast<double>(workers_.size());
  const double values[] = {
      nw,
      static_cast<double>(hi - lo),
      nw > 0 ? n / nw : 0.0,
      busy + runtime > 0 ? runtime / (busy + runtime) : 0.0,
      kernel > 0 ? idle / (nw * kernel) : 0.0,
      static_cast<double>(polls_),
      grr_wait_,
      static_cast<double>(local_tasks_),
      static_cast<double>(wide),
      static_cast<double>(host_),
      static_cast<double>(host_inclusive_ ? end : end + host_),
      // §5.2: queues[] holds nWTB x QUEUE_LENGTH task indices, QUEUE_LENGTH =
      // the task count; IQS[] and queueEndIndex[] one int per worker.
      nw * (4.0 * n + 8.0),
  };
  std::copy(std::begin(values), std::end(values), out.begin());
}

void JugglerScheme::write_values(const Engine& engine, std::vector<Series>& out) const {
  const Cycle end = std::max(end_time(engine), engine.now());
  Series worker{"worker", {}}, sm{"sm", {}}, tasks{"tasks", {}}, task_cycles{"task_cycles", {}},
      runtime{"runtime_cycles", {}}, idle{"idle_cycles", {}};
  for (std::size_t i = 0; i < workers_.size(); ++i) {
    const Worker& w = workers_[i];
    worker.values.push_back(static_cast<double>(i));
    sm.values.push_back(w.sm);
    tasks.values.push_back(static_cast<double>(w.tasks));
    task_cycles.values.push_back(w.task_cycles);
    runtime.values.push_back(w.runtime_cycles);
    idle.values.push_back(w.idle_cycles + static_cast<double>(end - std::min(end, w.poll_start)));
  }
  for (Series* s : {&worker, &sm, &tasks, &task_cycles, &runtime, &idle}) out.push_back(std::move(*s));
}

}  // namespace tbdse
