"""Run invariants of docs/MODELS.md §1, checked on one simulated TB-engine run.

Shared by tests/test_properties.py (hypothesis-drawn scenarios) and
tests/test_reliability.py (generated DAGs at scale).  A *scenario* is a dict:
``n`` tasks, ``edges`` (src, dst) with src < dst (so id order is a topological
order), per-task ``costs`` in cycles, the ``gpu``, the ``workload`` built from
them, and each task's kernel (``kernel_ids`` into ``kernels``).
:func:`scenario_from_workload` turns any generated task graph into one.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
import pytest

import tbdse as td


def issue_units(k: td.Kernel, gpu: td.Gpu) -> float:
    """A TB's issue demand in units of 1 / sm_saturation (docs/simulation.md
    "Per-kernel throughput"): 1 without traits."""
    if not k.issue_interval:
        return 1.0
    rate = min(gpu.issue_width, gpu.lanes / 32)
    demand = min(1.0, math.ceil(k.threads / 32) / (k.issue_interval * rate))
    return demand * gpu.sm_saturation


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
        check_work_conserved(tl, costs, sc, spinners=scheme == "juggler")
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
    else:  # slots; at most sm_saturation TB units' compute per SM; the bytes at the bandwidth
        fraction = [sc["kernels"][k].mem_fraction for k in sc["kernel_ids"]]
        units = [issue_units(sc["kernels"][k], gpu) for k in sc["kernel_ids"]]
        compute = sum((1 - f) * c * u for f, c, u in zip(fraction, costs, units, strict=True))
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


def check_work_conserved(
    tl: pd.DataFrame, costs: list[int], sc: dict, spinners: bool = False
) -> None:
    """Shared SMs: an SM does at most min(sm_saturation, resident TB units) TB
    units' compute work per cycle (a TB of a kernel with an issue_interval
    counts its demand x sm_saturation, others 1; memory time, a kernel's
    mem_fraction of its cost, does not take SM throughput), all of it when no
    kernel has memory time; a TB may end up to a cycle late (finish times are
    whole cycles), its SM still working.
    With `spinners` (Juggler's polling workers take SM throughput too) only
    the upper bound holds."""
    gpu = sc["gpu"]
    memory = any(k.mem_fraction > 0 for k in sc["kernels"])
    for sm in range(gpu.sms):
        on = tl[tl["sm"] == sm]
        if on.empty:
            continue
        times = sorted(set(on["start"]) | set(on["end"]))
        units = pd.Series(
            [issue_units(sc["kernels"][sc["kernel_ids"][t]], gpu) for t in on.index],
            index=on.index,
        )
        capacity = 0.0
        for a, b in itertools.pairwise(times):
            resident = float(units[(on["start"] <= a) & (on["end"] >= b)].sum())
            capacity += (b - a) * min(gpu.sm_saturation, resident)
        compute = [
            (1 - sc["kernels"][sc["kernel_ids"][t]].mem_fraction) * costs[t] * units[t]
            for t in on.index
        ]
        work = float(sum(compute))
        assert work <= capacity + 1e-6 * max(1.0, work), (sm, work, capacity)
        if not memory and not spinners:
            assert capacity <= work + gpu.sm_saturation * len(on) + 1e-6, (sm, work, capacity)


def scenario_from_workload(wl: td.Workload, gpu: td.Gpu, scheme: str, seed: int = 0) -> dict:
    """A scenario from a generated single-kernel task graph: the edge list comes
    from the graph's CSR arrays and the costs from the timeline of a first run
    of ``scheme`` (drawn with ``seed``).  Generated graphs are not
    id-topological in general, so tasks are relabelled in level order."""
    g = wl.graph
    starts, children = g.edge_starts(), g.edges()
    edges = [(u, int(children[e])) for u in range(g.size) for e in range(starts[u], starts[u + 1])]
    first = td.simulate(wl, gpu, scheme, seed=seed, timeline=True).timeline()
    costs = [int(c) for c in first.set_index("task").sort_index()["duration"]]
    assert min(costs) >= 1
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
    return sc


def task_graph_edges(wl: td.Workload) -> tuple[np.ndarray, np.ndarray]:
    """A task graph's edges as (parent, child) id arrays, from its CSR arrays."""
    g = wl.graph
    starts = np.asarray(g.edge_starts())
    src = np.repeat(np.arange(g.size), np.diff(starts))
    return src, np.asarray(g.edges(), dtype=np.int64)


def critical_path_of(n: int, src: np.ndarray, dst: np.ndarray, costs: np.ndarray) -> int:
    """Longest chain of task costs in any DAG (not only id-topological ones)."""
    parents: list[list[int]] = [[] for _ in range(n)]
    children: list[list[int]] = [[] for _ in range(n)]
    indegree = [0] * n
    for s, d in zip(src.tolist(), dst.tolist(), strict=True):
        parents[d].append(s)
        children[s].append(d)
        indegree[d] += 1
    finish = [0] * n
    ready = [t for t in range(n) if indegree[t] == 0]
    seen = 0
    while ready:
        t = ready.pop()
        seen += 1
        finish[t] = int(costs[t]) + max((finish[p] for p in parents[t]), default=0)
        for c in children[t]:
            indegree[c] -= 1
            if indegree[c] == 0:
                ready.append(c)
    assert seen == n, "not a DAG"
    return max(finish, default=0)


def check_timeline(
    scheme: str,
    r: td.Result,
    gpu: td.Gpu,
    edges: tuple[np.ndarray, np.ndarray],
    costs: np.ndarray,
    critical: int,
) -> None:
    """The core invariants of one run of a single-kernel task graph on fixed
    SMs, vectorised (about 1 ms a run, where :func:`check_run` takes tens):
    every task runs exactly once for exactly its cost; no task is ready or
    starts before every parent ended; no two TBs share an SM slot at once and
    no SM holds more TBs than its slots (cdp's parent kernel holds slot 0 of
    SM 0); the makespan is the last end (Juggler: at least it), at least the
    critical path and the total work over the total slots; the reported
    critical path is ``critical``."""
    cols = ["task", "sm", "slot", "deps_met", "ready", "start", "end"]
    table = r.timeline()[cols].to_numpy(dtype=np.int64)
    n = len(costs)
    # Every task exactly once, for exactly its cost.
    table = table[np.argsort(table[:, 0], kind="stable")]
    assert np.array_equal(table[:, 0], np.arange(n)), "tasks not run exactly once"
    col = dict(zip(cols, table.T, strict=True))
    start, end = col["start"], col["end"]
    assert np.array_equal(end - start, costs), "durations differ from the costs"
    assert (start >= col["ready"]).all() and (col["ready"] >= col["deps_met"]).all()
    assert (col["deps_met"] >= 0).all()
    sm, slot = col["sm"], col["slot"]
    assert ((sm >= 0) & (sm < gpu.sms)).all() and ((slot >= 0) & (slot < gpu.tb_slots)).all()

    # Dependencies.
    src, dst = edges
    if len(src):
        assert (col["deps_met"][dst] >= end[src]).all(), "a task's dependencies met too early"
        assert (start[dst] >= end[src]).all(), "a task started before a parent ended"

    # One TB per slot at a time.
    by_slot = np.lexsort((start, slot, sm))
    same = (sm[by_slot][1:] == sm[by_slot][:-1]) & (slot[by_slot][1:] == slot[by_slot][:-1])
    assert (start[by_slot][1:][same] >= end[by_slot][:-1][same]).all(), "two TBs share a slot"
    # At most tb_slots resident TBs per SM (ends before starts at equal times;
    # every SM's events sum to zero, so one running sum serves all SMs).
    times = np.concatenate([start, end])
    delta = np.concatenate([np.ones(n, np.int64), -np.ones(n, np.int64)])
    sms = np.concatenate([sm, sm])
    events = np.lexsort((delta, times, sms))
    level = np.cumsum(delta[events])
    capacity = np.full(gpu.sms, gpu.tb_slots)
    if scheme == "cdp":
        capacity[0] -= 1
        assert not ((sm == 0) & (slot == 0)).any(), "a task in the cdp parent kernel's slot"
    assert (level <= capacity[sms[events]]).all(), "an SM holds more TBs than it has slots"

    # Makespan: the last end, and at least both lower bounds.
    if scheme == "juggler":
        assert r.makespan_cycles >= end.max()
    else:
        assert r.makespan_cycles == end.max()
    assert r.metrics["critical_path_cycles"] == critical
    work_bound = math.ceil(int(costs.sum()) / (gpu.sms * gpu.tb_slots))
    assert r.makespan_cycles >= max(critical, work_bound)
