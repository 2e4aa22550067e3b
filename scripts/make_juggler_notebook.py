# ruff: noqa: E501  (the strings below are notebook cells, not this file's code)
"""Writes notebooks/juggler.ipynb (the Juggler reproduction) from the cells
below; scripts/run_notebooks.py then executes it in place.

Usage: python scripts/make_juggler_notebook.py && python scripts/run_notebooks.py notebooks/juggler.ipynb
"""

from __future__ import annotations

from _nbwrite import ROWS_HELPER, RUN_HELPER, write_notebook

CELLS: list[tuple[str, str]] = [
    (
        "md",
        """# Juggler (PPoPP 2018) in tbdse

This notebook reproduces the evaluation of *Juggler: A Dependence-Aware
Task-Based Execution Framework for GPUs* (§6) with the `juggler` scheme:
persistent worker TBs, one queue each, in-GPU dependence resolution and the
LRR, GRR and LF insertion policies, against the `global_barrier` versions
(one synchronous launch per anti-diagonal, per SA-TABLE column, 57 for LU-D,
per kind and iteration for JACOBI). Each section runs one of the experiment
files `experiments/juggler_*.yaml` (`tbdse run experiments/juggler_fig4.yaml
-o ...` gives the same tables and figures). The model, its interpretations
and the kernels' shapes and costs are in `docs/models/juggler.md`.

**Assumptions and calibration (MODELS.md §9).** The paper gives task counts
and parallelism (Table 1) and LU-D's code, not task run times, memory
traffic or the runtime's costs. The seven kernels
(`td.workloads.juggler_app`) are tbdse's derivation from their loop nests;
the runtime's poll, sleep, dequeue, resolve and insert costs are estimates
(one to three dependent global-memory accesses). Four free parameters — the
P100's SM saturation and synchronous launch cost, GRR's serialised
global-counter update and the runtime's contention under memory traffic —
are fitted to **one** figure, Fig. 4; Figs. 5 and 7 are predictions with
those values unchanged.""",
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
HEAVY = ["DT-WARP", "INT-HIST", "SM-W"]  # Observation 3's extra array accesses
"""
        + ROWS_HELPER,
    ),
    (
        "md",
        """## The kernels

Table 1's task counts and parallelism, and the launches of the
global-barrier versions, from the task graphs the builder made out of the
kernels' depend clauses.""",
    ),
    (
        "code",
        """kernels = []
for app in td.workloads.juggler_app_names():
    wl = td.workloads.juggler_app(app)
    kernels.append({"kernel": wl.name, "tasks": wl.tasks,
                    "launches": len(set(wl.graph.launch_groups())),
                    "levels": int(wl.graph.levels().max()) + 1})
pd.DataFrame(kernels)""",
    ),
    (
        "md",
        """## Calibration on Fig. 4

The grid of `experiments/juggler_calibration.yaml`: the point whose GRR best
speed-up and GRR JACOBI speed-up are nearest 1.31 and 0.94, among those with
the fewest breaks of Fig. 4's pattern (GRR above 1 except on JACOBI; LRR
below 1 exactly on DT-WARP, INT-HIST and SM-W). The p100 preset and the
juggler defaults carry the chosen point; the cell checks that they do.""",
    ),
    (
        "code",
        """cal = run("juggler_calibration")
keys = ["gpu.sm_saturation", "gpu.host_launch_us", "global_atomic_cycles", "runtime_contention"]
s = cal[cal.label != "global barriers"].pivot_table(index=keys, columns=["label", "workload"], values="speedup")

def score(r):
    g, l = r["GRR"], r["LRR"]
    err = np.sqrt(((g.drop("JACOBI").max() - 1.31) ** 2 + (g["JACOBI"] - 0.94) ** 2) / 2)
    breaks = sum(g[a] < 1 for a in g.index if a != "JACOBI")
    breaks += sum((l[a] < 1) != (a in HEAVY) for a in l.index if a != "JACOBI")
    return pd.Series({"breaks": breaks, "err": err, "GRR max": g.drop("JACOBI").max(), "GRR JACOBI": g["JACOBI"]})

fit = s.apply(score, axis=1).sort_values(["breaks", "err"])
best = fit.index[0]
p100 = td.gpus.p100()
chosen = dict(zip(keys, best))
assert chosen["gpu.sm_saturation"] == p100.sm_saturation and chosen["gpu.host_launch_us"] == p100.host_launch_us, chosen
# The juggler defaults are the chosen runtime values: same run either way.
lud = td.workloads.juggler_app("lu-d")
explicit = td.schemes.Juggler(global_atomic_cycles=chosen["global_atomic_cycles"],
                              runtime_contention=chosen["runtime_contention"])
assert td.simulate(lud, p100, explicit).makespan_us == td.simulate(lud, p100, td.schemes.Juggler()).makespan_us
fit.head(8).round(3)""",
    ),
    (
        "md",
        """## Fig. 4 and Fig. 5

Speed-up over global barriers (kernel time), and the spread of tasks per
worker over five runs.""",
    ),
    (
        "code",
        """f4 = run("juggler_fig4")
speed = f4.pivot_table(index="workload", columns="label", values="speedup")[["LRR", "GRR", "LF"]]
spread = f4[f4.scheme == "juggler"].pivot_table(index="workload", columns="label", values="worker_task_spread")[["GRR", "LRR", "LF"]]
g = speed["GRR"]
row("Fig. 4 GRR best speed-up (x)", "1.31", f"{g.max():.2f} ({g.idxmax()})", "calibrated")
row("Fig. 4 GRR on JACOBI (x)", "0.94", f"{g['JACOBI']:.2f}", "calibrated")
row("Fig. 4 GRR above 1 elsewhere", "6 of 6", f"{int((g.drop('JACOBI') >= 1).sum())} of 6", "calibrated")
row("Fig. 4 LRR below 1 on DT-WARP, INT-HIST, SM-W only", "yes",
    ", ".join(speed.index[speed["LRR"] < 1]), "calibrated")
row("Fig. 4 LF below 1 on DT-WARP, INT-HIST, SM-W", "yes", ", ".join(f"{speed.loc[a, 'LF']:.2f}" for a in HEAVY), "predicted")
row("Fig. 4 LF far below 1 on LU-D, JACOBI", "yes", f"{speed.loc['LU-D', 'LF']:.2f}, {speed.loc['JACOBI', 'LF']:.2f}", "predicted")
row("Fig. 4 GRR the best policy", "7 of 7", f"{int((speed.idxmax(axis=1) == 'GRR').sum())} of 7", "predicted")
row("Fig. 4 LF beats LRR", "half", f"{int((speed['LF'] > speed['LRR']).sum())} of 7", "predicted")
order = ((spread["GRR"] <= spread["LRR"]) & (spread["LRR"] <= spread["LF"])).sum()
row("Fig. 5 spread GRR < LRR < LF", "all", f"{int(order)} of 7", "predicted")
fig, ax = plt.subplots(1, 2, figsize=(11, 3.5))
speed.plot.bar(ax=ax[0], title="Fig. 4: speed-up over global barriers"); ax[0].axhline(1, color="k", lw=0.5)
spread.plot.bar(ax=ax[1], logy=True, title="Fig. 5: max - min tasks per worker")
plt.tight_layout()
pd.concat({"speed-up": speed, "spread": spread}, axis=1).round(3)""",
    ),
    (
        "md",
        """## Fig. 7: JACOBI as the task count grows""",
    ),
    (
        "code",
        """f7 = run("juggler_fig7")
t7 = f7.pivot_table(index="workload.iterations", columns="label", values="makespan_us") / 1000
t7.index = t7.index * 1800
ratio = t7[["LRR", "GRR", "LF"]].div(t7["global barriers"], axis=0)
row("Fig. 7 LRR, GRR on par with global barriers (3,600-32,400 tasks)", "on par",
    f"{ratio[['LRR', 'GRR']].min().min():.2f}-{ratio[['LRR', 'GRR']].max().max():.2f} x the barriers' time", "predicted")
row("Fig. 7 LF falls behind as tasks grow", "yes", f"{ratio['LF'].iloc[0]:.2f} -> {ratio['LF'].iloc[-1]:.2f} x", "predicted")
t7.plot(marker="o", xlabel="tasks", ylabel="kernel time (ms)", title="Fig. 7: JACOBI")
t7.round(3)""",
    ),
    (
        "md",
        """## Design space: workers and the global counter

GRR over the number of persistent workers (the P100's 56 SMs times a
cofactor, §6.1) and the cost of one global-counter update.""",
    ),
    (
        "code",
        """ds = run("juggler_design_space")
td.plot.heatmap(ds, "workers", "global_atomic_cycles", "speedup", facet="workload",
                title="GRR: speed-up over global barriers");""",
    ),
    (
        "md",
        """## Design space: the runtime's costs

GRR over the cost of one resolve round and of one insertion (tbdse's
estimates, 1200 and 1500 cycles): DT-WARP, latency-bound, pays them on its
critical path at every anti-diagonal; on JACOBI, 900-way parallel, other
workers' tasks hide them, and its loss comes from the serialised counter.""",
    ),
    (
        "code",
        """ov = run("juggler_overheads")
td.plot.heatmap(ov, "resolve_cycles", "enqueue_cycles", "speedup", facet="workload",
                title="GRR: speed-up over global barriers");""",
    ),
    (
        "md",
        """## How stable is LF?

HEAT-SIM under LF and GRR as the task times spread (lognormal σ). With
identical times LF keeps one row of the wavefront per worker and beats GRR;
once two rows meet on one worker they never separate, and LF collapses.""",
    ),
    (
        "code",
        """lf = run("juggler_lf_stability")
td.plot.line(lf, "cost_jitter", "speedup", title="HEAT-SIM: speed-up over global barriers")
lf.pivot_table(index="workload.cost_jitter", columns="label", values=["speedup", "worker_task_spread"]).round(3)""",
    ),
    (
        "md",
        """## Paper against tbdse""",
    ),
    (
        "code",
        """pd.set_option("display.max_colwidth", 70)
pd.DataFrame(rows)""",
    ),
    (
        "md",
        """**Where they differ, and why.**

* *SA-TABLE under GRR* (calibrated row, a miss): 90 tasks become ready per
  20 µs step, so GRR's serialised counter (325 cycles per insertion, the
  value JACOBI's 0.94 asks for) binds. The paper's GRR shows no such limit:
  its JACOBI slow-down is probably per-task runtime work that tbdse hides
  behind other workers' tasks under the shared SM model, not the counter.
* *LF*: tbdse's local-first placement is unstable on wavefronts. A task whose
  only freed child is its south neighbour keeps it locally, two rows end up
  on one worker, and they never separate again; any difference in task
  times starts it (on HEAT-SIM a lognormal spread of 1% does, below), and the runtime's contention
  does on DT-WARP, INT-HIST, SM-W and SA-TABLE. HEAT-SIM keeps its row per
  worker and LF wins there. The paper's LF loses less.
* *Fig. 7*: LRR and GRR track the barriers, as in the paper; LF does not
  fall behind on JACOBI: each copy frees exactly one compute, which LF keeps
  locally, so no imbalance builds up in tbdse's model of batch insertion.
* *DT-WARP and SM-W* are the same graph with the same costs in tbdse (the
  paper gives nothing that tells them apart), so their bars are equal.""",
    ),
]


def main() -> None:
    write_notebook(CELLS, "juggler.ipynb")


if __name__ == "__main__":
    main()
