"""BlockMaestro's launches through the public API (ISCA 2021 §III-C, §IV): the
host's API call and the device-side latency of a launch (GPU fields
launch_api_us, host_launch_us), pre-launched kernels' launches pipelining,
independent kernels starting at launch under prelaunch, and the removed
overlap_launches parameter."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import make_gpu

import tbdse as td

W = td.workloads


def starts(r: td.Result) -> list[int]:
    return list(r.timeline().set_index("task").sort_index()["start"])


def three_kernels(chain: bool, cost: int) -> td.Workload:
    # Three 1-TB kernels, one after another in the stream; a chain or independent.
    edges = [(0, 1), (1, 2)] if chain else []
    return W.from_edges(edges, 3, costs=[cost] * 3, launch_groups=[0, 1, 2])


@pytest.mark.parametrize(
    ("scheme", "chain", "api_us", "starts_us", "overhead_us"),
    [
        # The paper's launch (§IV): 5 us = a 2 us API call + 3 us device side;
        # 1000 MHz, 4000-cycle TBs.  Pre-launched (depth 2), the calls go one
        # at a time (0-2, 2-4, 4-6 us) and the device-side latencies overlap:
        # resident at 5, 7, 9 us.  Independent kernels start then (end 13 us);
        # launch overhead is the union of the spans, 0-9 us.
        ("prelaunch", False, 2.0, [5, 7, 9], 9),
        ("blockmaestro", False, 2.0, [5, 7, 9], 9),
        # A chain still waits for each previous kernel (end 17 us).
        ("prelaunch", True, 2.0, [5, 9, 13], 9),
        ("blockmaestro", True, 2.0, [5, 9, 13], 9),
        # The baseline: each launch after the previous kernel completed, the
        # whole 5 us between kernels: 5-9, 14-18, 23-27.
        ("baseline", True, 2.0, [5, 14, 23], 15),
        ("baseline", False, 2.0, [5, 14, 23], 15),
        # An API call as long as the launch (launch_api_us >= host_launch_us):
        # fully serialised launches, resident at 5, 10, 15 us.
        ("prelaunch", False, 5.0, [5, 10, 15], 15),
        ("prelaunch", True, 5.0, [5, 10, 15], 15),
        ("baseline", True, 5.0, [5, 14, 23], 15),
    ],
)
def test_prelaunched_launches_pipeline_at_one_per_api_call(
    scheme: str, chain: bool, api_us: float, starts_us: list[int], overhead_us: int
) -> None:
    gpu = make_gpu(1, 4, clock_mhz=1000.0, host_launch_us=5.0, launch_api_us=api_us)
    s = td.Scheme(scheme, prelaunch_depth=2) if scheme != "baseline" else td.Scheme(scheme)
    r = td.simulate(three_kernels(chain, 4000), gpu, s, timeline=True)
    assert starts(r) == [1000 * u for u in starts_us]
    assert r.makespan_cycles == 1000 * starts_us[-1] + 4000
    assert r.stats["launch_overhead_cycles"] == 1000 * overhead_us


def test_independent_kernels_start_at_launch_under_prelaunch() -> None:
    # §III-C: "If the kernels are independent ..., then the independent kernel
    # can begin executing right away."  K0 = TBs 0-3 (10, 10, 10, 40 cycles),
    # K1 = TBs 4-7 (10 each), 4 TB slots, no launch overhead.  Independent:
    # K1 is resident at 0 and its TBs take the slots K0's short TBs free (in
    # kernel order, after every K0 TB was issued): 10, 10, 10, then 20; K0
    # ends at 40, the makespan.  Dependent (1-to-1): K1 waits for all of K0
    # (40-50), as before.
    costs = [10, 10, 10, 40, 10, 10, 10, 10]
    groups = [0] * 4 + [1] * 4
    free = W.from_edges([], 8, costs=costs, launch_groups=groups)
    tied = W.from_edges([(i, 4 + i) for i in range(4)], 8, costs=costs, launch_groups=groups)
    r = td.simulate(free, make_gpu(1, 4), "prelaunch", timeline=True)
    assert starts(r) == [0, 0, 0, 0, 10, 10, 10, 20]
    assert r.makespan_cycles == 40
    tied_run = td.simulate(tied, make_gpu(1, 4), "prelaunch", timeline=True)
    assert starts(tied_run) == [0, 0, 0, 0, 40, 40, 40, 40]
    assert tied_run.makespan_cycles == 50
    # The baselines run the kernels one at a time whatever their dependencies.
    for scheme in ("baseline", "ideal_baseline"):
        assert td.simulate(free, make_gpu(1, 4), scheme).makespan_cycles == 50
    # Fig. 9's pre-launch bar (§IV-B) orders every pair: independent_start
    # false makes the independent K1 wait like the dependent one.
    ordered = td.simulate(
        free, make_gpu(1, 4), {"name": "prelaunch", "independent_start": False}, timeline=True
    )
    assert starts(ordered) == [0, 0, 0, 0, 40, 40, 40, 40]
    assert ordered.makespan_cycles == 50


def test_overlap_launches_is_gone(tmp_path: Any) -> None:
    # Replaced by the launch model of the GPU fields launch_api_us / host_launch_us.
    for scheme in ("prelaunch", "blockmaestro"):
        with pytest.raises(
            td.ConfigError,
            match=r"unknown parameter 'overlap_launches'.*replaced by.*launch_api_us",
        ):
            td.Scheme(scheme, overlap_launches=True)
    path = tmp_path / "e.yaml"
    path.write_text(
        "name: e\ngpu: gtx480\nworkloads: [{generator: wavefront, rows: 4, cols: 4}]\n"
        "schemes: [{name: blockmaestro, overlap_launches: true}]\n"
    )
    with pytest.raises(td.ConfigError, match=r"unknown key 'overlap_launches'.*launch_api_us"):
        td.experiment.load(str(path))
