"""Speed of the control-flow machines (simt, sgmf, vgiw; docs/models/vgiw.md).

The issue's setting: a synthetic kernel of 1M threads and 50 basic blocks
with 30% divergence (``divergent_cfg``: if-then regions whose headers send
30% of the threads into the then-block by a per-thread predicate) on all
three machines.  sgmf runs with ``fabric_scale`` 20 so that the whole
50-block kernel maps (on the 108-unit fabric it does not).  Printed per
machine: seconds (best, median of --reps) and thread x block executions
simulated per second.

Reference, measured in the same run: a vectorised NumPy pass that draws
every thread's branch decisions of the same kernel shape and sums the path
lengths (what any simulator of these kernels must at least do); the ratio
simulation / reference is printed.

Then a sweep of 1,000 configurations of 64K threads (10 divergences x 5
fabric sizes x 2 reconfiguration models x 10 replicates of vgiw on the
50-block kernel).  Target: under 60 s on this machine (2 cores).

Usage: python benchmarks/vgiw_throughput.py [--reps 3] [--threads 1000000]
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

import tbdse as td

TARGET_SWEEP_SECONDS = 60.0


def reference_walk(threads: int, blocks: int, divergence: float) -> int:
    """Path lengths of the divergent_cfg shape, drawn with NumPy: a header
    every two blocks sends a thread through its then-block with chance
    ``divergence``."""
    rng = np.random.default_rng(1)
    headers = (blocks - 1) // 2
    taken = (rng.random((headers, threads)) < divergence).sum(axis=0)
    return int((blocks - headers + taken).sum())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1_000_000)
    args = parser.parse_args()
    wl = td.workloads.divergent_cfg(blocks=50, threads=args.threads, divergence=0.3)
    ref = []
    for _ in range(args.reps):
        t0 = time.perf_counter()
        reference_walk(args.threads, 50, 0.3)
        ref.append(time.perf_counter() - t0)
    ref_best = min(ref)
    print(f"reference (NumPy branch draws, {args.threads:,} threads x 50 blocks): {ref_best:.3f} s")
    schemes = {
        "simt": td.schemes.Simt(),
        "sgmf": td.schemes.Sgmf(fabric_scale=20.0),
        "vgiw": td.schemes.Vgiw(),
    }
    for name, scheme in schemes.items():
        times = []
        result = None
        for _ in range(args.reps):
            t0 = time.perf_counter()
            result = td.simulate(wl, "gtx480", scheme)
            times.append(time.perf_counter() - t0)
        assert result is not None and result.has_makespan
        best, median = min(times), statistics.median(times)
        executions = result.metrics["block_executions"]
        print(
            f"{name}: {best:.3f} s best, {median:.3f} s median; {executions / 1e6:.1f} M "
            f"thread-blocks = {executions / best / 1e6:.1f} M thread-blocks/s; "
            f"{args.threads * 50 / best / 1e6:.1f} M threads x blocks/s; "
            f"simulation / reference = {best / ref_best:.1f}x"
        )
    kernels = [
        td.workloads.divergent_cfg(blocks=50, threads=65536, divergence=d / 10) for d in range(10)
    ]
    t0 = time.perf_counter()
    df = td.sweep(
        kernels,
        "gtx480",
        "vgiw",
        grid={"fabric_scale": [0.5, 1.0, 1.5, 2.0, 4.0], "reconfig_model": ["fixed", "sqrt"]},
        replicates=10,
        progress=False,
    )
    took = time.perf_counter() - t0
    verdict = "MET" if took < TARGET_SWEEP_SECONDS else "NOT MET"
    print(
        f"sweep: {len(df)} configurations of 64K threads x 50 blocks in {took:.1f} s "
        f"({took / len(df) * 1e3:.0f} ms each; target < {TARGET_SWEEP_SECONDS:.0f} s: {verdict})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
