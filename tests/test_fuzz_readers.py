"""A fuzz target per reader (issue 33, item 8): DOT, WfCommons JSON, Matrix
Market (task graph and data graph), edge lists (both), DIMACS, STG, task
lists, application files and control-flow kernel files.

Each starts from a small valid file holding a secret-looking marker and
applies random edits; two seeds every target always runs are a
decompression bomb (the file gzipped, 250 MB inside) and deep nesting.
Whatever the input, only a ConfigError may escape, within the time bound,
and its message never contains the marker (messages quote no input).
Derandomized and database-free like tests/test_fuzz_inputs.py."""

from __future__ import annotations

import gzip
import itertools
import os
import signal
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import tbdse as td

W = td.workloads
G = td.workloads.graphs
MARKER = "$6$s3cr3tsalt"  # no name, no number: never shown by default
SECONDS = 10.0
FUZZ = settings(
    max_examples=int(os.environ.get("TBDSE_FUZZ_EXAMPLES", "25")),
    deadline=None,
    derandomize=not os.environ.get("TBDSE_FUZZ_RANDOM"),
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

TASKS = f"""name: t
arrays: {{a: 4}}
kinds: {{k: {{cost: 100, threads: 32}}}}
tasks:
  - {{kind: k, out: "a[0:2]"}}
  - {{kind: k, in: "a[0:2]", out: "a[2:4]"}}
# {MARKER}
"""
APP = f"""name: app
commands:
  - malloc: {{buffer: A, shape: 1024}}
  - launch: {{kernel: k, grid: 4, threads: 256, writes: {{A: "256*bx : 256*bx + 256"}}}}
  - sync
# {MARKER}
"""
CFG = f"""name: c
threads: 4
blocks:
  - {{succ: [1], alu: 10}}
  - {{alu: 5}}
paths: [[0, 1]]
# {MARKER}
"""
# (suffix, reader, seed text): the marker sits where a reader reads words.
READERS: dict[str, tuple[str, Callable[[str], Any], str]] = {
    "dot": (
        ".dot",
        W.read_dot,
        f"digraph g {{\n a [cost=5];\n b [cost=7];\n a -> b;\n}}\n// {MARKER}\n",
    ),
    "wfcommons": (
        ".json",
        W.read_wfcommons,
        '{"workflow": {"tasks": [{"name": "a", "runtime": 1.5, "parents": []},\n'
        f' {{"name": "b", "runtime": 2, "parents": ["a"], "note": "{MARKER}"}}]}}}}\n',
    ),
    "matrix_market": (
        ".mtx",
        W.read_matrix_market,
        "%%MatrixMarket matrix coordinate real general\n"
        f"% {MARKER}\n3 3 3\n1 1 1.0\n2 1 2.0\n3 2 1.0\n",
    ),
    "mm_graph": (
        ".mtx",
        G.read,
        f"%%MatrixMarket matrix coordinate integer general\n% {MARKER}\n3 3 2\n1 2 4\n2 3 5\n",
    ),
    "edge_list": (".txt", W.read_edge_list, f"# {MARKER}\n0 1\n1 2\n0 2\n"),
    "edge_list_graph": (".txt", G.read, f"# {MARKER}\n0 1 3\n1 2 4\n"),
    "dimacs": (".gr", G.read, f"c {MARKER}\np sp 3 2\na 1 2 5\na 2 3 6\n"),
    "stg": (".stg", W.read_stg, f"2\n0 0 0\n1 5 1 0\n2 6 1 1\n3 0 1 2\n# {MARKER}\n"),
    "tasks": (".tasks.yaml", W.tasks_file, TASKS),
    "application": (".yaml", W.application_file, APP),
    "cfg": (".yaml", W.cfg_file, CFG),
}
WORDS = ["[", "{", "]", "}", "->", ";", "\n", " ", "#", "%", '"', ":", "-", "9" * 40, MARKER]
edits = st.lists(
    st.tuples(
        st.integers(0, 10**6),
        st.sampled_from(["insert", "delete", "repeat", "word"]),
        st.text(max_size=6),
        st.sampled_from(WORDS),
    ),
    min_size=1,
    max_size=4,
)
BOMB = [(0, "bomb", "", "")]
DEEP = [(0, "deep", "", "")]
_names = itertools.count()


def edited(seed: str, ops: list[tuple[int, str, str, str]]) -> str:
    text = seed
    for at, op, chars, word in ops:
        at %= len(text) + 1
        if op == "insert":
            text = text[:at] + chars + text[at:]
        elif op == "delete":
            text = text[:at] + text[at + len(chars) + 1 :]
        elif op == "repeat":
            text = text[:at] + text[at : at + 20] * 50 + text[at:]
        elif op == "word":
            text = text[:at] + word + text[at:]
        elif op == "deep":  # opening brackets where the format nests (or does not)
            text = text[:at] + "[" * 20_000 + "{" * 20_000 + text[at:]
    return text


def write_bomb(path: Path, seed: str) -> Path:
    """``seed`` and then its last line repeated to 250 MB, gzipped (~1000:1)."""
    line = seed.rstrip("\n").rsplit("\n", 1)[-1].encode() + b"\n"
    member = gzip.compress(line * (2**20 // len(line)))
    with open(path, "wb") as out:
        out.write(gzip.compress(seed.encode()))
        for _ in range(250):
            out.write(member)
    return path


class HangError(Exception):
    pass


def bounded(call: Callable[[], Any]) -> BaseException | None:
    def fire(signum: int, frame: Any) -> None:
        raise HangError(f"no answer within {SECONDS} s")

    previous = signal.signal(signal.SIGALRM, fire)
    signal.setitimer(signal.ITIMER_REAL, SECONDS)
    try:
        call()
    except td.ConfigError as exc:
        return exc
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    return None


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    yield tmp_path_factory.mktemp("fuzz_readers")


def check(folder: Path, reader: str, ops: list[tuple[int, str, str, str]]) -> None:
    suffix, read, seed = READERS[reader]
    path = folder / f"f{next(_names)}{suffix}"
    if ops[0][1] == "bomb":
        path = write_bomb(path.with_name(path.name + ".gz"), seed)
    else:
        path.write_text(edited(seed, ops), encoding="utf-8", errors="surrogatepass")
    try:
        error = bounded(lambda: read(str(path)))
    finally:
        path.unlink()
    if ops[0][1] in ("bomb", "deep"):
        assert error is not None, f"{reader}: the {ops[0][1]} seed was accepted"
    if error is not None:
        assert MARKER not in str(error), str(error)
        assert path.name in str(error), str(error)


@pytest.mark.parametrize("reader", sorted(READERS))
@FUZZ
@given(ops=edits)
@example(ops=BOMB)
@example(ops=DEEP)
def test_reader_fuzz(folder: Path, reader: str, ops: list[tuple[int, str, str, str]]) -> None:
    check(folder, reader, ops)


@pytest.mark.parametrize("reader", sorted(READERS))
def test_the_seeds_are_read(folder: Path, reader: str) -> None:
    """The seeds are valid files, so the edits explore near the accepted."""
    suffix, read, seed = READERS[reader]
    path = folder / f"seed_{reader}{suffix}"
    path.write_text(seed)
    read(str(path))
