"""Property tests: the run invariants of docs/MODELS.md §1 on random DAGs, for every scheme.

Every task runs exactly once, for exactly its cost (under ``sm_model: shared``
at least its cost, with its work conserved: tests/test_shared_sms.py); no task starts before all
its parents end; no SM ever holds more TBs (or threads) than it has; the
makespan is the last end and at least the critical path and the work bound;
identical configuration + seed gives identical rows on any thread count and
in any submission order.
"""

from __future__ import annotations

import itertools
import math
from collections import defaultdict

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tbdse as td

SCHEMES = td.schemes.names_for_kind("task_graph")
SETTINGS = settings(
    max_examples=250,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    database=None,
)
CLOCKS = [1.0, 10.0, 100.0, 700.0]
LAUNCH_US = [0.0, 0.0, 0.5, 1.0, 2.0]  # exact in cycles at every clock above


@st.composite
def dags(draw: st.DrawFn, max_nodes: int = 14) -> tuple[int, list[tuple[int, int]]]:
    """n nodes and (src, dst) edges with src < dst, so acyclic; duplicates allowed."""
    n = draw(st.integers(1, max_nodes))
    if n == 1:
        return 1, []
    pair = st.integers(0, n - 2).flatmap(lambda s: st.tuples(st.just(s), st.integers(s + 1, n - 1)))
    edges = draw(st.lists(pair, max_size=3 * n))
    return n, edges


@st.composite
def scenarios(draw: st.DrawFn, scheme: str) -> dict:
    n, edges = draw(dags())
    costs = draw(st.lists(st.integers(1, 60), min_size=n, max_size=n))
    sms = draw(st.integers(1, 3))
    slots = draw(st.integers(2 if (scheme == "cdp" and sms == 1) else 1, 3))
    threads_per_sm = draw(st.sampled_from([256, 512, 1024]))
    smem_per_sm = draw(st.sampled_from([16384, 32768]))
    # Zero, one or two kernels with thread and shared-memory footprints that fit an SM.
    n_kernels = draw(st.integers(0, 2))
    kernels = (
        [
            td.Kernel(
                f"k{i}",
                threads=draw(st.sampled_from([0, 64, 128, 256])),
                # Juggler's workers add the runtime's 20 B per thread to it.
                smem_bytes=draw(
                    st.sampled_from([0, 0, 4096, 8192 if scheme == "juggler" else 16384])
                ),
            )
            for i in range(n_kernels)
        ]
        if n_kernels
        else None
    )
    kernel_ids = (
        draw(st.lists(st.integers(0, n_kernels - 1), min_size=n, max_size=n)) if n_kernels else None
    )
    gpu = td.gpus.custom(
        "prop",
        sms=sms,
        tb_slots=slots,
        threads_per_sm=threads_per_sm,
        smem_per_sm=smem_per_sm,
        host_launch_us=draw(st.sampled_from(LAUNCH_US)),
        device_launch_us=draw(st.sampled_from(LAUNCH_US)),
        clock_mhz=draw(st.sampled_from(CLOCKS)),
    )
    wl = td.workloads.from_edges(
        edges, n, cost=td.cost.array(costs), kernel_ids=kernel_ids, kernels=kernels
    )
    return {
        "n": n,
        "edges": edges,
        "costs": costs,
        "gpu": gpu,
        "workload": wl,
        "kernel_ids": kernel_ids or [0] * n,
        "kernels": kernels or [td.Kernel()],
    }


def parents_of(n: int, edges: list[tuple[int, int]]) -> list[set[int]]:
    parents: list[set[int]] = [set() for _ in range(n)]
    for s, d in edges:
        parents[d].add(s)
    return parents


def critical_path(n: int, edges: list[tuple[int, int]], costs: list[int]) -> int:
    # src < dst, so id order is a topological order.
    finish = [0] * n
    parents = parents_of(n, edges)
    for t in range(n):
        finish[t] = costs[t] + max((finish[p] for p in parents[t]), default=0)
    return max(finish)


def peak_usage(intervals: list[tuple[int, int, int]]) -> int:
    """Largest sum of weights of [start, end) intervals alive at one time (ends before starts)."""
    events = sorted([(s, 1, w) for s, e, w in intervals] + [(e, 0, -w) for s, e, w in intervals])
    peak = level = 0
    for _, _, w in events:
        level += w
        peak = max(peak, level)
    return peak


def check_run(scheme: str, sc: dict) -> None:
    n, edges, costs, gpu = sc["n"], sc["edges"], sc["costs"], sc["gpu"]
    r = td.simulate(sc["workload"], gpu, scheme, timeline=True)
    tl = r.timeline().set_index("task").sort_index()

    # Every task runs exactly once, for exactly its cost (shared SMs: at least it).
    shared = gpu.sm_model == "shared"
    assert list(tl.index) == list(range(n))
    assert (tl["start"] >= 0).all() and (tl["ready"] >= 0).all()
    assert list(tl["duration"]) == list(tl["end"] - tl["start"])
    if shared:
        assert (tl["duration"] >= np.array(costs)).all()
        check_work_conserved(tl, costs, sc)
    else:
        assert list(tl["duration"]) == costs
    assert (tl["ready"] <= tl["start"]).all()
    assert tl["sm"].between(0, gpu.sms - 1).all()
    assert tl["slot"].between(0, gpu.tb_slots - 1).all()

    # Nothing starts before its first kernel launch can have happened.
    first_launch = 0 if scheme == "ideal_baseline" else round(gpu.host_launch_us * gpu.clock_mhz)
    if scheme == "cdp":
        first_launch += round(gpu.device_launch_us * gpu.clock_mhz)
    assert tl["start"].min() >= first_launch

    # Dependencies: never ready or started before every parent ended.
    end = tl["end"].to_numpy()
    for t, parents in enumerate(parents_of(n, edges)):
        if parents:
            last = max(end[p] for p in parents)
            assert tl.at[t, "ready"] >= last, (t, parents)
            assert tl.at[t, "start"] >= last, (t, parents)

    # Levels as documented: roots 0, else 1 + max parent level.
    levels = [0] * n
    for t, parents in enumerate(parents_of(n, edges)):
        levels[t] = 1 + max((levels[p] for p in parents), default=-1)
    assert list(tl["level"]) == levels

    # SM resources: slots (cdp's parent kernel holds one slot of SM 0 for the
    # whole run, and it is the first slot taken: slot 0) and threads.
    threads = [sc["kernels"][k].threads for k in sc["kernel_ids"]]
    smem = [sc["kernels"][k].smem_bytes for k in sc["kernel_ids"]]
    for sm in range(gpu.sms):
        on = tl[tl["sm"] == sm]
        capacity = gpu.tb_slots - (1 if scheme == "cdp" and sm == 0 else 0)
        alive = list(zip(on.index, on["start"], on["end"], strict=True))
        assert peak_usage([(int(s), int(e), 1) for _, s, e in alive]) <= capacity, (sm, capacity)
        assert peak_usage([(int(s), int(e), threads[t]) for t, s, e in alive]) <= gpu.threads_per_sm
        assert peak_usage([(int(s), int(e), smem[t]) for t, s, e in alive]) <= gpu.smem_per_sm
        # Two TBs alive at once on an SM never share a slot.
        for slot, group in on.groupby("slot"):
            spans = [(int(s), int(e), 1) for s, e in zip(group["start"], group["end"], strict=True)]
            assert peak_usage(spans) <= 1, (sm, slot)
            if scheme == "cdp" and sm == 0:
                assert slot != 0  # the parent kernel's slot

    # Makespan: the last end (Juggler's kernel ends later, when its workers
    # have seen every queue empty), and at least both lower bounds.
    m = r.metrics
    if scheme == "juggler":
        assert r.makespan_cycles >= tl["end"].max()
    else:
        assert r.makespan_cycles == tl["end"].max()
    assert m["critical_path_cycles"] == critical_path(n, edges, costs)
    occupancy = [
        min(
            gpu.tb_slots,
            gpu.threads_per_sm // k.threads if k.threads else gpu.tb_slots,
            gpu.smem_per_sm // k.smem_bytes if k.smem_bytes else gpu.tb_slots,
        )
        for k in sc["kernels"]
    ]
    used_kernels = range(max(sc["kernel_ids"]) + 1)
    first = sc["kernels"][0]
    uniform = all(
        (sc["kernels"][k].threads, sc["kernels"][k].smem_bytes) == (first.threads, first.smem_bytes)
        for k in used_kernels
    )
    capacity = gpu.sms * (occupancy[0] if uniform else gpu.tb_slots)
    if not shared:
        assert m["work_bound_cycles"] == math.ceil(sum(costs) / capacity)
    else:  # slots; at most sm_saturation TBs' compute per SM; the bytes at the bandwidth
        fraction = [sc["kernels"][k].mem_fraction for k in sc["kernel_ids"]]
        compute = sum((1 - f) * c for f, c in zip(fraction, costs, strict=True))
        bound = max(sum(costs) / capacity, compute / (gpu.sms * gpu.sm_saturation))
        if gpu.mem_bandwidth > 0:
            moved = sum(
                128 * sc["kernels"][k].mem_requests
                for k, c in zip(sc["kernel_ids"], costs, strict=True)
                if sc["kernels"][k].mem_fraction > 0 and c > 0
            )
            bound = max(bound, moved * gpu.clock_mhz / (gpu.mem_bandwidth * 1000))
        assert abs(m["work_bound_cycles"] - math.ceil(bound)) <= 1
    assert r.makespan_cycles >= max(m["critical_path_cycles"], m["work_bound_cycles"])
    assert m["avg_tb_concurrency"] == pytest.approx(tl["duration"].sum() / r.makespan_cycles)
    assert 0 < m["sm_utilisation"] <= 1 + 1e-12
    assert 0 < m["slot_utilisation"] <= 1 + 1e-12
    assert r.makespan_us == pytest.approx(r.makespan_cycles / gpu.clock_mhz)

    # Barrier baselines: a launch group (level) starts only after the previous one ended.
    if scheme in ("global_barrier", "cdp", "deplinks", "baseline", "ideal_baseline", "prelaunch"):
        by_level = tl.groupby("level")
        starts, ends = by_level["start"].min(), by_level["end"].max()
        for level in range(1, len(starts)):
            assert starts[level] >= ends[level - 1]
        host = round(gpu.host_launch_us * gpu.clock_mhz)
        if scheme in ("global_barrier", "baseline"):  # a host launch before every level
            assert r.makespan_cycles >= sum(host + int(c) for c in by_level["duration"].max())


def check_work_conserved(tl: pd.DataFrame, costs: list[int], sc: dict) -> None:
    """Shared SMs: an SM does at most min(sm_saturation, resident TBs) TBs' compute
    work per cycle (memory time, a kernel's mem_fraction of its cost, does not
    take SM throughput), all of it when no kernel has memory time; a TB may end
    up to a cycle late (finish times are whole cycles), its SM still working."""
    gpu = sc["gpu"]
    memory = any(k.mem_fraction > 0 for k in sc["kernels"])
    for sm in range(gpu.sms):
        on = tl[tl["sm"] == sm]
        if on.empty:
            continue
        times = sorted(set(on["start"]) | set(on["end"]))
        capacity = 0.0
        for a, b in itertools.pairwise(times):
            resident = int(((on["start"] <= a) & (on["end"] >= b)).sum())
            capacity += (b - a) * min(gpu.sm_saturation, resident)
        compute = [
            (1 - sc["kernels"][sc["kernel_ids"][t]].mem_fraction) * costs[t] for t in on.index
        ]
        work = float(sum(compute))
        assert work <= capacity + 1e-6 * max(1.0, work), (sm, work, capacity)
        if not memory:
            assert capacity <= work + gpu.sm_saturation * len(on) + 1e-6, (sm, work, capacity)


@pytest.mark.parametrize("scheme", SCHEMES)
@SETTINGS
@given(data=st.data())
def test_run_invariants(scheme: str, data: st.DataObject) -> None:
    check_run(scheme, data.draw(scenarios(scheme)))


@pytest.mark.parametrize("scheme", SCHEMES)
@settings(max_examples=25, deadline=None, database=None)
@given(
    layers=st.integers(1, 6),
    width=st.integers(1, 6),
    edge_prob=st.sampled_from([0.0, 0.3, 1.0]),
    span=st.integers(1, 3),
    seed=st.integers(0, 2**32),
    sms=st.integers(2, 4),
    slots=st.integers(1, 4),
)
def test_run_invariants_layered_random(
    scheme: str,
    layers: int,
    width: int,
    edge_prob: float,
    span: int,
    seed: int,
    sms: int,
    slots: int,
) -> None:
    # Generated graphs with lognormal costs: the edge list comes from the
    # graph's CSR arrays and the costs from the timeline of a first run.
    wl = td.workloads.layered_random(
        layers, width, edge_prob, span, seed, cost=td.cost.lognormal(50, 0.7)
    )
    g = wl.graph
    starts, children = g.edge_starts(), g.edges()
    edges = [(u, int(children[e])) for u in range(g.size) for e in range(starts[u], starts[u + 1])]
    gpu = td.gpus.custom(
        "prop", sms=sms, tb_slots=slots, host_launch_us=0.5, device_launch_us=0.5, clock_mhz=10.0
    )
    first = td.simulate(wl, gpu, scheme, seed=seed % 1000, timeline=True).timeline()
    costs = [int(c) for c in first.set_index("task").sort_index()["duration"]]
    assert min(costs) >= 1
    # Layered graphs are not id-topological in general; relabel in level order.
    order = list(g.level_order())
    new = {int(t): i for i, t in enumerate(order)}
    sc = {
        "n": g.size,
        "edges": [(new[s], new[d]) for s, d in edges],
        "costs": [costs[t] for t in order],
        "gpu": gpu,
        "kernel_ids": [0] * g.size,
        "kernels": [td.Kernel()],
    }
    assert all(s < d for s, d in sc["edges"])
    sc["workload"] = td.workloads.from_edges(sc["edges"], sc["n"], cost=td.cost.array(sc["costs"]))
    check_run(scheme, sc)


# ------------------------------------------------------------------- determinism
def _sorted(df: pd.DataFrame) -> pd.DataFrame:
    keys = ["workload", "scheme", "gpu.sms", "gpu.tb_slots", "replicate"]
    return df.sort_values(keys, kind="stable").reset_index(drop=True)


@settings(max_examples=12, deadline=None, database=None)
@given(
    dag=dags(max_nodes=12),
    seed=st.integers(0, 2**40),
    sigma=st.sampled_from([0.1, 0.6, 1.2]),
    perm=st.permutations(range(3)),
)
def test_sweeps_are_deterministic_across_threads_and_order(
    dag: tuple[int, list[tuple[int, int]]], seed: int, sigma: float, perm: list[int]
) -> None:
    n, edges = dag
    wls = [
        td.workloads.from_edges(edges, n, name="dag", cost=td.cost.lognormal(100, sigma)),
        td.workloads.wavefront(3, 4, cost=td.cost.uniform(10, 90)),
        td.workloads.layered_random(3, 3, 0.4, 2, seed % 97, cost=td.cost.normal(60, 20)),
    ]
    gpu = td.gpus.custom(
        "det", sms=2, tb_slots=2, host_launch_us=0.3, device_launch_us=0.1, clock_mhz=100.0
    )
    sms, slots = [1, 2, 3], [2, 3]
    kw = {"replicates": 3, "seed": seed, "progress": False, "baseline": "global_barrier"}
    one = td.sweep(wls, gpu, SCHEMES, grid={"sms": sms, "tb_slots": slots}, threads=1, **kw)
    two = td.sweep(wls, gpu, SCHEMES, grid={"sms": sms, "tb_slots": slots}, threads=2, **kw)
    pd.testing.assert_frame_equal(one, two)
    # Any order of axis values: the same rows, in another order.
    shuffled = td.sweep(
        wls,
        gpu,
        SCHEMES,
        threads=2,
        grid={"sms": [sms[i] for i in perm], "tb_slots": slots[::-1]},
        **kw,
    )
    assert len(shuffled) == len(one) == 3 * len(SCHEMES) * 6 * 3
    pd.testing.assert_frame_equal(_sorted(one), _sorted(shuffled))
    # Workloads in another order: the same values (workload parameter columns move).
    moved = td.sweep(
        [wls[i] for i in perm], gpu, SCHEMES, grid={"sms": sms, "tb_slots": slots}, threads=2, **kw
    )
    assert sorted(moved.columns) == sorted(one.columns)
    pd.testing.assert_frame_equal(_sorted(one), _sorted(moved)[one.columns])
    # And with the schemes in reverse order: the same values (columns move).
    backwards = td.sweep(
        wls, gpu, SCHEMES[::-1], grid={"sms": sms, "tb_slots": slots}, threads=2, **kw
    )
    pd.testing.assert_frame_equal(_sorted(one), _sorted(backwards)[one.columns])


@pytest.mark.parametrize("scheme", SCHEMES)
def test_simulate_is_repeatable(scheme: str) -> None:
    wl = td.workloads.layered_random(5, 5, 0.3, 2, 4, cost=td.cost.lognormal(100, 0.8))
    gpu = td.gpus.custom("rep", sms=2, tb_slots=3, clock_mhz=100.0)
    a = td.simulate(wl, gpu, scheme, seed=3, replicate=1, timeline=True)
    b = td.simulate(wl, gpu, scheme, seed=3, replicate=1, timeline=True)
    pd.testing.assert_series_equal(a.row, b.row)
    pd.testing.assert_frame_equal(a.timeline(), b.timeline())
    assert np.array_equal(a.timeline()["duration"], b.timeline()["duration"])


def test_costs_are_shared_across_schemes_in_one_replicate() -> None:
    # Common random numbers: with the same seed and replicate every scheme sees
    # the same per-task costs.
    wl = td.workloads.wavefront(4, 4, cost=td.cost.lognormal(100, 0.9))
    gpu = td.gpus.custom("crn", sms=2, tb_slots=2, clock_mhz=100.0)
    durations = defaultdict(list)
    for scheme in SCHEMES:
        for rep in range(2):
            tl = td.simulate(wl, gpu, scheme, seed=9, replicate=rep, timeline=True).timeline()
            durations[rep].append(tuple(tl.set_index("task").sort_index()["duration"]))
    for rep in range(2):
        assert len(set(durations[rep])) == 1
    assert durations[0][0] != durations[1][0]
