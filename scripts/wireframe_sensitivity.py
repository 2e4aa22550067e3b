"""Wireframe's sensitivity table (docs/MODELS.md §9): every claim of the
ledger (docs/models/wireframe_claims.yaml) re-measured with each fitted
constant, and each estimate the results lean on, at half and at double its
value.  A claim whose verdict flips is carried by that constant.  Prints a
Markdown table (docs/models/wireframe.md, "Sensitivity").  About 5 minutes
on 2 cores.

Usage: .venv/bin/python scripts/wireframe_sensitivity.py [processes]
"""

from __future__ import annotations

import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

# constant -> (how it is varied, calibrated value, what it is)
CONSTANTS = {
    "block mean (4K)": ("preset", 83_000.0, "fitted (Fig. 9 + Fig. 10 ranges)"),
    "block spread sigma": ("preset", 0.02, "fitted (Fig. 9 + Fig. 10 ranges)"),
    "device_launch_us": ("gpu.device_launch_us", 20.0, "fitted (Fig. 9 CDP)"),
    "sm_saturation": ("gpu.sm_saturation", 4.0, "gtx480 preset, fitted earlier on Fig. 9"),
    "mem_share": ("preset", 1.0, "estimate (memory share per benchmark, scaled)"),
    "l2_bytes": ("gpu.l2_bytes", 786_432, "vendor figure (GTX480 L2)"),
}


def patch_presets(name: str, factor: float) -> None:
    """Scales a preset constant of the benchmarks in this process."""
    from dataclasses import replace

    import tbdse.models.wireframe.benchmarks as wb

    if name == "block mean (4K)":
        for size, (side, mean) in list(wb.SIZES.items()):
            wb.SIZES[size] = (side, mean * factor)
    elif name == "block spread sigma":
        wb.SIGMA *= factor
    elif name == "mem_share":
        for key, b in list(wb.BENCHMARKS.items()):
            wb.BENCHMARKS[key] = replace(b, mem_share=min(1.0, b.mem_share * factor))


def verdicts(variant: tuple[str, float] | None) -> dict[str, bool]:
    from wireframe_claims import CLAIMS, EXPERIMENTS, Tables

    import tbdse as td

    overrides: tuple[str, ...] = ()
    if variant is not None:
        name, factor = variant
        axis, value, _ = CONSTANTS[name]
        if axis == "preset":
            patch_presets(name, factor)
        else:
            v = value * factor
            shown = str(int(v)) if axis == "gpu.l2_bytes" else f"{v:g}"
            overrides = (f"grid.{axis}=[{shown}]",)
    folder = Path(tempfile.mkdtemp())
    tables = [
        td.experiment.load(ROOT / "experiments" / f"{n}.yaml", overrides=overrides).run(
            folder / n, progress=False, echo=lambda _: None
        )
        for n in EXPERIMENTS
    ]
    t = Tables(*tables)
    return {k: check(t)[1] for k, check in CLAIMS.items()}


def main() -> None:
    processes = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    runs: dict[str, tuple[str, float] | None] = {"calibrated": None}
    for name in CONSTANTS:
        for factor in (0.5, 2.0):
            runs[f"{name} x{factor:g}"] = (name, factor)
    # a fresh process per variant: patch_presets changes module state
    with ProcessPoolExecutor(processes, max_tasks_per_child=1) as pool:
        results = dict(zip(runs, pool.map(verdicts, runs.values()), strict=True))
    base = results["calibrated"]
    print(f"| variant | claims holding (of {len(base)}) | verdicts that flip |")
    print("|---|---|---|")
    for label, got in results.items():
        flips = [f"{k} ({'holds' if v else 'misses'})" for k, v in got.items() if v != base[k]]
        print(f"| {label} | {sum(got.values())} | {', '.join(flips) or '-'} |")


if __name__ == "__main__":
    main()
