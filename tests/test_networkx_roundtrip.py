"""Workload.to_networkx() -> from_networkx() simulates the same (issue 20:
the round trip used to write cost 0 and lose the cost model, so a lognormal
wavefront's makespan fell from millions of cycles to thousands)."""

from __future__ import annotations

from pathlib import Path

import pytest

import tbdse as td

DATA = Path(__file__).parent / "data"


def workloads() -> list[td.Workload]:
    k1 = td.Kernel("a", threads=128, regs_per_thread=32)
    k2 = td.Kernel("b", threads=256, smem_bytes=4096)
    two_kernels = td.workloads.from_edges(
        [(0, 2), (1, 2), (2, 3)],
        kernel_ids=[0, 0, 1, 1],
        kernels=[k1, k2],
        cost=td.cost.per_kernel({"a": 500, "b": 2000}),
    )
    return [
        td.workloads.wavefront(12, 12, cost=td.cost.lognormal(4000, 0.3)),
        td.workloads.read_stg(DATA / "stg" / "rand0000.stg"),
        td.workloads.layered_random(6, 8, cost=td.cost.uniform(100, 900), seed=2),
        two_kernels,
    ]


@pytest.mark.parametrize("wl", workloads(), ids=lambda w: w.name)
def test_the_networkx_round_trip_simulates_the_same(wl: td.Workload) -> None:
    back = td.workloads.from_networkx(wl.to_networkx(), name=wl.name)
    assert back.tasks == wl.tasks and back.cost == wl.cost
    assert [k.name for k in back.kernels] == [k.name for k in wl.kernels]
    for scheme in ("dataflow_ideal", "global_barrier", "wireframe"):
        for replicate in (0, 3):
            a = td.simulate(wl, "gtx480", scheme, replicate=replicate)
            b = td.simulate(back, "gtx480", scheme, replicate=replicate)
            assert a.makespan_cycles == b.makespan_cycles, (scheme, replicate)


def test_an_explicit_cost_model_wins_over_the_graphs() -> None:
    g = td.workloads.wavefront(4, 4, cost=td.cost.lognormal(4000, 0.3)).to_networkx()
    back = td.workloads.from_networkx(g, cost=td.cost.constant(10))
    assert back.cost == td.cost.constant(10)
