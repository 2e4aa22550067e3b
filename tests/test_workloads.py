"""Workloads: generators, converters and files, checked by counting tasks, edges and levels."""

from __future__ import annotations

import re
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
from conftest import make_gpu

import tbdse as td

W = td.workloads


def edge_set(wl: td.Workload) -> set[tuple[int, int]]:
    starts, children = wl.graph.edge_starts(), wl.graph.edges()
    return {(u, int(children[e])) for u in range(wl.tasks) for e in range(starts[u], starts[u + 1])}


def parse_stg(path: Path) -> list[tuple[int, int, list[int]]]:
    """An independent reader for the standard layout: (id, cost, predecessors) records."""
    tokens: list[int] = []
    for line in path.read_text().splitlines():
        if line.lstrip().startswith("#"):
            break
        tokens += [int(t) for t in line.split()]
    n, pos, records = tokens[0], 1, []
    for _ in range(n + 2):
        tid, cost, npred = tokens[pos : pos + 3]
        records.append((tid, cost, tokens[pos + 3 : pos + 3 + npred]))
        pos += 3 + npred
    assert pos == len(tokens)
    return records


# ----------------------------------------------------------------------- generators
@pytest.mark.parametrize(
    ("rows", "cols", "edges", "levels"),
    [
        (1, 1, 0, 1),
        (1, 5, 4, 5),  # a row is a chain
        (3, 3, 12, 5),
        (3, 4, 3 * 3 + 2 * 4, 6),  # (cols-1) per row + (rows-1) per column; rows+cols-1 levels
        (8, 2, 8 * 1 + 7 * 2, 9),
    ],
)
def test_wavefront_shape(rows: int, cols: int, edges: int, levels: int) -> None:
    wl = W.wavefront(rows, cols)
    assert (wl.tasks, wl.edges, wl.levels) == (rows * cols, edges, levels)
    # Tile (i, j) is node i * cols + j, at level i + j, with west and north parents.
    lv = wl.graph.levels()
    for i in range(rows):
        for j in range(cols):
            assert lv[i * cols + j] == i + j
    es = edge_set(wl)
    assert ((0, 1) in es) == (cols > 1)
    assert ((0, cols) in es) == (rows > 1)
    assert wl.generator == "wavefront" and wl.params == {"rows": rows, "cols": cols}
    assert wl.name == f"wavefront(rows={rows}, cols={cols})"


def test_barrier_generators() -> None:
    # barrier(width 4, stages 3, group 2): per stage boundary 2 groups x 2 x 2 = 8 edges.
    b = W.barrier(4, 3, 2)
    assert (b.tasks, b.edges, b.levels) == (12, 16, 3)
    es = edge_set(b)
    assert (0, 4) in es and (0, 5) in es and (0, 6) not in es and (2, 7) in es
    # global_barrier(width 3, stages 4): all-to-all between stages, 9 x 3 = 27 edges.
    g = W.global_barrier(3, 4)
    assert (g.tasks, g.edges, g.levels) == (12, 27, 4)
    assert {(s, d) for s in range(3) for d in range(3, 6)} <= edge_set(g)
    # pairwise_barrier: groups of two.
    p = W.pairwise_barrier(4, 2)
    assert (p.tasks, p.edges, p.levels) == (8, 8, 2)
    assert edge_set(p) == {(0, 4), (0, 5), (1, 4), (1, 5), (2, 6), (2, 7), (3, 6), (3, 7)}
    # width 1: a chain.
    one = W.pairwise_barrier(1, 3)
    assert (one.tasks, one.edges, one.levels) == (3, 2, 3)


def test_chain_and_independent() -> None:
    c = W.chain(6)
    assert (c.tasks, c.edges, c.levels) == (6, 5, 6)
    assert edge_set(c) == {(i, i + 1) for i in range(5)}
    assert list(c.graph.parent_counts()) == [0, 1, 1, 1, 1, 1]
    i = W.independent(7)
    assert (i.tasks, i.edges, i.levels) == (7, 0, 1)
    assert W.chain(1).edges == 0


def test_layered_random_reproducible_by_seed() -> None:
    a = W.layered_random(6, 5, 0.3, 2, seed=42)
    b = W.layered_random(6, 5, 0.3, 2, seed=42)
    c = W.layered_random(6, 5, 0.3, 2, seed=43)
    assert edge_set(a) == edge_set(b)
    assert a.graph.content_hash == b.graph.content_hash
    assert edge_set(a) != edge_set(c)
    assert a.params == {"layers": 6, "width": 5, "edge_prob": 0.3, "span": 2, "seed": 42}
    for wl in (a, c):
        assert wl.tasks == 30 and wl.levels == 6
        # Every task of layer l >= 1 has a parent in layer l - 1, so its level is l.
        assert list(wl.graph.levels()) == [t // 5 for t in range(30)]
        # Parents come from at most `span` layers back.
        assert all(1 <= d // 5 - s // 5 <= 2 for s, d in edge_set(wl))
        assert all(wl.graph.parent_counts()[5:] >= 1)


def test_layered_random_edge_prob_extremes() -> None:
    # edge_prob 0: exactly one parent per non-root task.
    sparse = W.layered_random(4, 3, 0.0, 1, seed=1)
    assert sparse.edges == 3 * 3
    # edge_prob 1 with span 1: every task of layer l-1 is a parent.
    dense = W.layered_random(4, 3, 1.0, 1, seed=1)
    assert dense.edges == 3 * 3 * 3
    # edge_prob 1 with span 2: all tasks of the two previous layers.
    deeper = W.layered_random(3, 2, 1.0, 2, seed=1)
    assert deeper.edges == 2 * 2 + 4 * 2


def test_make_by_name() -> None:
    wl = W.make("wavefront", rows=2, cols=3, cost=50)
    assert (wl.tasks, wl.edges) == (6, 7)
    assert wl.cost.describe() == "constant(cycles=50, jitter=0)"
    assert "wavefront" in W.generator_names() and "stg" in W.generator_names()
    table = W.list_generators()
    assert set(table[table["generator"] == "wavefront"]["param"]) == {"rows", "cols"}


# ------------------------------------------------------------------------ with_params
def test_with_params_regenerates() -> None:
    base = W.wavefront(3, 3, cost=td.cost.constant(77))
    bigger = base.with_params(rows=5)
    assert (bigger.tasks, bigger.levels) == (15, 7)
    assert bigger.params == {"rows": 5, "cols": 3}
    assert bigger.name == "wavefront(rows=5, cols=3)"  # default names follow the parameters
    assert bigger.cost == base.cost
    assert base.tasks == 9  # the original is unchanged
    assert base.with_params() is base
    # A chosen name is kept.
    named = W.wavefront(3, 3, name="wf").with_params(cols=4)
    assert named.name == "wf" and named.tasks == 12
    # Numbers of an integral float are accepted as integers.
    assert W.chain(3).with_params(n=np.int64(5)).tasks == 5
    # Kernels are kept.
    k = td.Kernel("k", threads=64)
    assert W.chain(2, kernel=k).with_params(n=4).kernels == (k,)


def test_with_params_keep_dummies_of_stg(stg_dir: Path) -> None:
    wl = W.read_stg(stg_dir / "rand0000.stg")
    assert wl.with_params(keep_dummies=True).tasks == 52


def test_with_params_cycles_per_unit_of_stg(stg_dir: Path) -> None:
    wl = W.read_stg(stg_dir / "proto_small.stg", cycles_per_unit=10)
    changed = wl.with_params(cycles_per_unit=100)
    assert changed.params["cycles_per_unit"] == 100
    assert changed.cost.params["scale"] == 100  # the default cost model follows the units
    # critical path 3 + 5 + 4 = 12 units
    r = td.simulate(changed, make_gpu(2, 2), "dataflow_ideal")
    assert r.metrics["critical_path_cycles"] == 1200


# ------------------------------------------------------------------------- from_edges
def test_from_edges_basics() -> None:
    wl = W.from_edges([(0, 1), (0, 2), (1, 3), (2, 3), (0, 1)])  # a duplicate edge
    assert (wl.tasks, wl.edges, wl.levels) == (4, 4, 3)  # duplicates collapse
    assert list(wl.graph.levels()) == [0, 1, 1, 2]
    assert list(wl.graph.parent_counts()) == [0, 1, 1, 2]
    assert wl.name == "edges" and wl.generator is None
    assert wl.cost.kind == "constant"
    # n larger than the largest id adds isolated tasks; a NumPy array works too.
    wide = W.from_edges(np.array([[0, 1]]), n=5)
    assert (wide.tasks, wide.edges, wide.levels) == (5, 1, 2)
    # No edges at all, with n.
    assert W.from_edges([], n=3).tasks == 3


def test_from_edges_levels_are_one_plus_max_parent_level() -> None:
    # 0 -> 1 -> 2 and 0 -> 2, 3 -> 2: level of 2 is 1 + max(0, 1, 0) = 2.
    wl = W.from_edges([(0, 1), (1, 2), (0, 2), (3, 2)])
    assert list(wl.graph.levels()) == [0, 1, 2, 0]
    # Virtual ids order tasks level by level, stable in id.
    assert list(wl.graph.level_order()) == [0, 3, 1, 2]


def test_from_edges_costs_kernels_and_launch_groups() -> None:
    kernels = [td.Kernel("a", threads=32), td.Kernel("b")]
    wl = W.from_edges(
        [(0, 1), (1, 2)],
        costs=[5, 6, 7],
        kernel_ids=[1, 0, 1],
        kernels=kernels,
        launch_groups=[0, 1, 2],
        name="mine",
    )
    assert wl.name == "mine"
    assert wl.cost.kind == "graph"  # per-node costs make from_graph the default model
    assert list(wl.graph.costs()) == [5, 6, 7]
    assert list(wl.graph.kernels()) == [1, 0, 1]
    assert wl.graph.has_launch_groups and list(wl.graph.launch_groups()) == [0, 1, 2]
    assert wl.kernels == tuple(kernels)
    r = td.simulate(wl, make_gpu(1, 4), "dataflow_ideal", timeline=True)
    assert r.makespan_cycles == 18
    assert list(r.timeline()["kernel"]) == ["b", "a", "b"]
    # An explicit cost model wins over the graph's costs.
    assert td.simulate(wl.with_cost(100), make_gpu(1, 4), "dataflow_ideal").makespan_cycles == 300


def test_summary_repr_and_networkx_roundtrip() -> None:
    wl = W.wavefront(2, 3, cost=10)
    s = wl.summary()
    assert s["tasks"] == 6 and s["edges"] == 7 and s["levels"] == 4 and s["param.rows"] == 2
    assert repr(wl) == (
        "Workload('wavefront(rows=2, cols=3)', tasks=6, edges=7, levels=4, "
        "cost=constant(cycles=10, jitter=0))"
    )
    g = wl.to_networkx()
    assert isinstance(g, nx.DiGraph)
    assert set(g.edges) == edge_set(wl)
    assert g.nodes[4]["level"] == 2 and g.nodes[4]["kernel"] == "kernel"
    back = W.from_networkx(g, cost_attr=None)
    assert edge_set(back) == edge_set(wl)
    assert wl.renamed("x").name == "x"


# ----------------------------------------------------------------------- from_networkx
def test_from_networkx_labels_and_costs() -> None:
    g = nx.DiGraph()
    g.add_node("c", cost=30)
    g.add_node("a", cost=10)
    g.add_node("b", cost=20)
    g.add_edge("a", "b")
    g.add_edge("b", "c")
    g.add_edge("a", "c")
    wl = W.from_networkx(g, name="nx")
    # Sortable nodes are numbered in sorted order: a=0, b=1, c=2.
    assert wl.labels == ["a", "b", "c"]
    assert edge_set(wl) == {(0, 1), (1, 2), (0, 2)}
    assert list(wl.graph.costs()) == [10, 20, 30]
    assert wl.cost.kind == "graph"
    assert td.simulate(wl, make_gpu(2, 2), "dataflow_ideal").makespan_cycles == 60


def test_from_networkx_unsortable_nodes_and_missing_costs() -> None:
    g = nx.DiGraph()
    g.add_edge("x", 1)
    g.add_edge(1, (2, 3))
    g.nodes["x"]["cost"] = 5  # not every node has a cost: the cost attribute is ignored
    wl = W.from_networkx(g, cost=7)
    assert wl.labels == ["x", 1, (2, 3)]  # insertion order
    assert edge_set(wl) == {(0, 1), (1, 2)}
    assert wl.cost.describe() == "constant(cycles=7, jitter=0)"


# ---------------------------------------------------------------------------- files
def test_read_edge_list(tmp_path: Path) -> None:
    path = tmp_path / "small.edges"
    path.write_text("# a comment line\n0 1\n0,2   # trailing comment\n\n 1 3\n2 3\n")
    wl = W.read_edge_list(path, cost=10)
    assert wl.name == "small"
    assert (wl.tasks, wl.edges, wl.levels) == (4, 4, 3)
    assert edge_set(wl) == {(0, 1), (0, 2), (1, 3), (2, 3)}
    assert wl.generator == "edge_list" and wl.params == {"path": str(path)}
    assert td.simulate(wl, make_gpu(2, 1), "dataflow_ideal").makespan_cycles == 30
    # The registered generator reads the same file.
    assert edge_set(W.make("edge_list", path=str(path))) == edge_set(wl)


def test_read_edge_list_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.edges"
    bad.write_text("0 1\n1 2 3\n")
    with pytest.raises(td.ConfigError, match=r"bad\.edges:2: expected 'parent child'"):
        W.read_edge_list(bad)
    with pytest.raises(td.ConfigError, match="no such file"):
        W.read_edge_list(tmp_path / "missing.edges")
    cyclic = tmp_path / "cyclic.edges"
    cyclic.write_text("0 1\n1 2\n2 1\n")
    with pytest.raises(td.ConfigError, match="cycle through node 1"):
        W.read_edge_list(cyclic)


def test_stg_standard_file(stg_dir: Path) -> None:
    path = stg_dir / "rand0000.stg"
    records = parse_stg(path)
    assert len(records) == 52 and records[0][1] == 0 and records[-1][1] == 0
    wl = W.read_stg(path)
    assert wl.tasks == 50  # dummies 0 and 51 dropped
    assert wl.name == "rand0000"
    assert wl.labels == list(range(1, 51))
    # Edges between real tasks, renumbered id - 1.
    expected = {(p - 1, tid - 1) for tid, _, preds in records[1:51] for p in preds if p != 0}
    assert edge_set(wl) == expected
    assert wl.edges == len(expected) == 96
    # Costs from the file; the default cost model scales them by cycles_per_unit.
    file_costs = [cost for _, cost, _ in records[1:51]]
    assert list(wl.graph.costs()) == file_costs
    assert wl.cost.kind == "graph" and wl.cost.params["scale"] == 1000.0
    assert wl.params == {"path": str(path), "cycles_per_unit": 1000.0, "keep_dummies": False}

    scaled = W.read_stg(path, cycles_per_unit=10)
    tl = td.simulate(scaled, make_gpu(4, 4), "dataflow_ideal", timeline=True).timeline()
    assert list(tl.set_index("task").sort_index()["duration"]) == [10 * c for c in file_costs]


def test_stg_keep_dummies(stg_dir: Path) -> None:
    path = stg_dir / "rand0000.stg"
    records = parse_stg(path)
    wl = W.read_stg(path, keep_dummies=True)
    assert wl.tasks == 52
    assert wl.labels == list(range(52))
    expected = {(p, tid) for tid, _, preds in records for p in preds}
    assert edge_set(wl) == expected and wl.edges == 119
    costs = list(wl.graph.costs())
    assert costs[0] == 0 and costs[51] == 0
    # The entry dummy is the only root, the exit dummy the only sink.
    assert list(np.nonzero(wl.graph.parent_counts() == 0)[0]) == [0]
    assert wl.graph.levels()[51] == wl.levels - 1


def test_stg_critical_path_matches_an_independent_computation(stg_dir: Path) -> None:
    path = stg_dir / "rand0000.stg"
    records = parse_stg(path)
    finish: dict[int, int] = {}
    for tid, cost, preds in records:  # the file lists tasks in topological order
        finish[tid] = cost + max((finish[p] for p in preds), default=0)
    wl = W.read_stg(path, cycles_per_unit=1)
    r = td.simulate(wl, make_gpu(64, 8), "dataflow_ideal")
    assert r.metrics["critical_path_cycles"] == max(finish.values())
    # With ample slots and no launch overhead, the dataflow scheme achieves it.
    assert r.makespan_cycles == max(finish.values())


def test_stg_prototype_layout(stg_dir: Path) -> None:
    # proto_small.stg: '4 2' (4 tasks, 2 processors); tasks 1..4 and exit dummy 5;
    # task 3's and task 4's predecessor lists wrap onto the next line.
    path = stg_dir / "proto_small.stg"
    wl = W.read_stg(path, cycles_per_unit=10)
    assert wl.tasks == 4
    assert wl.labels == [1, 2, 3, 4]
    assert edge_set(wl) == {(0, 1), (0, 2), (1, 3), (2, 3)}
    assert list(wl.graph.costs()) == [3, 5, 2, 4]
    r = td.simulate(wl, make_gpu(2, 2), "dataflow_ideal")
    assert r.makespan_cycles == (3 + 5 + 4) * 10
    kept = W.read_stg(path, keep_dummies=True)
    assert kept.tasks == 5 and kept.labels == [1, 2, 3, 4, 5]
    assert edge_set(kept) == {(0, 1), (0, 2), (1, 3), (2, 3), (2, 4), (3, 4)}


def test_stg_standard_layout_wrapping(tmp_path: Path) -> None:
    # Standard layout: entry dummy 0, tasks 1..3, exit dummy 4; task 3's
    # predecessors wrap over two lines; an information part follows.
    path = tmp_path / "wrap.stg"
    path.write_text("3\n0 0 0\n1 2 1 0\n2 3 1 0\n3 4 2 1\n 2\n4 0 1 3\n# info\n1 2 3 garbage\n")
    wl = W.read_stg(path, cycles_per_unit=1)
    assert wl.tasks == 3 and wl.labels == [1, 2, 3]
    assert edge_set(wl) == {(0, 2), (1, 2)}
    assert list(wl.graph.costs()) == [2, 3, 4]
    # A dummy with a non-zero cost is a real task and stays.
    busy = tmp_path / "busy_exit.stg"
    busy.write_text("1\n0 0 0\n1 2 1 0\n2 5 1 1\n")
    kept = W.read_stg(busy)
    assert kept.tasks == 2 and kept.labels == [1, 2]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty STG file"),
        ("3\n0 0 0\n1 2 1 0\n", "needs 5 task records"),
        (
            "1\n0 0 0\n1 2 1 0\n2 0 3 1\n",
            "STG task 2 lists 3 predecessors, but only 1 more number(s)",
        ),
        ("1\n0 0 0\n1 2 1 7\n2 0 1 1\n", ":3: STG task 1 names predecessor 7; task ids run 0..2"),
        (
            "1\n0 0 0\n2 2 1 0\n1 0 1 1\n",
            ":3: STG task id 2: ids must run 0..2 in order, so this record needs id 1",
        ),
        (
            "1\n0 0 0\n1 -2 1 0\n2 0 1 1\n",
            ":3: STG processing time: expected a whole number >= 0; got '-2'",
        ),
        (
            "1\n0 0 0\n1 x 1 0\n2 0 1 1\n",
            ":3: STG processing time: expected a whole number >= 0; got 'x'",
        ),
        ("1 2 3\n", ":1: STG header: expected 'n' (standard layout) or 'n processors'"),
    ],
)
def test_stg_errors(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.stg"
    path.write_text(text)
    with pytest.raises(td.ConfigError, match=re.escape(message)):
        W.read_stg(path)
