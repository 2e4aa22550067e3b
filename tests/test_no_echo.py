"""No excerpts of unknown files (issue 33, item 3).

An error about an input file names the file and line and says what was
expected, but quotes nothing of a file tbdse did not write: each reader is
given a file whose first line looks like a password hash (an /etc/shadow
line) and its message must not contain it, unless the user asked
(``td.show_input()``, ``tbdse --show-input``)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

import tbdse as td
from tbdse._util.excerpts import showing_input

W = td.workloads
G = td.workloads.graphs
SECRET = "root:$6$saltsalt$hashhashhash:19000:0:99999:7:::"
SHADOW = f"{SECRET}\ndaemon:*:19000:0:99999:7:::\n"
LEAK = "saltsalt"  # any piece of the hash


def _mm(body: str) -> str:
    return f"%%MatrixMarket matrix coordinate integer general\n{body}"


# (file name, contents, reader): each reader meets the secret where it reads text.
CASES: list[tuple[str, str, Callable[[str], object]]] = [
    ("s.mtx", SHADOW, G.read),  # C++ Matrix Market reader
    ("w.mtx", SHADOW, lambda p: G.read(p, weight_scale=1.0)),  # Python one
    ("s.txt", SHADOW, G.read),  # C++ edge list
    ("s.gr", SHADOW, G.read),  # C++ DIMACS
    ("v.mtx", _mm(f"2 2 1\n2 1 {SECRET}\n"), lambda p: G.read(p, weight_scale=1.0)),
    ("c.mtx", _mm(f"2 2 1\n2 1 {SECRET}\n"), G.read),
    ("t.mtx", SHADOW, W.read_matrix_market),
    ("i.mtx", _mm(f"2 2 1\n{SECRET} 1 1\n"), W.read_matrix_market),
    ("l.txt", SHADOW, W.read_edge_list),
    ("s.stg", SHADOW, W.read_stg),
    ("s.dot", f"{SECRET}\n", W.read_dot),
    ("n.dot", f'"{SECRET}" -> b\n', W.read_dot),
    ("c.dot", f'digraph {{ a [cost="{SECRET}"] }}\n', W.read_dot),
    ("s.json", SHADOW, W.read_wfcommons),
    ("r.json", f'{{"workflow": {{"tasks": [{{"name": "a", "runtime": "{SECRET}"}}]}}}}', None),
    (
        "p.json",
        f'{{"workflow": {{"tasks": [{{"name": "a", "runtime": 1, "parents": ["{SECRET}"]}}]}}}}',
        None,
    ),
    ("s.tasks.yaml", SHADOW, W.tasks_file),
    (
        "k.tasks.yaml",
        f'arrays: {{a: 4}}\nkinds: {{k: {{cost: 1}}}}\ntasks: ["{SECRET}"]\n',
        W.tasks_file,
    ),
    ("s.app.yaml", SHADOW, W.application_file),
    ("c.app.yaml", f'commands: ["{SECRET}"]\n', W.application_file),
    ("s.cfg.yaml", SHADOW, W.cfg_file),
    ("s.yaml", SHADOW, td.experiment.load),
]
CASES = [(n, t, r if r is not None else W.read_wfcommons) for n, t, r in CASES]
# Messages that have no excerpt to give: a lone '$', JSON syntax, a second line's key.
QUOTES_NOTHING = {"s.dot", "s.json", "s.cfg.yaml"}


@pytest.mark.parametrize(("name", "text", "read"), CASES, ids=[c[0] for c in CASES])
def test_messages_quote_no_input_by_default(
    tmp_path: Path, name: str, text: str, read: Callable[[str], object]
) -> None:
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(td.ConfigError) as info:
        read(str(path))
    message = str(info.value)
    assert name in message  # the file is named
    assert LEAK not in message, message
    with td.show_input(), pytest.raises(td.ConfigError) as shown:
        read(str(path))
    # What --show-input is for (where the message had something to quote).
    assert (LEAK in str(shown.value)) == (name not in QUOTES_NOTHING), str(shown.value)


def test_gzip_input_quotes_nothing(tmp_path: Path) -> None:
    import gzip

    path = tmp_path / "s.mtx.gz"
    path.write_bytes(gzip.compress(SHADOW.encode()))
    with pytest.raises(td.ConfigError) as info:
        G.read(str(path))
    assert "s.mtx.gz:1:" in str(info.value) and LEAK not in str(info.value)


def test_show_input_is_restored() -> None:
    with td.show_input():
        with td.show_input(False):
            assert not showing_input()
        assert showing_input()
    assert not showing_input()


def _tbdse(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    exe = Path(sys.executable).with_name("tbdse")
    return subprocess.run([str(exe), *args], capture_output=True, text=True, timeout=120, cwd=cwd)


@pytest.mark.parametrize("where", ["before", "after"])
def test_cli_validate_quotes_only_with_show_input(tmp_path: Path, where: str) -> None:
    (tmp_path / "shadow").write_text(SHADOW)
    (tmp_path / "e.yaml").write_text(
        "name: probe\ngpu: gtx480\nscheme: global_barrier\n"
        "workload: {file: shadow, format: edge_list}\n"
    )
    for target in ("shadow", "e.yaml"):
        plain = _tbdse("validate", target, cwd=tmp_path)
        assert plain.returncode == 2 and "shadow" in plain.stderr, plain.stderr
        assert LEAK not in plain.stderr, plain.stderr
        flag = (
            ["--show-input", "validate", target]
            if where == "before"
            else ["validate", target, "--show-input"]
        )
        shown = _tbdse(*flag, cwd=tmp_path)
        assert shown.returncode == 2 and LEAK in shown.stderr, shown.stderr


def test_plot_of_a_tampered_resolved_yaml_quotes_nothing(tmp_path: Path) -> None:
    """resolved.yaml is tbdse's, but a tampered one may name any file: its reader
    says what is wrong with that file without quoting it."""
    (tmp_path / "shadow").write_text(SHADOW)
    out = tmp_path / "out"
    out.mkdir()
    (out / "resolved.yaml").write_text(
        "name: probe\ngpu: gtx480\nscheme: global_barrier\n"
        f"workload: {{file: {tmp_path / 'shadow'}, format: edge_list}}\n"
    )
    done = _tbdse("plot", str(out), cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert "shadow" in done.stderr and LEAK not in done.stderr, done.stderr
