"""``td.simulate`` of a 1M-task wavefront, timed from Python, against a
minimal hand-written C++ list scheduler of the same model, in one run.

(1) ``dataflow_ideal`` on the ``fixed`` SM model (gtx480, sm_model fixed),
    lognormal costs (mean 2000, sigma 0.2): the whole public call — cost
    draws, the engine, the metrics and the Result — against
    ``list_scheduler_ref.cpp`` (a heap of ready virtual ids, a heap of finish
    events, a free-slot count per SM; built here with ``c++ -O2``) on the
    same costs (read back from a timeline run, untimed).  Check: identical
    makespans (exit 1 otherwise).  Target: tbdse >= 0.8x the reference.
(2) the same wavefront with full data footprints through the memory
    hierarchy (each tile reads its two parents' 4 KiB tiles and writes its
    own; kernel of 256 threads, so its reads go in load phases).  Target:
    >= 0.25 M TB/s on one core.

Usage: benchmarks/simulate_vs_reference.py [--rows 1000 --cols 1000 --reps 3]
Needs a C++ compiler (``c++`` or ``$CXX``).  Exit 0 whether or not targets
are met; 1 when makespans differ; 2 on bad arguments or a missing compiler.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import tbdse as td

HERE = Path(__file__).resolve().parent


def best_of(reps: int, fn):  # type: ignore[no-untyped-def]
    """Best CPU time (process_time: on a shared machine wall time counts
    other processes' turns) of ``reps`` calls, and the last result."""
    times, out = [], None
    for _ in range(reps):
        t0 = time.process_time()
        out = fn()
        times.append(time.process_time() - t0)
    return min(times), out


def footprints(rows: int, cols: int) -> td.workloads.DataFootprints:
    """Tile (i, j) (input id i x cols + j) writes its 4 KiB at id x 4 KiB and
    reads its left and upper parents' tiles."""
    ids = np.arange(rows * cols)
    i, j = ids // cols, ids % cols
    left, up = ids[j > 0], ids[i > 0]
    task = np.concatenate([ids, left, up])
    base = np.concatenate([ids, left - 1, up - cols]) * 4096
    write = np.concatenate([np.ones(ids.size, bool), np.zeros(left.size + up.size, bool)])
    return td.workloads.DataFootprints(task, base, np.full(task.size, 4096), write)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=1000)
    ap.add_argument("--cols", type=int, default=1000)
    ap.add_argument("--reps", type=int, default=3)
    a = ap.parse_args()
    if min(a.rows, a.cols, a.reps) < 1:
        ap.error("--rows, --cols and --reps must be >= 1")
    cxx = os.environ.get("CXX") or shutil.which("c++") or shutil.which("g++")
    if not cxx:
        print("simulate_vs_reference: no C++ compiler (set CXX)", file=sys.stderr)
        return 2
    n = a.rows * a.cols
    gpu = td.gpus.gtx480(sm_model="fixed")
    wl = td.workloads.wavefront(a.rows, a.cols, cost=td.cost.lognormal(2000, 0.2))
    with tempfile.TemporaryDirectory() as tmp:
        exe, data = Path(tmp) / "ref", Path(tmp) / "graph.bin"
        subprocess.run(
            [cxx, "-O2", "-std=c++20", "-o", exe, HERE / "list_scheduler_ref.cpp"], check=True
        )
        tl = td.simulate(wl, gpu, "dataflow_ideal", timeline=True).timeline().sort_values("task")
        g = wl.graph
        kids, starts = g.edges().astype(np.int32), g.edge_starts().astype(np.int64)
        with open(data, "wb") as f:
            launch = round(gpu.host_launch_us * gpu.clock_mhz)
            np.array([n, kids.size, gpu.sms, gpu.tb_slots, launch], np.int64).tofile(f)
            g.level_order().astype(np.int32).tofile(f)
            tl["duration"].to_numpy().astype(np.int64).tofile(f)
            starts.tofile(f)
            kids.tofile(f)
        out = subprocess.run([exe, data, str(a.reps)], check=True, capture_output=True, text=True)
        ref_makespan, ref_s = int(out.stdout.split()[0]), float(out.stdout.split()[1])
    sim_s, r = best_of(a.reps, lambda: td.simulate(wl, gpu, "dataflow_ideal"))
    print(
        f"(1) {n:,} TBs, dataflow_ideal, fixed: td.simulate {sim_s:.3f} s "
        f"({n / sim_s / 1e6:.2f} M TB/s), C++ reference {ref_s:.3f} s "
        f"({n / ref_s / 1e6:.2f} M TB/s)"
    )
    if r.makespan_cycles != ref_makespan:
        print(f"makespans differ: tbdse {r.makespan_cycles}, reference {ref_makespan}")
        return 1
    ratio = ref_s / sim_s
    print(
        f"    ratio tbdse / reference = {ratio:.2f} "
        f"(target >= 0.80: {'MET' if ratio >= 0.8 else 'NOT MET'})"
    )
    kernel = td.workloads.Kernel("tile", threads=256, mem_fraction=0.5)
    wfp = td.workloads.wavefront(a.rows, a.cols, cost=td.cost.lognormal(2000, 0.2), kernel=kernel)
    wfp = wfp.with_data(footprints(a.rows, a.cols))
    fp_s, rf = best_of(a.reps, lambda: td.simulate(wfp, gpu, "dataflow_ideal"))
    rate = n / fp_s / 1e6
    print(
        f"(2) with footprints (3 ranges per TB, 256 threads): {fp_s:.3f} s, {rate:.3f} M TB/s, "
        f"events {int(rf.metrics['events']):,}, l2 hit {rf.metrics['l2_hit_rate']:.3f} "
        f"(target >= 0.25 M TB/s: {'MET' if rate >= 0.25 else 'NOT MET'})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
