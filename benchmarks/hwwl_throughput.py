"""Speed of the worklist machine: BFS with the hardware worklist, every load
through the memory hierarchy (per-core L1, shared L2, DRAM channels).

The setting: BFS on a 1,000,000-node graph — a road-like graph (``--graph
road``, the default: the inputs the paper's BFS used, §V-A: "a very large
(>1M nodes) dataset") or R-MAT (``--graph rmat``, degree 16, about 16M arcs) —
4 cores x 16 lanes (``gpgpusim_hwwl``), 32-entry banks, ``lsorting``
redistribution, interval refill.  Target: under 10 s on this machine (the
paper needed more than a day for a graph this size, §V-A).  Also measured:
250K and 4M nodes, to see how time grows.

Per size: the graph is built once (not timed); then, best of --reps,

* ``td.simulate`` of the hardware worklist (the normal path: workload, plan,
  core, the machine, the result check against the reference distances);
* the reference, in the same run: the plain C++ breadth-first search the
  result is checked against (a fresh problem each time, so it is computed).

Printed: seconds (best, median), simulated cycles per second, work items and
events per second, the ratio simulation / plain BFS, and the growth factor
from one size to the next (4x the nodes).  Exit status 1 only when a run's
distances differ from the reference (the run raises).

Usage: python benchmarks/hwwl_throughput.py [--reps 3] [--sizes 250000,1000000,4000000]
                                           [--graph road|rmat]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import tbdse as td
from tbdse import _core

TARGET_SECONDS = 10.0
TARGET_NODES = 1_000_000


def best(times: list[float]) -> tuple[float, float]:
    return min(times), statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--sizes", default="250000,1000000,4000000")
    parser.add_argument("--graph", choices=["road", "rmat"], default="road")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    gpu = td.gpus.gpgpusim_hwwl()
    scheme = td.schemes.Hwwl(bank_entries=32, redistribution="lsorting", refill="interval")
    previous = None
    verdict = None
    for n in sizes:
        t0 = time.perf_counter()
        graph = (
            td.workloads.graphs.road(n, seed=1)
            if args.graph == "road"
            else td.workloads.graphs.rmat(n, 16.0, seed=1)
        )
        built = time.perf_counter() - t0
        sim, ref = [], []
        result = None
        for _ in range(args.reps):
            wl = td.workloads.graph_operator(graph, "bfs", name=f"bfs({args.graph} {n})")
            t0 = time.perf_counter()
            result = td.simulate(wl, gpu, scheme)  # checks the distances itself
            sim.append(time.perf_counter() - t0)
            fresh = _core.WorklistProblem(graph, "bfs", {"source": 0.0})
            t0 = time.perf_counter()
            fresh.reference_distances()
            ref.append(time.perf_counter() - t0)
        assert result is not None
        s_best, s_med = best(sim)
        r_best, _ = best(ref)
        m = result.metrics
        print(
            f"{n:>9,} nodes, {graph.arcs:>11,} arcs (built in {built:.2f} s): hwwl "
            f"{s_best:6.2f} s best, {s_med:6.2f} s median; {result.makespan_cycles:,} cycles "
            f"= {result.makespan_cycles / s_best / 1e6:5.2f} M cycles/s, "
            f"{m['items'] / s_best / 1e6:5.2f} M items/s, "
            f"{m['events'] / s_best / 1e6:5.2f} M events/s; "
            f"plain BFS {r_best * 1e3:7.1f} ms (simulation / plain BFS = {s_best / r_best:5.1f}x)"
        )
        if previous is not None:
            print(f"{'':>11}growth from {previous[0]:,} nodes: x{s_best / previous[1]:.2f} time")
        previous = (n, s_best)
        if n == TARGET_NODES:
            verdict = s_best < TARGET_SECONDS
    if verdict is not None:
        print(
            f"target: BFS on a 1M-node {args.graph} graph under {TARGET_SECONDS:.0f} s -> "
            f"{'MET' if verdict else 'NOT MET'}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
