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


def by_task(d: td.workloads.DataFootprints) -> dict[int, list[tuple[bool, int, int]]]:
    """Each task's ranges in declaration order (the rows' interleaving across tasks is free)."""
    out: dict[int, list[tuple[bool, int, int]]] = {}
    for t, w, base, size in zip(d.task, d.write, d.base, d.bytes, strict=True):
        out.setdefault(int(t), []).append((bool(w), int(base), int(size)))
    return out


def test_data_footprints_survive_the_round_trip() -> None:
    """Issue 31: the round trip dropped footprints, so Wireframe's SOR 1K
    went from 8,283,888 to 8,310,292 cycles (its reads became free)."""
    wl = td.workloads.wireframe_benchmark("SOR", size="1K")
    assert wl.data is not None
    # Relabelled nodes: footprints follow the node, not its original number.
    g = wl.to_networkx()
    import networkx as nx

    g = nx.relabel_nodes(g, {t: f"t{t:05d}" for t in g.nodes})
    back = td.workloads.from_networkx(g, name=wl.name)
    assert back.data is not None
    assert by_task(back.data) == by_task(wl.data)
    assert back.kernels == wl.kernels
    for scheme in ("wireframe", "global_barrier"):
        a = td.simulate(wl, "gtx480", scheme)
        b = td.simulate(back, "gtx480", scheme)
        assert a.makespan_cycles == b.makespan_cycles, scheme


def test_a_kernels_reuse_survives_the_round_trip() -> None:
    wl = td.workloads.wireframe_benchmark("SOR", size="1K")
    wl = wl.with_kernels([td.Kernel("sor", mem_requests=8836, mem_fraction=0.0016, reuse=3)])
    back = td.workloads.from_networkx(wl.to_networkx(), name=wl.name)
    assert back.kernels[0].reuse == 3
    a, b = (td.simulate(w, "gtx480", "wireframe") for w in (wl, back))
    assert a.makespan_cycles == b.makespan_cycles


@pytest.mark.parametrize(
    "bad",
    ["read", [("read", 0)], [("load", 0, 64)], [("read", 0, 1.5)], [("write", True, 64)]],
)
def test_a_malformed_data_attribute_is_refused_naming_the_node(bad: object) -> None:
    import networkx as nx

    g = nx.DiGraph()
    g.add_edge("a", "b")
    g.nodes["b"]["data"] = bad
    with pytest.raises(td.ConfigError, match=r"node 'b'.*'data'"):
        td.workloads.from_networkx(g)
