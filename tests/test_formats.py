"""Graph and task-graph file formats: DOT, WfCommons WfFormat, Matrix Market
(task DAG and real-weighted data graph) and gzip-compressed inputs."""

from __future__ import annotations

import gzip
import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tbdse as td
from tbdse.errors import ConfigError
from tbdse.experiment.cli import main
from tbdse.io import inputs as _inputs

W = td.workloads
G = td.workloads.graphs


def _write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def _gz(path: Path) -> Path:
    """A .gz copy of ``path`` beside it."""
    target = path.with_name(path.name + ".gz")
    target.write_bytes(gzip.compress(path.read_bytes()))
    return target


def _same(made: td.workloads.Workload, expected: td.workloads.Workload) -> None:
    """Same tasks, edges and costs."""
    assert made.tasks == expected.tasks and made.edges == expected.edges
    assert made.task_graph.content_hash == expected.task_graph.content_hash
    assert list(made.task_graph.costs()) == list(expected.task_graph.costs())


DOT = """// a small task graph
digraph "demo" {
  rankdir=LR; node [shape=box];
  load [cost=100];
  "work 1" [cost=250, label="w"];
  work2 [size=300];
  store [cost=50];
  load -> "work 1" -> store;
  load -> work2:out -> store [label=late];
  load -> store;  /* a repeated
                     dependency */
}
"""
DOT_EDGES = [(0, 1), (1, 3), (0, 2), (2, 3), (0, 3)]


def test_dot_matches_from_edges(tmp_path: Path) -> None:
    path = _write(tmp_path / "g.dot", DOT)
    expected = W.from_edges(DOT_EDGES, 4, costs=[100, 250, 300, 50])
    for source in (path, _gz(path)):
        made = W.read_dot(str(source))
        _same(made, expected)
        assert made.labels == ["load", "work 1", "work2", "store"]
        assert made.name == "g" and made.cost is not None and made.cost.kind == "graph"
    no_costs = _write(tmp_path / "n.gv", "digraph { a -> b; a -> c }")
    made = W.read_dot(str(no_costs), cost=500)
    _same(made, W.from_edges([(0, 1), (0, 2)], 3))
    defaults = _write(tmp_path / "d.dot", "digraph { node [cost=7]; a -> b; c [cost=1] }")
    _same(W.read_dot(str(defaults)), W.from_edges([(0, 1)], 3, costs=[7, 7, 1]))


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("digraph { a [cost=1]; b; a -> b }", 1, ["'b'", "no 'cost'", "'a'"]),
        ("digraph {\n a [cost=-3] }", 2, ["'a'", "whole number", "'-3'"]),
        ("digraph {\n a [cost=1.5] }", 2, ["'a'", "whole number"]),
        ("graph { a -- b }", 1, ["undirected", "digraph"]),
        ("digraph {\n\n a -- b }", 3, ["'--'"]),
        ("digraph { a -> { b c } }", 1, ["subgraph"]),
        ("digraph {\n subgraph s { a } }", 2, ["subgraph"]),
        ("digraph { a -> b", 1, ["closing '}'"]),
        ('digraph { "a -> b }', 1, ["not closed"]),
        ("digraph { a [label=<b>] }", 1, ["HTML"]),
        ("digraph { a } digraph { b }", 1, ["one graph per file"]),
        ("", 1, ["empty"]),
    ],
)
def test_dot_errors(tmp_path: Path, text: str, line: int, words: list[str]) -> None:
    path = _write(tmp_path / "bad.dot", text)
    with pytest.raises(ConfigError) as info:
        W.read_dot(str(path))
    message = str(info.value)
    assert message.startswith(f"{path}:{line}:") or (not text and str(path) in message)
    for word in words:
        assert word in message


def test_cycles_are_named(tmp_path: Path) -> None:
    dot = _write(tmp_path / "c.dot", "digraph { x -> y -> z -> y; z -> w }")
    with pytest.raises(ConfigError, match=r"c\.dot: the task graph has a cycle: 'y' -> 'z' -> 'y'"):
        W.read_dot(str(dot))
    loop = _write(tmp_path / "l.dot", "digraph { a -> a }")
    with pytest.raises(ConfigError, match="cycle: 'a' -> 'a'"):
        W.read_dot(str(loop))
    wf = {
        "workflow": {
            "tasks": [
                {"name": "a", "parents": ["c"], "runtime": 1},
                {"name": "b", "parents": ["a"], "runtime": 1},
                {"name": "c", "parents": ["b"], "runtime": 1},
            ]
        }
    }
    path = _write(tmp_path / "c.json", json.dumps(wf))
    with pytest.raises(ConfigError, match="cycle: 'a' -> 'b' -> 'c' -> 'a'"):
        W.read_wfcommons(str(path))


def _wf_new(tasks: list[tuple[str, list[str], float]]) -> dict[str, Any]:
    children: dict[str, list[str]] = {name: [] for name, _, _ in tasks}
    for name, parents, _ in tasks:
        for p in parents:
            children[p].append(name)
    return {
        "name": "wf",
        "schemaVersion": "1.5",
        "workflow": {
            "specification": {
                "tasks": [
                    {"name": n, "id": n, "parents": ps, "children": children[n]}
                    for n, ps, _ in tasks
                ]
            },
            "execution": {
                "makespanInSeconds": 9,
                "tasks": [{"id": n, "runtimeInSeconds": r} for n, _, r in tasks],
            },
        },
    }


def _wf_old(tasks: list[tuple[str, list[str], float]]) -> dict[str, Any]:
    return {
        "name": "wf",
        "schemaVersion": "1.3",
        "workflow": {
            "tasks": [
                {"name": n, "type": "compute", "parents": ps, "runtime": r} for n, ps, r in tasks
            ]
        },
    }


WF = [("split", [], 2.0), ("map_1", ["split"], 0.5), ("map_2", ["split"], 1.25)]
WF += [("join", ["map_1", "map_2"], 0.001)]


@pytest.mark.parametrize("layout", [_wf_new, _wf_old])
def test_wfcommons_matches_from_edges(tmp_path: Path, layout: Any) -> None:
    path = _write(tmp_path / "wf.json", json.dumps(layout(WF)))
    expected = W.from_edges(
        [(0, 1), (0, 2), (1, 3), (2, 3)], 4, costs=[2_000_000, 500_000, 1_250_000, 1_000]
    )
    for source in (path, _gz(path)):
        made = W.read_wfcommons(str(source), cycles_per_second=1e6)
        _same(made, expected)
        assert made.labels == ["split", "map_1", "map_2", "join"]
    default = W.read_wfcommons(str(path))  # 1 GHz
    assert list(default.task_graph.costs()) == [2 * 10**9, 5 * 10**8, 125 * 10**7, 10**6]


@pytest.mark.parametrize(
    ("edit", "words"),
    [
        (
            lambda d: d["workflow"]["tasks"][1].update(parents=["nope"]),
            ["tasks[1].parents", "'nope'"],
        ),
        (lambda d: d["workflow"]["tasks"][2].pop("runtime"), ["tasks[2]", "'map_2'", "runtime"]),
        (lambda d: d["workflow"]["tasks"][0].update(runtime=-1), ["'split'", "-1", ">= 0"]),
        (lambda d: d["workflow"]["tasks"][3].update(name="split"), ["tasks[3]", "second task"]),
        (lambda d: d["workflow"]["tasks"][3].update(runtime="1s"), ["'join'", "'1s'"]),
        (lambda d: d["workflow"]["tasks"][3].update(parents="split"), ["parents", "list"]),
        (lambda d: d.pop("workflow"), ["not a WfCommons workflow"]),
    ],
)
def test_wfcommons_errors(tmp_path: Path, edit: Any, words: list[str]) -> None:
    data = _wf_old(WF)
    edit(data)
    path = _write(tmp_path / "wf.json", json.dumps(data))
    with pytest.raises(ConfigError) as info:
        W.read_wfcommons(str(path))
    assert str(info.value).startswith(str(path))
    for word in words:
        assert word in str(info.value)


def test_wfcommons_new_layout_errors(tmp_path: Path) -> None:
    data = _wf_new(WF)
    data["workflow"]["execution"]["tasks"].pop()
    path = _write(tmp_path / "wf.json", json.dumps(data))
    with pytest.raises(ConfigError, match=r"specification\.tasks\[3\]: task 'join' has no entry"):
        W.read_wfcommons(str(path))
    bad = _write(tmp_path / "bad.json", '{"workflow": {\n  "tasks": [,]}}')
    with pytest.raises(ConfigError, match=r"bad\.json:2:\d+: not valid JSON"):
        W.read_wfcommons(str(bad))
    with pytest.raises(ConfigError, match="cycles_per_second"):
        W.read_wfcommons(str(path), cycles_per_second=0)


MTX_LOWER = """%%MatrixMarket matrix coordinate real general
% the L of a 4 x 4 system
4 4 7
1 1 2.0
2 1 -1.5
2 2 4.0
3 2 0.5
3 3 1.0
4 1 3.0
4 4 1.0
"""


def test_matrix_market_task_dag(tmp_path: Path) -> None:
    path = _write(tmp_path / "l.mtx", MTX_LOWER)
    expected = W.from_edges([(0, 1), (1, 2), (0, 3)], 4, costs=[1, 2, 2, 2])
    for source in (path, _gz(path)):
        made = W.read_matrix_market(str(source), cycles_per_nonzero=10)
        _same(made, expected)
        assert made.cost is not None and made.cost.params["scale"] == 10
    upper = _write(
        tmp_path / "u.mtx",
        "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n2 3\n",
    )
    _same(W.read_matrix_market(str(upper)), W.from_edges([(1, 0), (2, 1)], 3, costs=[1, 1, 0]))
    mixed = _write(
        tmp_path / "m.mtx",
        "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n2 1\n1 3\n",
    )
    with pytest.raises(
        ConfigError, match=r"m\.mtx:4: entry \(1, 3\) lies above .* \(2, 1\) \(line 3\)"
    ):
        W.read_matrix_market(str(mixed))


def test_matrix_market_real_weights(tmp_path: Path) -> None:
    text = """%%MatrixMarket matrix coordinate real symmetric
3 3 3
2 1 0.25
3 1 1.5e0
3 3 2.5
"""
    path = _write(tmp_path / "r.mtx", text)
    expected = G.from_edges([(1, 0), (0, 1), (2, 0), (0, 2), (2, 2)], 3, [2, 2, 15, 15, 25])
    for source in (path, _gz(path)):
        g = G.read_matrix_market(str(source), weight_scale=10)
        assert g.content_hash == expected.content_hash
        assert list(g.weights()) == list(expected.weights())
    # Without weight_scale the core's reader takes whole numbers only.
    with pytest.raises(ConfigError, match=r"r\.mtx:3: weight 0.25 is not a whole number"):
        G.read_matrix_market(str(path))
    negative = _write(tmp_path / "n.mtx", text.replace("0.25", "-0.25"))
    with pytest.raises(ConfigError, match=r"n\.mtx:3: entry \(2, 1\): value '-0.25'"):
        G.read_matrix_market(str(negative), weight_scale=10)
    with pytest.raises(ConfigError, match="weight_scale"):
        G.read_matrix_market(str(path), weight_scale=-1)
    wl = W.sssp(graph="file", path=str(_gz(path)), weight_scale=10)
    assert wl.sizes() == {"edges": 5, "nodes": 3} and wl.params["weight_scale"] == 10
    assert "weight_scale" not in W.sssp(graph="grid", rows=2, cols=2).params
    with pytest.raises(ConfigError, match="weight_scale"):
        W.sssp(graph="grid", weight_scale=2)
    with pytest.raises(ConfigError, match="weight_scale"):
        G.read(str(path).replace(".mtx", ".gr"), weight_scale=2)


def test_gzip_graph_files_for_the_cpp_readers(tmp_path: Path) -> None:
    gr = _write(tmp_path / "g.gr", "c road\np sp 3 2\na 1 2 5\na 2 3 7\n")
    el = _write(tmp_path / "e.txt", "0 1\n1 2\n")
    mtx = _write(
        tmp_path / "i.mtx", "%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 2 4\n"
    )
    for plain in (gr, el, mtx):
        a, b = G.read(str(plain)), G.read(str(_gz(plain)))
        assert a.content_hash == b.content_hash
    bad = _gz(_write(tmp_path / "bad.gr", "p sp 3 1\na 1 9 5\n"))
    with pytest.raises(ConfigError) as info:
        G.read_dimacs(str(bad))
    assert str(info.value).startswith(f"{bad}:2:") and "tbdse-gz-" not in str(info.value)
    wl = W.bfs(graph="file", path=str(tmp_path / "g.gr.gz"))
    assert wl.sizes()["nodes"] == 3
    # Task-graph files read through the one input reader are decompressed too.
    stg = _write(tmp_path / "t.stg", "2\n0 0 0\n1 5 1 0\n2 6 1 1\n3 0 1 2\n")
    _same(W.read_stg(str(_gz(stg))), W.read_stg(str(stg)))
    edges = _write(tmp_path / "t.edges", "0 1\n0 2\n")
    _same(W.read_edge_list(str(_gz(edges))), W.read_edge_list(str(edges)))


def test_zip_bomb_is_refused_quickly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bomb = tmp_path / "bomb.gr.gz"
    bomb.write_bytes(gzip.compress(b"c " + b"x" * (32 * 2**20), compresslevel=9))
    assert bomb.stat().st_size < 64 * 2**10
    monkeypatch.setattr(_inputs, "MAX_DECOMPRESSED_BYTES", 4 * 2**20)
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    start = time.process_time()  # CPU time: the work, whatever else loads the machine
    for read in (G.read, lambda p: _inputs.read_input(p)):
        with pytest.raises(
            ConfigError, match=r"bomb\.gr\.gz: the graph file|bomb\.gr\.gz: the file"
        ):
            read(str(bomb))
    assert time.process_time() - start < 2.0
    assert os.listdir(scratch) == []  # the temporary folder is gone
    cut = tmp_path / "cut.dot.gz"
    cut.write_bytes(gzip.compress(DOT.encode())[:-8])
    with pytest.raises(ConfigError, match=r"cut\.dot\.gz: the DOT file is cut short"):
        W.read_dot(str(cut))
    plain = _write(tmp_path / "plain.dot.gz", DOT)
    with pytest.raises(ConfigError, match="not valid gzip"):
        W.read_dot(str(plain))


def test_experiment_file_names_each_format(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _write(tmp_path / "g.dot", DOT)
    _gz(_write(tmp_path / "h.gv", "digraph { a [cost=5]; b [cost=6]; a -> b }"))
    _write(tmp_path / "wf.json", json.dumps(_wf_new(WF)))
    _gz(_write(tmp_path / "old.txt", json.dumps(_wf_old(WF))))
    _write(tmp_path / "l.mtx", MTX_LOWER)
    _write(tmp_path / "r.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 0.5\n")
    exp = tmp_path / "exp.yaml"
    exp.write_text(
        """name: formats
gpu: gtx480
scheme: global_barrier
workloads:
  - {file: g.dot}
  - {file: h.gv.gz}
  - {file: wf.json, cycles_per_second: 1.0e6}
  - {file: old.txt.gz, format: wfcommons}
  - {file: l.mtx, cost: 1000}
"""
    )
    assert main(["validate", str(exp)]) == 0, capsys.readouterr().err
    from tbdse import experiment

    loaded = experiment.load(str(exp))
    assert [w.generator for w in loaded.workloads] == [
        "dot",
        "dot",
        "wfcommons",
        "wfcommons",
        "matrix_market",
    ]
    hwwl = tmp_path / "hwwl.yaml"
    hwwl.write_text(
        """gpu: gtx480
scheme: hwwl
workload: {generator: sssp, graph: file, path: r.mtx, weight_scale: 100}
"""
    )
    assert main(["validate", str(hwwl)]) == 0, capsys.readouterr().err
    bad = tmp_path / "bad.yaml"
    bad.write_text("gpu: gtx480\nscheme: global_barrier\nworkload: {file: g.dot, format: dott}\n")
    assert main(["validate", str(bad)]) == 2
    assert "'wfcommons'" in capsys.readouterr().err


NAMES = st.text(alphabet="abcxyz_019 -", min_size=1, max_size=6)


@st.composite
def dags(draw: Any) -> tuple[list[str], list[tuple[int, int]], list[int]]:
    n = draw(st.integers(1, 10))
    labels = draw(st.lists(NAMES, min_size=n, max_size=n, unique=True))
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    edges = draw(st.lists(st.sampled_from(pairs), unique=True, max_size=20)) if pairs else []
    costs = draw(st.lists(st.integers(0, 10**9), min_size=n, max_size=n))
    return labels, edges, costs


def _dot_text(labels: list[str], edges: list[tuple[int, int]], costs: list[int]) -> str:
    def q(name: str) -> str:
        return '"' + name.replace('"', '\\"') + '"'

    lines = ["digraph random {"]
    lines += [f"  {q(n)} [cost={c}];" for n, c in zip(labels, costs, strict=True)]
    lines += [f"  {q(labels[u])} -> {q(labels[v])};" for u, v in edges]
    return "\n".join([*lines, "}"]) + "\n"


@settings(max_examples=40, deadline=None, database=None)
@given(dag=dags(), old=st.booleans())
def test_writers_round_trip_random_dags(
    tmp_path_factory: pytest.TempPathFactory,
    dag: tuple[list[str], list[tuple[int, int]], list[int]],
    old: bool,
) -> None:
    labels, edges, costs = dag
    folder = tmp_path_factory.mktemp("dag")
    expected = W.from_edges(edges, len(labels), costs=costs)
    made = W.read_dot(str(_write(folder / "r.dot", _dot_text(labels, edges, costs))))
    _same(made, expected)
    assert made.labels == labels
    tasks = [
        (name, [labels[u] for u, v in edges if v == i], costs[i] / 1000)
        for i, name in enumerate(labels)
    ]
    data = _wf_old(tasks) if old else _wf_new(tasks)
    made = W.read_wfcommons(
        str(_write(folder / "r.json", json.dumps(data))), cycles_per_second=1000
    )
    _same(made, expected)
    assert made.labels == labels
    assert np.array_equal(made.task_graph.costs(), np.asarray(costs))
