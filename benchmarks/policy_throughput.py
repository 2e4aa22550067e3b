"""Throughput of user policies (docs/policies.md) against the built-in scheme.

One run of a ROWS x COLS wavefront (default 1000 x 1000 = 1M TBs, lognormal
costs mean 2000, sigma 0.2) on a GTX480, timed with ``tbdse.simulate``
(plan, validation, simulation), best of --reps, variants interleaved:

* built-in ``dataflow_ideal(policy='fifo')``: the reference;
* a compiled FIFO policy: ``f(task, parents, sms, params) -> 0.0`` compiled
  with Numba (``jit=True``), called once per task when it becomes ready
  (needs ``pip install tbdse[policies]``; skipped without Numba).
  Target: within 1.5x of the reference;
* static priorities (``priorities=`` one float per task, an lrr order):
  target within 1.2x of the built-in ``dataflow_ideal(policy='lrr')``;
* the same FIFO policy as a plain Python callable, on a smaller wavefront
  (--py-rows, default 200 x 200): its ratio to the reference at that size
  is reported, no target.

Correctness first: each policy's makespan must equal its reference's (FIFO
and lrr orders), else the exit status is 1.

Usage: python benchmarks/policy_throughput.py [--rows 1000 --cols 1000 --reps 3]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

import tbdse as td


def fifo(task: Any, parents: Any, sms: Any, params: Any) -> float:
    return 0.0


def best(fn: Callable[[], Any], reps: int) -> tuple[float, Any]:
    times, out = [], None
    for _ in range(reps):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return min(times), out


def lrr_priorities(rows: int, cols: int) -> np.ndarray:
    """A wavefront's task r * cols + c is at level r + c: lrr = level, then id."""
    ids = np.arange(rows * cols)
    level = ids // cols + ids % cols
    return -(level * rows * cols + ids).astype(float)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=1000)
    ap.add_argument("--cols", type=int, default=1000)
    ap.add_argument("--py-rows", type=int, default=200)
    ap.add_argument("--reps", type=int, default=3)
    args = ap.parse_args()
    cost = td.cost.lognormal(2000, 0.2)
    wl = td.workloads.wavefront(args.rows, args.cols, cost=cost)
    gpu = td.gpus.gtx480()
    print(
        f"{args.rows}x{args.cols} wavefront ({wl.tasks:,} TBs) on gtx480, best of {args.reps}; "
        f"{os.cpu_count()} CPUs (shared machine: absolute times vary, ratios are same-run)"
    )
    try:
        import numba  # noqa: F401

        compiled: td.Policy | None = td.Policy(fifo, jit=True, name="fifo_numba")
    except ImportError:
        compiled = None
        print("numba not installed: the compiled policy is skipped (pip install tbdse[policies])")
    static = td.Policy(priorities=lrr_priorities(args.rows, args.cols), name="lrr_static")
    variants: dict[str, Any] = {
        "builtin_fifo": td.schemes.DataflowIdeal(policy="fifo"),
        "builtin_lrr": td.schemes.DataflowIdeal(policy="lrr"),
        "static_lrr": static,
    }
    if compiled is not None:
        variants["numba_fifo"] = compiled
    times: dict[str, list[float]] = {k: [] for k in variants}
    spans: dict[str, int] = {}
    for _ in range(args.reps):  # interleaved
        for k, scheme in variants.items():
            t, r = best(lambda s=scheme: td.simulate(wl, gpu, s), 1)
            times[k].append(t)
            spans[k] = r.makespan_cycles
    t = {k: min(v) for k, v in times.items()}
    ok = spans["static_lrr"] == spans["builtin_lrr"]
    for k in variants:
        print(f"  {k:14s} {t[k]:8.3f} s   makespan {spans[k]:,}")
    r_static = t["static_lrr"] / t["builtin_lrr"]
    print(
        f"static priorities / builtin lrr: {r_static:.2f}x (target <= 1.2x: "
        f"{'MET' if r_static <= 1.2 else 'NOT MET'})"
    )
    if compiled is not None:
        ok &= spans["numba_fifo"] == spans["builtin_fifo"]
        r_numba = t["numba_fifo"] / t["builtin_fifo"]
        print(
            f"compiled FIFO / builtin fifo:    {r_numba:.2f}x (target <= 1.5x: "
            f"{'MET' if r_numba <= 1.5 else 'NOT MET'})"
        )

    small = td.workloads.wavefront(args.py_rows, args.py_rows, cost=cost)
    plain = td.Policy(fifo, name="fifo_python")
    t_ref, ref = best(lambda: td.simulate(small, gpu, variants["builtin_fifo"]), args.reps)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t_py, py = best(lambda: td.simulate(small, gpu, plain), args.reps)
    ok &= py.makespan_cycles == ref.makespan_cycles
    print(
        f"plain Python FIFO / builtin fifo on {small.tasks:,} TBs: {t_py / t_ref:.1f}x "
        f"({t_py:.3f} s vs {t_ref:.3f} s; reported, no target)"
    )
    if not ok:
        print("MISMATCH: a policy's makespan differs from its reference's", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
