#include "models/juggler/juggler_params.hpp"

namespace tbdse {

namespace {

ParamInfo cycles(const char* name, const char* doc, const char* ref) {
  return {.name = name, .unit = "cycles", .doc = doc, .paper_ref = ref, .min_value = 0,
          .max_value = 1e9};
}

}  // namespace

const ParamTable<JugglerParams>& JugglerParams::params() {
  static const ParamTable<JugglerParams> table = [] {
    ParamTable<JugglerParams> t;
    t.add(&JugglerParams::workers,
          {.name = "workers", .unit = "TBs",
           .doc = "persistent worker TBs; auto = all that fit (SMs x TBs per SM of the largest "
                  "task kernel's footprint, Eq. 1)",
           .paper_ref = "Juggler §5.1 Eq. 1, §6.1", .auto_ok = true, .min_value = 1,
           .max_value = 1 << 24});
    t.add(&JugglerParams::policy,
          {.name = "policy",
           .doc = "queue insertion: 'lrr' (per-worker counter), 'grr' (one global atomic "
                  "counter), 'lf' (first freed child local, the rest to the neighbours from a per-worker "
                  "counter that keeps increasing)",
           .paper_ref = "Juggler §5.6", .choices = {"lrr", "grr", "lf"}});
    t.add(&JugglerParams::lrr_start,
          {.name = "lrr_start",
           .doc = "lrr: where the workers' counters start: 'scattered' (a fixed hash of the "
                  "worker id), 'next' (own id + 1) or 'zero'",
           .paper_ref = "Juggler §5.6", .choices = {"scattered", "next", "zero"},
           .read_when = {{"policy", {"lrr"}}}});
    t.add(&JugglerParams::poll_cycles,
          cycles("poll_cycles", "reading the worker's queue size IQS[i]", "Juggler §5.2, §5.3"));
    t.add(&JugglerParams::sleep_cycles,
          cycles("sleep_cycles", "the pause after reading an empty queue (cosine_sleep)",
                 "Juggler §5.2"));
    t.add(&JugglerParams::dequeue_cycles,
          cycles("dequeue_cycles", "fetching the visible tasks, k threads in parallel",
                 "Juggler §5.3"));
    t.add(&JugglerParams::resolve_cycles,
          cycles("resolve_cycles",
                 "one parallel round resolving a finished task's children (coalesced atomics)",
                 "Juggler §5.4"));
    t.add(&JugglerParams::enqueue_cycles,
          cycles("enqueue_cycles", "inserting one freed child into a queue (3 atomics and a write)",
                 "Juggler §5.5"));
    t.add(&JugglerParams::global_atomic_cycles,
          {.name = "global_atomic_cycles", .unit = "cycles",
           .doc = "grr: cycles the global counter takes per same-address atomic; each resolve "
                  "round reserves its targets with one atomicAdd; auto = the GPU's amo_cycles",
           .paper_ref = "Juggler §5.4, §5.6", .auto_ok = true, .min_value = 0,
           .max_value = 1e9, .read_when = {{"policy", {"grr"}}}});
    t.add(&JugglerParams::runtime_contention,
          {.name = "runtime_contention",
           .doc = "resolve and enqueue costs x (1 + this x the running tasks' memory load over "
                  "mem_bandwidth): the application's traffic slowing the runtime's atomics",
           .paper_ref = "Juggler §6.2 Observation 3", .min_value = 0, .max_value = 1e6});
    t.add(&JugglerParams::locality_speedup,
          {.name = "locality_speedup",
           .doc = "a task run on the SM of the parent that freed it takes (1 - this) of its "
                  "cost; refused with data footprints, which time that locality themselves",
           .paper_ref = "Juggler §6.2 Fig. 6", .min_value = 0, .max_value = 0.99});
    t.add(&JugglerParams::host_inspect_us_per_task,
          {.name = "host_inspect_us_per_task", .unit = "us",
           .doc = "host-side inspection and CSR building per task (with the allocations and "
                  "copies of the task graph and runtime context: host_overhead_cycles)",
           .paper_ref = "Juggler §4.2, §6.1", .min_value = 0, .max_value = 1e6});
    t.add(&JugglerParams::host_inclusive,
          {.name = "host_inclusive",
           .doc = "true: the makespan includes the host-side overhead before the runtime kernel's "
                  "launch, as §6.1 reports Juggler's times; false: kernel time only",
           .paper_ref = "Juggler §6.1"});
    t.add(&JugglerParams::runtime_smem_per_thread,
          {.name = "runtime_smem_per_thread", .unit = "bytes",
           .doc = "the runtime's shared memory per worker thread (task buffer and freed-child "
                  "buffer), added to the task kernels' footprint for Eq. 1",
           .paper_ref = "Juggler §5.1 Eq. 1, §5.3, §5.4", .min_value = 0, .max_value = 1 << 20});
    t.add(&JugglerParams::spin_weight,
          {.name = "spin_weight", .unit = "TBs",
           .doc = "SM issue demand of a worker running no task (polling, cosine_sleep, runtime "
                  "steps), in TBs, shared with the SM's tasks under sm_model 'shared'; auto = one "
                  "warp of the worker TB (32 / threads), or with kernels' issue_interval that "
                  "warp's share of the SM's issue slots at the slowest interval",
           .paper_ref = "Juggler §5.2 (tbdse's assumption)", .auto_ok = true, .min_value = 0,
           .max_value = 64,
           // The demand reaches the SMs only through the shared-SM model
           // (Engine::add_spin, engine.hpp); under 'fixed' nothing reads it.
           .read_when = {{"gpu.sm_model", {"shared"}}}});
    return t;
  }();
  return table;
}

std::vector<StatInfo> juggler_stats() {
  return {
      {"workers", "TBs", "persistent worker TBs"},
      {"worker_task_spread", "tasks", "max - min tasks run per worker (Fig. 5)"},
      {"worker_tasks_mean", "tasks", "mean tasks run per worker"},
      {"runtime_overhead_share", "fraction",
       "share of the workers' busy time spent in the runtime (polls that found work, dequeues, "
       "resolves, enqueues, waits for the global counter) rather than in tasks"},
      {"worker_idle_share", "fraction",
       "share of workers x kernel time spent polling and sleeping on an empty queue"},
      {"polls", "reads", "IQS reads, including those that found the queue empty"},
      {"grr_wait_cycles", "cycles", "cycles workers waited for the global counter (grr)"},
      {"local_tasks", "tasks", "tasks run on the SM of the parent that freed them"},
      {"tasks_over_255_children", "tasks",
       "tasks with more than 255 children (the paper keeps a child count in a char)"},
      {"host_overhead_cycles", "cycles",
       "host-side inspection and CSR building, allocations and the transfers of the task graph "
       "and runtime context (§6.1)"},
      {"makespan_with_host_cycles", "cycles",
       "kernel time plus host_overhead_cycles (the makespan itself when host_inclusive)"},
      {"runtime_queue_bytes", "bytes",
       "global memory of the runtime's queues (software, not added hardware: storage_bytes is "
       "0): queues[] of workers x tasks 4-byte task ids plus IQS[] and queueEndIndex[], 4 B "
       "per worker each (§5.2, Listing 6)"},
  };
}

}  // namespace tbdse
