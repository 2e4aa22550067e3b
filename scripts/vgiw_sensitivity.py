"""VGIW sensitivity table (docs/MODELS.md §9, docs/models/vgiw.md
"Sensitivity"): each headline with every fitted constant (and the assumed
ones that carry the most) at half and at double its value, the rest at the
defaults.  Prints a Markdown table; a headline whose claim changes between
holds and misses is marked "flips".

    .venv/bin/python scripts/vgiw_sensitivity.py

Energy constants are compile-time (cpp/models/vgiw/energy.hpp); their
variants are recomputed from each run's counters (energy is linear in them).
Memory-bound kernels are picked by the ledger's rule (tests/vgiw_claims.py:
DRAM bytes per operation on each run's simt), not by name.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

import tbdse as td

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from vgiw_claims import ENERGY_PJ, memory_bound

# Per-warp-instruction pipeline energy and the static powers, pJ (energy.hpp).
WARP_ISSUE_PJ = ENERGY_PJ["warp_issue"]
STATIC_PJ_PER_CYCLE = ENERGY_PJ["core_static"] + ENERGY_PJ["die_static"] + ENERGY_PJ["dram_static"]

# (name, machine it belongs to, default)
CONSTANTS: list[tuple[str, str, float]] = [
    ("issue_efficiency", "simt", 1.0),  # residual per GPU, none by default
    ("warp_issue_pJ", "energy", WARP_ISSUE_PJ),  # calibrated on §1's 30% share
    ("static_power", "energy", 1.0),  # x the static powers (tbdse's)
    ("token_buffer_entries", "fabric", 45),
    ("hop_cycles", "fabric", 2),
    ("lvc_hit_cycles", "vgiw", 20),
    ("alu_latency", "simt", 22),
    ("dispatch_cycles", "simt", 2),  # Fermi: 2 cycles per warp instruction per scheduler
    ("dram_bytes_per_cycle", "all", 8.0),
]


def run_all(simt: dict[str, Any], vgiw: dict[str, Any], sgmf: dict[str, Any]) -> dict[str, Any]:
    rows = {}
    for name in td.workloads.rodinia_names():
        wl = td.workloads.rodinia(name)
        rows[name] = (
            td.simulate(wl, "gtx480", td.schemes.Simt(**simt)).metrics,
            td.simulate(wl, "gtx480", td.schemes.Vgiw(**vgiw)).metrics,
            td.simulate(wl, "gtx480", td.schemes.Sgmf(**sgmf)).metrics,
        )
    return rows


def energy(m: dict[str, float], issue: float, static: float) -> float:
    """System energy (nJ) with another warp-issue energy and static scale."""
    wi = m.get("warp_instructions", 0.0)
    wi = 0.0 if np.isnan(wi) else wi
    cycles = m["makespan_cycles"]
    return (
        m["energy"]
        + (wi * (issue - WARP_ISSUE_PJ) + STATIC_PJ_PER_CYCLE * cycles * (static - 1)) / 1e3
    )


def headlines(
    rows: dict[str, Any], issue: float = WARP_ISSUE_PJ, static: float = 1.0
) -> dict[str, float]:
    sp = {n: s["makespan_cycles"] / v["makespan_cycles"] for n, (s, v, _) in rows.items()}
    simt = pd.DataFrame({n: s for n, (s, _, _) in rows.items()}).T
    bound = memory_bound(simt)
    mapped = {n: g for n, (_, _, g) in rows.items() if g["maps"] == 1}
    over_sgmf = [g["makespan_cycles"] / rows[n][1]["makespan_cycles"] for n, g in mapped.items()]
    eff = [energy(s, issue, static) / energy(v, issue, static) for s, v, _ in rows.values()]
    eff_sgmf = [
        energy(g, issue, static) / energy(rows[n][1], issue, static) for n, g in mapped.items()
    ]
    return {
        "Fig. 7 mean (3x)": float(np.mean(list(sp.values()))),
        "memory-bound (~1x)": float(np.mean([sp[n] for n in sp if bound[n]])),
        "Fig. 8 mean (>1.45x)": float(np.mean(over_sgmf)),
        "Fig. 9 energy (1.75x)": float(np.mean(eff)),
        "Fig. 11 energy (1.33x)": float(np.mean(eff_sgmf)),
    }


HOLDS = {
    "Fig. 7 mean (3x)": (2.9, 3.1),
    "memory-bound (~1x)": (0.8, 1.2),
    "Fig. 8 mean (>1.45x)": (1.45, 1e9),
    "Fig. 9 energy (1.75x)": (1.4, 2.1),
    "Fig. 11 energy (1.33x)": (1.2, 1.46),
}


def main() -> int:
    base_rows = run_all({}, {}, {})
    base = headlines(base_rows)
    print("| constant | x | " + " | ".join(base) + " |")
    print("|---|---|" + "---|" * len(base))
    print("| (defaults) | 1 | " + " | ".join(f"{v:.2f}" for v in base.values()) + " |")
    for name, where, default in CONSTANTS:
        for factor in (0.5, 2.0):
            value = default * factor
            if name == "issue_efficiency" and value > 1:
                print(f"| {name} | {factor:g} | " + " | ".join("n/a (max 1)" for _ in base) + " |")
                continue
            if where == "energy":
                issue = value if name == "warp_issue_pJ" else WARP_ISSUE_PJ
                static = value if name == "static_power" else 1.0
                got = headlines(base_rows, issue, static)
            else:
                v = type(default)(value) if isinstance(default, int) else value
                simt = {name: v} if where in ("simt", "all") else {}
                fab = {name: v} if where in ("fabric", "vgiw", "all") else {}
                got = headlines(run_all(simt, fab, {} if where == "vgiw" else fab))
            cells = []
            for key, val in got.items():
                lo, hi = HOLDS[key]
                flip = (lo <= val <= hi) != (lo <= base[key] <= hi)
                cells.append(f"{val:.2f}{' (flips)' if flip else ''}")
            print(f"| {name} | {factor:g} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
