"""Fuzzing every input surface with hypothesis: experiment files (mutations
of the files in experiments/ and of their bytes), graph files (edge lists,
DIMACS, Matrix Market, STG), task lists, control-flow kernel files and
application files.  Whatever the input, the only exceptions that may escape
are ConfigError, DeadlockError and SimulationError, and nothing hangs (each
example runs under a time bound).  Derandomized and database-free, so CI
sees the same examples every time; the sizes are kept small."""

from __future__ import annotations

import copy
import os
import shutil
import signal
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tbdse as td
from tbdse import experiment

W = td.workloads
EXPERIMENTS = Path(__file__).resolve().parents[1] / "experiments"
# Seeds: the experiment files that validate in well under a second.
SEEDS = [
    "quickstart",
    "stg_random_graph",
    "juggler_lu_tasks",
    "hwwl_fig6",
    "hwwl_design_space",
    "vgiw_fig8",
    "vgiw_design_space",
    "wireframe_fig10",
    "wireframe_buffers",
    "blockmaestro_fig14",
]
SECONDS = 10.0  # per example; each takes well under one
ALLOWED = (td.ConfigError, td.SimulationError)  # DeadlockError is a SimulationError
# TBDSE_FUZZ_EXAMPLES=2000 TBDSE_FUZZ_RANDOM=1 hunts further (new examples each run).
FUZZ = settings(
    max_examples=int(os.environ.get("TBDSE_FUZZ_EXAMPLES", "150")),
    deadline=None,
    derandomize=not os.environ.get("TBDSE_FUZZ_RANDOM"),
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


class HangError(Exception):
    pass


def bounded(call: Callable[[], Any]) -> Any:
    """``call()`` under the time bound; an allowed tbdse error is returned, not raised."""

    def fire(signum: int, frame: Any) -> None:
        raise HangError(f"no answer within {SECONDS} s")

    previous = signal.signal(signal.SIGALRM, fire)
    signal.setitimer(signal.ITIMER_REAL, SECONDS)
    try:
        return call()
    except ALLOWED as exc:
        return exc
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A scratch folder holding a copy of experiments/data (the seeds' inputs)."""
    path = tmp_path_factory.mktemp("fuzz")
    shutil.copytree(EXPERIMENTS / "data", path / "data")
    yield path


# ---------------------------------------------------------------- value strategies
SPECIAL = [0, -1, 1, 2**31, 2**63, 10**30, 1e300, -0.0, "auto", "unbounded", "file", "rmat"]
SPECIAL += ["", ".", "..", "/dev/zero", "data/../../x", "a\x00b", "x\ny", "\u202e", "[1, 2]"]
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 300),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=10),
    st.sampled_from(SPECIAL),
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)


def paths(tree: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every key path in a tree of dicts and lists."""
    out = [prefix]
    if isinstance(tree, dict):
        for k, v in tree.items():
            out += paths(v, (*prefix, k))
    elif isinstance(tree, list):
        for i, v in enumerate(tree):
            out += paths(v, (*prefix, i))
    return out


@st.composite
def mutated(draw: st.DrawFn, base: Any) -> Any:
    """``base`` with one to three random edits: a value dropped, replaced by a
    random value, a key renamed, a value nested deeply or repeated in a list."""
    tree = copy.deepcopy(base)
    for _ in range(draw(st.integers(1, 3))):
        where = draw(st.sampled_from(paths(tree)))
        if not where:
            continue
        parent = tree
        for part in where[:-1]:
            parent = parent[part]
        last = where[-1]
        op = draw(st.sampled_from(["drop", "replace", "rename", "nest", "repeat"]))
        if op == "drop":
            del parent[last]
        elif op == "replace":
            parent[last] = draw(values)
        elif op == "rename" and isinstance(parent, dict):
            parent[draw(st.text(max_size=10))] = parent.pop(last)
        elif op == "nest":
            value = parent[last]
            for _ in range(draw(st.integers(1, 80))):
                value = [value] if draw(st.booleans()) else {"x": value}
            parent[last] = value
        else:
            parent[last] = [parent[last]] * draw(st.integers(0, 3))
    return tree


def dump(tree: Any) -> bytes:
    return yaml.safe_dump(tree, sort_keys=False, allow_unicode=True).encode("utf-8", "replace")


@st.composite
def byte_edits(draw: st.DrawFn, data: bytes) -> bytes:
    """``data`` cut, with bytes flipped or inserted."""
    out = bytearray(data)
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, max(0, len(out) - 1)))
        op = draw(st.sampled_from(["flip", "insert", "cut"]))
        if op == "flip" and out:
            out[at] = draw(st.integers(0, 255))
        elif op == "insert":
            out[at:at] = draw(st.binary(max_size=8))
        else:
            out = out[: at + 1]
    return bytes(out)


def seed_data(name: str) -> Any:
    return yaml.safe_load((EXPERIMENTS / f"{name}.yaml").read_text())


# ------------------------------------------------------------------ experiment files
@FUZZ
@given(st.sampled_from(SEEDS).flatmap(lambda name: mutated(seed_data(name))))
def test_mutated_experiment_files(folder: Path, tree: Any) -> None:
    path = folder / "exp.yaml"
    path.write_bytes(dump(tree))
    bounded(lambda: experiment.load(path))


@FUZZ
@given(
    st.sampled_from(SEEDS).flatmap(
        lambda name: byte_edits((EXPERIMENTS / f"{name}.yaml").read_bytes())
    )
)
def test_experiment_files_with_damaged_bytes(folder: Path, data: bytes) -> None:
    path = folder / "exp.yaml"
    path.write_bytes(data)
    bounded(lambda: experiment.load(path))


# ------------------------------------------------------------------------ graph files
TOKENS = [
    "2147483647",
    "2147483648",
    "-2147483649",
    "99999999999999999999",
    "1e3",
    "0x10",
    "nan",
    "#",
    "%",
    "p",
    "sp",
    "a",
    "c",
    "%%MatrixMarket",
    "matrix",
    "coordinate",
    "pattern",
    "integer",
    "real",
    "general",
    "symmetric",
    ",",
    "\t",
    "\r",
]
token = st.one_of(st.integers(-3, 12).map(str), st.sampled_from(TOKENS), st.text(max_size=3))
lines = st.lists(st.lists(token, max_size=6).map(" ".join), max_size=14)
HEADERS = [
    "",
    "p sp 6 8\n",
    "%%MatrixMarket matrix coordinate pattern general\n6 6 5\n",
    "%%MatrixMarket matrix coordinate integer symmetric\n6 6 5\n",
    "4\n0 0 0\n",
    "4 2\n",
]
graph_text = st.tuples(st.sampled_from(HEADERS), lines).map(lambda t: t[0] + "\n".join(t[1]))


def small_gpu() -> td.Gpu:
    return td.gpus.custom("fuzz", sms=2, tb_slots=2, clock_mhz=100.0)


@FUZZ
@given(graph_text)
def test_task_graph_files(folder: Path, text: str) -> None:
    path = folder / "g.txt"
    path.write_bytes(text.encode("utf-8", "replace"))
    for read in (W.read_edge_list, W.read_stg):
        made = bounded(partial(read, str(path)))
        if isinstance(made, td.Workload) and made.tasks <= 200:
            bounded(partial(td.simulate, made, small_gpu(), "dataflow_ideal"))


@FUZZ
@given(graph_text, st.booleans())
def test_data_graph_files(folder: Path, text: str, one_based: bool) -> None:
    path = folder / "g.txt"
    path.write_bytes(text.encode("utf-8", "replace"))
    readers: list[Callable[[], Any]] = [
        lambda: W.graphs.read_dimacs(path),
        lambda: W.graphs.read_matrix_market(path),
        lambda: W.graphs.read_edge_list(path, one_based=one_based),
    ]
    for read in readers:
        graph = bounded(read)
        if isinstance(graph, td._core.Digraph) and 0 < graph.nodes <= 200:
            wl = bounded(partial(W.graph_operator, graph, "sssp"))
            if isinstance(wl, td.Workload):
                bounded(partial(td.simulate, wl, "gtx480", "hwwl"))


# -------------------------------------------------------- task lists, kernels, applications
TASKS = yaml.safe_load((EXPERIMENTS / "data" / "lu_3x3.tasks.yaml").read_text())
CFG = {
    "name": "diamond",
    "threads": 16,
    "blocks": [
        {"succ": [1, 2], "branch": "predicate", "p": 0.3, "alu": 4},
        {"succ": [3], "alu": 8, "ldst": 1, "defs": ["a"]},
        {"succ": [3, 1], "branch": "loop", "trips_min": 1, "trips_max": 3, "uses": ["a"]},
        {"alu": 1, "mem_intensity": 0.5},
    ],
    "paths": [[0, 1, 3], [0, 2, 3]],
}
APPLICATION = {
    "name": "vecadd",
    "element_bytes": 4,
    "hazards": "raw",
    "commands": [
        {"malloc": {"buffer": "A", "shape": 1024}},
        {"malloc": {"buffer": "C", "shape": [32, 32]}},
        {"memcpy_h2d": "A"},
        {
            "launch": {
                "kernel": "add",
                "grid": 4,
                "cost": 2000,
                "threads": 256,
                "reads": {"A": "256*bx : 256*bx + 256"},
                "writes": {"C": ["8*bx : 8*bx + 8, :"]},
            }
        },
        "sync",
        {"memcpy_d2h": {"buffer": "C", "bytes": 64}},
    ],
}


@FUZZ
@given(mutated(TASKS))
def test_task_list_files(folder: Path, tree: Any) -> None:
    path = folder / "t.tasks.yaml"
    path.write_bytes(dump(tree))
    made = bounded(lambda: W.tasks_file(str(path)))
    if isinstance(made, td.Workload) and made.tasks <= 500:
        bounded(lambda: td.simulate(made, small_gpu(), "juggler"))


@FUZZ
@given(mutated(CFG))
def test_control_flow_kernel_files(folder: Path, tree: Any) -> None:
    path = folder / "k.yaml"
    path.write_bytes(dump(tree))
    made = bounded(lambda: W.cfg_file(str(path)))
    if isinstance(made, td.Workload) and made.sizes()["threads"] <= 512:
        for scheme in ("simt", "sgmf", "vgiw"):
            bounded(partial(td.simulate, made, "gtx480", scheme))


@FUZZ
@given(mutated(APPLICATION))
def test_application_files(folder: Path, tree: Any) -> None:
    path = folder / "app.yaml"
    path.write_bytes(dump(tree))
    made = bounded(lambda: W.application_file(str(path)))
    if isinstance(made, td.Workload) and made.tasks <= 500:
        for scheme in ("global_barrier", "blockmaestro"):
            bounded(partial(td.simulate, made, small_gpu(), scheme))


def test_the_seeds_are_valid() -> None:
    """The mutations start from files that load: a seed that stopped loading
    would make the fuzzing above test only the first refusal."""
    for name in SEEDS:
        assert experiment.count_runs(experiment.load(EXPERIMENTS / f"{name}.yaml")) > 0
