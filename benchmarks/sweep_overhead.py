"""Sweep overhead and parallel efficiency of ``tbdse.sweep``.

(a) Per-run cost of a sweep of 10,000 tiny, distinct configurations: a 4x4
    wavefront (16 TBs) under ``dataflow_ideal`` on a GTX480, over a grid of
    100 values of ``gpu.sms`` x 100 values of ``cost.cycles`` (constant cost).
    Measured: the wall time of the whole ``tbdse.sweep`` call (plan building,
    validation, simulation, DataFrame assembly) per run.  Target: <= 20 us.
    Reference, same run: the bare C++ sweep (``core.run`` of the already built
    and validated plan, GIL released, TBB), so the share of the time spent
    outside the simulation is visible; plus a breakdown by stage.

(b) Parallel efficiency on 2 threads: 200 runs of a 100x100 wavefront
    (10,000 TBs) with lognormal costs (mean 2000, sigma 0.2) as 200
    replicates, ``tbdse.sweep(..., threads=1)`` vs ``threads=2``.
    efficiency = T1 / (2 * T2).  Target: >= 90%.

Timings are the best of --reps repetitions (medians printed too), with the
variants interleaved so machine drift affects them alike.  Only figures and
whether targets are met are printed; the exit status is 0 unless the sweep
results disagree with each other (a correctness check) or something fails.

Usage: python benchmarks/sweep_overhead.py [--reps N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import tbdse as td
from tbdse.simulation.axes import Axes, namespaces
from tbdse.simulation.plan import build_plan
from tbdse.simulation.results import build_frame

TARGET_US_PER_RUN = 20.0
TARGET_EFFICIENCY = 0.90


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


def summary(times: list[float]) -> tuple[float, float]:
    return min(times), statistics.median(times)


def met(ok: bool) -> str:
    return "MET" if ok else "NOT MET"


def other_busy_cpus(samples: int = 20, pause: float = 0.02) -> float | None:
    """Average number of runnable threads of other processes while this one idles (Linux).

    /proc/loadavg's fourth field counts runnable scheduling entities; the
    sampling thread itself is one of them.  None where it cannot be read.
    """
    counts = []
    try:
        for _ in range(samples):
            with open("/proc/loadavg") as f:
                counts.append(int(f.read().split()[3].split("/")[0]) - 1)
            time.sleep(pause)
    except (OSError, ValueError, IndexError):
        return None
    return sum(counts) / len(counts)


# The gtx480 preset with TBs taking their costs (the fixed timing model), as
# in the figures reported before the shared model became the preset's.
FIXED = td.gpus.gtx480(sm_model="fixed")


# ----------------------------------------------------------------------------- (a)
def overhead(reps: int) -> bool:
    sms = list(range(1, 101))
    cycles = [100 * (k + 1) for k in range(100)]
    wl = td.workloads.wavefront(4, 4, cost=td.cost.constant(1000))
    grid = {"gpu.sms": sms, "cost.cycles": cycles}
    runs = len(sms) * len(cycles)

    def full() -> Any:
        return td.sweep(wl, FIXED, "dataflow_ideal", grid=grid, progress=False)

    # The same sweep taken apart (private API, as tbdse.sweep does it).
    def plan_only() -> Any:
        workloads, gpus = [wl], [FIXED]
        schemes = [td.schemes.as_scheme("dataflow_ideal")]
        axes = Axes.build(grid, None, namespaces(schemes, workloads))
        return build_plan(workloads, gpus, schemes, axes, 1, 0, None)

    full()  # warm-up: imports, caches
    plan = plan_only()
    core = plan.core()
    core.validate()
    all_runs = np.arange(plan.runs, dtype=np.int64)

    t_full: list[float] = []
    t_core: list[float] = []
    t_core1: list[float] = []
    stages: dict[str, list[float]] = {k: [] for k in ("plan", "core", "validate", "run", "frame")}
    df = None
    for _ in range(reps):
        dt, df = timed(full)
        t_full.append(dt)
        dt, res = timed(lambda: core.run(all_runs, 0))
        t_core.append(dt)
        dt, _ = timed(lambda: core.run(all_runs, 1))
        t_core1.append(dt)
        # stage breakdown
        dt, p = timed(plan_only)
        stages["plan"].append(dt)
        dt, c = timed(p.core)
        stages["core"].append(dt)
        dt, h = timed(c.validate)
        stages["validate"].append(dt)
        dt, r = timed(lambda c=c: c.run(all_runs, 0))
        stages["run"].append(dt)
        done = np.ones(p.runs, dtype=bool)
        dt, _ = timed(
            lambda p=p, r=r, h=h, done=done: build_frame(
                p, r["columns"], r["metrics"], h, r["status"], r["errors"], done, False
            )
        )
        stages["frame"].append(dt)

    assert df is not None
    distinct = df["config_hash"].nunique()
    ok_rows = len(df) == runs and distinct == runs and runs == plan.runs
    makespan = res["metrics"][:, list(res["columns"]).index("makespan_cycles")]
    same = np.array_equal(df["makespan_cycles"].to_numpy(), makespan)
    threads = len(os.sched_getaffinity(0))
    best, med = summary(t_full)
    us = best / runs * 1e6
    c_best, c_med = summary(t_core)
    c1_best, _ = summary(t_core1)

    print(
        f"(a) sweep overhead: {runs} configurations (4x4 wavefront, gtx480, dataflow_ideal, "
        f"grid gpu.sms x cost.cycles = 100 x 100), {threads} threads"
    )
    print(
        f"    distinct configuration hashes: {distinct}; rows: {len(df)}; "
        f"makespans equal to the bare core's: {same}"
    )
    print(
        f"    tbdse.sweep total:            best {best * 1e3:8.2f} ms  median {med * 1e3:8.2f} ms"
        f"  -> {us:6.2f} us/run (median {med / runs * 1e6:.2f})"
    )
    print(
        f"    reference: bare C++ core.run: best {c_best * 1e3:8.2f} ms  "
        f"median {c_med * 1e3:8.2f} ms  -> {c_best / runs * 1e6:6.2f} us/run  "
        f"({c1_best / runs * 1e6:.2f} us/run on 1 thread)"
    )
    print(
        f"    outside the simulation: {(best - c_best) / runs * 1e6:.2f} us/run = "
        f"{100 * (1 - c_best / best):.0f}% of the sweep; "
        f"tbdse.sweep / bare core = {best / c_best:.1f}x"
    )
    parts = ", ".join(f"{k} {min(v) / runs * 1e6:.2f}" for k, v in stages.items())
    print(f"    breakdown (best, us/run): {parts}")
    print(f"    target <= {TARGET_US_PER_RUN:g} us/run: {met(us <= TARGET_US_PER_RUN)}")
    if not (ok_rows and same):
        print(
            "    ERROR: the sweep did not produce one distinct row per configuration "
            "matching the bare core",
            file=sys.stderr,
        )
        return False
    return True


# ----------------------------------------------------------------------------- (b)
def efficiency(reps: int) -> bool:
    wl = td.workloads.wavefront(100, 100, cost=td.cost.lognormal(2000, 0.2))
    replicates = 200

    def run(threads: int) -> Any:
        return td.sweep(
            wl,
            FIXED,
            "dataflow_ideal",
            replicates=replicates,
            seed=1,
            threads=threads,
            progress=False,
        )

    run(2)  # warm-up
    busy_before = other_busy_cpus()
    t1: list[float] = []
    t2: list[float] = []
    d1 = d2 = None
    for _ in range(reps):
        dt, d1 = timed(lambda: run(1))
        t1.append(dt)
        dt, d2 = timed(lambda: run(2))
        t2.append(dt)
    assert d1 is not None and d2 is not None
    same = np.array_equal(d1["makespan_cycles"].to_numpy(), d2["makespan_cycles"].to_numpy())
    b1, m1 = summary(t1)
    b2, m2 = summary(t2)
    eff = b1 / (2 * b2)
    cores = len(os.sched_getaffinity(0))
    print(
        f"(b) parallel efficiency: {replicates} runs of a 100x100 wavefront (10,000 TBs, "
        f"lognormal(2000, 0.2)), dataflow_ideal on gtx480; {cores} cores available"
    )
    print(
        f"    threads=1: best {b1 * 1e3:8.1f} ms  median {m1 * 1e3:8.1f} ms  "
        f"({b1 / replicates * 1e3:.2f} ms/run)"
    )
    print(f"    threads=2: best {b2 * 1e3:8.1f} ms  median {m2 * 1e3:8.1f} ms")
    print(f"    identical results on 1 and 2 threads: {same}")
    print(f"    efficiency T1 / (2 T2) = {100 * eff:.1f}% (medians: {100 * m1 / (2 * m2):.1f}%)")
    busy_after = other_busy_cpus()
    if cores < 2:
        print("    (fewer than 2 cores available: the efficiency figure is meaningless here)")
    if busy_before is not None and busy_after is not None:
        busy = max(busy_before, busy_after)
        print(
            f"    other processes' runnable threads (sampled before/after): "
            f"{busy_before:.1f} / {busy_after:.1f}"
        )
        if busy >= 0.5:
            print(
                f"    WARNING: other processes compete for the {cores} cores; the 2-thread "
                f"time and the efficiency are unreliable - rerun on an idle machine"
            )
    print(f"    target >= {100 * TARGET_EFFICIENCY:.0f}%: {met(eff >= TARGET_EFFICIENCY)}")
    if not same:
        print("    ERROR: results differ between 1 and 2 threads", file=sys.stderr)
        return False
    return True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--reps", type=int, default=5, help="repetitions per measurement (default 5)"
    )
    args = parser.parse_args()
    if args.reps < 1:
        parser.error("--reps must be >= 1")
    print(f"sweep_overhead: tbdse {td.__version__}, best of {args.reps}")
    ok = overhead(args.reps)
    print()
    ok = efficiency(args.reps) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
