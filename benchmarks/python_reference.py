"""tbdse against the same model written in Python: heapq and SimPy.

The model is ``dataflow_ideal`` (docs/MODELS.md §2):
  * one host launch: nothing runs before host_launch_us (in cycles); then the
    roots of the task graph are ready;
  * ready tasks are issued smallest virtual id first (a min-heap);
  * a task goes to the first SM with a free TB slot at or after the SM
    following the last one issued to (round robin, skipping full SMs);
  * finish events are taken in (time, insertion order);
  * ready tasks are dispatched after every event of a timestamp is processed.

Three implementations run it on the same 200x200 wavefront (40,000 TBs) on a
GTX480 (15 SMs x 8 TB slots, 30 us launch at 700 MHz) with the same task
costs (lognormal, mean 2000 cycles, sigma 0.2, drawn once with NumPy and
handed to tbdse as ``td.cost.array``):
  (a) plain Python with ``heapq`` (a list scheduler, as lean as Python gets);
  (b) SimPy 4: an Environment, one Resource per SM (capacity = TB slots), a
      dispatcher process and one process per TB;
  (c) tbdse: ``td.simulate(workload, gtx480(sm_model="fixed"), "dataflow_ideal")``, the whole
      public call (plan, core run, result row).
All three must give the same makespan (exit status 1 otherwise).  Printed:
time of each (best of --reps; SimPy fewer), tbdse's speed-up over each.
Targets: tbdse >= 20x heapq, >= 100x SimPy.  Also printed, for the
breakdown: the compiled core run alone (``run_single`` of the plan
td.simulate builds).  The graph is converted to Python lists before the
Python versions are timed (in their favour).

Usage: python benchmarks/python_reference.py [--rows R] [--cols C] [--reps N]
"""

from __future__ import annotations

import argparse
import heapq
import math
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import simpy

import tbdse as td
from tbdse.simulation.axes import Axes, namespaces
from tbdse.simulation.plan import build_plan

TARGET_HEAPQ = 20.0
TARGET_SIMPY = 100.0
COST_MEAN, COST_SIGMA, COST_SEED = 2000.0, 0.2, 12345


@dataclass
class Model:
    """The task graph as Python lists, and the GPU."""

    children: list[list[int]]
    parents: list[int]
    vid: list[int]  # virtual id of each task
    task_at: list[int]  # task of each virtual id
    cost: list[int]
    sms: int
    slots: int
    launch: int  # host launch, cycles


def heapq_makespan(m: Model) -> int:
    """(a) The model with heapq: a ready heap of virtual ids and a finish-event heap."""
    heappush, heappop = heapq.heappush, heapq.heappop
    children, vid, task_at, cost = m.children, m.vid, m.task_at, m.cost
    sms = m.sms
    open_parents = list(m.parents)
    free = [m.slots] * sms
    free_total = sms * m.slots
    ready: list[int] = []
    events: list[tuple[int, int, int, int]] = []  # (time, seq, task, sm)
    seq = 0
    rr = 0
    finished = 0

    now = m.launch
    for t, p in enumerate(open_parents):
        if p == 0:
            heappush(ready, vid[t])
    while True:
        # dispatch
        while ready and free_total:
            sm = rr
            while not free[sm]:
                sm = sm + 1 if sm + 1 < sms else 0
            t = task_at[heappop(ready)]
            free[sm] -= 1
            free_total -= 1
            rr = sm + 1 if sm + 1 < sms else 0
            heappush(events, (now + cost[t], seq, t, sm))
            seq += 1
        if not events:
            break
        # every finish at the next timestamp
        now = events[0][0]
        while events and events[0][0] == now:
            _, _, t, sm = heappop(events)
            free[sm] += 1
            free_total += 1
            finished += 1
            for c in children[t]:
                open_parents[c] -= 1
                if open_parents[c] == 0:
                    heappush(ready, vid[c])
    if finished != len(cost):
        raise RuntimeError(f"heapq reference: {len(cost) - finished} tasks never ran")
    return now


def simpy_makespan(m: Model) -> int:
    """(b) The model in SimPy: SMs are Resources, TBs and the dispatcher are processes.

    A finishing TB signals the dispatcher through a shared event.  SimPy takes
    events of equal time in scheduling order, and the signal is scheduled when
    the first TB of a timestamp finishes, after every TB finishing then had
    its timeout scheduled, so the dispatcher runs once per timestamp, after all
    of its finishes: the model's "dispatch after each timestamp".
    """
    env = simpy.Environment()
    sms = [simpy.Resource(env, capacity=m.slots) for _ in range(m.sms)]
    children, vid, task_at, cost = m.children, m.vid, m.task_at, m.cost
    n = len(cost)
    open_parents = list(m.parents)
    ready: list[int] = []
    state: dict[str, Any] = {"rr": 0, "finished": 0, "last_end": 0, "wake": env.event()}

    def thread_block(t: int, sm: simpy.Resource, slot: simpy.Event):
        yield slot  # granted at issue: the dispatcher only picks an SM with room
        yield env.timeout(cost[t])
        sm.release(slot)
        state["finished"] += 1
        state["last_end"] = env.now
        for c in children[t]:
            open_parents[c] -= 1
            if open_parents[c] == 0:
                heapq.heappush(ready, vid[c])
        if not state["wake"].triggered:
            state["wake"].succeed()

    def dispatcher():
        yield env.timeout(m.launch)  # the single kernel launch
        for t, p in enumerate(open_parents):
            if p == 0:
                heapq.heappush(ready, vid[t])
        while True:
            while ready:
                start = state["rr"]
                for k in range(len(sms)):
                    i = (start + k) % len(sms)
                    if sms[i].count < sms[i].capacity:
                        break
                else:
                    break  # every SM is full
                t = task_at[heapq.heappop(ready)]
                state["rr"] = (i + 1) % len(sms)
                env.process(thread_block(t, sms[i], sms[i].request()))
            if state["finished"] == n:
                return
            state["wake"] = env.event()
            yield state["wake"]

    env.process(dispatcher())
    env.run()
    if state["finished"] != n:
        raise RuntimeError(f"SimPy reference: {n - state['finished']} tasks never ran")
    return int(state["last_end"])


def best_of(fn: Callable[[], Any], reps: int) -> tuple[float, float, Any]:
    times = []
    out = None
    for _ in range(reps):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return min(times), statistics.median(times), out


def lognormal_costs(n: int) -> np.ndarray:
    rng = np.random.default_rng(COST_SEED)
    mu = np.log(COST_MEAN) - 0.5 * COST_SIGMA**2  # so the mean is COST_MEAN, as in tbdse
    return np.maximum(1, np.rint(rng.lognormal(mu, COST_SIGMA, n))).astype(np.int64)


def as_model(wl: td.Workload, cost: Sequence[int], gpu: td.Gpu) -> Model:
    g = wl.graph
    starts, edges = g.edge_starts(), g.edges()
    order = np.asarray(g.level_order(), dtype=np.int64)
    vid = np.empty_like(order)
    vid[order] = np.arange(len(order))
    d = gpu.to_dict()
    return Model(
        children=[edges[starts[t] : starts[t + 1]].tolist() for t in range(g.size)],
        parents=np.asarray(g.parent_counts()).tolist(),
        vid=vid.tolist(),
        task_at=order.tolist(),
        cost=list(cost),
        sms=int(d["sms"]),
        slots=int(d["tb_slots"]),
        launch=math.floor(d["host_launch_us"] * d["clock_mhz"] + 0.5),  # us_to_cycles: llround
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=200)
    parser.add_argument("--cols", type=int, default=200)
    parser.add_argument("--reps", type=int, default=5, help="repetitions (SimPy: at most 3)")
    args = parser.parse_args()
    if min(args.rows, args.cols, args.reps) < 1:
        parser.error("--rows, --cols and --reps must be >= 1")

    n = args.rows * args.cols
    costs = lognormal_costs(n)
    wl = td.workloads.wavefront(args.rows, args.cols, cost=td.cost.array(costs.tolist()))
    gpu = td.gpus.gtx480(sm_model="fixed")  # the references' model: a TB takes its cost
    model = as_model(wl, costs.tolist(), gpu)
    print(
        f"python_reference: dataflow_ideal, {args.rows}x{args.cols} wavefront = {n} TBs "
        f"on gtx480 "
        f"({model.sms} SMs x {model.slots} slots, launch {model.launch} cycles), "
        f"lognormal({COST_MEAN:g}, {COST_SIGMA:g}) costs (NumPy seed {COST_SEED}); "
        f"SimPy {simpy.__version__}, tbdse {td.__version__}"
    )

    def run_tbdse() -> int:
        return td.simulate(wl, gpu, "dataflow_ideal").makespan_cycles

    # For the breakdown: the compiled core alone (private API: the plan
    # td.simulate builds, run without the Python result row around it).
    schemes = [td.schemes.as_scheme("dataflow_ideal")]
    plan = build_plan(
        [wl], [gpu], schemes, Axes.build(None, None, namespaces(schemes, [wl])), 1, 0, None
    )
    core = plan.core()

    def run_core() -> int:
        return int(core.run_single(0, False)["metrics"][0, 0])

    run_tbdse()  # warm-up
    tb_best, tb_med, ms_tbdse = best_of(run_tbdse, max(args.reps, 10))
    co_best, co_med, ms_core = best_of(run_core, max(args.reps, 10))
    hq_best, hq_med, ms_heapq = best_of(lambda: heapq_makespan(model), args.reps)
    sp_best, sp_med, ms_simpy = best_of(lambda: simpy_makespan(model), min(args.reps, 3))

    same = ms_tbdse == ms_heapq == ms_simpy == ms_core
    print(
        f"  makespan: tbdse {ms_tbdse}, heapq {ms_heapq}, SimPy {ms_simpy} cycles -> "
        f"{'identical' if same else 'MISMATCH'}"
    )
    if not same:
        print("python_reference: makespans differ; the benchmark is void", file=sys.stderr)
        return 1

    print(f"\n  {'':28s} {'best s':>10s} {'median s':>10s} {'TBs/s (best)':>14s}")
    for name, b, med in (
        ("tbdse td.simulate", tb_best, tb_med),
        ("  of which the C++ core run", co_best, co_med),
        ("Python heapq", hq_best, hq_med),
        ("SimPy", sp_best, sp_med),
    ):
        print(f"  {name:28s} {b:10.4f} {med:10.4f} {n / b:14.3e}")

    s_hq = hq_best / tb_best
    s_sp = sp_best / tb_best
    print(
        f"\n  tbdse speed-up over heapq: {s_hq:7.1f}x  (target >= {TARGET_HEAPQ:g}x: "
        f"{'MET' if s_hq >= TARGET_HEAPQ else 'NOT MET'})"
    )
    print(
        f"  tbdse speed-up over SimPy: {s_sp:7.1f}x  (target >= {TARGET_SIMPY:g}x: "
        f"{'MET' if s_sp >= TARGET_SIMPY else 'NOT MET'})"
    )
    print(
        f"  (the C++ core run alone, without td.simulate's Python around it: "
        f"{hq_best / co_best:.1f}x heapq, {sp_best / co_best:.1f}x SimPy; "
        f"td.simulate spends {100 * (1 - co_best / tb_best):.0f}% outside the core)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
