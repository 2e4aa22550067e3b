"""Evaluators of BlockMaestro's claims ledger (docs/models/blockmaestro_claims.yaml).

Each claim of the paper's evaluation (§IV: Figs. 9-14, Table III, §IV-C) has
an id there; ``CLAIMS[id]`` takes the Fig. 9, Fig. 12 and Fig. 14 result
tables (five replicates each, TB-time spread: experiments/blockmaestro_fig9,
_fig12, _fig14.yaml) and returns (tbdse's value as text, whether the claim
holds within the ledger's tolerance).  tests/test_blockmaestro_reproduction.py
asserts them and scripts/blockmaestro_sensitivity.py re-measures them with
each fitted constant halved and doubled.  Geometric means are taken per
replicate, then averaged; values show mean [low, high] over the replicates."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

# Fig. 9 as the reproduction test and the sensitivity script run it: two
# replicates instead of the file's five (its footprints through the memory
# hierarchy take about 8 s of one core per scheme and replicate) and no ideal
# baseline (schemes[1]: no claim reads it); every verdict is the same as with
# five (docs/models/blockmaestro.md "Claims ledger").
FIG9_CI = ("replicates=2", "~schemes.1")

Check = Callable[[pd.DataFrame, pd.DataFrame, pd.DataFrame], tuple[str, bool]]

# Table III, normalised encoded storage (BICG and MVT store nothing).
TABLE3 = {
    "3MM": 0.210,
    "AlexNet": 0.012,
    "FDTD-2D": 1.0,
    "FFT": 1.0,
    "GAUSSIAN": 1.77e-4,
    "GRAMSCHM": 0.375,
    "HS": 1.0,
    "LUD": 0.938,
    "NW": 1.0,
    "PATH": 1.0,
}


def gain_per_replicate(df: pd.DataFrame, label: str) -> pd.Series:
    """Geometric-mean gain (%) over the applications, one value per replicate."""
    s = df[df["label"] == label]
    return s.groupby("replicate")["speedup"].apply(lambda x: 100 * (np.exp(np.log(x).mean()) - 1))


def spread(values: pd.Series, unit: str = "%") -> str:
    return f"{values.mean():.2f}{unit} [{values.min():.2f}, {values.max():.2f}]"


def mean(df: pd.DataFrame, value: str = "speedup") -> pd.DataFrame:
    """Per application and label: the mean over the replicates."""
    return df.pivot_table(index="workload", columns="label", values=value, aggfunc="mean")


def geomean_near(label: str, paper: float, tol: float) -> Check:
    def check(f9: pd.DataFrame, _: pd.DataFrame, __: pd.DataFrame) -> tuple[str, bool]:
        g = gain_per_replicate(f9, label)
        return spread(g), abs(g.mean() - paper) <= tol

    return check


def alexnet(f9: pd.DataFrame, _: pd.DataFrame, __: pd.DataFrame) -> tuple[str, bool]:
    s = 100 * (f9[(f9["label"] == "producer") & (f9["workload"] == "AlexNet")]["speedup"] - 1)
    return spread(s.reset_index(drop=True)), abs(s.mean() - 6.9) <= 1.5


def largest(f9: pd.DataFrame, _: pd.DataFrame, __: pd.DataFrame) -> tuple[str, bool]:
    p = mean(f9)["producer"]
    return f"{p.max():.2f}x ({p.idxmax()})", abs(p.max() - 2.92) <= 0.3


def depth_raises(f9: pd.DataFrame, _: pd.DataFrame, __: pd.DataFrame) -> tuple[str, bool]:
    d = [gain_per_replicate(f9, f"consumer d{k}").mean() for k in (1, 2, 3)]
    return " / ".join(f"{x:.1f}%" for x in d), d[1] >= d[0] + 3 and d[2] >= d[1] + 3


def diminishing(f9: pd.DataFrame, _: pd.DataFrame, __: pd.DataFrame) -> tuple[str, bool]:
    d = [gain_per_replicate(f9, f"consumer d{k}").mean() for k in (1, 2, 3)]
    return f"+{d[1] - d[0]:.1f} then +{d[2] - d[1]:.1f} points", d[2] - d[1] < d[1] - d[0]


def lud_runs_ahead(f9: pd.DataFrame, _: pd.DataFrame, __: pd.DataFrame) -> tuple[str, bool]:
    s = mean(f9)
    ahead = s["consumer d3"] / s["consumer d1"] - 1
    return (
        f"d3 over d1: LUD +{100 * ahead['LUD']:.1f}%, AlexNet +{100 * ahead['AlexNet']:.1f}%",
        bool(ahead["LUD"] >= 0.10 and ahead["AlexNet"] <= 0.03),
    )


def prelaunch_alone(f9: pd.DataFrame, _: pd.DataFrame, __: pd.DataFrame) -> tuple[str, bool]:
    s = mean(f9).loc[["GAUSSIAN", "GRAMSCHM"]]
    pre, prod = s["pre-launch"] - 1, s["producer"] - 1
    ok = bool(((pre >= 0.2) & (pre >= 0.5 * prod)).all())
    return ", ".join(f"{a} pre-launch {pre[a]:.2f} of producer {prod[a]:.2f}" for a in s.index), ok


def fine_grain(f9: pd.DataFrame, _: pd.DataFrame, __: pd.DataFrame) -> tuple[str, bool]:
    s = mean(f9).loc[["3MM", "BICG", "FDTD-2D"]]
    fine, pre = s["producer"] - s["pre-launch"], s["pre-launch"] - 1
    ok = bool((fine > pre).all())
    return ", ".join(f"{a} +{fine[a]:.2f} fine vs +{pre[a]:.2f} pre" for a in s.index), ok


def concurrency_up(f9: pd.DataFrame, _: pd.DataFrame, __: pd.DataFrame) -> tuple[str, bool]:
    c = mean(f9, "avg_tb_concurrency")
    r = c["producer"] / c["baseline"]
    return f"{(r >= 0.999).sum()} of 12 (geomean {np.exp(np.log(r).mean()):.2f})", bool(
        (r >= 0.999).all()
    )


def alexnet_concurrency(f9: pd.DataFrame, _: pd.DataFrame, __: pd.DataFrame) -> tuple[str, bool]:
    s, c = mean(f9), mean(f9, "avg_tb_concurrency")
    rank = int((s["pre-launch"] < s.loc["AlexNet", "pre-launch"]).sum())  # apps gaining less
    up = c.loc["AlexNet", "producer"] / c.loc["AlexNet", "pre-launch"]
    return (
        f"pre-launch gain rank {rank + 1} of 12 from the bottom; concurrency x{up:.3f} "
        "producer over pre-launch",
        bool(rank <= 2 and up >= 1.01),
    )


def stalls_down(f9: pd.DataFrame, _: pd.DataFrame, __: pd.DataFrame) -> tuple[str, bool]:
    m = mean(f9, "dep_stall_median")
    down = int((m["producer"] < m["baseline"]).sum())
    return f"{down} of 12", down >= 7


def alexnet_stalls(f9: pd.DataFrame, _: pd.DataFrame, __: pd.DataFrame) -> tuple[str, bool]:
    q3 = mean(f9, "dep_stall_q3").loc["AlexNet"]
    return f"Q3 {q3['baseline']:.3f} -> {q3['producer']:.3f}", bool(q3["producer"] > q3["baseline"])


def bicg_mvt(f9: pd.DataFrame, _: pd.DataFrame, __: pd.DataFrame) -> tuple[str, bool]:
    m = mean(f9, "dep_stall_median").loc[["BICG", "MVT"]]
    ratio = m["producer"] / m["baseline"]
    return ", ".join(f"{a} x{ratio[a]:.3f}" for a in ratio.index), bool((ratio <= 0.1).all())


def fig12_table(f12: pd.DataFrame) -> pd.DataFrame:
    bm = f12[f12["scheme"] == "blockmaestro"]
    return bm.pivot_table(index="workload.degree", columns="workload.tbs", values="speedup")


def threshold(_: pd.DataFrame, f12: pd.DataFrame, __: pd.DataFrame) -> tuple[str, bool]:
    t = fig12_table(f12)
    fall = (t - t.shift(-1)).idxmax()
    return f"largest fall after degree {sorted(set(fall.tolist()))}", bool((fall == 32).all())


def beyond_like_full(_: pd.DataFrame, f12: pd.DataFrame, __: pd.DataFrame) -> tuple[str, bool]:
    t = fig12_table(f12)
    full = t.loc[t.index.max()]
    diff = (t.loc[t.index > 32] - full).abs().max()
    return f"within {diff.max():.3f} of fully connected", bool((diff <= 0.02).all())


def shrinks(_: pd.DataFrame, f12: pd.DataFrame, __: pd.DataFrame) -> tuple[str, bool]:
    g = 100 * (fig12_table(f12).loc[1] - 1)
    return " / ".join(f"{v:.1f}%" for v in g), bool(g.is_monotonic_decreasing)


def gone_2048(_: pd.DataFrame, f12: pd.DataFrame, __: pd.DataFrame) -> tuple[str, bool]:
    g = 100 * (fig12_table(f12).loc[1, 2048] - 1)
    return f"{g:.1f}%", bool(g < 5)


def storage(f9: pd.DataFrame, _: pd.DataFrame, __: pd.DataFrame) -> tuple[str, bool]:
    b = f9[f9["label"] == "consumer d3"]["storage_bytes"].iloc[0]  # k = 2 bits at depth 3
    n = f9[f9["label"] == "producer"]["dependency_list_entries_resolved"].min()
    return f"{b / 1024:.2f} KiB ({b:.0f} B), {n:.0f} entries", bool(
        abs(b / 1000 - 22) <= 1 and n == 896
    )


# The presets state no requests of the kernels' own: the ratio is taken
# against an estimate of 16 per TB (notebooks/blockmaestro.ipynb, Fig. 13).
OWN_REQUESTS_PER_TB = 16


def request_overhead(f9: pd.DataFrame, _: pd.DataFrame, __: pd.DataFrame) -> tuple[str, bool]:
    p = f9[f9["label"] == "producer"]
    per_tb = (
        p.groupby("workload")["sched_mem_requests"].mean()
        / p.groupby("workload")["workload.tasks"].first()
    )
    r = 100 * per_tb / OWN_REQUESTS_PER_TB
    return f"{r.mean():.2f}% (max {r.max():.2f}%)", bool(0.68 <= r.mean() <= 2.72)


def table3(f9: pd.DataFrame) -> pd.Series:
    p = f9[(f9["label"] == "producer") & (f9["replicate"] == 0)].set_index("workload")
    plain = p["graph_plain_bytes"]
    return (p["graph_encoded_bytes"] / plain)[plain > 0]


def table3_average(f9: pd.DataFrame, _: pd.DataFrame, __: pd.DataFrame) -> tuple[str, bool]:
    r = table3(f9)
    return f"{r.mean():.3f} (reduction {100 * (1 - r.mean()):.1f}%)", abs(r.mean() - 0.653) <= 0.1


def table3_app(app: str) -> Check:
    def check(f9: pd.DataFrame, _: pd.DataFrame, __: pd.DataFrame) -> tuple[str, bool]:
        v, paper = float(table3(f9)[app]), TABLE3[app]
        ok = abs(v - paper) <= 0.05 if paper >= 0.1 else paper / 1.5 <= v <= paper * 1.5
        return f"{v:.4g}", ok

    return check


def table3_none(f9: pd.DataFrame, _: pd.DataFrame, __: pd.DataFrame) -> tuple[str, bool]:
    p = f9[f9["label"] == "producer"].groupby("workload")["graph_plain_bytes"].max()
    return f"BICG {p['BICG']:.0f} B, MVT {p['MVT']:.0f} B", bool(p["BICG"] == 0 and p["MVT"] == 0)


def fig14_gain(f14: pd.DataFrame, label: str) -> pd.Series:
    s = f14[(f14["label"] == label) & (f14["cost.sigma"] == 0.03)]
    return s.groupby("replicate")["speedup"].apply(lambda x: np.exp(np.log(x).mean()))


def fig14_near(label: str, paper: float, tol: float) -> Check:
    def check(_: pd.DataFrame, __: pd.DataFrame, f14: pd.DataFrame) -> tuple[str, bool]:
        g = fig14_gain(f14, label)
        return spread(g, "x"), abs(g.mean() - paper) <= tol

    return check


def fig14_order(_: pd.DataFrame, __: pd.DataFrame, f14: pd.DataFrame) -> tuple[str, bool]:
    g = [fig14_gain(f14, x).mean() for x in ("BM producer", "Wireframe", "BM consumer d3")]
    return " < ".join(f"{x:.3f}" for x in g), bool(g[0] + 0.02 < g[1] and g[1] + 0.02 < g[2])


CLAIMS: dict[str, Check] = {
    "fig9_producer_geomean": geomean_near("producer", 51.76, 3.0),
    "fig9_consumer_d3_geomean": geomean_near("consumer d3", 80.28, 3.0),
    "fig9_alexnet": alexnet,
    "fig9_largest_speedup": largest,
    "fig9_depth_raises_geomean": depth_raises,
    "fig9_diminishing_returns": diminishing,
    "fig9_lud_runs_ahead_alexnet_not": lud_runs_ahead,
    "fig9_gaussian_gramschm_from_prelaunch": prelaunch_alone,
    "fig9_3mm_bicg_fdtd_from_fine_grain": fine_grain,
    "fig10_concurrency_up": concurrency_up,
    "fig10_alexnet_little_prelaunch_more_concurrency": alexnet_concurrency,
    "fig11_median_stall_down_most": stalls_down,
    "fig11_alexnet_some_stall_more": alexnet_stalls,
    "fig11_bicg_mvt_dramatic": bicg_mvt,
    "fig12_threshold_32": threshold,
    "fig12_beyond_threshold_fully_connected": beyond_like_full,
    "fig12_gain_shrinks_with_size": shrinks,
    "fig12_gone_at_2048": gone_2048,
    "ivc_storage_22kb": storage,
    "fig13_request_overhead": request_overhead,
    "table3_average": table3_average,
    **{f"table3_{a.lower().replace('-', '')}": table3_app(a) for a in TABLE3},
    "table3_bicg_mvt_none": table3_none,
    "fig14_producer": fig14_near("BM producer", 1.058, 0.05),
    "fig14_wireframe": fig14_near("Wireframe", 1.368, 0.1),
    "fig14_consumer": fig14_near("BM consumer d3", 2.0, 0.3),
    "fig14_order": fig14_order,
}
