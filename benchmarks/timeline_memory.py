"""Peak memory of ``simulate(..., timeline=True)`` on a 10-million-task graph.

Each variant runs in a fresh Python process (peak RSS from ``getrusage`` is
per process): a 3163 x 3163 wavefront (10,004,569 TBs) with lognormal costs
under ``dataflow_ideal`` on a GTX480,

* reference: the run without a timeline;
* ``timeline=True``: the run recording it;
* ``timeline=True`` plus ``Result.timeline()``: the table built as well.

Printed: peak RSS of each and the extra over the reference.  Target: the
timeline with its table stays under 2 GB (issue 8; it took 2.66 GB before).
Correctness check (exit 1 otherwise): every variant reports the same
makespan, and the table has one row per task.

Usage: python benchmarks/timeline_memory.py [--rows 3163]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

TARGET_BYTES = 2e9

CHILD = """
import json, resource, sys
import tbdse as td
rows, mode = int(sys.argv[1]), sys.argv[2]
wl = td.workloads.wavefront(rows, rows, cost=td.cost.lognormal(2000, 0.2))
gpu = td.gpus.gtx480(sm_model="fixed")  # TBs take their costs, as in the reports before
r = td.simulate(wl, gpu, "dataflow_ideal", timeline=mode != "reference")
table_rows = len(r.timeline()) if mode == "table" else None
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
out = {"makespan": r.makespan_cycles, "rows": table_rows, "peak": peak, "tasks": wl.tasks}
print(json.dumps(out))
"""


def measure(rows: int, mode: str) -> dict[str, int]:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(rows), mode], capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=3163)
    args = parser.parse_args()
    results = {m: measure(args.rows, m) for m in ("reference", "timeline", "table")}
    base = results["reference"]
    print(f"{base['tasks']:,} tasks ({args.rows} x {args.rows} wavefront, dataflow_ideal, gtx480)")
    for mode, label in (
        ("reference", "run without timeline"),
        ("timeline", "run with timeline"),
        ("table", "run with timeline + Result.timeline()"),
    ):
        r = results[mode]
        extra = (r["peak"] - base["peak"]) / 1e9
        print(f"  {label:40s} peak {r['peak'] / 1e9:5.2f} GB  (+{extra:4.2f} GB)")
    ok = all(r["makespan"] == base["makespan"] for r in results.values())
    ok = ok and results["table"]["rows"] == base["tasks"]
    if not ok:
        print("CHECK FAILED: variants disagree (makespan or table rows)")
        return 1
    peak = results["table"]["peak"]
    verdict = "MET" if peak < TARGET_BYTES else "NOT MET"
    print(f"target: timeline with its table < 2.0 GB: {peak / 1e9:.2f} GB -> {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
