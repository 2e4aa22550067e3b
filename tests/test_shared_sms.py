"""The 'shared' SM timing model (docs/simulation.md, "Timing models"): run
invariants on generated graphs for every task-graph scheme, work conserved on
every SM, the fixed model as its limit, determinism; golden cases through the
public API (the C++ golden cases are in cpp/core/sm_timing_test.cpp)."""

from __future__ import annotations

import dataclasses

import pandas as pd
import pytest
from _invariants import check_run
from conftest import make_gpu
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_properties import scenarios

import tbdse as td

SCHEMES = td.schemes.names_for_kind("task_graph")


@st.composite
def shared_scenarios(draw: st.DrawFn, scheme: str) -> dict:
    """A scenario of test_properties on shared SMs, some with the memory term."""
    sc = draw(scenarios(scheme))
    fields = {
        "sm_model": "shared",
        "sm_saturation": draw(st.sampled_from([1.0, 1.5, 2.0, 3.0])),
        "sm_share": draw(st.sampled_from(["even", "oldest_first", "earliest_start"])),
    }
    if draw(st.booleans()):
        fields["mem_bandwidth"] = draw(st.sampled_from([0.0, 0.5, 5.0, 50.0]))
        sc["kernels"] = [
            dataclasses.replace(
                k,
                mem_requests=draw(st.integers(0, 64)),
                mem_fraction=draw(st.sampled_from([0.0, 0.3, 1.0])),
            )
            for k in sc["kernels"]
        ]
        sc["workload"] = td.workloads.from_edges(
            sc["edges"],
            sc["n"],
            cost=td.cost.array(sc["costs"]),
            kernel_ids=sc["kernel_ids"],
            kernels=sc["kernels"],
        )
    if draw(st.booleans()):  # per-kernel throughput traits on some kernels
        sc["kernels"] = [
            dataclasses.replace(
                k,
                threads=k.threads or 32,
                issue_interval=draw(st.sampled_from([0.0, 1.0, 2.5, 8.0])),
            )
            for k in sc["kernels"]
        ]
        sc["workload"] = td.workloads.from_edges(
            sc["edges"],
            sc["n"],
            cost=td.cost.array(sc["costs"]),
            kernel_ids=sc["kernel_ids"],
            kernels=sc["kernels"],
        )
    sc["gpu"] = sc["gpu"].replace(**fields)
    return sc


@pytest.mark.parametrize("scheme", SCHEMES)
@settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    database=None,
)
@given(data=st.data())
def test_run_invariants_on_shared_sms(scheme: str, data: st.DataObject) -> None:
    check_run(scheme, data.draw(shared_scenarios(scheme)))


@pytest.mark.parametrize("scheme", SCHEMES)
@settings(max_examples=40, deadline=None, database=None)
@given(data=st.data())
def test_saturation_at_the_slot_count_is_the_fixed_model(scheme: str, data: st.DataObject) -> None:
    sc = data.draw(scenarios(scheme))
    gpu = sc["gpu"]
    fixed = td.simulate(sc["workload"], gpu, scheme, timeline=True)
    shared = td.simulate(
        sc["workload"],
        gpu.replace(sm_model="shared", sm_saturation=gpu.tb_slots, sm_share="oldest_first"),
        scheme,
        timeline=True,
    )
    assert shared.makespan_cycles == fixed.makespan_cycles
    pd.testing.assert_frame_equal(shared.timeline(), fixed.timeline())


def test_shared_sweeps_are_deterministic_across_threads() -> None:
    wl = td.workloads.layered_random(
        6,
        8,
        0.4,
        2,
        5,
        cost=td.cost.lognormal(100, 0.6),
        kernel=td.Kernel("k", mem_requests=16, mem_fraction=0.4),
    )
    gpu = make_gpu(2, 4, sm_model="shared", mem_bandwidth=2.0)
    grid = {"gpu.sm_share": ["even", "oldest_first"], "gpu.sm_saturation": [1, 2.5]}
    kw = {"grid": grid, "replicates": 3, "seed": 11, "progress": False}
    one = td.sweep(wl, gpu, SCHEMES, threads=1, **kw)
    two = td.sweep(wl, gpu, SCHEMES, threads=2, **kw)
    pd.testing.assert_frame_equal(one, two)
    assert "error" not in one.columns or one["error"].isna().all()


def test_golden_two_tbs_share_one_sm() -> None:
    """Saturation 1: evenly, both end at twice their cost; oldest first, the
    first issued ends at its cost and the other at twice it."""
    wl = td.workloads.from_edges([], 2, cost=td.cost.array([100, 100]))
    for share, ends in (("even", [200, 200]), ("oldest_first", [100, 200])):
        gpu = make_gpu(1, 2, sm_model="shared", sm_saturation=1, sm_share=share)
        tl = td.simulate(wl, gpu, "dataflow_ideal", timeline=True).timeline()
        assert list(tl.sort_values("task")["end"]) == ends


def test_golden_age_by_level_or_by_start() -> None:
    """One SM, 3 slots, saturation 2; task 0 -> 2, the rest independent;
    costs 10, 100, 100, 100, 100; a static priority issues 1, 0, 3 at 0 and
    task 2 (level 1) before task 4 (level 0) when task 0 ends at 10.  Until
    100 tasks 1 and 3, older by level and by start, take the SM's 2 TBs'
    worth and task 2 waits.  At 100 task 1 ends and task 4 starts: tasks 3,
    2 and 4 want 3, the SM gives 2.  oldest_first serves task 4 (level 0)
    before task 2 (level 1): task 2 starts its work at 110, when task 3 ends,
    and ends at 210, task 4 at 200.  earliest_start serves task 2 (started
    at 10) before task 4 (at 100): task 2 ends at 200, task 4 at 210."""
    wl = td.workloads.from_edges([(0, 2)], 5, cost=td.cost.array([10, 100, 100, 100, 100]))
    policy = td.Policy(priorities=[4, 5, 3, 3.5, 1])
    ends = {}
    for share in ("oldest_first", "earliest_start"):
        gpu = make_gpu(1, 3, sm_model="shared", sm_saturation=2, sm_share=share)
        tl = td.simulate(wl, gpu, policy, timeline=True).timeline().sort_values("task")
        assert list(tl["start"]) == [0, 0, 10, 0, 100]
        ends[share] = list(tl["end"])
    assert ends["oldest_first"] == [10, 100, 210, 110, 200]
    assert ends["earliest_start"] == [10, 100, 200, 110, 210]


def test_concurrency_is_no_longer_the_speedup() -> None:
    """Fixed: average concurrency x makespan = total work.  Shared: eight
    TBs of 100 cycles on an SM of saturation 2 take 400 cycles with all eight
    resident throughout: concurrency 8, though only 2 TBs' work is done per cycle."""
    wl = td.workloads.from_edges([], 8, cost=td.cost.array([100] * 8))
    r = td.simulate(wl, make_gpu(1, 8, sm_model="shared", sm_saturation=2), "dataflow_ideal")
    assert r.makespan_cycles == 400
    assert r.metrics["avg_tb_concurrency"] == pytest.approx(8.0)
    assert r.metrics["work_bound_cycles"] == 400


def test_golden_per_kernel_throughput() -> None:
    """Two TBs of 3 warps issuing every 4 cycles on a GPU that issues one warp
    instruction per cycle (issue_width 2, 32 lanes) demand 0.75 of the SM each:
    1.5 in all, so evenly each runs at 1 / 1.5 and a 1000-cycle TB ends at
    1500, whatever sm_saturation says; oldest first, the older ends at 1000
    and the younger, at 1/3 speed until then, at 1667."""
    k = td.Kernel("k", threads=96, issue_interval=4)
    wl = td.workloads.from_edges([], 2, cost=td.cost.array([1000, 1000]), kernel=k)
    for share, ends in (("even", [1500, 1500]), ("oldest_first", [1000, 1667])):
        gpu = make_gpu(
            1, 2, sm_model="shared", sm_saturation=8, sm_share=share, lanes=32, issue_width=2
        )
        r = td.simulate(wl, gpu, "dataflow_ideal", timeline=True)
        assert list(r.timeline().sort_values("task")["end"]) == ends


def test_issue_interval_is_checked() -> None:
    with pytest.raises(td.ConfigError, match="'issue_interval'"):
        td.Kernel("k", threads=32, issue_interval=0.5)
    with pytest.raises(td.ConfigError, match="needs 'threads'"):
        td.Kernel("k", issue_interval=4)


def test_oldest_first_leaves_no_rounding_residue_as_a_share() -> None:
    # Regression (issue 28 recalibration): under oldest_first what older TBs
    # leave of sm_saturation 2 was a ~1e-16 residue given to a younger TB as
    # its share, which put its end past 2^62 cycles (SimulationError).  These
    # runs failed before the residue was snapped to zero.
    gpu = td.gpus.gtx480(sm_saturation=2)
    for bench in ("SOR", "HIST"):
        wl = td.workloads.wireframe_benchmark(bench, size="9K")
        r = td.simulate(wl, gpu, td.schemes.Scheme("wireframe"), seed=0)
        assert 0 < r.makespan_cycles < 10**9
