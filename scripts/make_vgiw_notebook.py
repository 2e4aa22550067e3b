# ruff: noqa: E501  (the strings below are notebook cells, not this file's code)
"""Writes notebooks/vgiw.ipynb (the VGIW reproduction) from the cells below;
scripts/run_notebooks.py then executes it in place.

Usage: python scripts/make_vgiw_notebook.py && python scripts/run_notebooks.py notebooks/vgiw.ipynb
"""

from __future__ import annotations

from _nbwrite import ROWS_HELPER, RUN_HELPER, write_notebook

CELLS: list[tuple[str, str]] = [
    (
        "md",
        """# VGIW: control-flow coalescing (MICRO-48 2015) in tbdse

This notebook reproduces the evaluation of *Control Flow Coalescing on a
Hybrid Dataflow/von Neumann GPGPU* (Voitsechov & Etsion, §5) with tbdse's
control-flow machines: `simt` (a Fermi SM: warps, masks, reconvergence at the
immediate post-dominator), `sgmf` (the whole kernel on the fabric) and `vgiw`
(the smallest block id with waiting threads runs its thread vector on the
reconfigured 108-unit fabric). Each section runs one experiment file
(`tbdse run experiments/vgiw_fig7.yaml -o ...` gives the same table and
figures). Model and interpretations: `docs/models/vgiw.md`.

**Inputs.** The 21 Rodinia kernels of Table 2 with the paper's basic-block
counts. Op mixes, thread counts, divergence and memory intensity are **not in
the paper**: the presets are tbdse's derivation from each kernel's source
structure (`td.models.vgiw.RODINIA[...]["source"]`).

**Calibration (MODELS.md §9).** Nothing is fitted to Fig. 7: simt's time
comes from Fermi's dispatch (one warp instruction per cycle), its LD/ST and
SFU pipes, each kernel's launch (thread blocks from the Rodinia source:
occupancy, half-empty warps), dependence and memory stalls, MSHRs and DRAM (a
warp queueing network); its `issue_efficiency`, a residual per GPU, stays 1
(none), and the scan below shows the paper's 3x would need about 0.19. The
one fitted constant is the energy model's pipeline energy per warp
instruction, fitted to §1's published 30% pipeline + register-file share
(0.75 nJ; `scripts/vgiw_fit_pipeline_energy.py`, checked below). Every other
figure is a prediction with it unchanged; the claims ledger
(`docs/models/vgiw_claims.yaml`) lists every claim, holds or misses.""",
    ),
    (
        "code",
        """import numpy as np
import pandas as pd
import tbdse as td

"""
        + RUN_HELPER
        + """
"""
        + ROWS_HELPER,
    ),
    (
        "md",
        """## The example of Figs. 1-2

Eight threads: 1, 3, 8 take BB2; 2, 7 take BB3 and BB4; 4-6 take BB3 and BB5.
With one warp of eight lanes, simt's lane utilisation is 29/48; vgiw loads six
configurations, one per block.""",
    ),
    (
        "code",
        """ex = td.workloads.vgiw_example()
simt = td.simulate(ex, "gtx480", td.schemes.Simt(warp_size=8, control_instructions=0))
vgiw = td.simulate(ex, "gtx480", "vgiw")
print("lane utilisation", simt.metrics["lane_utilisation"], "= 29/48:", np.isclose(simt.metrics["lane_utilisation"], 29 / 48))
print("configurations", vgiw.metrics["configurations"])
print("ipdom (block count 6 = exit):", ex.model_input.ipdom)""",
    ),
    (
        "md",
        """## Calibration on Fig. 7

`experiments/vgiw_calibration.yaml` runs simt at nine residual issue
efficiencies with vgiw as the baseline, so 1 / speedup is vgiw's speed-up
over simt. The value whose mean is nearest 3x is about 0.19, far below a
plausible residual (>= 0.5), so it is not adopted: the default stays 1 and
Fig. 7's mean is a predicted miss.""",
    ),
    (
        "code",
        """calib = run("vgiw_calibration")
mean = (1 / calib.pivot_table(index="issue_efficiency", columns="workload", values="speedup")).mean(axis=1)
best = (mean - 3.0).abs().idxmin()
print("residual that would give 3x:", best, "(not adopted; default 1)")
assert best == 0.19
mean.round(2)""",
    ),
    (
        "code",
        """fig7 = run("vgiw_fig7")
v = fig7[fig7.scheme == "vgiw"].set_index("workload")
s = fig7[fig7.scheme == "simt"].set_index("workload")
sp = v["speedup"]
row("Fig. 7 vgiw / simt, mean", "3x", round(sp.mean(), 2), "predicted")
row("Fig. 7 vgiw / simt, range", "0.9x-11x", f"{sp.min():.2f}x-{sp.max():.2f}x", "predicted")
import sys
sys.path.insert(0, "../tests")  # the notebook runs in notebooks/
from vgiw_claims import memory_bound, pipeline_rf_share, ENERGY_PJ
mem = memory_bound(s)  # the ledger's rule: >= 1 DRAM byte per op on simt
row("Fig. 7 memory-bound kernels", "near 1x (CFD3 0.9x)", f"{sp[mem].min():.2f}x-{sp[mem].max():.2f}x", "predicted")
limits = {0: "issue/stream", 1: "latency/tokens", 2: "MSHRs", 3: "DRAM", 4: "L1 banks", 5: "LVC"}
pd.DataFrame({"speedup": sp, "memory_bound": mem, "simt warps": s["resident_warps"],
              "simt load lat.": s["load_latency"], "vgiw load lat.": v["load_latency"],
              "vgiw bank cycles": v["bank_cycles"], "LVC hit": v["lvc_hit_rate"],
              "simt limit": s["limit"].map(limits), "vgiw limit": v["limit"].map(limits)}).round(2)""",
    ),
    (
        "code",
        """td.plot.bar(fig7[fig7.scheme == "vgiw"], x="workload", y="speedup", title="Fig. 7: vgiw over simt");""",
    ),
    (
        "md",
        """## Fig. 8 — over SGMF (predicted)

Kernels whose whole graph does not fit the fabric report `maps` = 0 and a NaN
speed-up; Fig. 8 keeps the others.""",
    ),
    (
        "code",
        """f8 = run("vgiw_fig8")
g8 = f8[f8.scheme == "sgmf"].set_index("workload")
v8 = f8[f8.scheme == "vgiw"].set_index("workload")
fig8 = v8["speedup"][g8["maps"] == 1]
row("Fig. 8 vgiw / sgmf, mean", "> 1.45x", round(fig8.mean(), 2), "predicted")
row("Fig. 8 vgiw / sgmf, range", "0.4x-3.1x", f"{fig8.min():.2f}x-{fig8.max():.2f}x", "predicted")
row("Fig. 8 kernels SGMF maps", "a subset", f"{len(fig8)} of 21", "predicted")
fig8.round(2)""",
    ),
    (
        "md",
        """## Fig. 3, reconfiguration and energy (predicted)""",
    ),
    (
        "code",
        """ratio = v["lvc_accesses"] / s["rf_accesses"]
row("Fig. 3 LVC / RF accesses, mean", "~0.1 (10x fewer)", round(ratio.mean(), 3), "predicted")
row("reconfiguration share, mean", "0.18%", f"{100 * v['reconfig_share'].mean():.2f}%", "predicted")
row("reconfiguration share, median", "< 0.1%", f"{100 * v['reconfig_share'].median():.2f}%", "predicted")
row("pipeline + RF share of simt's energy", "~30%", f"{100 * pipeline_rf_share(s):.1f}% ({ENERGY_PJ['warp_issue'] / 1e3:g} nJ per warp instruction)", "calibrated")
eff = s["energy"] / v["energy"]
row("Fig. 9 energy efficiency vgiw / simt, mean", "1.75x", round(eff.mean(), 2), "predicted")
row("Fig. 9 range", "0.7x-7x", f"{eff.min():.2f}x-{eff.max():.2f}x", "predicted")
levels = pd.DataFrame({lvl: s[f"energy{suf}"] / v[f"energy{suf}"] for lvl, suf in
                       (("core", "_core"), ("die", "_die"), ("system", ""))})
row("Fig. 10 efficiency core / die / system", "core highest", " / ".join(f"{x:.2f}" for x in levels.mean()), "predicted")
e11 = (g8["energy"] / v8["energy"])[g8["maps"] == 1]
row("Fig. 11 energy efficiency vgiw / sgmf, mean", "1.33x", round(e11.mean(), 2), "predicted")
pd.concat([pd.DataFrame({"LVC/RF": ratio, "reconfig %": 100 * v["reconfig_share"]}), levels], axis=1).round(3)""",
    ),
    (
        "md",
        """## Design space: fabric size x LVC size x token-buffer depth x divergence

A 30-block synthetic kernel of 64K threads (`experiments/vgiw_design_space.yaml`).
The fabric's memory parallelism is its token buffers: each load/store and
live value unit keeps `token_buffer_entries` threads waiting, so the speed-up
grows with the buffer depth (36-65% from 45 to 128 entries on Table 1's
fabric) and with the fabric's size. The LVC's size sets the tile: a 16 KB LVC
makes 64 tiles, each configuring every block, and loses 5-43% against 64 KB.
Along divergence the speed-up peaks near 0.1 (simt pays a whole then-block as
soon as one thread of a warp takes it, vgiw per thread; past 0.1 almost every
warp has a taker). vgiw beats simt in 14 of the 108 points, all but one with
the double fabric.""",
    ),
    (
        "code",
        """ds = run("vgiw_design_space")
td.plot.heatmap(ds[ds.lvc_bytes == 65536], x="workload.divergence", y="fabric_scale", value="speedup", facet="token_buffer_entries")
td.plot.heatmap(ds[ds["workload.divergence"] == 0.3], x="lvc_bytes", y="token_buffer_entries", value="speedup", facet="fabric_scale")
ds[ds["workload.divergence"] == 0.3].pivot_table(index=["token_buffer_entries", "lvc_bytes"], columns="fabric_scale", values="speedup").round(2)""",
    ),
    (
        "md",
        """## The claims ledger

Every claim of §5 and Figs. 3, 7-11 with tbdse's value and tolerance
(`docs/models/vgiw_claims.yaml`, checked by `tests/test_vgiw_reproduction.py`).
The sensitivity table (each fitted constant at half and double) is in
`docs/models/vgiw.md` (`scripts/vgiw_sensitivity.py`).""",
    ),
    (
        "code",
        """import yaml
from pathlib import Path
ledger = pd.DataFrame(yaml.safe_load(Path("../docs/models/vgiw_claims.yaml").read_text())["claims"])
print(f"holds: {(ledger.status == 'holds').sum()} of {len(ledger)}")
ledger[["id", "source", "paper", "tbdse", "low", "high", "kind", "status"]]""",
    ),
    (
        "md",
        """## Paper vs tbdse

The headline rows above; the misses and their reasons are in the ledger. In
short: without a fitted residual vgiw is 1.12x a Fermi SM on tbdse's presets,
not 3x. The gain sits where Rodinia launches 16- or 32-thread blocks (nw,
lud_diagonal, ge_fan2: 2.7x-3.6x), leaving simt eight half-empty warps to
hide memory latency that the fabric's token buffers hide whatever the
launch; the other 17 kernels average 0.67x. Peak against peak the fabric's
units allow 1.5-2x on a balanced block, and its memory parallelism (16 LD/ST
units x 45 entries) is no larger than simt's 32 MSHRs, so memory-bound
kernels tie near 1x (0.86x) as the paper says and small compute kernels lose
(0.32x). The 3x would need a residual of 0.19; LVC-sized tiles cost 1.5% in
reconfiguration. Energy: vgiw removes simt's pipeline and register file (30%
of simt's energy, the calibrated share) but its per-thread L1 accesses and
longer runs on most kernels give much of it back: 1.19x against the paper's
1.75x. Over SGMF: 1.48x in time (holds), 1.15x in energy (paper 1.33x).""",
    ),
    (
        "code",
        """pd.DataFrame(rows)""",
    ),
]


if __name__ == "__main__":
    write_notebook(CELLS, "vgiw.ipynb")
