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

import functools
import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

EXPERIMENTS = Path(__file__).resolve().parents[1] / "experiments"

# Fig. 9 as the reproduction test and the sensitivity script run it: two
# replicates instead of the file's five (its footprints through the memory
# hierarchy take about 3 s of one core per scheme and replicate) and, in the
# place of the ideal baseline (schemes[1]: no claim reads it), consumer
# priority with 4 kernels pre-launched, for "diminishing returns with more
# than 3 pre-launched kernels" (fig9_diminishing_returns); every verdict is
# the same as with five (docs/models/blockmaestro.md "Claims ledger").
FIG9_CI = (
    "replicates=2",
    "schemes.1={name: blockmaestro, priority: consumer, prelaunch_depth: 4, label: consumer d4}",
)
# The configurations of Fig. 9 (consumer priority with 1, 2 and 3 kernels
# pre-launched; d4 is the test's addition beyond the figure).
FIG9_CONFIGS = ["pre-launch", "producer", "consumer d1", "consumer d2", "consumer d3"]

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
    s = mean(f9)[FIG9_CONFIGS].stack()
    (app, label), top = s.idxmax(), s.max()
    return f"{top:.2f}x ({app}, {label})", abs(top - 2.92) <= 0.3


def depth_raises(f9: pd.DataFrame, _: pd.DataFrame, __: pd.DataFrame) -> tuple[str, bool]:
    d = [gain_per_replicate(f9, f"consumer d{k}").mean() for k in (1, 2, 3)]
    return " / ".join(f"{x:.1f}%" for x in d), d[0] < d[1] < d[2]


def diminishing(f9: pd.DataFrame, _: pd.DataFrame, __: pd.DataFrame) -> tuple[str, bool]:
    if not (f9["label"] == "consumer d4").any():
        return "not run: Fig. 9 without consumer d4 (FIG9_CI runs it)", False
    d = [gain_per_replicate(f9, f"consumer d{k}").mean() for k in (2, 3, 4)]
    return f"third kernel +{d[1] - d[0]:.1f}, fourth +{d[2] - d[1]:.1f} points", bool(
        d[2] - d[1] < d[1] - d[0]
    )


def depth_gain(f9: pd.DataFrame) -> pd.Series:
    """Per application: consumer d3's speed-up over consumer d1's, minus 1."""
    s = mean(f9)
    return s["consumer d3"] / s["consumer d1"] - 1


def lud_runs_ahead(f9: pd.DataFrame, _: pd.DataFrame, __: pd.DataFrame) -> tuple[str, bool]:
    ahead = depth_gain(f9)
    mid = ahead.median()
    return (
        f"d3 over d1: LUD +{100 * ahead['LUD']:.1f}%, AlexNet +{100 * ahead['AlexNet']:.1f}% "
        f"(median of 12 +{100 * mid:.1f}%)",
        bool(ahead["LUD"] > mid > ahead["AlexNet"]),
    )


def app_shape(f9: pd.DataFrame) -> pd.DataFrame:
    """Per application: its kernels (the baseline's launches) and the share of
    its kernel pairs tracked as fully connected (producer's barrier pairs)."""
    first = f9[f9["replicate"] == f9["replicate"].min()]
    base = first[first["label"] == "baseline"].set_index("workload")
    prod = first[first["label"] == "producer"].set_index("workload")
    kernels = base["launches"]
    return pd.DataFrame(
        {"kernels": kernels, "full": prod["barrier_pairs"] / (kernels - 1).clip(lower=1)}
    )


def depth_needs_kernels(f9: pd.DataFrame, _: pd.DataFrame, __: pd.DataFrame) -> tuple[str, bool]:
    shape, gain = app_shape(f9), depth_gain(f9)
    top = gain.nlargest(4).index
    ok = (shape.loc[top, "kernels"] > shape["kernels"].median()) & (shape.loc[top, "full"] <= 0.5)
    text = ", ".join(
        f"{a} +{100 * gain[a]:.0f}% ({shape.loc[a, 'kernels']:.0f} kernels, "
        f"{100 * shape.loc[a, 'full']:.0f}% fully connected)"
        for a in top
    )
    return f"{text}; median {shape['kernels'].median():.0f} kernels", bool(ok.all())


def two_kernels_enough(f9: pd.DataFrame, _: pd.DataFrame, __: pd.DataFrame) -> tuple[str, bool]:
    s = mean(f9).loc[["3MM", "BICG", "FDTD-2D"]]
    two = s[["producer", "consumer d1"]].max(axis=1) - 1
    best = s[FIG9_CONFIGS].max(axis=1) - 1
    share = two / best
    return ", ".join(f"{a} {share[a]:.2f} of +{best[a]:.2f}" for a in s.index), bool(
        (share > 0.5).all()
    )


def full_only_launches(f9: pd.DataFrame, _: pd.DataFrame, __: pd.DataFrame) -> tuple[str, bool]:
    shape = app_shape(f9)
    apps = shape.index[shape["full"] >= 1]
    s = mean(f9).loc[apps]
    r = s["producer"] / s["pre-launch"]
    text = ", ".join(f"{a} x{r[a]:.3f}" for a in apps)
    return f"producer over pre-launch: {text}", bool(
        len(apps) > 0 and ((r - 1).abs() <= 0.01).all()
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


def fig12_table(f12: pd.DataFrame, value: str = "speedup") -> pd.DataFrame:
    bm = f12[f12["scheme"] == "blockmaestro"]
    return bm.pivot_table(index="workload.degree", columns="workload.tbs", values=value)


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
    return f"{g:.1f}%", bool(g < 2)


@functools.lru_cache(maxsize=4)
def counter_widths(sm_saturation: float) -> pd.DataFrame:
    """Fig. 12's VectorAdd pair past the 6-bit counter (degrees 64-256, 256
    and 2048 TBs, one replicate) with the paper's counter and a 16-bit one:
    a third of a second of one core, run once per GPU setting."""
    import tbdse as td

    doc = yaml.safe_load((EXPERIMENTS / "blockmaestro_fig12.yaml").read_text())
    doc.update(
        replicates=1,
        grid={"workload.tbs": [256, 2048], "workload.degree": [64, 128, 256]},
        schemes=[
            "baseline",
            {"name": "blockmaestro", "label": "6 bits"},
            {"name": "blockmaestro", "parent_counter_bits": 16, "label": "16 bits"},
        ],
    )
    doc["gpu"]["sm_saturation"] = sm_saturation
    del doc["outputs"]
    with tempfile.TemporaryDirectory() as folder:
        exp = td.experiment.from_dict(doc, name="blockmaestro_counter_bits")
        return exp.run(Path(folder) / "runs", progress=False, echo=lambda _: None)


def counter_6bit(_: pd.DataFrame, f12: pd.DataFrame, __: pd.DataFrame) -> tuple[str, bool]:
    runs = counter_widths(float(f12["gpu.sm_saturation"].iloc[0]))
    t = runs.pivot_table(
        index=["workload.tbs", "workload.degree"], columns="label", values="speedup"
    )
    r = t["6 bits"] / t["16 bits"]
    (tbs, degree), low = r.idxmin(), r.min()
    return f"6-bit over 16-bit speed-up x{low:.3f} at worst ({tbs} TBs, degree {degree})", bool(
        low >= 0.98
    )


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


def requests_order_v(_: pd.DataFrame, f12: pd.DataFrame, __: pd.DataFrame) -> tuple[str, bool]:
    req = fig12_table(f12, "sched_mem_requests")
    req = req[req.index <= 32]  # tracked pairs (past 63 parents a pair is one barrier)
    tbs = np.log(req.columns.to_numpy(dtype=float))
    slope = req.apply(lambda row: np.polyfit(tbs, np.log(row.to_numpy(dtype=float)), 1)[0], axis=1)
    return f"log-log slope against TBs {slope.min():.2f}-{slope.max():.2f} (degrees 1-32)", bool(
        ((slope >= 0.5) & (slope <= 1.5)).all()
    )


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


def fig14_pub_limits(_: pd.DataFrame, __: pd.DataFrame, f14: pd.DataFrame) -> tuple[str, bool]:
    w = f14[(f14["label"] == "Wireframe") & (f14["cost.sigma"] == 0.03)]
    peak, size = w["pub_peak"].max(), float(w["pending_updates"].iloc[0])
    return f"PUB peak {peak:.0f} of {size:.0f} entries", bool(peak >= size)


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
    "fig9_depth_gain_needs_many_kernels_less_connected": depth_needs_kernels,
    "fig9_gaussian_gramschm_from_prelaunch": prelaunch_alone,
    "fig9_3mm_bicg_fdtd_from_fine_grain": fine_grain,
    "fig9_3mm_bicg_fdtd_two_kernels_active": two_kernels_enough,
    "fig8_fully_connected_only_launch_hiding": full_only_launches,
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
    "ivc_counter_6bit_little_loss": counter_6bit,
    "fig13_request_overhead": request_overhead,
    "fig13_requests_order_v": requests_order_v,
    "table3_average": table3_average,
    **{f"table3_{a.lower().replace('-', '')}": table3_app(a) for a in TABLE3},
    "table3_bicg_mvt_none": table3_none,
    "fig14_producer": fig14_near("BM producer", 1.058, 0.05),
    "fig14_wireframe": fig14_near("Wireframe", 1.368, 0.1),
    "fig14_consumer": fig14_near("BM consumer d3", 2.0, 0.3),
    "fig14_order": fig14_order,
    "fig14_wireframe_pub_limits_tasks": fig14_pub_limits,
}
