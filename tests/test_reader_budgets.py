"""Bounded work on compressed, large and nested input (issue 33, item 4).

Every reader refuses, with a ConfigError naming the file and the limit and
within seconds, a gzip "bomb" (a few hundred KB that decompress to 250 MB),
a description larger than its format's budget, nesting deeper than a parser
may recurse, and numbers of thousands of digits; the peak memory of reading
such files stays far below 1 GB."""

from __future__ import annotations

import gzip
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

import pytest

import tbdse as td

W = td.workloads
G = td.workloads.graphs
MB = 2**20
# Each refusal comes well within this: ~0.1 s for the bombs, ~3 s on an idle
# core for the DOT file read up to its 1,000,000 tokens; reading the bombs
# whole would take minutes.  Generous, so that a loaded machine passes.
SECONDS = 30.0


def bomb(path: Path, head: bytes, line: bytes, total: int = 250 * MB) -> Path:
    """A gzip file of ``head`` then ``line`` repeated to ``total`` bytes: one
    compressed member of 1 MiB repeated (gzip members concatenate), so it is
    built in milliseconds and compresses about 1000:1."""
    block = line * (MB // len(line))
    member = gzip.compress(block, compresslevel=9)
    with open(path, "wb") as out:
        out.write(gzip.compress(head))
        for _ in range(total // len(block)):
            out.write(member)
    return path


def refused(call: Callable[[], object], *words: str) -> str:
    start = time.monotonic()
    with pytest.raises(td.ConfigError) as info:
        call()
    took = time.monotonic() - start
    assert took < SECONDS, f"refused after {took:.1f} s"
    message = str(info.value)
    for word in words:
        assert word in message, message
    return message


DOT_HEAD = b"digraph {\n"
MM_HEAD = b"%%MatrixMarket matrix coordinate pattern general\n3 3 100000000\n"
BOMBS = [
    ("g.dot.gz", DOT_HEAD, b"a -> b;\n", lambda p: W.read_dot(p)),
    ("m.mtx.gz", MM_HEAD, b"1 1\n", lambda p: W.read_matrix_market(p)),
    ("d.mtx.gz", MM_HEAD, b"1 1\n", lambda p: G.read(p)),
    ("e.txt.gz", b"", b"0 1\n", lambda p: G.read(p)),
    ("e.gr.gz", b"p sp 3 100000000\n", b"a 1 2 1\n", lambda p: G.read(p)),
    ("l.txt.gz", b"", b"0 1\n", lambda p: W.read_edge_list(p)),
    ("s.stg.gz", b"3\n", b"0 0 0\n", lambda p: W.read_stg(p)),
    ("w.json.gz", b'{"workflow": {"tasks": [', b'{"name": "a"},', lambda p: W.read_wfcommons(p)),
    ("t.tasks.yaml.gz", b"name: ", b"x", lambda p: W.tasks_file(p)),
    ("a.yaml.gz", b"name: ", b"x", lambda p: W.application_file(p)),
]


@pytest.mark.parametrize(("name", "head", "line", "read"), BOMBS, ids=[b[0] for b in BOMBS])
def test_gzip_bomb_is_refused_within_seconds(
    tmp_path: Path, name: str, head: bytes, line: bytes, read: Callable[[str], object]
) -> None:
    path = bomb(tmp_path / name, head, line)
    assert path.stat().st_size < 1 * MB  # 250 MB inside well under 1 MB
    message = refused(lambda: read(str(path)), name, "decompresses to more than")
    assert "bytes" in message


def test_yaml_bomb_stops_tbdse_validate(tmp_path: Path) -> None:
    """A 200 KB .yaml.gz holding a 200 MB scalar: the experiment file is refused at once."""
    path = bomb(tmp_path / "e.yaml.gz", b"name: ", b"x", 200 * MB)
    exe = Path(sys.executable).with_name("tbdse")
    start = time.monotonic()
    done = subprocess.run(
        [str(exe), "validate", str(path)], capture_output=True, text=True, timeout=60
    )
    assert time.monotonic() - start < 30
    assert done.returncode == 2, done.stderr
    assert "e.yaml.gz" in done.stderr and "8,388,608 bytes" in done.stderr
    assert "Traceback" not in done.stderr


def test_bombs_stay_far_below_a_gigabyte(tmp_path: Path) -> None:
    """Peak memory (VmHWM of a fresh process) reading every bomb above."""
    for name, head, line, _ in BOMBS:
        bomb(tmp_path / name, head, line)
    script = textwrap.dedent(
        """
        import resource, sys
        import tbdse as td
        W, G = td.workloads, td.workloads.graphs
        readers = [W.read_dot, W.read_matrix_market, G.read, G.read, G.read, W.read_edge_list,
                   W.read_stg, W.read_wfcommons, W.tasks_file, W.application_file]
        for read, name in zip(readers, sys.argv[1:], strict=True):
            try:
                read(name)
            except td.ConfigError:
                pass
            else:
                raise SystemExit(f"{name} accepted")
        # VmHWM: this process's own peak; ru_maxrss keeps the forking
        # parent's peak across exec (pytest's, which a long suite grows)
        hwm = [l for l in open("/proc/self/status") if l.startswith("VmHWM:")]
        print(int(hwm[0].split()[1]) // 1024 if hwm else
              resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)
        """
    )
    names = [str(tmp_path / b[0]) for b in BOMBS]
    done = subprocess.run(
        [sys.executable, "-c", script, *names], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    peak_mb = int(done.stdout.split()[-1])
    assert peak_mb < 1024, f"peak {peak_mb} MB"


def test_ratio_limit_keeps_ordinary_compressed_files(tmp_path: Path) -> None:
    """Real files compress 3-20 times: a 20 MB edge list of varied ids reads."""
    lines = b"".join(b"%d %d\n" % (i, (i * 7919) % 300_000) for i in range(300_000))
    path = tmp_path / "ok.txt.gz"
    path.write_bytes(gzip.compress(lines))
    assert G.read(str(path)).nodes == 300_000


@pytest.mark.parametrize(
    ("name", "text", "limit"),
    [
        ("big.dot", "digraph {\n" + "a -> b;\n" * 300_000 + "}\n", "1,000,000 tokens"),
        ("big.yaml", "name: " + "x" * (9 * MB) + "\n", "8,388,608 bytes"),
    ],
)
def test_plain_files_beyond_their_format_budget(
    tmp_path: Path, name: str, text: str, limit: str
) -> None:
    path = tmp_path / name
    path.write_text(text)
    read = W.read_dot if name.endswith(".dot") else W.tasks_file
    refused(lambda: read(str(path)), name, limit)


def test_deep_json_is_refused_without_recursion(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text('{"workflow": ' + "[" * 100_000 + "]" * 100_000 + "}")
    refused(lambda: W.read_wfcommons(str(path)), "deep.json", "100 levels")


def test_deep_yaml_flow_is_refused_before_parsing(tmp_path: Path) -> None:
    path = tmp_path / "deep.tasks.yaml"
    path.write_text("tasks: " + "[" * 50_000 + "]" * 50_000 + "\n")
    refused(lambda: W.tasks_file(str(path)), "deep.tasks.yaml", "nested more than 64")


@pytest.mark.parametrize(
    ("name", "text", "read"),
    [
        (
            "n.json",
            '{"workflow": {"tasks": [{"name": "a", "runtime": ' + "9" * 5000 + "}]}}",
            W.read_wfcommons,
        ),
        ("n.tasks.yaml", "name: x\ncost_jitter: " + "9" * 5000 + "\n", W.tasks_file),
    ],
)
def test_numbers_of_thousands_of_digits(
    tmp_path: Path, name: str, text: str, read: Callable[[str], object]
) -> None:
    path = tmp_path / name
    path.write_text(text)
    message = refused(lambda: read(str(path)), name)
    assert "9" * 100 not in message
