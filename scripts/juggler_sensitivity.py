"""Juggler's sensitivity table (docs/MODELS.md §9): every claim of the ledger
(docs/models/juggler_claims.yaml) re-measured with each fitted constant, and
each estimate the results lean on, at half and at double its value.  A claim
whose verdict flips is carried by that constant.  Prints a Markdown table
(docs/models/juggler.md, "Sensitivity").  The tasks carry their data
footprints (juggler_app's default), which makes a run ~100x slower than
without: the full table (five runs, Fig. 7's five sizes) takes ~2 CPU-hours;
``--quick`` runs one replicate and Fig. 7 at 3,600 / 18,000 / 32,400 tasks
(~20 CPU-minutes), which leaves Fig. 5's run-to-run claim unmeasured (one run
has no spread) and compares every variant with a baseline run the same way.

Usage: .venv/bin/python scripts/juggler_sensitivity.py [processes] [--quick]
"""

from __future__ import annotations

import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

COST_SCALE = 20.0  # experiments/juggler_calibration.yaml
QUICK = ("replicates=1", "grid.iterations=[2,10,18]")

# constant -> (grid axis, calibrated value, what it is)
CONSTANTS = {
    "cost_scale": ("cost_scale", COST_SCALE, "fitted (Fig. 4)"),
    "sm_saturation": ("gpu.sm_saturation", 2.0, "p100 preset, fitted earlier on Fig. 4"),
    "host_launch_us": ("gpu.host_launch_us", 15.0, "p100 preset, fitted earlier on Fig. 4"),
    "spin_weight": ("spin_weight", 0.125, "estimate (one warp of 8)"),
    "host_inspect_us_per_task": ("host_inspect_us_per_task", 0.05, "estimate"),
    "enqueue_cycles": ("enqueue_cycles", 1500, "estimate"),
    "runtime_contention": ("runtime_contention", 1.0, "estimate"),
    "cost_jitter": ("cost_jitter", 0.02, "assumed run-to-run spread"),
}


def verdicts(overrides: tuple[str, ...], quick: bool) -> dict[str, bool]:
    from juggler_claims import CLAIMS

    import tbdse as td

    folder = Path(tempfile.mkdtemp())
    tables = []
    for name in ("juggler_fig4", "juggler_fig7"):
        extra = [
            o for o in QUICK if quick and (name == "juggler_fig7" or o.startswith("replicates"))
        ]
        exp = td.experiment.load(
            ROOT / "experiments" / f"{name}.yaml", overrides=(*overrides, *extra)
        )
        tables.append(exp.run(folder / name, progress=False, echo=lambda _: None))
    return {k: check(*tables)[1] for k, check in CLAIMS.items()}


def main() -> None:
    args = [a for a in sys.argv[1:] if a != "--quick"]
    processes = int(args[0]) if args else 2
    quick = "--quick" in sys.argv
    runs = {"calibrated": ()}
    for name, (axis, value, _) in CONSTANTS.items():
        for factor in (0.5, 2.0):
            v = value * factor
            runs[f"{name} x{factor:g}"] = (f"grid.{axis}=[{v:g}]",)
    # not a constant: the per-kernel throughput model, opt-in (docs/models/juggler.md)
    runs["per-kernel throughput (alu_latency 6, opt-in)"] = ("grid.alu_latency=[6]",)
    with ProcessPoolExecutor(processes) as pool:
        done = pool.map(verdicts, runs.values(), [quick] * len(runs))
        base = None
        for label, got in zip(runs, done, strict=True):  # in order, printed as they come
            if base is None:
                base = got
                print(f"| variant | claims holding (of {len(base)}) | verdicts that flip |")
                print("|---|---|---|")
            flips = [f"{k} ({'holds' if v else 'misses'})" for k, v in got.items() if v != base[k]]
            print(f"| {label} | {sum(got.values())} | {', '.join(flips) or '-'} |", flush=True)


if __name__ == "__main__":
    main()
