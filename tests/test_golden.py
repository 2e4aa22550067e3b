"""Golden scenarios through the public API: small cases whose results are derived by hand.

Unless a test says otherwise the GPU runs at 100 MHz (1 us = 100 cycles) with
no launch overhead (see conftest.make_gpu).  Levels of an r x c wavefront are
its anti-diagonals; a 3x3 wavefront has levels of 1, 2, 3, 2, 1 tiles.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from conftest import make_gpu

import tbdse as td

SCHEMES = ["global_barrier", "cdp", "deplinks", "dataflow_ideal"]
TIMELINE_COLUMNS = [
    "task",
    "kernel",
    "level",
    "sm",
    "slot",
    "deps_met",
    "ready",
    "start",
    "end",
    "duration",
]


def test_every_builtin_scheme_is_covered() -> None:
    # The golden tables below name every baseline; each other scheme has its own
    # golden file (wireframe: test_wireframe.py; blockmaestro and its baselines:
    # test_blockmaestro.py; the worklist machine's: test_hwwl.py; juggler:
    # test_juggler.py; simt, sgmf, vgiw: test_vgiw.py; user_policy:
    # test_user_policy.py).
    others = ["wireframe", "baseline", "ideal_baseline", "prelaunch", "blockmaestro"]
    others += ["hwwl", "topology", "data", "juggler", "simt", "sgmf", "vgiw", "user_policy"]
    assert sorted(td.schemes.names()) == sorted([*SCHEMES, *others])


# --------------------------------------------------------------------------- chains
@pytest.mark.parametrize("scheme", SCHEMES)
def test_chain_takes_the_sum_of_its_costs(scheme: str) -> None:
    # 5 tasks in a line costing 10..50: nothing can overlap, and with zero
    # launch overhead every scheme needs 10+20+30+40+50 = 150 cycles.
    wl = td.workloads.chain(5, cost=td.cost.array([10, 20, 30, 40, 50]))
    r = td.simulate(wl, make_gpu(4, 4), scheme)
    assert r.makespan_cycles == 150
    assert r.makespan_us == pytest.approx(1.5)
    # The chain is its own critical path.
    assert r.metrics["critical_path_cycles"] == 150


@pytest.mark.parametrize(
    ("scheme", "expected"),
    [
        # host launch 1 us = 100 cycles, device launch 0.5 us = 50 cycles.
        # A chain of 5 has 5 levels = 5 launch groups.
        ("global_barrier", 5 * 100 + 150),  # a host launch before every group
        ("cdp", 100 + 5 * 50 + 150),  # host launch of the parent, device launch per group
        ("deplinks", 100 + 150),  # one launch, barriers as edges
        ("dataflow_ideal", 100 + 150),  # one launch, then the critical path
    ],
)
def test_chain_with_launch_overheads(scheme: str, expected: int) -> None:
    wl = td.workloads.chain(5, cost=td.cost.array([10, 20, 30, 40, 50]))
    gpu = make_gpu(4, 4, host_launch_us=1.0, device_launch_us=0.5)
    assert td.simulate(wl, gpu, scheme).makespan_cycles == expected


# ---------------------------------------------------------------- independent tasks
@pytest.mark.parametrize(
    ("n", "sms", "slots", "rounds"),
    [
        (20, 2, 3, 4),  # 6 slots: ceil(20/6) = 4 rounds
        (18, 2, 3, 3),  # 18 tasks fill exactly 3 rounds
        (1, 3, 3, 1),
        (7, 1, 1, 7),  # one slot: fully serial
        (9, 4, 2, 2),  # 8 slots: ceil(9/8) = 2
    ],
)
@pytest.mark.parametrize("scheme", ["global_barrier", "deplinks", "dataflow_ideal"])
def test_independent_tasks_take_ceil_n_over_p_rounds(
    scheme: str, n: int, sms: int, slots: int, rounds: int
) -> None:
    # Equal tasks all start as soon as a slot is free, so they run in waves of
    # P = sms * slots tasks: makespan = ceil(N / P) * d.
    assert rounds == math.ceil(n / (sms * slots))
    wl = td.workloads.independent(n, cost=100)
    assert td.simulate(wl, make_gpu(sms, slots), scheme).makespan_cycles == rounds * 100


def test_independent_tasks_on_a_preset_gpu() -> None:
    # gtx480: 15 SMs x 8 slots = 120 slots.  240 tasks of 70 cycles take 2 rounds = 140
    # when every TB takes its cost (sm_model 'fixed') ...
    gpu = td.gpus.preset("gtx480", host_launch_us=0, device_launch_us=0, sm_model="fixed")
    wl = td.workloads.independent(240, cost=70)
    assert td.simulate(wl, gpu, "dataflow_ideal").makespan_cycles == 140
    # ... and twice that under the preset's shared SMs, which run 4 TBs at full
    # speed: the 8 TBs of an SM share it at half speed, 140 cycles a round.
    shared = td.gpus.preset("gtx480", host_launch_us=0, device_launch_us=0)
    assert shared.sm_model == "shared" and shared.sm_saturation == 4
    assert td.simulate(wl, shared, "dataflow_ideal").makespan_cycles == 280
    assert td.simulate(wl, gpu, "global_barrier").makespan_cycles == 140
    # cdp's parent kernel holds one slot on SM 0 for the whole run: 119 slots
    # for tasks, so 240 tasks need 3 rounds (119 + 119 + 2) = 210.
    assert td.simulate(wl, gpu, "cdp").makespan_cycles == 210


def test_cdp_parent_kernel_holds_a_slot() -> None:
    # 4 independent 100-cycle tasks on 1 SM with 2 slots: the parent holds one
    # slot so the tasks run one at a time (400); global_barrier runs two at a time (200).
    wl = td.workloads.independent(4, cost=100)
    assert td.simulate(wl, make_gpu(1, 2), "cdp").makespan_cycles == 400
    assert td.simulate(wl, make_gpu(1, 2), "global_barrier").makespan_cycles == 200
    # With a second SM of one slot, the tasks all run on SM 1: still 400.
    r = td.simulate(wl, make_gpu(2, 1), "cdp", timeline=True)
    assert r.makespan_cycles == 400
    assert set(r.timeline()["sm"]) == {1}


def test_independent_tasks_utilisation_metrics() -> None:
    # 20 x 100 cycles on 2 SMs x 3 slots: makespan 400 (4 rounds).
    r = td.simulate(td.workloads.independent(20, cost=100), make_gpu(2, 3), "dataflow_ideal")
    m = r.metrics
    assert m["makespan_cycles"] == 400
    assert m["avg_tb_concurrency"] == pytest.approx(2000 / 400)  # total work / makespan
    assert m["slot_utilisation"] == pytest.approx(5.0 / 6.0)  # concurrency / 6 slots
    # Round robin puts work on both SMs in every round, so both are always busy.
    assert m["sm_utilisation"] == pytest.approx(1.0)
    assert m["critical_path_cycles"] == 100
    assert m["work_bound_cycles"] == math.ceil(2000 / 6)  # 334


def test_kernel_footprint_limits_occupancy() -> None:
    # A 512-thread TB on an SM of 1024 threads and 8 slots: 2 TBs per SM.
    kernel = td.Kernel("k", threads=512)
    wl = td.workloads.independent(4, cost=100, kernel=kernel)
    one_sm = make_gpu(1, 8, threads_per_sm=1024)
    r = td.simulate(wl, one_sm, "dataflow_ideal", timeline=True)
    assert r.makespan_cycles == 200  # 4 tasks, 2 at a time
    assert r.metrics["work_bound_cycles"] == 200  # 400 cycles of work / (1 SM x 2 TBs)
    tl = r.timeline()
    assert sorted(tl["start"]) == [0, 0, 100, 100]
    # Two SMs hold all four at once.
    assert (
        td.simulate(wl, make_gpu(2, 8, threads_per_sm=1024), "dataflow_ideal").makespan_cycles
        == 100
    )


# ---------------------------------------------------------------- 3x3 wavefront, one SM
@pytest.mark.parametrize(
    ("slots", "expected"),
    [
        (8, 500),  # every level fits at once: 5 levels x 100
        (1, 900),  # fully serial: 9 x 100
        # 2 slots, smallest virtual id first: t=0 {0}; t=100 {1,3}; t=200 {2,4}
        # (6 waits); t=300 {6,5}; t=400 {7}; t=500 {8}; done at 600.
        (2, 600),
        (3, 500),  # the widest level (3 tiles) fits: 5 levels x 100
    ],
)
def test_wavefront_on_one_sm_dataflow(slots: int, expected: int) -> None:
    wl = td.workloads.wavefront(3, 3, cost=100)
    assert td.simulate(wl, make_gpu(1, slots), "dataflow_ideal").makespan_cycles == expected


def test_wavefront_two_slots_timeline() -> None:
    # The issue order derived above, tile by tile.
    wl = td.workloads.wavefront(3, 3, cost=100)
    tl = td.simulate(wl, make_gpu(1, 2), "dataflow_ideal", timeline=True).timeline()
    start = dict(zip(tl["task"], tl["start"], strict=True))
    assert start == {0: 0, 1: 100, 3: 100, 2: 200, 4: 200, 6: 300, 5: 300, 7: 400, 8: 500}
    # Tile 6 became ready at 200 (when 3 finished) but waited for a slot until 300.
    ready = dict(zip(tl["task"], tl["ready"], strict=True))
    assert ready[6] == 200


@pytest.mark.parametrize(
    ("scheme", "slots", "expected"),
    [
        # Barriers per level with 2 slots: levels of 1, 2, 3, 2, 1 tiles need
        # 1, 1, 2, 1, 1 rounds = 6 x 100.
        ("global_barrier", 2, 600),
        ("deplinks", 2, 600),
        # cdp's parent holds one of the 2 slots: serial, 9 x 100.
        ("cdp", 2, 900),
        # cdp with 8 slots: 7 for tasks, every level fits: 5 x 100.
        ("cdp", 8, 500),
        ("global_barrier", 1, 900),
    ],
)
def test_wavefront_on_one_sm_barrier_schemes(scheme: str, slots: int, expected: int) -> None:
    wl = td.workloads.wavefront(3, 3, cost=100)
    assert td.simulate(wl, make_gpu(1, slots), scheme).makespan_cycles == expected


# ------------------------------------------------------------- launch overheads, 3x3
LAUNCH_GPU = {"sms": 4, "tb_slots": 8, "host_launch_us": 10.0, "device_launch_us": 2.0}


@pytest.mark.parametrize(
    ("scheme", "expected", "launches", "overhead"),
    [
        # 5 waves of 100-cycle tiles, ample slots.  Host launch 10 us = 1000
        # cycles, device launch 2 us = 200 cycles at 100 MHz.
        # global_barrier: each wave pays a host launch after the previous wave.
        ("global_barrier", 5 * (1000 + 100), 5, 5 * 1000),
        # cdp: one host launch of the parent, then a device launch per wave.
        ("cdp", 1000 + 5 * (200 + 100), 1 + 5, 1000 + 5 * 200),
        # deplinks: one host launch; barriers cost nothing.
        ("deplinks", 1000 + 5 * 100, 1, 1000),
    ],
)
def test_wavefront_launch_overheads(
    scheme: str, expected: int, launches: int, overhead: int
) -> None:
    wl = td.workloads.wavefront(3, 3, cost=100)
    r = td.simulate(wl, make_gpu(**LAUNCH_GPU), scheme)
    assert r.makespan_cycles == expected
    assert r.makespan_us == pytest.approx(expected / 100)
    assert r.stats == {"launches": launches, "launch_overhead_cycles": overhead, "barriers": 4}


def test_wavefront_launch_overhead_dataflow_ideal() -> None:
    # One host launch, then the critical path: 1000 + 5 x 100.
    wl = td.workloads.wavefront(3, 3, cost=100)
    r = td.simulate(wl, make_gpu(**LAUNCH_GPU), "dataflow_ideal")
    assert r.makespan_cycles == 1500
    # Level 2's three tiles become ready at the same cycle; with 8 slots the
    # running tiles are always one level (max_level_range 0).
    assert r.stats == {"peak_ready_tasks": 3.0, "max_level_range": 0.0}


@pytest.mark.parametrize(
    ("scheme", "first", "period"),
    [
        ("global_barrier", 1000, 1100),  # wave l starts after l+1 host launches and l waves
        ("cdp", 1200, 300),  # host + device launch, then 300 per wave
        ("deplinks", 1000, 100),
        ("dataflow_ideal", 1000, 100),
    ],
)
def test_wavefront_launch_overhead_timeline(scheme: str, first: int, period: int) -> None:
    # Every tile of level l starts at first + l * period, is ready when it
    # starts (ample slots) and runs 100 cycles.
    wl = td.workloads.wavefront(3, 3, cost=100)
    tl = td.simulate(wl, make_gpu(**LAUNCH_GPU), scheme, timeline=True).timeline()
    expected = first + tl["level"] * period
    assert (tl["start"] == expected).all()
    assert (tl["ready"] == tl["start"]).all()
    assert (tl["duration"] == 100).all()


def test_launch_groups_decide_the_global_barrier_kernels() -> None:
    # 4 independent tasks in launch groups {0, 1} and {2, 3}; host launch 1 us = 100.
    wl = td.workloads.from_edges([], n=4, launch_groups=[0, 0, 1, 1], cost=100)
    gpu = make_gpu(2, 2, host_launch_us=1.0)
    by_group = td.schemes.Scheme("global_barrier", grouping="launch_group")
    # Two kernels, each a launch and one round: 2 x (100 + 100) = 400.
    assert td.simulate(wl, gpu, by_group).makespan_cycles == 400
    # 'auto' uses the graph's launch groups when it has them.
    assert td.simulate(wl, gpu, "global_barrier").makespan_cycles == 400
    # By level all four are one wave: 100 + 100 = 200.
    by_level = td.schemes.Scheme("global_barrier", grouping="level")
    assert td.simulate(wl, gpu, by_level).makespan_cycles == 200
    assert td.simulate(wl, gpu, "dataflow_ideal").makespan_cycles == 200


def test_per_kernel_costs() -> None:
    # A chain 0 -> 1 -> 2 with kernels a, b, a costing 30 and 5: 30 + 5 + 30 = 65.
    kernels = [td.Kernel("a"), td.Kernel("b")]
    wl = td.workloads.from_edges(
        [(0, 1), (1, 2)],
        kernel_ids=[0, 1, 0],
        kernels=kernels,
        cost=td.cost.per_kernel({"a": 30, "b": 5}),
    )
    r = td.simulate(wl, make_gpu(1, 1), "dataflow_ideal", timeline=True)
    assert r.makespan_cycles == 65
    tl = r.timeline().set_index("task")
    assert list(tl["kernel"]) == ["a", "b", "a"]
    assert list(tl["duration"]) == [30, 5, 30]


# ------------------------------------------------------- simulate() == sweep() rows
@pytest.mark.parametrize("scheme", SCHEMES)
def test_simulate_matches_the_sweep_row(scheme: str) -> None:
    # Random (lognormal) costs: the same workload, GPU, scheme, seed and
    # replicate must give the same row whether simulated alone or in a sweep.
    wl = td.workloads.wavefront(5, 4, cost=td.cost.lognormal(500, 0.5))
    gpu = make_gpu(2, 3, host_launch_us=0.5, device_launch_us=0.25)
    df = td.sweep(wl, gpu, SCHEMES, replicates=3, seed=11, progress=False)
    assert len(df) == 4 * 3
    for rep in range(3):
        row = df[(df["scheme"] == scheme) & (df["replicate"] == rep)]
        assert len(row) == 1
        row = row.iloc[0]
        r = td.simulate(wl, gpu, scheme, seed=11, replicate=rep)
        assert r.config_hash == row["config_hash"]
        assert r.makespan_cycles == row["makespan_cycles"]
        for name, value in r.metrics.items():
            assert row[name] == pytest.approx(value), name
    # Replicates differ (lognormal costs) ...
    mine = df[df["scheme"] == scheme]
    assert mine["critical_path_cycles"].nunique() == 3
    # ... and another seed gives other costs.
    other = td.simulate(wl, gpu, scheme, seed=12, replicate=0)
    first = mine[mine["replicate"] == 0].iloc[0]
    assert other.metrics["critical_path_cycles"] != first["critical_path_cycles"]


def test_simulate_matches_a_sweep_row_with_a_gpu_axis() -> None:
    wl = td.workloads.wavefront(4, 4, cost=td.cost.uniform(50, 150))
    df = td.sweep(
        wl, make_gpu(1, 2), "dataflow_ideal", grid={"sms": [1, 2, 3]}, seed=5, progress=False
    )
    for sms in (1, 2, 3):
        row = df[df["gpu.sms"] == sms].iloc[0]
        r = td.simulate(wl, make_gpu(sms, 2), "dataflow_ideal", seed=5)
        assert r.makespan_cycles == row["makespan_cycles"]
        assert r.config_hash == row["config_hash"]


# ----------------------------------------------------------------------- timeline()
def test_timeline_columns_and_values() -> None:
    costs = [40, 10, 25, 5, 60, 15]
    edges = [(0, 1), (0, 2), (1, 3), (2, 3), (3, 4), (2, 5)]
    wl = td.workloads.from_edges(edges, cost=td.cost.array(costs))
    r = td.simulate(wl, make_gpu(2, 1), "dataflow_ideal", timeline=True)
    tl = r.timeline()
    assert list(tl.columns) == TIMELINE_COLUMNS
    assert len(tl) == 6
    # Ids as int32, cycles as int64, the kernel as a category (compact for 10M-task runs).
    for col in ("task", "level", "sm", "slot"):
        assert tl[col].dtype == np.int32, col
    for col in ("deps_met", "ready", "start", "end", "duration"):
        assert tl[col].dtype == np.int64, col
    assert isinstance(tl["kernel"].dtype, pd.CategoricalDtype)
    # Sorted by start time, then task id.
    assert list(tl.sort_values(["start", "task"]).index) == list(tl.index)
    assert (tl["ready"] <= tl["start"]).all()
    by_task = tl.set_index("task").sort_index()
    assert list(by_task["duration"]) == costs
    assert list(by_task["end"] - by_task["start"]) == costs
    assert list(by_task["level"]) == [0, 1, 1, 2, 3, 2]
    assert by_task["end"].max() == r.makespan_cycles
    # Hand schedule on 2 SMs x 1 slot: 0 [0,40); 1 [40,50) and 2 [40,65);
    # 3 needs 1 and 2: [65,70); 5 needs 2: [65,80); 4 needs 3: [70,130).
    assert list(by_task["start"]) == [0, 40, 40, 65, 70, 65]
    assert r.makespan_cycles == 130
    assert r.metrics["critical_path_cycles"] == 40 + 25 + 5 + 60


def test_timeline_needs_to_be_recorded() -> None:
    r = td.simulate(td.workloads.chain(2, cost=1), make_gpu(), "dataflow_ideal")
    with pytest.raises(td.ConfigError, match="timeline=True"):
        r.timeline()


def test_result_accessors() -> None:
    wl = td.workloads.wavefront(2, 2, cost=100)
    r = td.simulate(wl, make_gpu(2, 2, host_launch_us=1.0), "global_barrier")
    assert isinstance(r.row, pd.Series)
    # 3 levels, each a 100-cycle host launch and a 100-cycle wave.
    assert r.makespan_cycles == 600
    assert r.stats == {"launches": 3.0, "launch_overhead_cycles": 300.0, "barriers": 2.0}
    assert "makespan_cycles" in r.metrics and "launches" in r.metrics
    assert "global_barrier" in repr(r) and "600 cycles" in repr(r)
    assert len(r.config_hash) == 16


# ------------------------------------------------------------------ in-order issue
@pytest.mark.parametrize("scheme", ["global_barrier", "deplinks", "dataflow_ideal"])
def test_issue_stops_at_a_head_tb_that_fits_nowhere(scheme: str) -> None:
    # Tasks 0 and 1 are 'big' (1024 threads: one per SM), task 2 is 'small'.
    # All are roots, issued in id order on one SM of 4 slots and 1024 threads.
    # t=0: 0 starts; 1 does not fit, and issue is in order, so 2 waits behind
    # it although it would fit.  t=100: 1 and 2 start; done at 200.
    kernels = [td.Kernel("big", threads=1024), td.Kernel("small")]
    wl = td.workloads.from_edges([], n=3, kernel_ids=[0, 0, 1], kernels=kernels, cost=100)
    r = td.simulate(wl, make_gpu(1, 4, threads_per_sm=1024), scheme, timeline=True)
    start = dict(zip(r.timeline()["task"], r.timeline()["start"], strict=True))
    assert start == {0: 0, 1: 100, 2: 100}
    assert r.makespan_cycles == 200
    # Mixed footprints: the work bound uses all TB slots, 300 / (1 x 4) = 75.
    assert r.metrics["work_bound_cycles"] == 75


# ---------------------------------------------------------------------- cost models
def _durations(cost: td.cost.CostModel, n: int = 2000, seed: int = 0) -> np.ndarray:
    wl = td.workloads.independent(n, cost=cost)
    tl = td.simulate(wl, make_gpu(4, 8), "dataflow_ideal", seed=seed, timeline=True).timeline()
    return tl.set_index("task").sort_index()["duration"].to_numpy()


def test_distribution_draws_are_whole_cycles_of_at_least_one() -> None:
    # normal(1, 1000): about half the draws are <= 0 and are clamped to 1 cycle.
    d = _durations(td.cost.normal(1, 1000))
    assert d.min() == 1
    assert 0.4 < (d == 1).mean() < 0.6
    # uniform(10, 20): rounded draws cover 10..20 and stay inside.
    u = _durations(td.cost.uniform(10, 20))
    assert set(u) == set(range(10, 21))
    # lognormal: `mean` is the distribution's mean.
    ln = _durations(td.cost.lognormal(500, 0.4))
    assert ln.mean() == pytest.approx(500, rel=0.03)
    # Jitter on a constant is a mean-one factor.
    j = _durations(td.cost.constant(1000, jitter=0.3))
    assert j.mean() == pytest.approx(1000, rel=0.03) and j.std() > 100
    # Zero-cost tasks stay zero under jitter; a graph's costs are scaled.
    assert set(_durations(td.cost.constant(0, jitter=0.3), n=10)) == {0}
    wl = td.workloads.from_edges([], n=3, costs=[1, 2, 3], cost=td.cost.from_graph(2.5))
    tl = td.simulate(wl, make_gpu(1, 3), "dataflow_ideal", timeline=True).timeline()
    # 2.5, 5, 7.5 rounded to whole cycles (half away from zero).
    assert list(tl.set_index("task").sort_index()["duration"]) == [3, 5, 8]
