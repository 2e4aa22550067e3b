"""Data graphs (td.workloads.graphs): the real rome99 road network, generators,
readers with line-numbered errors, pickling and networkx conversion."""

from __future__ import annotations

import pickle
import re
import time
from pathlib import Path

import networkx as nx
import numpy as np
import pytest

import tbdse as td
from tbdse import _core

graphs = td.workloads.graphs
ROME = Path(__file__).parent / "data" / "graphs" / "rome99.gr"


def arcs_of(g: _core.Digraph) -> list[tuple[int, int, int]]:
    """(source, target, weight) per arc in CSR order."""
    src = np.repeat(np.arange(g.nodes), np.diff(g.offsets()))
    return list(zip(src.tolist(), g.targets().tolist(), g.weights().tolist(), strict=True))


# ---- rome99: 9th DIMACS Challenge road network of Rome ('p sp 3353 8870')


def test_rome99_facts() -> None:
    g = graphs.read_dimacs(ROME)
    assert g.nodes == 3353  # ids 1..3353 in the file, 0..3352 here
    assert g.arcs == 8870
    assert g.weighted
    assert g.offsets()[0] == 0 and g.offsets()[-1] == 8870
    # 11 arcs repeat an earlier (u, v): parallel arcs are kept, not merged.
    pairs = {(u, v) for u, v, _ in arcs_of(g)}
    assert g.arcs - len(pairs) == 11
    assert (g.weights() > 0).all()  # lengths in metres
    assert g.max_out_degree == int(np.diff(g.offsets()).max())
    assert g.content_hash == graphs.read(ROME).content_hash  # '.gr' is read as DIMACS


def test_rome99_first_arc_in_csr() -> None:
    # The file's first arc is 'a 2958 2959 535': node 2957 -> 2958 in 0-based ids.
    g = graphs.read_dimacs(str(ROME))
    start, end = g.offsets()[2957], g.offsets()[2958]
    arcs = zip(g.targets()[start:end].tolist(), g.weights()[start:end].tolist(), strict=True)
    assert (2958, 535) in arcs


# ---- Digraph objects


def test_csr_arrays_and_input_order() -> None:
    g = graphs.from_edges([(2, 0), (0, 3), (1, 2), (0, 1), (2, 1)], weights=[5, 7, 2, 9, 4])
    assert g.nodes == 4
    assert g.offsets().tolist() == [0, 2, 3, 5, 5]
    assert g.targets().tolist() == [3, 1, 2, 0, 1]  # per node in input order
    assert g.weights().tolist() == [7, 9, 2, 5, 4]
    assert g.max_out_degree == 2
    assert not g.targets().flags.writeable  # views of the immutable graph


@pytest.mark.parametrize(
    "g",
    [
        graphs.from_edges([(0, 1), (1, 1), (0, 1), (1, 0)]),
        graphs.from_edges([(0, 1), (1, 0)], nodes=5, weights=[3, 0]),
        graphs.grid(4, 5, max_weight=9, seed=2),
        graphs.rmat(300, 3, symmetric=True, seed=1),
    ],
)
def test_pickle_round_trip(g: _core.Digraph) -> None:
    copy = pickle.loads(pickle.dumps(g))
    assert copy.content_hash == g.content_hash
    assert (copy.nodes, copy.arcs, copy.weighted) == (g.nodes, g.arcs, g.weighted)
    assert arcs_of(copy) == arcs_of(g)


def test_pickle_round_trip_rome99() -> None:
    g = graphs.read_dimacs(ROME)
    assert pickle.loads(pickle.dumps(g)).content_hash == g.content_hash


def test_build_refuses_bad_input() -> None:
    with pytest.raises(td.ConfigError, match=r"arc 1 \(1 -> 3\) refers to node 3"):
        _core.Digraph.build(3, [0, 1], [1, 3])
    with pytest.raises(td.ConfigError, match=r"negative weight -1"):
        _core.Digraph.build(3, [0], [1], [-1])
    with pytest.raises(td.ConfigError, match="must hold integers"):
        _core.Digraph.build(3, np.array([0.5]), np.array([1]))
    with pytest.raises(td.ConfigError, match="node count 0"):
        _core.Digraph.build(0, [], [])
    with pytest.raises(td.ConfigError, match="from_edges: node ids: -1 is out of range"):
        graphs.from_edges([(0, -1)])
    with pytest.raises(td.ConfigError, match="2 weights for 1 arcs"):
        graphs.from_edges([(0, 1)], weights=[1, 2])
    with pytest.raises(td.ConfigError, match=r"weights: expected whole numbers"):
        graphs.from_edges([(0, 1)], weights=[1.5])
    with pytest.raises(td.ConfigError, match="needs the node count"):
        graphs.from_edges([])


# ---- generators


def test_generators_deterministic_per_seed() -> None:
    for make in (
        lambda s: graphs.rmat(1000, 8, max_weight=50, seed=s),
        lambda s: graphs.uniform(1000, 8, symmetric=True, max_weight=50, seed=s),
        lambda s: graphs.grid(20, 30, max_weight=50, seed=s),
    ):
        a, b, other = make(3), make(3), make(4)
        assert a.content_hash == b.content_hash
        assert arcs_of(a) == arcs_of(b)
        assert other.content_hash != a.content_hash


def test_generator_sizes() -> None:
    assert graphs.grid(7, 9).arcs == 2 * (7 * 8 + 9 * 6)
    assert not graphs.grid(7, 9).weighted
    assert graphs.rmat(1000, 2.5).arcs == 2500
    assert graphs.rmat(1000, 2.5, symmetric=True).arcs == 5000
    assert graphs.uniform(1000, 3).arcs == 3000
    g = graphs.rmat(1 << 12, 16)
    assert g.max_out_degree > 10 * 16  # R-MAT hubs: far above the mean degree 16


def test_generator_arguments_are_checked() -> None:
    with pytest.raises(td.ConfigError, match=r"rmat: 'nodes' must be a whole number"):
        graphs.rmat(0, 4)
    with pytest.raises(td.ConfigError, match=r"rmat: 'a' must be a finite number in \[0, 1\]"):
        graphs.rmat(100, 4, a=1.5)
    with pytest.raises(td.ConfigError, match="exceeds 1"):
        graphs.rmat(100, 4, a=0.5, b=0.5, c=0.5)
    with pytest.raises(td.ConfigError, match="uniform: 'symmetric' must be true or false"):
        graphs.uniform(100, 4, symmetric="yes")  # type: ignore[arg-type]
    with pytest.raises(td.ConfigError, match="grid: 'max_weight'"):
        graphs.grid(3, 3, max_weight=0)
    with pytest.raises(td.ConfigError, match="exceed the limit"):
        graphs.grid(100_000, 100_000)


def test_sizes_that_cannot_fit_are_refused_quickly() -> None:
    start = time.process_time()  # CPU time: the work, whatever else loads the machine
    with pytest.raises(td.ConfigError, match="of memory"):
        graphs.rmat(2_000_000_000, 16)
    with pytest.raises(td.ConfigError, match="of memory"):
        graphs.uniform(2_000_000_000, 1000, symmetric=True)
    assert time.process_time() - start < 1.0


# ---- readers


def write(tmp_path: Path, name: str, content: str | bytes) -> Path:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    return path


def test_readers(tmp_path: Path) -> None:
    el = graphs.read_edge_list(write(tmp_path, "a.txt", "# arcs\n0 1\n1,2\n2\t0\n"))
    assert (el.nodes, el.arcs, el.weighted) == (3, 3, False)
    one = graphs.read_edge_list(write(tmp_path, "b.txt", "1 2 5\n2 1 6\n"), one_based=True)
    assert arcs_of(one) == [(0, 1, 5), (1, 0, 6)]
    mtx = write(
        tmp_path, "m.mtx", "%%MatrixMarket matrix coordinate pattern symmetric\n2 2 1\n2 1\n"
    )
    assert arcs_of(graphs.read(mtx)) == [(0, 1, 1), (1, 0, 1)]
    assert graphs.read(write(tmp_path, "c.edges", "0 1\n")).arcs == 1
    dimacs = write(tmp_path, "d.txt", "p sp 2 1\na 1 2 3\n")
    assert arcs_of(graphs.read(dimacs, format="dimacs")) == [(0, 1, 3)]
    with pytest.raises(td.ConfigError, match="unknown graph file format 'csv'"):
        graphs.read(dimacs, format="csv")


MM = "%%MatrixMarket matrix coordinate real general\n"

BAD_FILES = [
    # (reader, file name, content, line, message)
    ("dimacs", "e.gr", "", 1, "the file is empty"),
    ("dimacs", "e.gr", "c x\na 1 2 3\n", 2, "arc line before the problem line"),
    ("dimacs", "e.gr", "c nothing\n", 1, "no problem line"),
    ("dimacs", "e.gr", "p sp 2 1\na 1 2 1\np sp 2 1\n", 3, "a second 'p' line"),
    ("dimacs", "e.gr", "p sp 2 1\na 1 two 1\n", 2, "got a word of 3 characters (not shown"),
    ("dimacs", "e.gr", "p sp 2 2\na 1 2 1\n", 2, "declares 2 arcs but the file has 1"),
    ("dimacs", "e.gr", "p sp 2 1\na 1 2 1\na 2 1 1\n", 3, "more arcs than the 1"),
    ("dimacs", "e.gr", "p sp 2 1\na 0 2 1\n", 2, "node id 0: ids in this file are 1-based"),
    ("dimacs", "e.gr", "p sp 2 1\na 1 3 1\n", 2, "node id 3 is out of range"),
    ("dimacs", "e.gr", "p sp 2 1\na 1 2 -7\n", 2, "negative weight -7"),
    ("dimacs", "e.gr", "p sp 2 1\na 1 2 7.5\n", 2, "weight 7.5 is not a whole number"),
    ("dimacs", "e.gr", b"p sp 2 1\n\x00\x01\x02", 2, "a NUL byte"),
    ("dimacs", "e.gr", b"p sp 2 1\na 1 2 \xff\xfe\n", 2, "not UTF-8"),
    ("edge_list", "e.txt", "0 1\n1 x\n", 2, "node id must be a whole number; got 'x'"),
    ("edge_list", "e.txt", "0 1 3\n1 2\n", 2, "this arc has no weight"),
    ("edge_list", "e.txt", "0 1 -3\n", 1, "negative weight -3"),
    ("edge_list", "e.txt", "0 1 0.25\n", 1, "weight 0.25 is not a whole number"),
    ("edge_list", "e.txt", "0 1 2 3\n", 1, "expected an arc 'U V' or 'U V W'"),
    ("edge_list", "e.txt", "# only a comment\n", 1, "no arcs in the file"),
    ("edge_list_1", "e.txt", "1 2\n0 1\n", 2, "node id 0: ids in this file are 1-based"),
    ("matrix_market", "e.mtx", "1 2 3\n", 1, "expected the Matrix Market banner"),
    ("matrix_market", "e.mtx", "%%MatrixMarket matrix array real general\n2 2\n", 1, "array"),
    ("matrix_market", "e.mtx", "%%MatrixMarket matrix coordinate complex general\n", 1, "complex"),
    ("matrix_market", "e.mtx", "%%MatrixMarket matrix coordinate real hermitian\n", 1, "hermitian"),
    (
        "matrix_market",
        "e.mtx",
        "%%MatrixMarket matrix coordinate integer skew-symmetric\n",
        1,
        "skew-symmetric",
    ),
    ("matrix_market", "e.mtx", MM + "2 2 1\n1 2 -1\n", 3, "negative weight -1"),
    ("matrix_market", "e.mtx", MM + "2 2 1\n1 2 0.5\n", 3, "weight 0.5 is not a whole number"),
    ("matrix_market", "e.mtx", MM + "2 2 2\n1 2 1\n", 3, "declares 2 entries but the file has 1"),
    ("matrix_market", "e.mtx", MM + "2 2 1\n1 3 1\n", 3, "node id 3 is out of range"),
    ("matrix_market", "e.mtx", MM + "2 3 1\n1 2 1\n", 2, "must be square"),
]


@pytest.mark.parametrize(("reader", "name", "content", "line", "message"), BAD_FILES)
def test_reader_errors_name_file_and_line(
    tmp_path: Path, reader: str, name: str, content: str | bytes, line: int, message: str
) -> None:
    path = write(tmp_path, name, content)
    read = {
        "dimacs": graphs.read_dimacs,
        "edge_list": graphs.read_edge_list,
        "edge_list_1": lambda p: graphs.read_edge_list(p, one_based=True),
        "matrix_market": graphs.read_matrix_market,
    }[reader]
    with pytest.raises(td.ConfigError) as info:
        read(path)
    text = str(info.value)
    assert text.startswith(f"{path}:{line}: "), text
    assert message in text
    if reader == "matrix_market" and line == 1 and "banner" not in message:
        assert "supported: '%%MatrixMarket matrix coordinate" in text  # says what is valid


def test_reader_path_errors(tmp_path: Path) -> None:
    with pytest.raises(td.ConfigError, match="no such file"):  # checked before C++ opens it
        graphs.read_dimacs(tmp_path / "missing.gr")
    with pytest.raises(td.ConfigError, match="is a directory"):
        graphs.read_edge_list(tmp_path)
    with pytest.raises(td.ConfigError, match=re.escape("read_dimacs: 'path' must be")):
        graphs.read_dimacs(3)  # type: ignore[arg-type]


# ---- networkx


def test_from_networkx_round_trip() -> None:
    nxg = nx.MultiDiGraph()
    nxg.add_weighted_edges_from([(0, 1, 4), (1, 2, 5), (0, 1, 6), (2, 2, 0), (2, 0, 3)])
    g = graphs.from_networkx(nxg)
    assert g.weighted
    assert sorted(arcs_of(g)) == sorted((u, v, w) for u, v, w in nxg.edges(data="weight"))
    back = nx.MultiDiGraph()
    back.add_weighted_edges_from(arcs_of(g))
    assert sorted(back.edges(data="weight")) == sorted(nxg.edges(data="weight"))


def test_from_networkx_undirected_labels_and_missing_weights() -> None:
    nxg = nx.Graph()
    nxg.add_edge("b", "a", weight=2)
    nxg.add_edge("b", "c")  # no weight: 1, as networkx's shortest paths count it
    g = graphs.from_networkx(nxg)
    # Sorted labels: a=0, b=1, c=2; each undirected edge is two arcs.
    assert sorted(arcs_of(g)) == [(0, 1, 2), (1, 0, 2), (1, 2, 1), (2, 1, 1)]
    unweighted = graphs.from_networkx(nxg, weight=None)
    assert not unweighted.weighted
    with pytest.raises(td.ConfigError, match=r"edge \('x', 'y'\)"):
        graphs.from_networkx(nx.DiGraph([("x", "y", {"weight": 0.5})]))
    with pytest.raises(td.ConfigError, match="no nodes"):
        graphs.from_networkx(nx.DiGraph())
