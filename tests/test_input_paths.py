"""Issue 21, what tbdse reads: every input path is a regular file within the
size limit (and, with an input root, below that folder), and errors quote at
most a short, escaped excerpt of a file, never the file.  Also the smaller
input gaps the reliability probe found (plot file names, generator values,
a ``path`` without ``graph: file``, GPU axes no scheme reads, API misuse
raising TypeError, unclear STG messages, non-text names)."""

from __future__ import annotations

import os
import pickle
import re
import signal
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
import yaml

import tbdse as td
from tbdse import experiment
from tbdse.experiment import cli
from tbdse.io import inputs as _inputs

W = td.workloads
SECONDS = 20  # per test: a FIFO that blocks, or /dev/zero read to the end, would hang


@pytest.fixture(autouse=True)
def time_limit() -> Iterator[None]:
    def fire(signum: int, frame: Any) -> None:
        raise TimeoutError(f"no answer within {SECONDS} s")

    previous = signal.signal(signal.SIGALRM, fire)
    signal.alarm(SECONDS)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def raises(match: str) -> Any:
    return pytest.raises(td.ConfigError, match=re.escape(match))


def write_experiment(folder: Path, workload: dict[str, Any], scheme: str = "cdp") -> Path:
    path = folder / "exp.yaml"
    path.write_text(yaml.safe_dump({"gpu": "gtx480", "workload": workload, "scheme": scheme}))
    return path


# ------------------------------------------------------------------- special files
def special(tmp_path: Path, kind: str) -> tuple[Path, str]:
    """A path of ``kind`` and the words its refusal uses."""
    if kind == "dev-zero":
        return Path("/dev/zero"), "is a character device, not a regular file"
    if kind == "fifo":
        path = tmp_path / "pipe"
        os.mkfifo(path)
        return path, "is a FIFO (named pipe), not a regular file"
    if kind == "directory":
        (tmp_path / "folder").mkdir()
        return tmp_path / "folder", "is a directory, not a regular file"
    link = tmp_path / "zero-link"
    link.symlink_to("/dev/zero")
    return link, "is a character device, not a regular file"


KINDS = ["dev-zero", "fifo", "directory", "symlink-to-dev-zero"]
FILE_FORMATS = ["stg", "edge_list", "application", "tasks", "cfg"]


@pytest.mark.parametrize("kind", KINDS)
def test_a_graph_file_that_is_not_a_regular_file_is_refused_at_validate(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, words = special(tmp_path, kind)
    exp = write_experiment(
        tmp_path, {"generator": "bfs", "graph": "file", "path": str(path)}, "hwwl"
    )
    with raises(words):
        experiment.load(exp)
    assert cli.main(["validate", str(exp)]) == 2  # used to block (FIFO) or grow to 2 GB
    assert "Traceback" not in capsys.readouterr().err


@pytest.mark.parametrize("fmt", FILE_FORMATS)
@pytest.mark.parametrize("kind", KINDS)
def test_every_file_format_refuses_special_files(kind: str, fmt: str, tmp_path: Path) -> None:
    path, words = special(tmp_path, kind)
    with raises(words):
        experiment.load(write_experiment(tmp_path, {"file": str(path), "format": fmt}))


@pytest.mark.parametrize(
    "read",
    [
        W.graphs.read,
        W.graphs.read_dimacs,
        W.graphs.read_matrix_market,
        W.graphs.read_edge_list,
        W.read_edge_list,
        W.read_stg,
        W.tasks_file,
        W.application_file,
        W.cfg_file,
        experiment.load,
    ],
)
@pytest.mark.parametrize("kind", KINDS)
def test_python_readers_refuse_special_files(kind: str, read: Any, tmp_path: Path) -> None:
    path, words = special(tmp_path, kind)
    with raises(words):
        read(str(path))


def test_a_file_over_the_size_limit_is_refused_before_reading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_inputs, "MAX_INPUT_BYTES", 64)
    big = tmp_path / "big.edges"
    big.write_text("0 1\n" * 100)
    with raises("big.edges: the graph file is 400 bytes; inputs are limited to 64 bytes"):
        W.read_edge_list(str(big))
    with raises("the graph file is 400 bytes"):
        W.graphs.read_edge_list(big)  # the C++ reader's file is checked first
    with raises("inputs are limited to 64 bytes"):
        experiment.load(write_experiment(tmp_path, {"file": "big.edges"}))


def test_a_path_with_a_nul_character_is_a_config_error() -> None:
    with raises("a file name cannot contain a NUL character"):
        W.read_edge_list("a\x00b")
    with raises("a file name cannot contain a NUL character"):
        W.graphs.read("a\x00b.gr")


# ---------------------------------------------------------------------- input root
def test_input_root_confines_every_path_an_experiment_names(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "g.edges").write_text("0 1\n1 2\n")
    outside = tmp_path / "outside.edges"
    outside.write_text("0 1\n")
    (root / "escape.edges").symlink_to(outside)
    ok = write_experiment(root, {"file": "g.edges"})
    loaded = experiment.load(ok, input_root=root)
    assert loaded.input_root == root.resolve()
    for name in (str(outside), "../outside.edges", "escape.edges", "/etc/passwd"):
        exp = write_experiment(root, {"file": name})
        with raises(f"lies outside the input root {root.resolve()}"):
            experiment.load(exp, input_root=root)
        experiment.load(exp) if name != "/etc/passwd" else None  # no root: read as before
    bfs = write_experiment(
        root, {"generator": "bfs", "graph": "file", "path": str(outside)}, "hwwl"
    )
    with raises("the graph file lies outside the input root"):
        experiment.load(bfs, input_root=root)


def test_input_root_must_be_a_folder(tmp_path: Path) -> None:
    exp = write_experiment(tmp_path, {"generator": "chain", "n": 2})
    with raises("no such folder"):
        experiment.load(exp, input_root=tmp_path / "missing")
    with raises("is not a folder"):
        experiment.load(exp, input_root=exp)


def test_input_root_covers_files_a_sweep_reads_again(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.edges").write_text("0 1\n")
    outside = tmp_path / "b.edges"
    outside.write_text("0 1\n1 2\n")
    exp = root / "exp.yaml"
    exp.write_text(
        yaml.safe_dump(
            {
                "gpu": "gtx480",
                "workload": {"file": "a.edges"},
                "scheme": "cdp",
                "grid": {"workload.path": [str(root / "a.edges"), str(outside)]},
            }
        )
    )
    with raises("lies outside the input root"):
        experiment.load(exp, input_root=root)
    assert experiment.count_runs(experiment.load(exp)) == 2


# --------------------------------------------------------------- short excerpts only
SECRET = "root:x:0:0:root:/root:/bin/bash\n" + "".join(
    f"user{i}:x:{i}:{i}:secret-{i}:/home/u{i}:/bin/sh\n" for i in range(200)
)


@pytest.mark.parametrize("fmt", FILE_FORMATS)
def test_errors_quote_a_short_excerpt_never_the_file(fmt: str, tmp_path: Path) -> None:
    (tmp_path / "passwd").write_text(SECRET)
    with pytest.raises(td.ConfigError) as info:
        experiment.load(write_experiment(tmp_path, {"file": "passwd", "format": fmt}))
    message = str(info.value)
    assert "secret-1" not in message and "user1:" not in message
    # the header line of the problem list and one line per problem: no file content lines
    assert all(len(line) < 400 for line in message.splitlines()), message


@pytest.mark.parametrize(
    ("content", "fmt"),
    [
        ("x" * 10_000 + "\n", "edge_list"),
        ("1\n0 0 0\n" + "y" * 10_000 + "\n", "stg"),
        ("- " + "z" * 10_000 + "\n", "tasks"),
        ('"' + "w" * 10_000 + '\\x07"\n', "application"),
    ],
)
def test_one_long_line_is_cut_and_escaped(content: str, fmt: str, tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text(content)
    with pytest.raises(td.ConfigError) as info:
        experiment.load(write_experiment(tmp_path, {"file": "f.txt", "format": fmt}))
    assert len(str(info.value)) < 600, str(info.value)
    assert "\x07" not in str(info.value)


def test_excerpt_escapes_and_cuts() -> None:
    assert _inputs.excerpt("a\nb\x00") == "'a\\nb\\x00'"
    long = _inputs.excerpt("q" * 10**6)
    assert len(long) <= _inputs.EXCERPT_CHARS and long.endswith("...")
    assert _inputs.excerpt([1, 2]) == "[1, 2]"


# ------------------------------------------------------------------- smaller gaps
@pytest.mark.parametrize(
    ("file", "why"),
    [
        ("a\x00b.png", "control character or NUL"),
        ("a\nb.png", "control character or NUL"),
        ("", "not a non-empty name"),
        ("a/../../b.png", "'..' folder part"),
        ("a//b.png", "empty, '.' or '..' folder part"),
        ("a\\b.png", "backslash"),
        (".png", "no name before the suffix"),
    ],
)
def test_plot_file_names_are_checked_at_validate(file: str, why: str, tmp_path: Path) -> None:
    path = tmp_path / "exp.yaml"
    spec = {
        "gpu": "gtx480",
        "workload": {"generator": "chain", "n": 2},
        "scheme": "cdp",
        "outputs": {"plots": [{"kind": "bar", "x": "scheme", "y": "makespan_us", "file": file}]},
    }
    path.write_text(yaml.safe_dump(spec))
    with raises(why):
        experiment.load(path)


@pytest.mark.parametrize("param", ["alu", "special", "ldst", "live_values"])
def test_divergent_cfg_refuses_negative_counts(param: str) -> None:
    with raises(f"divergent_cfg: '{param}' must be a whole number in [0,"):
        W.divergent_cfg(blocks=4, threads=32, **{param: -1})
    with raises("'mem_intensity' must be in [0, 1]"):
        W.divergent_cfg(blocks=4, threads=32, mem_intensity=1.5)


def test_path_without_graph_file_is_an_error(tmp_path: Path) -> None:
    with raises("bfs: 'path' is only read with graph 'file' (graph is 'rmat')"):
        W.bfs(path="g.gr")
    with raises("sssp: 'path' is only read with graph 'file' (graph is 'grid')"):
        W.sssp(graph="grid", rows=2, cols=2, path="g.gr")
    exp = write_experiment(tmp_path, {"generator": "bfs", "nodes": 64, "path": "g.gr"}, "hwwl")
    with raises("'path' is only read with graph 'file'"):
        experiment.load(exp)


def test_a_gpu_axis_no_scheme_reads_is_an_error() -> None:
    wl = W.divergent_cfg(blocks=4, threads=64)
    with raises("sweep axis 'gpu.sms' changes nothing: no scheme of the sweep (vgiw) reads"):
        td.sweep(wl, "gtx480", "vgiw", grid={"gpu.sms": [1, 2]})
    with raises("sweep axis 'gpu.lanes' changes nothing"):
        td.sweep(W.chain(2, cost=10), "gtx480", "cdp", grid={"gpu.lanes": [16, 32]})
    # simt reads lanes: the axis applies (vgiw beside it simply repeats its run).
    df = td.sweep(wl, "gtx480", ["simt", "vgiw"], grid={"gpu.lanes": [16, 32]})
    assert len(df) == 4
    assert td.schemes.gpu_fields_read("hwwl") >= {"sms", "lanes", "l1_bytes", "dram_latency"}
    assert "mem_latency" not in td.schemes.gpu_fields_read("hwwl")
    assert "lanes" not in td.schemes.gpu_fields_read("wireframe")
    # Found by tests/test_knobs_move.py (issue 29): lanes are the worklist
    # banks per core, which the software worklists do not have; no store of
    # VGIW's machines meets a line a load brought in, where l1_write acts.
    bfs = W.bfs(graph="rmat", nodes=64, degree=4, seed=1)
    with raises("sweep axis 'gpu.lanes' changes nothing: no scheme of the sweep (data, topology)"):
        td.sweep(bfs, "gtx480", ["data", "topology"], grid={"gpu.lanes": [16, 32]})
    with raises(
        "sweep axis 'gpu.l1_write' changes nothing: no scheme of the sweep (simt, sgmf, vgiw)"
    ):
        td.sweep(
            wl,
            "gtx480",
            ["simt", "sgmf", "vgiw"],
            grid={"gpu.l1_write": ["write_evict", "write_through"]},
        )


def test_a_gpu_field_no_scheme_reads_is_an_error(tmp_path: Path) -> None:
    """A "magic memory" study written the obvious way: the worklist machine
    times memory through the hierarchy's fields, so mem_latency set on its GPU
    would change nothing; refused (was accepted and ignored), in Python and YAML."""
    wl = W.lonestar("bh", 256)
    with raises("GPU 'gpgpusim_hwwl' sets 'mem_latency', which no scheme of this run (hwwl)"):
        td.simulate(wl, td.gpus.gpgpusim_hwwl(mem_latency=1), td.Scheme("hwwl"))
    with raises("set a field they read: clock_mhz, dram_channel_gbps"):
        td.sweep(wl, td.gpus.gpgpusim_hwwl().replace(mem_bandwidth=1.0), "hwwl")
    with raises("sets 'lanes', which no scheme of this run (cdp)"):
        td.simulate(W.chain(2, cost=10), td.gpus.custom("c", lanes=64), td.Scheme("cdp"))
    # A field the scheme reads is fine, and so is one that some scheme of a sweep reads.
    slow_dram = td.gpus.gpgpusim_hwwl(dram_latency=50)
    assert td.simulate(wl, slow_dram, td.Scheme("hwwl")).makespan_us > 0
    cfg = W.divergent_cfg(blocks=4, threads=64)
    assert len(td.sweep(cfg, td.gpus.gtx480(lanes=16), ["simt", "vgiw"])) == 2
    # A preset's own values are not settings; pickling keeps what was set.
    assert td.gpus.gtx480().explicit == frozenset()
    assert pickle.loads(pickle.dumps(td.gpus.gtx480(sms=3))).explicit == {"sms"}
    exp = write_experiment(tmp_path, {"generator": "bfs", "nodes": 64}, "hwwl")
    text = exp.read_text().replace("gpu: gtx480", "gpu: {preset: gtx480, mem_latency: 1}")
    exp.write_text(text)
    with raises("sets 'mem_latency', which no scheme of this run (hwwl) reads"):
        experiment.load(exp).run()


def _frame() -> pd.DataFrame:
    return td.sweep(W.chain(2, cost=10), "gtx480", "cdp", grid={"sms": [1, 2]})


MISUSE: dict[str, Callable[[], Any]] = {
    "Scheme(list)": lambda: td.Scheme([1]),  # type: ignore[arg-type]
    "Scheme(dict)": lambda: td.schemes.as_scheme({"name": {"a": 1}}),
    "make(dict)": lambda: W.make({"a": 1}),  # type: ignore[arg-type]
    "sweep grid list": lambda: td.sweep(W.chain(2), "gtx480", "cdp", grid=[1]),  # type: ignore[arg-type]
    "sweep zip str": lambda: td.sweep(W.chain(2), "gtx480", "cdp", zip="sms"),  # type: ignore[arg-type]
    "from_dict(None)": lambda: experiment.from_dict(None),  # type: ignore[arg-type]
    "cfg_kernel(None)": lambda: W.cfg_kernel(None, 4),  # type: ignore[arg-type]
    "cfg_kernel paths": lambda: W.cfg_kernel([{}], 4, paths=[1]),  # type: ignore[list-item]
    "cfg_kernel name": lambda: W.cfg_kernel([{}], 4, name=[1]),  # type: ignore[arg-type]
    "divergent_cfg name": lambda: W.divergent_cfg(blocks=2, threads=4, name=[1]),
    "Application reads None": lambda: _app_reads(None),
    "DepLinks(None)": lambda: W.DepLinks(None),  # type: ignore[arg-type]
    "with_kernels(None)": lambda: W.chain(2).with_kernels(None),  # type: ignore[arg-type]
    "plot hue 1": lambda: td.plot.line(_frame(), x="sms", hue=1),  # type: ignore[arg-type]
    "plot x list": lambda: td.plot.line(_frame(), x=["sms"]),  # type: ignore[arg-type]
    "plot df None": lambda: td.plot.bar(None, x="scheme"),  # type: ignore[arg-type]
    "plot ax 1": lambda: td.plot.line(_frame(), x="sms", ax=1),  # type: ignore[arg-type]
    "heatmap cmap": lambda: td.plot.heatmap(
        _frame(), x="sms", y="scheme", value="makespan_us", cmap="nope"
    ),
    "failure_summary(None)": lambda: td.results.failure_summary(None),  # type: ignore[arg-type]
}


def _app_reads(reads: Any) -> Any:
    app = W.Application("x")
    app.malloc("A", 64)
    return app.launch("k", 1, reads=reads)


@pytest.mark.parametrize("name", list(MISUSE))
def test_api_misuse_is_a_config_error_not_a_type_error(name: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    with pytest.raises(td.ConfigError):
        MISUSE[name]()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"1\n0 0 0\n1 x 1 0\n2 0 1 1\n", "g.stg:3: STG processing time: expected a whole number"),
        (b"1 2 3\n0 0 0\n", "g.stg:1: STG header: expected 'n' (standard layout) or"),
        (b"1\n0 0 0\n1 5 -1\n2 0 1 1\n", "g.stg:3: STG predecessor count: expected a whole"),
        (
            b"1\n0 0 0\n1 5 4 0\n",
            "STG task 1 lists 4 predecessors, but only 1 more number(s) follow",
        ),
        (b"1\n0 0 0\n3 5 1 0\n2 0 1 1\n", "g.stg:3: STG task id 3: ids must run 0..2 in order"),
        (b"1\n0 0 0\n1 5 1 7\n2 0 1 1\n", "g.stg:3: STG task 1 names predecessor 7; task ids"),
    ],
)
def test_stg_messages_name_file_line_and_field(
    content: bytes, message: str, tmp_path: Path
) -> None:
    (tmp_path / "g.stg").write_bytes(content)
    with raises(message):
        W.read_stg(str(tmp_path / "g.stg"))


@pytest.mark.parametrize("value", [-1, 0, 1e13])
def test_cycles_per_unit_message_names_it(value: float, stg_dir: Path) -> None:
    with raises("stg: 'cycles_per_unit' (cycles per STG time unit) must be > 0"):
        W.read_stg(stg_dir / "rand0000.stg", cycles_per_unit=value)


@pytest.mark.parametrize(
    ("key", "value"), [("name", [1, 2]), ("name", ""), ("description", {"a": 1})]
)
def test_name_and_description_must_be_text(key: str, value: Any, tmp_path: Path) -> None:
    path = tmp_path / "exp.yaml"
    spec = {
        key: value,
        "gpu": "gtx480",
        "workload": {"generator": "chain", "n": 2},
        "scheme": "cdp",
    }
    path.write_text(yaml.safe_dump(spec))
    with raises(f"{key}: must be"):
        experiment.load(path)


def test_unknown_keys_and_yaml_problems_stay_on_one_short_line(tmp_path: Path) -> None:
    path = tmp_path / "exp.yaml"
    path.write_text('"line one\\nline two": 1\n"' + "k" * 900 + '": 2\ngpu: gtx480\n')
    with pytest.raises(td.ConfigError) as info:
        experiment.load(path)
    lines = str(info.value).splitlines()
    # A key that is no short name is described, not quoted (--show-input quotes it).
    assert "unknown key a text of 17 characters (not shown" in str(info.value)
    assert "line one" not in str(info.value)
    assert "k" * 100 not in str(info.value)  # the long key is cut, in the path and the message
    assert all(len(line) < 600 for line in lines) and not any(ln == "line two'" for ln in lines)
    path.write_text("a: !" + "t" * 5000 + " x\n")
    with pytest.raises(td.ConfigError) as info:
        experiment.load(path)
    assert len(str(info.value)) < 400
