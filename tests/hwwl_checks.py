"""The checks of the hardware-worklist claims ledger (tests/hwwl_claims.py): each
reads the experiments' tables (tests/hwwl_ledger.py) and says whether one claim
holds, with what tbdse measured."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd
from hwwl_ledger import (
    EVEN,
    Bundle,
    Outcome,
    active,
    count,
    fig8,
    fmt,
    s5,
    s6,
    s7,
    scaling,
    stat,
    sw_stat,
    times,
    w7,
)

import tbdse as td

# --- the checks ---------------------------------------------------------------


def winner(name: str, expected: str) -> Callable[[Bundle], Outcome]:
    def check(b: Bundle) -> Outcome:
        t = times(b["hwwl_fig5"])
        data = t[["data", "data_wdo"]].min(axis=1)[name]
        return (data < t.loc[name, "topology"]) == (expected == "data"), (
            f"topo/best data = {t.loc[name, 'topology'] / data:.2f}"
        )

    return check


def order(
    column: str, name: str, op: str, lo: float = 0, hi: float = 0
) -> Callable[[Bundle], Outcome]:
    """data vs topo for a Table II statistic: '>' strict, '<', or 'in' [lo, hi] as a ratio."""

    def check(b: Bundle) -> Outcome:
        d = sw_stat(b, column, "data")[name]
        t = sw_stat(b, column, "topo")[name]
        r = d / t if t else float("inf")
        holds = {">": d > t, "<": d < t, ">=": d >= t - lo, "in": lo <= r <= hi}[op]
        return bool(holds), f"data {d:.3g}, topo {t:.3g} (ratio {r:.2f})"

    return check


def f5_range(b: Bundle) -> Outcome:
    s = s5(b, "fifo")
    inside = (s >= 1.08) & (s <= 3.08)
    return bool(inside.all()), f"{count(inside)}/6 in [1.08, 3.08]: {fmt(s)}"


def f5_sorted(b: Bundle) -> Outcome:
    gain = s5(b, "sorted") / s5(b, "fifo")
    return count(gain > 1.01) >= 4, f"sorted/FIFO: {fmt(gain)}"


def f5_sorted_locality(b: Bundle) -> Outcome:
    a = stat(b, "hwwl_fig5", "sorted", "requests_per_load")
    f = stat(b, "hwwl_fig5", "fifo", "requests_per_load")
    return count(a <= f) >= 4, f"requests/load sorted vs FIFO: {fmt(a / f)}"


def f5_fewer_requests(b: Bundle) -> Outcome:
    # the worklist's own memory requests vanish: fewer line requests than data
    hw = stat(b, "hwwl_fig5", "fifo", "mem_requests")
    data = stat(b, "hwwl_fig5", "data", "mem_requests")
    return count(hw < data) >= 4, f"requests FIFO/data: {fmt(hw / data)}"


def f5_realistic_below(b: Bundle) -> Outcome:
    real = s7(b, "interval", 32)
    r = real / s5(b, "fifo")
    return bool((r <= 1.05).all()), f"realistic/ideal FIFO: {fmt(r)}"


def f6_none_gains(b: Bundle) -> Outcome:
    s = s6(b, "none")[EVEN]
    return bool((s >= 1.10).all()), fmt(s)


def f6_mst_none(b: Bundle) -> Outcome:
    s = s6(b, "none")["MST"]
    return s > 1.0, f"MST none {s:.2f}"


def f6_fewer_worklist_requests(b: Bundle) -> Outcome:
    hw = stat(b, "hwwl_fig6", "none", "mem_requests")[EVEN]
    data = stat(b, "hwwl_fig5", "data", "mem_requests")[EVEN]
    return bool((hw < data).all()), f"requests none/data: {fmt(hw / data)}"


def f6_di_reduction(b: Bundle) -> Outcome:
    hw = stat(b, "hwwl_fig6", "none", "dynamic_instructions")[EVEN]
    sw = sw_stat(b, "dynamic_instructions", "data")[EVEN]
    red = 1 - hw / sw
    return 0.11 <= red.max() <= 0.21, f"DI reduction none vs best data: {fmt(red)}"


def f6_bfs_sssp_spin(b: Bundle) -> Outcome:
    hw = stat(b, "hwwl_fig6", "none", "dynamic_instructions")
    sw = sw_stat(b, "dynamic_instructions", "data")
    r = (hw / sw)[["BFS", "SSSP"]]
    return bool(((r >= 7) & (r <= 100)).all()), f"DI none / best data: {fmt(r, 1)}"


def f6_efficiency(b: Bundle) -> Outcome:
    hw = stat(b, "hwwl_fig6", "none", "useful_instructions") / stat(
        b, "hwwl_fig6", "none", "dynamic_instructions"
    )
    sw = sw_stat(b, "useful_instructions", "data") / sw_stat(b, "dynamic_instructions", "data")
    r = hw[["BFS", "SSSP"]] / sw[["BFS", "SSSP"]]
    return bool((r < 1).all()), f"work efficiency none / best data: {fmt(r, 3)}"


def tuning(param: str, best_at: float, tol: float) -> Callable[[Bundle], Outcome]:
    def check(b: Bundle) -> Outcome:
        df = b["hwwl_tuning"].copy()
        other = "interval" if param == "threshold" else "threshold"
        df = df[df[other] == (10 if other == "interval" else 5)]
        s = df.pivot_table(index="workload", columns=param, values="makespan_cycles")
        mean = (s.rdiv(s.min(axis=1), axis=0)).mean()  # mean over B of best/this
        return mean[best_at] >= 1 - tol, f"mean share of the best: {fmt(mean)}"

    return check


def f6_any_helps(b: Bundle) -> Outcome:
    s = {x: s6(b, x)[["BFS", "SSSP"]] for x in ["threshold", "lsorting", "gsorting", "magic"]}
    none = s6(b, "none")[["BFS", "SSSP"]]
    ok = all((v > none).all() for v in s.values())
    return ok, "over none: " + "; ".join(f"{k} {fmt(v / none)}" for k, v in s.items())


def f6_wait_orders(b: Bundle) -> Outcome:
    r = stat(b, "hwwl_fig6", "none", "wait_pulls") / stat(b, "hwwl_fig6", "lsorting", "wait_pulls")
    r = r[["BFS", "SSSP"]]
    return bool((r >= 100).all()), f"WAIT pulls none/lsorting: {fmt(r, 1)}"


def f6_sorting_no_loss(b: Bundle) -> Outcome:
    r = s6(b, "lsorting")[["BH", "DMR", "MST", "SP"]] / s6(b, "none")[["BH", "DMR", "MST", "SP"]]
    return bool((r >= 0.98).all()), f"lsorting/none: {fmt(r)}"


def f6_di_70(b: Bundle) -> Outcome:
    r = (
        1
        - (
            stat(b, "hwwl_fig6", "lsorting", "dynamic_instructions")
            / stat(b, "hwwl_fig6", "none", "dynamic_instructions")
        )[["BFS", "SSSP"]]
    )
    return bool((r >= 0.70).all()), f"DI reduction lsorting vs none: {fmt(r)}"


def f6_threshold_weak(b: Bundle) -> Outcome:
    t = s6(b, "threshold")
    m = np.minimum(s6(b, "lsorting"), s6(b, "gsorting"))
    return count(t < m) >= 4, f"threshold / min(sorting): {fmt(t / m, 3)}"


def f6_sp_threshold_gap(b: Bundle) -> Outcome:
    g = s6(b, "lsorting") / s6(b, "threshold")
    return g.rank(ascending=False)["SP"] <= 3, f"lsorting/threshold: {fmt(g, 3)}"


def f6_sp_threshold_suffers(b: Bundle) -> Outcome:
    t, n = s6(b, "threshold")["SP"], s6(b, "none")["SP"]
    return t < n, f"SP threshold {t:.3f}, none {n:.3f}"


def f6_sorting_beats_threshold(b: Bundle) -> Outcome:
    r = np.maximum(s6(b, "lsorting"), s6(b, "gsorting")) / s6(b, "threshold")
    return bool((r >= 0.98).all()), f"best sorting / threshold: {fmt(r, 3)}"


def f6_local_global(b: Bundle) -> Outcome:
    gap = (s6(b, "gsorting") / s6(b, "lsorting") - 1).abs()
    return bool((gap <= 0.10).all()) and count(gap > 0.02) <= 3, f"|g/l - 1|: {fmt(gap, 3)}"


def f6_sp_global_loses(b: Bundle) -> Outcome:
    g, loc = s6(b, "gsorting")["SP"], s6(b, "lsorting")["SP"]
    return g < loc, f"SP gsorting {g:.3f}, lsorting {loc:.3f}"


def f6_sorting_near_magic(b: Bundle) -> Outcome:
    m = s6(b, "magic")
    t = (m - s6(b, "threshold")).abs()
    ls = (m - s6(b, "lsorting")).abs()
    return count(
        ls <= t + 0.02
    ) >= 4, f"|magic - lsorting| vs |magic - threshold|: {fmt(ls)} / {fmt(t)}"


def f6_magic_best(b: Bundle) -> Outcome:
    others = pd.concat([s6(b, x) for x in ["none", "threshold", "lsorting", "gsorting"]], axis=1)
    r = s6(b, "magic") / others.max(axis=1)
    return bool((r >= 0.98).all()), f"magic / best other: {fmt(r, 3)}"


def f7_od_close(b: Bundle) -> Outcome:
    inf = s6(b, "lsorting")
    ok = [count(s7(b, "on_demand", e) / inf >= 0.90) >= 4 for e in (8.0, 32.0, 128.0)]
    return all(ok), "per size (8, 32, 128): " + "; ".join(
        fmt(s7(b, "on_demand", e) / inf) for e in (8.0, 32.0, 128.0)
    )


def f7_simple_operator_gap(name: str) -> Callable[[Bundle], Outcome]:
    def check(b: Bundle) -> Outcome:
        inf = s6(b, "lsorting")
        gap = 1 - s7(b, "on_demand", 8.0) / inf
        return gap.rank(ascending=False)[name] <= 2, f"on-demand gap at 8 entries: {fmt(gap)}"

    return check


def f7_interval_unneeded(b: Bundle) -> Outcome:
    r = s7(b, "interval", 32.0) / s7(b, "on_demand", 32.0)
    close = (r - 1).abs() <= 0.05
    return count(close) >= 4, f"interval/on-demand at 32: {fmt(r, 3)}"


def f7_interval_closer(b: Bundle) -> Outcome:
    inf = s6(b, "lsorting")
    ok = all(
        (s7(b, "interval", e)[n] / inf[n]) > (s7(b, "on_demand", e)[n] / inf[n])
        for n in ("BH", "MST")
        for e in (8.0, 32.0)
    )
    share = lambda refill, e, n: s7(b, refill, e)[n] / inf[n]  # noqa: E731
    return ok, "BH, MST interval/inf vs on-demand/inf at 8, 32: " + "; ".join(
        f"{n}@{e:.0f} {share('interval', e, n):.2f} vs {share('on_demand', e, n):.2f}"
        for n in ("BH", "MST")
        for e in (8.0, 32.0)
    )


def f7_smaller_capacity(b: Bundle) -> Outcome:
    ok = {n: s7(b, "interval", 8.0)[n] >= s7(b, "on_demand", 32.0)[n] * 0.99 for n in ("BH", "MST")}
    return all(ok.values()), "interval@8 >= on-demand@32: " + str(ok)


def f7_wait_five(b: Bundle) -> Outcome:
    r = (w7(b, "on_demand", 32.0) / w7(b, "interval", 32.0))[["BH", "MST"]]
    return bool(((r >= 3.5) & (r <= 7)).all()), f"WAIT on-demand/interval at 32: {fmt(r, 2)}"


def f7_bfs_no_benefit(b: Bundle) -> Outcome:
    r = [s7(b, "interval", e)["BFS"] / s7(b, "on_demand", e)["BFS"] for e in (8.0, 32.0, 128.0)]
    return all(abs(x - 1) <= 0.05 for x in r), "BFS interval/on-demand at 8, 32, 128: " + ", ".join(
        f"{x:.3f}" for x in r
    )


def f7_bfs_fits(b: Bundle) -> Outcome:
    df = b["hwwl_fig7"]
    rows = df[(df["workload"] == "BFS") & (df["bank_entries"] >= 32)]
    share = rows["spilled_ids"] / rows["pushed_ids"].clip(lower=1)
    return bool(
        (share <= 0.01).all()
    ), f"BFS spilled/pushed at 32, 128: {fmt(dict(enumerate(share)), 3)}"


def f7_32_enough(b: Bundle) -> Outcome:
    inf = s6(b, "lsorting")
    r = s7(b, "interval", 32.0) / inf
    return bool((r >= 0.90).all()), f"interval@32 / infinite: {fmt(r)}"


def f7_monotone(b: Bundle) -> Outcome:
    bad = []
    for refill in ("on_demand", "interval"):
        s = [s7(b, refill, e) for e in (8.0, 32.0, 128.0)] + [s6(b, "lsorting")]
        for i in range(len(s) - 1):
            drop = s[i + 1] < s[i] * 0.98
            bad += [f"{refill} {n} step {i}" for n in drop[drop].index]
    return not bad, "drops > 2%: " + (", ".join(bad) or "none")


def f7_realistic_range(b: Bundle) -> Outcome:
    s = s7(b, "interval", 32.0)
    inside = (s >= 1.08) & (s <= 2.64)
    return bool(inside.all()), f"{count(inside)}/6 in [1.08, 2.64]: {fmt(s)}"


def f7_beats_both(b: Bundle) -> Outcome:
    s = s7(b, "interval", 32.0)
    return bool((s > 1).all()), fmt(s)


def f7_mst_vs_topo(b: Bundle) -> Outcome:
    df = b["hwwl_fig7"]
    real = df[
        (df["refill"] == "interval") & (df["bank_entries"] == 32.0) & (df["workload"] == "MST")
    ]
    topo = times(b["hwwl_fig5"]).loc["MST", "topology"]
    r = topo / real["makespan_cycles"].iloc[0]
    return r >= 1.08, f"MST topology / realistic HWWL = {r:.2f}"


def va_rising(b: Bundle) -> Outcome:
    s = scaling(b)
    return bool((np.diff(s.to_numpy()) > 0).all()), f"speed-up at 4/8/16 cores: {fmt(s)}"


def va_16(b: Bundle) -> Outcome:
    s = scaling(b)[16]
    return 2.25 <= s <= 2.75, f"{s:.2f} at 16 cores"


def va_capacity(b: Bundle) -> Outcome:
    df = b["hwwl_scaling"]
    hw = df.set_index("gpu.sms").sort_index()
    share = (hw["virt_loads"] + hw["virt_stores"]) / hw["pushed_ids"]
    return bool((np.diff(share.to_numpy()) < 0).all()), f"(loads+stores)/pushes: {fmt(share, 4)}"


def va_latency(b: Bundle) -> Outcome:
    df = b["hwwl_scaling"]
    lat = df.set_index("gpu.sms")["network_latency_resolved"]
    ok, _ = va_rising(b)
    return bool(lat[16] > lat[4]) and ok, f"network latency {fmt(lat, 0)}; speed-ups rising: {ok}"


def storage(b: Bundle) -> Outcome:
    r = td.simulate(td.workloads.bfs(graph="grid", rows=4, cols=4), "gpgpusim_hwwl", "hwwl")
    per_core = r.stats["hwwl_bytes"]
    return per_core == 1536, f"{per_core:.0f} B per core"


def rf_share(b: Bundle) -> Outcome:
    share = 1536 / 65536
    return 0.023 <= share <= 0.025, f"{share:.2%} of a 64 KB register file"


def sort_area(b: Bundle) -> Outcome:
    r = td.simulate(td.workloads.bfs(graph="grid", rows=4, cols=4), "gpgpusim_hwwl", "hwwl")
    return abs(
        r.stats["sort_network_mm2"] - 4 * 162e-6
    ) < 1e-12, "162 um^2 per core (the paper's own figure)"


def vc_full(b: Bundle) -> Outcome:
    a = active(b, "single")
    share = float((a >= 0.95).mean())
    return share > 0.5, f"single: {share:.0%} of samples with >= 95% active"


def vc_peak(b: Bundle) -> Outcome:
    peak = float(active(b, "double").max())
    return 0.75 <= peak <= 0.85, f"double: peak {peak:.0%} active"


def vc_single_slower(b: Bundle) -> Outcome:
    t = fig8(b)
    r = t.loc["single", "realistic"] / t.loc["double", "realistic"]
    return r > 1.01, f"single/double, realistic memory: {r:.3f}"


def vc_single_faster_magic(b: Bundle) -> Outcome:
    t = fig8(b)
    return t.loc["single", "magic"] * 1.01 < t.loc["double", "magic"], (
        f"single/double, magic memory: {t.loc['single', 'magic'] / t.loc['double', 'magic']:.3f}"
    )


def vc_double_insensitive(b: Bundle) -> Outcome:
    t = fig8(b)
    r = t.loc["double", "realistic"] / t.loc["double", "magic"]
    return r <= 1.05, f"double realistic/magic: {r:.2f}"


def vc_single_sensitive(b: Bundle) -> Outcome:
    t = fig8(b)
    s = t.loc["single", "realistic"] / t.loc["single", "magic"]
    d = t.loc["double", "realistic"] / t.loc["double", "magic"]
    return s > d, f"realistic/magic: single {s:.2f}, double {d:.2f}"
