# ruff: noqa: E501  (the strings below are notebook cells, not this file's code)
"""Writes notebooks/hwwl.ipynb (the hardware-worklist reproduction) from the
cells below; scripts/run_notebooks.py then executes it in place.

Usage: python scripts/make_hwwl_notebook.py && python scripts/run_notebooks.py notebooks/hwwl.ipynb
"""

from __future__ import annotations

from _nbwrite import ROWS_HELPER, RUN_HELPER, write_notebook

CELLS: list[tuple[str, str]] = [
    (
        "md",
        """# Hardware worklists (MICRO-47 2014) in tbdse

This notebook reproduces the evaluation of *Accelerating Irregular Algorithms
on GPGPUs Using Fine-Grain Hardware Worklists* (Kim & Batten, §IV-V) with
tbdse's worklist machine: the hardware worklist (`hwwl`: per-lane banks,
WAIT/DONE pulls, five redistribution schemes, virtualization) against the
topology- and data-driven software implementations (`topology`, `data`), on
the paper's GPGPU-Sim configuration (`gpgpusim_hwwl`: 4 cores x 16 lanes,
48 warps, 700 MHz, 100-cycle memory). Each section runs one experiment file
(`tbdse run experiments/hwwl_fig6.yaml -o ...` gives the same table and
figures). Model and interpretations: `docs/models/hwwl.md`.

**Inputs.** The paper gives no input sizes. BFS and SSSP run on a 128 x 128
grid, a road-network stand-in (LonestarGPU's BFS/SSSP inputs are road
networks); BH, DMR, MST and SP are synthetic stand-ins whose work and
activations per item are tbdse's derivation from §II-B and Table II.

**Calibration (MODELS.md §9).** The paper states no DRAM bandwidth, atomic
cost or kernel-launch cost. These three GPU parameters are fitted to **one**
figure — Fig. 5, the idealised hardware worklist against the better software
implementation, which the paper reports as 1.2x–2.8x over the six benchmarks.
Every other figure below is a prediction with those values unchanged.""",
    ),
    (
        "code",
        """import tempfile
import numpy as np
import pandas as pd
import matplotlib.pyplot as plt
import tbdse as td

"""
        + RUN_HELPER
        + """
"""
        + ROWS_HELPER,
    ),
    (
        "md",
        """## Calibration on Fig. 5 — the idealised hardware worklist

`experiments/hwwl_calibration.yaml` sweeps DRAM bandwidth (half to four
times a GTX480's 177.4 GB/s), the cycles an atomic holds the software
worklist's tail, and the relaunch between super-steps. The idealised worklist
is `magic` redistribution every cycle on unbounded banks (one infinite FIFO
with perfect balance). The fit minimises the (log) distance of the six
speed-ups outside the paper's range [1.2, 2.8], with a small pull towards
physical priors (a GTX480's bandwidth, a 20-cycle atomic, a 3 µs launch) to
pick among equally good points.""",
    ),
    (
        "code",
        """calib = run("hwwl_calibration")
grid = calib.pivot_table(index=["gpu.mem_bandwidth", "gpu.amo_cycles", "gpu.host_launch_us"],
                         columns="workload", values="speedup", sort=False)
outside = (np.clip(np.log(1.2) - np.log(grid), 0, None) + np.clip(np.log(grid) - np.log(2.8), 0, None)).sum(axis=1)
point = grid.index.to_frame()
prior = (np.log(point["gpu.mem_bandwidth"] / 177.4).abs() + np.log(point["gpu.amo_cycles"] / 20).abs()
         + np.log(point["gpu.host_launch_us"] / 3.0).abs()).to_numpy()
objective = outside + 0.01 * prior
best = objective.idxmin()
preset = td.gpus.gpgpusim_hwwl()
print("fitted:", dict(zip(grid.index.names, best)))
print("preset:", {k: getattr(preset, k.split(".")[1]) for k in grid.index.names})
assert best == (preset.mem_bandwidth, preset.amo_cycles, preset.host_launch_us)
grid.assign(objective=objective).sort_values("objective").head(5).round(3)""",
    ),
    (
        "code",
        """fig5 = grid.loc[best]
for wl, s in fig5.items():
    row(f"Fig. 5 ideal HWWL / best software, {wl}", "1.2-2.8", round(s, 2), "calibrated")
fig5.round(2)""",
    ),
    (
        "md",
        """The fit lands inside the range for five of six benchmarks. **BH** stays
near 1.05x at every grid point: its better baseline is topology-driven (all
bodies active, one pass: no worklist at all, and coalesced node loads), so
the model gives the hardware worklist nothing to remove. The paper's BH gain
comes from memory effects tbdse does not model (caches, locality of the
octree walk). The fitted bandwidth is twice a GTX480's: an *effective*
figure, since tbdse models no caches and so takes every load to DRAM.""",
    ),
    (
        "md",
        """## Fig. 6 — redistribution schemes on infinite banks (predicted)

Paper (§IV-C, §IV-D): without redistribution BFS and SSSP lose to the best
software implementation, with an order of magnitude more dynamic
instructions from WAIT spins; BH, DMR, MST and SP still gain (their work is
evenly spread). `threshold` is the weakest redistributing scheme (SP suffers);
`lsorting` and `gsorting` come closest to `magic`.""",
    ),
    (
        "code",
        """fig6 = run("hwwl_fig6")
speed6 = fig6.pivot_table(index="workload", columns="label", values="speedup", sort=False)
speed6[["ideal", "none", "threshold", "lsorting", "gsorting", "magic"]].round(2)""",
    ),
    (
        "code",
        """td.plot.bar(fig6, x="workload", y="speedup", title="Fig. 6: speed-up over the better software worklist");""",
    ),
    (
        "code",
        """dyn = fig6.pivot_table(index="workload", columns="label", values="dynamic_instructions", sort=False)
ratio = (dyn["none"] / dyn["lsorting"]).rename("none / lsorting dynamic instructions")
ratio.round(1)""",
    ),
    (
        "code",
        """row("Fig. 6 none, SSSP speed-up", "< 1 (loses)", round(speed6.loc["sssp(grid 128x128)", "none"], 2), "predicted")
row("Fig. 6 none, BFS speed-up", "< 1 (loses)", round(speed6.loc["bfs(grid 128x128)", "none"], 2), "predicted")
row("Fig. 6 none, SSSP dynamic instructions x", "about 10", round(ratio["sssp(grid 128x128)"], 1), "predicted")
row("Fig. 6 none, BFS dynamic instructions x", "about 10", round(ratio["bfs(grid 128x128)"], 1), "predicted")
even = ["BH (16384)", "DMR (16384)", "MST (16384)", "SP (16384)"]
row("Fig. 6 none on BH, DMR, MST, SP (min speed-up)", "gains", round(speed6.loc[even, "none"].min(), 2), "predicted")
row("Fig. 6 lsorting / magic (mean)", "close to 1", round((speed6["lsorting"] / speed6["magic"]).mean(), 2), "predicted")
row("Fig. 6 threshold / lsorting, SP", "< 1 (worst)", round(speed6.loc["SP (16384)", "threshold"] / speed6.loc["SP (16384)", "lsorting"], 3), "predicted")""",
    ),
    (
        "md",
        """## Fig. 7 — bank capacity and refill (predicted)

Paper (§IV-E): with `lsorting`, 32 entries per bank get most of the
infinite-capacity speed-up; interval refill matters for the short operators
of BH and MST, where it cuts the pulls returning WAIT by about 5x; BFS does
not need it. The realistic design (32 entries, `lsorting`, interval refill)
reaches 1.2x–2.4x over the best software implementation.""",
    ),
    (
        "code",
        """fig7 = run("hwwl_fig7")
fig7.pivot_table(index="workload", columns=["refill", "bank_entries"], values="speedup", sort=False).round(2)""",
    ),
    (
        "code",
        """td.plot.line(fig7, x="bank_entries", y="speedup", hue="refill", facet="workload", logx=True,
             title="Fig. 7: bank capacity and refill");""",
    ),
    (
        "code",
        """s7 = fig7.pivot_table(index="workload", columns=["refill", "bank_entries"], values="speedup", sort=False)
w7 = fig7.pivot_table(index="workload", columns=["refill", "bank_entries"], values="wait_pulls", sort=False)
at32 = (s7[("interval", 32)] / s7[("interval", np.inf)]).rename("32 entries / unbounded (interval)")
waits = (w7[("on_demand", 32)] / w7[("interval", 32)]).rename("WAIT pulls on demand / interval, 32")
realistic = s7[("interval", 32)].rename("realistic speed-up")
pd.concat([at32, waits, realistic], axis=1).round(2)""",
    ),
    (
        "code",
        """row("Fig. 7 32 entries / infinite (min over benchmarks)", "close to 1", round(at32.min(), 2), "predicted")
row("Fig. 7 interval / on-demand speed-up, BH at 32", "> 1", round(s7.loc["BH (16384)", ("interval", 32)] / s7.loc["BH (16384)", ("on_demand", 32)], 2), "predicted")
row("Fig. 7 interval / on-demand speed-up, MST at 32", "> 1", round(s7.loc["MST (16384)", ("interval", 32)] / s7.loc["MST (16384)", ("on_demand", 32)], 2), "predicted")
row("Fig. 7 WAIT pulls on-demand / interval, BH and MST", "about 5", f"{waits['BH (16384)']:.2f}, {waits['MST (16384)']:.2f}", "predicted")
row("Realistic HWWL over best software", "1.2-2.4", f"{realistic.min():.2f}-{realistic.max():.2f}", "predicted")""",
    ),
    (
        "md",
        """## §V-A — scaling with the number of cores (predicted)

Paper: BFS on a graph of over a million nodes on 4, 8 and 16 cores; the
speed-up grows with the cores (2.5x at 16), as the total worklist capacity
grows. tbdse: a uniform random graph of 1M nodes (R-MAT's hubs would make
one thread's walk over a hub the whole run). The experiment file keeps the
calibrated DRAM bandwidth fixed; the second table also scales it with the
cores (the paper does not say which its GPGPU-Sim configuration did).""",
    ),
    (
        "code",
        """scaling = run("hwwl_scaling")
scaled = td.sweep(td.workloads.bfs(graph="uniform", nodes=1_000_000, degree=8.0, symmetric=True, seed=1),
                  td.gpus.gpgpusim_hwwl(), "hwwl",
                  zip={"gpu.sms": [4, 8, 16], "gpu.mem_bandwidth": [354.8, 709.6, 1419.2]},
                  baseline=["topology", "data"], progress=False)
pd.concat({"bandwidth fixed": scaling.set_index("gpu.sms")[["makespan_cycles", "baseline", "speedup"]],
           "bandwidth x cores": scaled.set_index("gpu.sms")[["makespan_cycles", "baseline", "speedup"]]}, axis=1)""",
    ),
    (
        "code",
        """row("§V-A speed-up at 4 / 8 / 16 cores (bandwidth fixed)", "rises to 2.5",
    " / ".join(f"{v:.2f}" for v in scaling["speedup"]), "predicted")
row("§V-A speed-up at 4 / 8 / 16 cores (bandwidth x cores)", "rises to 2.5",
    " / ".join(f"{v:.2f}" for v in scaled["speedup"]), "predicted")""",
    ),
    (
        "md",
        """## Fig. 8 — active threads, single- against double-buffered (predicted)

Paper (§V-C): single-buffered BFS keeps all hardware threads busy for most of
the run; double-buffered peaks near 80% (super-step barriers). With a
realistic memory system single-buffering is slower (lost spatial locality);
with a magic one it is faster.""",
    ),
    (
        "code",
        """bfs64k = td.workloads.bfs(graph="uniform", nodes=65536, degree=8.0, symmetric=True, seed=1)
traces = {}
fig, ax = plt.subplots(figsize=(8, 3.6))
for mode in ["double", "single"]:
    r = td.simulate(bfs64k, td.gpus.gpgpusim_hwwl(), td.Scheme("hwwl", buffering=mode, sample_every=1000), timeline=True)
    traces[mode] = r
    td.plot.activity(r, ["active_threads"], ax=ax, label=mode)
ax.set_title("Fig. 8: active hardware threads, BFS (65,536 nodes)");
summary8 = pd.DataFrame({m: {"cycles": r.makespan_cycles, "items": r.metrics["items"],
                            "peak active": r.trace()["active_threads"].max(),
                            "samples >= 90% active": (r.trace()["active_threads"] >= 0.9).mean(),
                            "mean active": r.metrics["mean_active_threads"]} for m, r in traces.items()})
summary8.round(3)""",
    ),
    (
        "code",
        """row("Fig. 8 double-buffered peak active threads", "about 80%", f"{100 * summary8.loc['peak active', 'double']:.0f}%", "predicted")
row("Fig. 8 single-buffered share of time >= 90% active", "most of the run", f"{100 * summary8.loc['samples >= 90% active', 'single']:.0f}%", "predicted")
row("Fig. 8 single / double cycles (realistic memory)", "> 1 (single slower)", round(summary8.loc['cycles', 'single'] / summary8.loc['cycles', 'double'], 2), "predicted")""",
    ),
    (
        "md",
        """## The design space: scheme x bank size x interval (SSSP)""",
    ),
    (
        "code",
        """space = run("hwwl_design_space")
td.plot.heatmap(space, x="bank_entries", y="redistribution", value="speedup", facet="interval",
                title="SSSP (128 x 128 grid): speed-up over the best software worklist");""",
    ),
    (
        "code",
        """space.groupby("bank_entries")["hwwl_bytes"].first().rename("bytes per core (lanes x entries x 24 bit)")""",
    ),
    (
        "md",
        """## Paper against tbdse""",
    ),
    (
        "code",
        """pd.set_option("display.max_colwidth", 60)
pd.DataFrame(rows)""",
    ),
    (
        "md",
        """**Where they differ, and why.**

* *Calibrated (Fig. 5)*: five of six benchmarks inside the paper's range;
  BH is not (its best baseline has no worklist for the hardware to remove;
  the paper's gain there is in the memory system, which tbdse models as
  latency and bandwidth only).
* *Fig. 6*: the shape holds for SSSP (without redistribution it loses, with
  about nine times the dynamic instructions) and for the evenly balanced
  benchmarks (they gain without it). BFS on the grid barely loses: its
  frontiers are small, so banks are rarely empty while others hold work for
  long. `threshold`, `lsorting` and `gsorting` are almost equal, all short of
  `magic`: one id per donor/receiver pair per interval (tbdse's reading of
  the single-port banks) limits every redistributing scheme alike.
* *Fig. 7*: 32 entries reach the infinite-capacity speed-up, as in the
  paper; interval refill helps MST (12%) and barely BH (2%; the paper shows
  a clear gain for both). Finite banks even beat infinite
  ones for DMR and MST: refills spread a core's spilled ids round robin over
  its banks, balancing them better than redistribution alone. The paper's
  5x fewer WAIT pulls with interval refill does not appear: in tbdse WAITs
  come mostly from banks left empty while other lanes hold work, not from
  refill latency.
* *§V-A*: not reproduced. A million-node BFS is DRAM-bound at the calibrated
  bandwidth: the makespan barely changes with the cores, and the speed-up
  falls. Scaling the bandwidth with the cores does not restore the paper's
  trend either: the software baselines gain as much.
* *Fig. 8*: both modes fill the machine at their peaks (the graph's middle
  levels have more items than threads); single-buffering is slower here
  because label-correcting BFS repeats work when levels overlap (more items),
  not because of locality, which tbdse does not model.""",
    ),
]


def main() -> None:
    write_notebook(CELLS, "hwwl.ipynb")


if __name__ == "__main__":
    main()
