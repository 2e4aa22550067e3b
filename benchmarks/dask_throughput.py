"""Sweep throughput on a Dask cluster against the local TBB run, same machine.

A sweep of --runs runs (a 60x60 wavefront under dataflow_ideal and wireframe,
lognormal costs, replicates) is simulated

  local:    ``td.sweep(..., threads=W)``: one process, TBB on W threads;
  cluster:  ``td.sweep(..., executor=client, threads=1)`` on a LocalCluster of
            W worker processes with one thread each (TBB on one thread per
            chunk), the cluster started before timing.

and the ratio cluster / local throughput (runs per second) is printed.  On
one machine the cluster cannot beat TBB; the ratio is the price of Dask
(serialising the plan once, one task per chunk, columns shipped back), the
figure that says how much of a cluster's extra machines a sweep keeps.
Target: >= 0.8 with W = 2 on a sweep of a few seconds.  The tables must be
identical (a correctness check: exit 1 otherwise).

Usage: python benchmarks/dask_throughput.py [--workers W] [--runs N] [--reps R]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from typing import Any

import pandas as pd

import tbdse as td

TARGET = 0.8


def sweep(runs: int, **kwargs: Any) -> pd.DataFrame:
    wl = td.workloads.wavefront(60, 60, cost=td.cost.lognormal(2000, 0.3))
    return td.sweep(
        wl,
        "gtx480",
        ["dataflow_ideal", td.Scheme("wireframe", node_buffer=64)],
        replicates=max(1, runs // 2),
        seed=1,
        progress=False,
        **kwargs,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--runs", type=int, default=400)
    parser.add_argument("--reps", type=int, default=3)
    args = parser.parse_args()
    if min(args.workers, args.runs, args.reps) < 1:
        parser.error("--workers, --runs and --reps must be positive")
    try:
        import distributed
    except ImportError:
        print("dask_throughput: needs Dask distributed (pip install 'dask[distributed]')")
        return 2

    cluster = distributed.LocalCluster(
        n_workers=args.workers,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        silence_logs=50,
    )
    client = distributed.Client(cluster)
    try:
        sweep(8, executor=client, threads=1)  # warm the workers (imports)
        local_t, cluster_t = [], []
        reference = on_cluster = None
        for _ in range(args.reps):  # interleaved, so drift affects both alike
            t0 = time.perf_counter()
            reference = sweep(args.runs, threads=args.workers)
            local_t.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            on_cluster = sweep(args.runs, executor=client, threads=1)
            cluster_t.append(time.perf_counter() - t0)
    finally:
        client.close()
        cluster.close()
    assert reference is not None and on_cluster is not None
    if not reference.equals(on_cluster):
        print("dask_throughput: FAILED: the cluster's table differs from the local one")
        return 1
    n = len(reference)
    local, remote = min(local_t), min(cluster_t)
    ratio = local / remote
    print(f"sweep of {n} runs, {args.workers} workers, best of {args.reps}")
    print(
        f"  local TBB ({args.workers} threads): {n / local:8.1f} runs/s "
        f"(best {local:.2f} s, median {statistics.median(local_t):.2f} s)"
    )
    print(
        f"  LocalCluster ({args.workers} x 1):   {n / remote:8.1f} runs/s "
        f"(best {remote:.2f} s, median {statistics.median(cluster_t):.2f} s)"
    )
    print(
        f"  cluster / local throughput: {ratio:.2f} (target >= {TARGET}: "
        f"{'MET' if ratio >= TARGET else 'NOT MET'})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
