// Parameters of the Juggler runtime (Belviranli et al., PPoPP 2018, §5;
// docs/MODELS.md §5, docs/models/juggler.md): persistent worker TBs with one
// task queue each, the costs of their work cycle, and the queue-insertion
// policy.  Every cost is a delay a worker spends before it can take its next
// task; the tasks' own run times come from the cost model (and the GPU's SM
// timing model).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/params.hpp"
#include "core/scheme.hpp"

namespace tbdse {

struct JugglerParams {
  // Persistent worker TBs (nWTB).  auto (-1): all that fit at once, SMs x the
  // TBs per SM of the runtime's footprint (the largest task kernel's), Eq. 1.
  std::int64_t workers = kAuto;
  // Queue-insertion policy (§5.6): 'lrr' (a per-worker counter), 'grr' (one
  // global atomic counter), 'lf' (the first freed child stays local, the rest
  // go to the neighbours w+1, w+2, ... from a per-worker counter that keeps
  // increasing across parents).  Default grr, the paper's best.
  std::string policy = "grr";
  // lrr: where the workers' counters start (§5.6 does not say):
  // 'scattered' - a fixed hash of the worker id, modulo workers (default: as if
  //               each counter started anywhere, uncorrelated with its owner);
  // 'next'      - the worker's own id + 1 (children go to the next workers);
  // 'zero'      - 0 for every worker.
  // 'next' and 'zero' correlate the counters of workers that free children
  // together, so their targets collide (docs/models/juggler.md).
  std::string lrr_start = "scattered";
  // The five costs below are tbdse's estimates, not fitted: one to three
  // dependent global-memory accesses each at the P100's ~450-cycle latency.
  // Reading the worker's input-queue size IQS[i] (a global-memory load).
  std::int64_t poll_cycles = 600;
  // The pause (cosine_sleep) after reading an empty queue (§5.2).
  std::int64_t sleep_cycles = 2000;
  // Fetching the k visible tasks with k threads in parallel (§5.3).
  std::int64_t dequeue_cycles = 600;
  // One parallel round resolving a finished task's children (§5.4: coalesced
  // reads of the CSR and one atomic decrement per child, in parallel).
  std::int64_t resolve_cycles = 1200;
  // Inserting one freed child into a queue (§5.5: atomic tail increment,
  // write, atomic IQS increment).
  std::int64_t enqueue_cycles = 1500;
  // grr: the global counter's throughput, cycles per same-address atomic.
  // Each resolve round reserves its k targets with one atomicAdd (§5.4 step
  // 3 buffers the freed children, §5.6 takes the targets from the counter);
  // rounds from all workers serialise at this rate.  auto (-1): the GPU's
  // amo_cycles, the figure every model uses for one address's atomics.
  std::int64_t global_atomic_cycles = kAuto;
  // Observation 3: the application's memory traffic slows the runtime's
  // atomics.  Resolve and enqueue costs are multiplied by 1 + this x the
  // memory load of the running tasks (their kernels' mem_requests x 128 B per
  // cost cycle, over the GPU's mem_bandwidth).  1.0: calibrated on Fig. 4
  // with global_atomic_cycles.
  double runtime_contention = 1.0;
  // Fig. 6 (LF's lower L2 miss rate): a task run on the SM of the parent
  // that freed it takes (1 - this) of its cost.  Default 0.
  double locality_speedup = 0.0;
  // §6.1: "reported results ... include kernel execution times plus all
  // host- and device-related overhead": the inspection loop and CSR build
  // per task (µs, tbdse's estimate); allocations and copies of the task
  // array, CSR and runtime context are timed by the GPU's malloc and copy
  // models.
  double host_inspect_us_per_task = 0.05;
  // true (§6.1): the makespan includes that host overhead (the runtime kernel
  // is launched after it), as Figs. 4 and 7 report; false: kernel time only.
  bool host_inclusive = true;
  // The runtime's shared memory per worker thread, added to the largest task
  // kernel's footprint when counting the workers that fit (Eq. 1): one TASK
  // object of the task_buffer (§5.3, 16 B) and one freed-child index (§5.4,
  // 4 B) per thread.  tbdse's estimate.
  std::int64_t runtime_smem_per_thread = 20;
  // A worker that runs no task (polling, cosine_sleep, the runtime's steps)
  // still issues instructions: it takes this many TBs' worth of its SM's
  // throughput under sm_model 'shared' (§5.2: the sleep is "compute-
  // intensive" by design).  auto (-1): one warp of the worker TB, 32 /
  // threads (tbdse's assumption: the first thread polls and sleeps, the
  // rest wait at a barrier); 1: every warp spins; 0: spinning is free.
  double spin_weight = kAutoValue;

  static const ParamTable<JugglerParams>& params();
};

std::vector<StatInfo> juggler_stats();

}  // namespace tbdse
