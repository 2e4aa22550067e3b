"""Property tests: the run invariants of docs/MODELS.md §1 on random DAGs, for every scheme.

Every task runs exactly once, for exactly its cost (under ``sm_model: shared``
at least its cost, with its work conserved: tests/test_shared_sms.py); no task starts before all
its parents end; no SM ever holds more TBs (or threads) than it has; the
makespan is the last end and at least the critical path and the work bound;
identical configuration + seed gives identical rows on any thread count and
in any submission order.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import pandas as pd
import pytest
from _invariants import check_run, scenario_from_workload
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
    # Generated graphs with lognormal costs (see scenario_from_workload).
    wl = td.workloads.layered_random(
        layers, width, edge_prob, span, seed, cost=td.cost.lognormal(50, 0.7)
    )
    gpu = td.gpus.custom(
        "prop", sms=sms, tb_slots=slots, host_launch_us=0.5, device_launch_us=0.5, clock_mhz=10.0
    )
    sc = scenario_from_workload(wl, gpu, scheme, seed=seed % 1000)
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
