# ruff: noqa: E501  (the strings below are notebook cells, not this file's code)
"""Writes notebooks/blockmaestro.ipynb (the BlockMaestro reproduction) from the
cells below; scripts/run_notebooks.py then executes it in place.

Usage: python scripts/make_blockmaestro_notebook.py && python scripts/run_notebooks.py notebooks/blockmaestro.ipynb
"""

from __future__ import annotations

from _nbwrite import ROWS_HELPER, RUN_HELPER, write_notebook

CELLS: list[tuple[str, str]] = [
    (
        "md",
        """# BlockMaestro (ISCA 2021) in tbdse

This notebook reproduces the evaluation of *BlockMaestro: Enabling
Programmer-Transparent Task-based Execution in GPU Systems* (§IV) with tbdse's
multi-kernel schemes: `baseline` (serialised kernels, 5 µs launch each),
`ideal_baseline`, `prelaunch`, and `blockmaestro` (pre-launching plus TB-level
dependencies between consecutive kernels, producer or consumer priority).
Each section runs one of the experiment files `experiments/blockmaestro_*.yaml`
(`tbdse run experiments/blockmaestro_fig9.yaml -o ...` gives the same tables
and figures) and puts the paper's numbers beside tbdse's. The model and its
interpretations are in `docs/models/blockmaestro.md`.

**Launches and timing.** A host launch is 5 µs: a 2 µs API call, during
which the host can issue nothing else, and 3 µs on the device, which the
launches of pre-launched kernels overlap (§IV). The Titan X Pascal preset
runs the `shared` SM timing model (docs/simulation.md): an SM runs
`sm_saturation` resident TBs at full speed and shares its throughput among
more, so TB concurrency and speed-up are different numbers.

**Assumptions and calibration (MODELS.md §9).** The paper gives kernel counts
and dependency patterns (Table II) and storage ratios (Table III), not
problem sizes or TB run times. The presets (`td.workloads.blockmaestro_app`,
documented in `tbdse.models.blockmaestro.apps`) pick sizes that give
Table II's kernel counts and TB run-time proportions after §IV-B. Each TB's
reads and writes (the byte ranges of the accesses the dependency extraction
reads) go through the Titan X's memory hierarchy (L1, 3 MB L2, GDDR5X
channels), which replaces half of its run time (`mem_fraction` 0.5): a
consumer issued while its producers' lines are in L2 runs shorter, with no
per-policy term. The scale of the TB run times is fitted, at the preset's SM
saturation, to **one** figure, Fig. 9; every other figure is a prediction
with that value unchanged. Every figure runs with a TB-time spread (10% for
the presets, stated, not fitted) and reports means with low and high: five
replicates, Fig. 9 two here (its footprints through the memory hierarchy
take about 8 s of one core per scheme and replicate; the ledger in
docs/models/blockmaestro_claims.yaml shows five). Copies and allocations are
free, as in the paper's GPGPU-Sim.""",
    ),
    (
        "code",
        """import numpy as np
import pandas as pd
import matplotlib.pyplot as plt
import tbdse as td
from tbdse.models.blockmaestro import apps as blockmaestro_apps

"""
        + RUN_HELPER
        + """
def gmean(s):
    return float(np.exp(np.log(s).mean()))

def pct(speedup):
    return round(100 * (speedup - 1), 2)

"""
        + ROWS_HELPER
        + """

free_copies = td.gpus.titanx_pascal(copy_latency_us=0, malloc_us=0, copy_gbps=1e6)""",
    ),
    (
        "md",
        """## Table II and Table III — the applications, their patterns and storage

tbdse extracts each pair's TB graph from the index ranges the presets declare
(Algorithm 1), classifies it (Table I) and stores it plain or encoded. These
come from the presets' accesses alone, not from any timing.""",
    ),
    (
        "code",
        """table = []
for key, spec in blockmaestro_apps.APPS.items():
    wl = td.workloads.blockmaestro_app(key)
    rep = td.workloads.dependency_report(wl).iloc[1:]
    plain, enc = rep["plain_bytes"].sum(), rep["encoded_bytes"].sum()
    table.append({"app": spec.title, "kernels": wl.application.launches,
                  "kernels (paper)": spec.kernels,
                  "P# tbdse": " ".join(map(str, sorted(set(rep["pattern_number"])))),
                  "P# paper": " ".join(map(str, sorted(spec.patterns))),
                  "storage": round(enc / plain, 4) if plain else None,
                  "storage (paper)": spec.storage, "TBs": wl.tasks})
table2 = pd.DataFrame(table).set_index("app")
row("Table II kernel counts matched (of 12)", 12, int((table2["kernels"] == table2["kernels (paper)"]).sum()), "predicted")
row("Table III average storage (encoded / plain)", 0.653, round(table2["storage"].dropna().mean(), 3), "predicted")
table2""",
    ),
    (
        "md",
        """Kernel counts match for all twelve. Patterns match for seven; the others
differ for reasons of classification, not of extraction: tbdse calls a pair
whose single parent (or child) TB is linked to every TB of the other kernel
*fully connected* (P1), where Table II counts it as 1-to-n / n-to-1 (GAUSSIAN,
GRAMSCHM, LUD's diagonal kernel, NW's first and last pairs), and a halo across
a tile edge (children with two parents that share them) *overlapped* (P6),
where Table II writes n-to-1 (FDTD-2D, LUD, NW). Table III's ratios follow
from its storage model, which the paper does not give in full: tbdse stores a
plain graph as 4 (N + E) bytes, so a 1-to-1 pair encodes to about half (FFT
0.5 against 1), and 1-to-n as 4 (N + M) per Table I (GRAMSCHM 0.125 against
0.375, which equals an O(M) encoding).""",
    ),
    (
        "md",
        """## Calibration on Fig. 9

`experiments/blockmaestro_calibration.yaml` sweeps the scale of the presets'
TB run times around its best value (0.15 to 0.25; a one-replicate scan from
0.2 to 1.0 fell monotonically away from the paper: 0.6, the scale without
locality, gives producer 47.0% and consumer d3 74.0%), five replicates each
with the presets' 10% spread, and measures BlockMaestro with producer
priority and with consumer priority at 3 pre-launched kernels (here one
replicate, to keep the notebook short: the five-replicate table is in
docs/models/blockmaestro.md). The fit minimises the RMS distance to three numbers of Fig. 9: the two geometric
means (51.76%, 80.28%) and AlexNet's 6.9%. With footprints a TB's
(1 − `mem_fraction`) × scale × cost of compute overlaps what its reads
take (it ends when both are done), so
`mem_fraction` (0.5, stated) and the scale act as one product: only the
scale is fitted. The preset's SM saturation (2, shared with other models)
is kept.""",
    ),
    (
        "code",
        """calib = run("blockmaestro_calibration", "replicates=1")  # five in the file: docs/models/blockmaestro.md
keys = ["workload.cost_scale"]
per_rep = calib[calib.label != "baseline"].groupby(keys + ["label", "replicate"])["speedup"].apply(gmean)
geo = 100 * (per_rep.groupby(keys + ["label"]).mean().unstack() - 1)
alexnet = calib[(calib.label == "producer") & (calib.workload == "AlexNet")].groupby(keys)["speedup"].mean()
geo["AlexNet"] = 100 * (alexnet - 1)
geo["rms error"] = np.sqrt(((geo["producer"] - 51.76) ** 2 + (geo["consumer d3"] - 80.28) ** 2
                            + (geo["AlexNet"] - 6.9) ** 2) / 3)
fits = geo.sort_values("rms error")
assert blockmaestro_apps.COST_SCALE == fits.index[0]
fits.round(2)""",
    ),
    (
        "md",
        """All three numbers fall together as the scale grows (one replicate, after
load phases and the GTO default: 0.15 gives 53.96 / 81.35 / 9.46%, 0.35
50.53 / 78.00 / 7.47%, 0.4 49.99 / 76.85 / 7.18%), so the fit is one-sided:
shorter TBs make the launches a larger share. It moved from 0.2 to 0.25
because AlexNet's gain rose (docs/models/blockmaestro.md). The scale is well
under the earlier model's 0.6 because the reads, which now take the memory
half of a TB, mostly hit in L2 (section "Locality"
below).""",
    ),
    (
        "md",
        """## Fig. 9 — speed-up over the baseline

Paper (§IV-B, abstract): BlockMaestro's average speed-up is 51.76% (up to
2.92×); with 1, 2 and 3 pre-launched kernels (consumer priority) the
geometric mean rises, with diminishing returns, to 80.28%; AlexNet gains
6.9%. GAUSSIAN and GRAMSCHM gain most from pre-launching alone, 3MM, BICG
and FDTD from TB-level dependencies with producer priority.""",
    ),
    (
        "code",
        """fig9 = run("blockmaestro_fig9", "replicates=2")  # as the reproduction test: five in the ledger
# beyond the figure: 4 kernels pre-launched (the ledger's "diminishing returns past 3")
d4 = run("blockmaestro_fig9", "replicates=2", "schemes=[baseline, {name: blockmaestro, "
              "priority: consumer, prelaunch_depth: 4, label: consumer d4}]")
fig9 = pd.concat([fig9, d4[d4.label == "consumer d4"]], ignore_index=True)
table9 = fig9.pivot_table(index="workload", columns="label", values="speedup")
table9 = table9[["ideal baseline", "pre-launch", "producer", "consumer d1", "consumer d2", "consumer d3"]]
table9.loc["geomean"] = table9.apply(gmean)
geomean = table9.loc["geomean"]
row("Fig. 9 geomean speed-up, producer (%)", 51.76, pct(geomean["producer"]), "calibrated")
row("Fig. 9 geomean speed-up, consumer, 3 pre-launched (%)", 80.28, pct(geomean["consumer d3"]), "calibrated")
row("Fig. 9 AlexNet speed-up, producer (%)", 6.9, pct(table9.loc["AlexNet", "producer"]), "calibrated")
depth = [pct(geomean[f"consumer d{d}"]) for d in (1, 2, 3)]
row("Fig. 9 geomean, consumer, 1 / 2 / 3 pre-launched (%)", "rising to 80.28", " / ".join(map(str, depth)), "predicted")
row("Fig. 9 diminishing returns (gain 2->3 < gain 1->2)", "yes", bool(depth[2] - depth[1] < depth[1] - depth[0]), "predicted")
row("Fig. 9 largest speed-up, producer (x)", 2.92, round(table9.drop(index="geomean")["producer"].max(), 2), "predicted")
table9.round(3)""",
    ),
    (
        "code",
        """td.plot.bar(fig9[fig9.scheme != "baseline"], x="workload", y="speedup",
            title="Fig. 9: speed-up over the baseline (Titan X Pascal)");""",
    ),
    (
        "md",
        """* **Depth pays with diminishing returns**, more sharply than in the paper:
  one kernel pre-launched hides a launch only behind a kernel at least as
  long; two in flight pipeline the device-side 3 µs, after which the 2 µs API
  calls set the pace, so the third kernel adds about 3 points and a fourth
  almost nothing (the ledger's `fig9_diminishing_returns`). Launch-bound applications (GAUSSIAN,
  GRAMSCHM, LUD, NW) gain most, up to about 2.9×.
* **Where TB-level dependencies help** (BICG, MVT, Hotspot, PATH), producer
  priority adds to what pre-launching gives. Fig. 9's pre-launch bar orders
  every pair (§IV-B: no consumer TB before all producer TBs completed;
  `prelaunch` with `independent_start: false`), so BICG's and MVT's
  independent kernels overlap only under BlockMaestro, which beats even the
  ideal baseline there — by 1.09×, not more: both kernels stream the 64 MB
  matrix from DRAM. 3MM's and FDTD-2D's kernels are short against a launch:
  hiding launches gives their gain.
* **The largest producer speed-up** stays below the paper's 2.92×: the
  launch-bound applications need more than one kernel pre-launched here.""",
    ),
    (
        "md",
        """## Fig. 10 and Fig. 11 — TB concurrency and dependency stalls

Paper: BlockMaestro raises average TB concurrency (Fig. 10) and cuts the
dependency stall — time from a TB's dependencies being met to its start,
over its run time — for most TBs (Fig. 11); AlexNet's rises for some TBs
when the GPU is full, BICG's and MVT's fall dramatically. Under the shared
SM model the concurrency gain is a result of its own, no longer the
speed-up under another name.""",
    ),
    (
        "code",
        """conc = fig9.pivot_table(index="workload", columns="label", values="avg_tb_concurrency")
norm = conc[["pre-launch", "producer", "consumer d3"]].div(conc["baseline"], axis=0)
row("Fig. 10 TB concurrency / baseline, producer (geomean)", "> 1", round(gmean(norm["producer"]), 3), "predicted")
row("Fig. 10 concurrency gain differs from speed-up (apps, > 5%)", "yes",
    int(((norm["producer"] / table9.drop(index="geomean")["producer"]) - 1).abs().gt(0.05).sum()), "predicted")
pd.concat({"concurrency / baseline": norm, "speed-up": table9.drop(index="geomean")[["pre-launch", "producer", "consumer d3"]]},
          axis=1).round(3)""",
    ),
    (
        "code",
        """stall = fig9.pivot_table(index="workload", columns="label", values=["dep_stall_q1", "dep_stall_median", "dep_stall_q3"])
row("Fig. 11 median stall, producer < baseline (apps of 12)", "most",
    int((stall[("dep_stall_median", "producer")] < stall[("dep_stall_median", "baseline")]).sum()), "predicted")
pd.concat({s: stall.xs(s, axis=1, level=1) for s in ("baseline", "producer")}, axis=1).round(2)""",
    ),
    (
        "code",
        """fig, ax = plt.subplots(figsize=(10, 3.5))
data, names = [], []
for key in ["3mm", "bicg", "fdtd2d", "hotspot", "lud", "pathfinder"]:
    wl = td.workloads.blockmaestro_app(key)
    for scheme in ("baseline", "blockmaestro"):
        r = td.simulate(wl, free_copies, scheme, timeline=True)
        data.append(r.dependency_stalls().to_numpy())
        names.append(f"{wl.name}\\n{'BM' if scheme == 'blockmaestro' else 'base'}")
ax.boxplot(data, showfliers=False)
ax.set_xticks(range(1, len(names) + 1), names, fontsize=7)
ax.set(ylabel="stall / TB run time", title="Fig. 11: dependency stall distribution");""",
    ),
    (
        "md",
        """## Fig. 12 — inter-connectivity (VectorAdd pair)

Paper: the benefit of TB-level dependencies falls quickly once the dependency
degree passes 32 and then equals that of a fully connected pair; it shrinks as
kernels grow and is gone at 2048 TBs.""",
    ),
    (
        "code",
        """fig12 = run("blockmaestro_fig12")
bm12 = fig12[fig12.scheme == "blockmaestro"]
table12 = bm12.pivot_table(index="workload.degree", columns="workload.tbs", values="speedup")
fall = (table12 - table12.shift(-1)).mean(axis=1)  # the degree after which the speed-up falls most
row("Fig. 12 threshold degree", 32, int(fall.idxmax()), "predicted")
row("Fig. 12 gain shrinks as TBs grow, degree 1 (%, 256 -> 2048)", "-> 0",
    " / ".join(str(pct(table12.loc[1, n])) for n in table12.columns), "predicted")
table12.round(3)""",
    ),
    (
        "code",
        """td.plot.line(bm12, x="workload.degree", y="speedup", hue="workload.tbs", logx=True,
             title="Fig. 12: speed-up by dependency degree");""",
    ),
    (
        "md",
        """The threshold is structural: a 6-bit parent counter holds 63, so from degree
64 the pair is tracked per kernel (§IV-C), which is exactly where the curves
fall to the fully connected level. The gain shrinks as the kernels grow, as
in the paper, to about 4% at 2048 TBs rather than nothing: what is left is
the launch that pre-launching hides, against kernels whose length (5,000-cycle
TBs, tbdse's assumption) the paper does not give.""",
    ),
    (
        "md",
        """## Fig. 13 — scheduler memory requests

Paper: buffering dependency lists and parent counters costs about 1.36% more
memory requests on average. tbdse counts the scheduler's requests
(`sched_mem_requests`); the presets do not state their kernels' own requests,
so the ratio is reported against an estimate of 16 requests per TB (a TB of
these presets reads and writes at least 256 four-byte elements per buffer it
touches: at least 8 requests of 128 bytes each, and most touch two or three
buffers).""",
    ),
    (
        "code",
        """bm9 = fig9[(fig9.scheme == "blockmaestro") & (fig9.label == "producer")].set_index("workload")
tbs = {spec.title: td.workloads.blockmaestro_app(k).tasks for k, spec in blockmaestro_apps.APPS.items()}
req = bm9[["sched_mem_requests", "entry_bypasses"]].assign(TBs=pd.Series(tbs))
req["requests per TB"] = req["sched_mem_requests"] / req["TBs"]
row("Fig. 13 memory-request overhead, mean (%)", 1.36, round(100 * (req["requests per TB"] / 16).mean(), 2), "predicted")
req.round(3)""",
    ),
    (
        "md",
        """The scheduler makes one to three requests per TB (a dependency-list fetch,
counter fetches, or counter updates in memory for TBs scheduled before their
child kernel was resident); Hotspot's nine-neighbour stencil makes six.
Against the assumed 16 requests of the TB's own that is several percent,
above the paper's 1.36%: real kernels make many more requests per TB than
this floor, so the ratio is an upper estimate resting on that assumption.""",
    ),
    (
        "md",
        """## Fig. 14 — against CDP and Wireframe (4K-task wavefronts)

Paper (§IV-D): normalised to CDP, BlockMaestro with producer priority gains
5.8%, Wireframe 36.8% (run-ahead up to three waves), BlockMaestro with
consumer priority 2×. The workloads are the Wireframe presets with their
own calibrated spread (σ = 0.03); σ = 0.5 is a sensitivity check.""",
    ),
    (
        "code",
        """fig14 = run("blockmaestro_fig14")
table14 = fig14.pivot_table(index="cost.sigma", columns="label", values="speedup", aggfunc=gmean)
at = table14.loc[0.03]
row("Fig. 14 BM producer over CDP (%)", 5.8, pct(at["BM producer"]), "predicted")
row("Fig. 14 Wireframe over CDP (%)", 36.8, pct(at["Wireframe"]), "predicted")
row("Fig. 14 BM consumer, 3 pre-launched, over CDP (x)", 2.0, round(at["BM consumer d3"], 2), "predicted")
row("Fig. 14 order producer < Wireframe < consumer", "yes",
    bool(at["BM producer"] < at["Wireframe"] < at["BM consumer d3"]), "predicted")
table14.round(3)""",
    ),
    (
        "code",
        """td.plot.bar(fig14[fig14["cost.sigma"] == 0.03], x="workload", y="speedup",
            title="Fig. 14: speed-up over CDP (Wireframe presets, sigma 0.03)");""",
    ),
    (
        "md",
        """Not reproduced at the presets' spread: with the Wireframe presets' nearly
equal TBs (about 54 µs each on the Titan X) every scheme but CDP hides CDP's
3 µs per-wave launches and nothing else, so all gain the same 13%; run-ahead
has nothing to overtake when the TBs of a wave end together. With varied TB
run times (σ = 0.5) the paper's order appears — producer priority behind
Wireframe-LVL, which is about level with consumer priority at three
pre-launched kernels — but the paper's 2× needs TBs much shorter than a
launch, which it does not state.""",
    ),
    (
        "md",
        """## Buffers: how deep to pre-launch, how big the Parent Counter Buffer

The paper sizes both buffers to the 896 TB slots (≈ 22 KB). tbdse sweeps
pre-launch depth against Parent Counter Buffer entries on HEAT2D (σ = 0.5),
with both readings of what a TB does when its entries cannot be allocated.""",
    ),
    (
        "code",
        """buf = run("blockmaestro_buffers")
buf.pivot_table(index=["when_full", "prelaunch_depth"], columns="parent_counter_entries", values="speedup").round(3)""",
    ),
    (
        "code",
        """r = td.simulate(td.workloads.blockmaestro_app("lud"), free_copies, "blockmaestro")
row("§IV-C on-chip storage at 896 / 4 / 896 / 6 bits (KB)", 22, round(r.stats["buffer_bytes"] / 1024, 2), "predicted")""",
    ),
    (
        "md",
        """With `when_full: wait` a buffer below about 64 entries costs more than
pre-launching gains (and one kernel pre-launched never needs the buffers: its
TBs are scheduled before their child kernel is resident). With the default
`bypass` the buffers cost memory requests, not time.""",
    ),
    (
        "md",
        """## Locality: what the memory hierarchy changes

The presets run with `locality` on: each TB's reads go through the hierarchy
when it starts and its writes when it ends, and its run time is the longer
of (1 − `mem_fraction`) × scale × cost of compute (after its first line)
and what its reads take. Below, the memory share of a TB's run time under
the baseline (a run with `mem_fraction` 1, all memory, against the
calibrated one: 1.0 wherever the reads outlast the compute) and the L2 hit rate,
then four applications with locality on against the earlier model without
it (each TB `cost_scale` × cost, calibrated at 0.6), one replicate.""",
    ),
    (
        "code",
        """share = []
for key, spec in blockmaestro_apps.APPS.items():
    dur = {}
    for mf in (blockmaestro_apps.MEM_FRACTION, 1.0):
        r = td.simulate(td.workloads.blockmaestro_app(key, mem_fraction=mf), free_copies, "baseline", timeline=True)
        t = r.timeline()
        dur[mf] = (t.end - t.start).mean()
    share.append({"app": spec.title, "TB cycles": round(dur[blockmaestro_apps.MEM_FRACTION]),
                  "memory share": round(dur[1.0] / dur[blockmaestro_apps.MEM_FRACTION], 2),
                  "L2 hit rate": round(r.metrics["l2_hit_rate"], 3)})
pd.DataFrame(share).set_index("app")""",
    ),
    (
        "code",
        """apps = ["bicg", "fdtd2d", "hotspot", "lud", "pathfinder"]
wls = [td.workloads.blockmaestro_app(a, name=f"{a} on") for a in apps]
wls += [td.workloads.blockmaestro_app(a, locality=False, cost_scale=0.6, name=f"{a} off") for a in apps]
loc = td.sweep(wls, free_copies, ["baseline", {"name": "blockmaestro", "label": "producer"},
               {"name": "blockmaestro", "priority": "consumer", "prelaunch_depth": 3, "label": "consumer d3"}],
               baseline="baseline", progress=False)
loc.pivot_table(index="workload", columns="label", values=["speedup", "l2_hit_rate"]).round(3)""",
    ),
    (
        "md",
        """The hierarchy's time is about a fifth to three quarters of a TB for
the applications whose data stays mostly in L2, and almost all of it for the
three that stream DRAM (BICG, MVT: 4 MiB of the matrix per TB; PATH): the
memory part neither vanishes nor counts twice (it replaces `mem_fraction` of
the cost; writes drain after the TB). Without locality BICG and MVT gained
1.85× from running their independent kernels together; with it, 1.09×:
DRAM, not launches, bounds them. Consumer priority raises Hotspot's L2 hit
rate (0.83 under the baseline, 0.89 with one kernel pre-launched): its
consumers run while their producers' halos are in L2. For most applications
the order of issue changes the hit rate by about a point — their footprints
stream or fit in L2 whatever the order.""",
    ),
    (
        "md",
        """## Paper against tbdse

The notebook's rows, then the claims ledger
(`docs/models/blockmaestro_claims.yaml`, asserted by
`tests/test_blockmaestro_reproduction.py`): every claim of §IV with tbdse's
value on this notebook's runs.""",
    ),
    (
        "code",
        """summary = pd.DataFrame(rows).set_index("quantity")
summary""",
    ),
    (
        "code",
        """import sys, yaml
sys.path.insert(0, "../tests")  # the notebook runs in notebooks/
from blockmaestro_claims import CLAIMS
ledger = yaml.safe_load(open("../docs/models/blockmaestro_claims.yaml"))["claims"]
claims = pd.DataFrame([{"claim": e["id"], "paper": e["paper"], "kind": e["kind"],
                        "tbdse": CLAIMS[e["id"]](fig9, fig12, fig14)[0],
                        "holds": CLAIMS[e["id"]](fig9, fig12, fig14)[1]} for e in ledger]).set_index("claim")
print(f"{int(claims.holds.sum())} of {len(claims)} claims hold")
claims""",
    ),
]


def main() -> None:
    write_notebook(CELLS, "blockmaestro.ipynb")


if __name__ == "__main__":
    main()
