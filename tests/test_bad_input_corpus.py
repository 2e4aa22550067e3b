"""A corpus of bad inputs, generated: experiment files (wrong types and values
for every key, other encodings, binary data, YAML bombs), graph files and API
calls.  Every one must end in a ConfigError (`tbdse validate`: exit 2, one
message, no traceback) within a few seconds: never another exception, never
a hang."""

from __future__ import annotations

import copy
import math
import signal
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

import tbdse as td
from tbdse import experiment
from tbdse.experiment import cli

SECONDS = 20  # per case; every case here takes well under one

VALID: dict[str, Any] = {
    "name": "corpus",
    "seed": 3,
    "replicates": 2,
    "gpu": {"preset": "gtx480", "sms": 4},
    "workload": {
        "generator": "wavefront",
        "rows": 4,
        "cols": 4,
        "cost": {"model": "lognormal", "mean": 500, "sigma": 0.2},
    },
    "schemes": ["global_barrier", {"name": "wireframe", "node_buffer": 64}],
    "baseline": "global_barrier",
    "grid": {"gpu.sms": [2, 4], "level_bound": [2, 3]},
    "outputs": {
        "tables": ["csv"],
        "plots": [{"kind": "line", "x": "gpu.sms", "y": "speedup", "file": "s.png"}],
    },
}

# (key path, bad values): each value replaces the valid one at that path.
BAD_VALUES: list[tuple[tuple[Any, ...], list[Any]]] = [
    (("seed",), [-1, 1.5, "seven", [1], {"a": 1}, True, 2**64, math.nan]),
    (("replicates",), [0, -3, 2.5, "two", None, [2], 2**31, 2147483647]),
    (("threads",), [0, -1, 5000, "all", 1.5]),
    (("on_error",), ["ignore", 1, None, True]),
    (("expect_failures",), ["yes", 1]),
    (("gpu",), ["gtx4800", 7, [], {"preset": "nope"}, {"sms": -1}, {"smss": 4}]),
    (("gpu", "sms"), [0, -4, "four", 2.5, None, 2**40]),
    (("gpu", "clock_mhz"), [0, -700, "fast", math.inf]),
    (("workload",), ["wavefront", 3, [], {"generator": "wavefrnt"}, {"rows": 4}]),
    (("workload", "rows"), [0, -2, "four", 1.5, None, 2**40]),
    (("workload", "cost"), ["cheap", -5, {"model": "gamma"}, {"model": "lognormal", "mena": 1}]),
    (("workload", "cost", "mean"), [-500, "x", None, math.nan]),
    (("workload", "cost", "sigma"), [-0.2, "wide"]),
    (("schemes",), [[], "nope", [{"name": "wireframe", "polcy": "lrr"}], [{"node_buffer": 4}], 5]),
    (("schemes", 1, "node_buffer"), [-1, 0, 1.5, "big", "automatic"]),
    (("baseline",), ["baselin", 4, {"name": "cdp", "x": 1}]),
    (("grid",), ["sms", [1, 2], {"frobnicate": [1, 2]}, {"gpu.sms": []}, {"gpu.sms": 4}]),
    (("grid", "gpu.sms"), [[1, 1.0], [1, "x"], [0], [math.nan]]),
    (("grid", "level_bound"), [[-1], ["x"], [2, 2]]),
    (("outputs",), ["csv", {"tables": ["xlsx"]}, {"plot": []}]),
    (("outputs", "plots", 0, "kind"), ["pie", 3]),
    (("outputs", "plots", 0, "y"), ["scheme", "sppedup", "workload"]),
    (("outputs", "plots", 0, "file"), ["s.jpg", "/abs.png", "../up.png", 5]),
]

RAW_FILES: dict[str, bytes] = {
    "latin-1": "name: caf\xe9\n".encode("latin-1"),
    "utf-16": "name: x\nseed: 1\n".encode("utf-16"),
    "utf-32": "name: x\n".encode("utf-32"),
    "nul byte": b"name: x\x00\n",
    "binary": bytes(range(256)) * 4,
    "control character": b"name: x\x07\n",
    "empty": b"",
    "comment only": b"# nothing\n",
    "top-level list": b"- a\n- b\n",
    "top-level scalar": b"42\n",
    "python tag": b"name: !!python/name:os.system x\n",
    "python object tag": b"seed: !!python/object/apply:os.system [echo]\n",
    "binary tag": b"name: !!binary aGVsbG8=\n",
    "custom tag": b"name: !mine x\n",
    "set tag": b"name: !!set {a: null}\n",
    "merge key": b"base: &b {sms: 4}\ngpu: {<<: *b}\n",
    "duplicate key": b"name: a\nname: b\n",
    "unclosed": b"name: [a, b\n",
    "bad indent": b"name: a\n  seed: 1\n",
    "alias bomb": (
        b"a: &a [x,x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
        b"c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"
        b"e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e,*e]\n"
        b"g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f,*f]\nh: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g,*g]\n"
    ),
    "recursive alias": b"a: &x [*x]\n",
    "deep nesting": b"a: " + b"[" * 20000 + b"]" * 20000 + b"\n",
    "deep mappings": b"a: " + b"{b: " * 5000 + b"1" + b"}" * 5000 + b"\n",
}

EDGE_LISTS: dict[str, bytes] = {
    "words": b"a b\n",
    "three ids": b"0 1 2\n",
    "float ids": b"0.5 1\n",
    "negative id": b"0 -1\n",
    "self loop": b"0 1\n1 1\n",
    "cycle": b"0 1\n1 2\n2 0\n",
    "huge id": b"0 2000000000\n",
    "beyond 32 bits": b"0 4294967296\n",
    "binary": bytes(range(256)),
    "utf-16": "0 1\n".encode("utf-16"),
    "only comments": b"# nothing\n",
}

STG_FILES: dict[str, bytes] = {
    "empty": b"",
    "words": b"three\n",
    "truncated": b"2\n0 0 0\n1 5 1\n",
    "negative cost": b"1\n0 0 0\n1 -5 1 0\n2 0 1 1\n",
    "missing predecessor": b"1\n0 0 0\n1 5 1 7\n2 0 1 1\n",
    "wrong ids": b"1\n0 0 0\n5 5 1 0\n2 0 1 5\n",
    "cycle": b"2\n0 0 0\n1 5 2 0 2\n2 5 1 1\n3 0 2 1 2\n",
    "latin-1": "1\n0 0 0\n1 5 1 0 # caf\xe9\n2 0 1 1\n".encode("latin-1"),
}


def _gpu() -> td.Gpu:
    return td.gpus.gtx480()


def _wl() -> td.Workload:
    return td.workloads.wavefront(3, 3)


API_CALLS: dict[str, Callable[[], Any]] = {
    "simulate timeline='yes'": lambda: td.simulate(_wl(), _gpu(), "cdp", timeline="yes"),
    "simulate replicate -1": lambda: td.simulate(_wl(), _gpu(), "cdp", replicate=-1),
    "simulate list of GPUs": lambda: td.simulate(_wl(), [_gpu(), _gpu()], "cdp"),
    "simulate unknown scheme": lambda: td.simulate(_wl(), _gpu(), "wirefame"),
    "simulate workload is a string": lambda: td.simulate("wavefront", _gpu(), "cdp"),
    "sweep replicates 2^31-1": lambda: td.sweep(_wl(), _gpu(), "cdp", replicates=2**31 - 1),
    "sweep replicates 0": lambda: td.sweep(_wl(), _gpu(), "cdp", replicates=0),
    "sweep replicates '3'": lambda: td.sweep(_wl(), _gpu(), "cdp", replicates="3"),
    "sweep seed -1": lambda: td.sweep(_wl(), _gpu(), "cdp", seed=-1),
    "sweep threads 0": lambda: td.sweep(_wl(), _gpu(), "cdp", threads=0),
    "sweep progress 'no'": lambda: td.sweep(_wl(), _gpu(), "cdp", progress="no"),
    "sweep on_error 'skip'": lambda: td.sweep(_wl(), _gpu(), "cdp", on_error="skip"),
    "sweep checkpoint 5": lambda: td.sweep(_wl(), _gpu(), "cdp", checkpoint=5),
    "sweep grid of 10^10 runs": lambda: td.sweep(
        _wl(),
        _gpu(),
        "cdp",
        grid={
            f"gpu.{f}": list(range(1, 101))
            for f in ("sms", "tb_slots", "mem_latency", "threads_per_sm", "regs_per_sm")
        },
    ),
    "sweep duplicate grid value": lambda: td.sweep(
        _wl(), _gpu(), "cdp", grid={"cost.cycles": [1000, 1000.0]}
    ),
    "sweep unknown axis": lambda: td.sweep(_wl(), _gpu(), "cdp", grid={"frobnicate": [1]}),
    "sweep axis not a list": lambda: td.sweep(_wl(), _gpu(), "cdp", grid={"sms": 4}),
    "sweep zip lengths differ": lambda: td.sweep(
        _wl(), _gpu(), "cdp", zip={"sms": [1, 2], "tb_slots": [1]}
    ),
    "sweep same scheme twice": lambda: td.sweep(_wl(), _gpu(), ["cdp", "cdp"]),
    "sweep no schemes": lambda: td.sweep(_wl(), _gpu(), []),
    "chain 2^31": lambda: td.workloads.chain(2**31),
    "chain 2e9 (memory)": lambda: td.workloads.chain(2_000_000_000),
    "wavefront 40000^2 (memory)": lambda: td.workloads.wavefront(40000, 40000),
    "wavefront 0 rows": lambda: td.workloads.wavefront(0, 5),
    "wavefront rows 'x'": lambda: td.workloads.wavefront("x", 5),
    "edges naming node 2e9": lambda: td.workloads.from_edges([(0, 2_000_000_000)]),
    "edges with a cycle": lambda: td.workloads.from_edges([(0, 1), (1, 0)]),
    "edges not pairs": lambda: td.workloads.from_edges([(0, 1, 2)]),
    "gpu sms -1": lambda: td.gpus.custom(sms=-1),
    "gpu unknown field": lambda: td.gpus.gtx480(smz=4),
    "lognormal mean -1": lambda: td.cost.lognormal(-1, 0.2),
    "uniform low > high": lambda: td.cost.uniform(10, 5),
    "scheme unknown param": lambda: td.Scheme("wireframe", polcy="lrr"),
    "scheme bad choice": lambda: td.Scheme("wireframe", policy="fast"),
    "application range lo > hi": lambda: _reversed_range(),
    "plot line y not numeric": lambda: td.plot.line(
        td.sweep(_wl(), _gpu(), "cdp"), x="sms", y="scheme"
    ),
    "plot line averaging": lambda: td.plot.line(
        td.sweep(_wl(), _gpu(), "cdp", grid={"sms": [1, 2], "tb_slots": [1, 2]}),
        x="sms",
        hue="label",
    ),
}


def _reversed_range() -> None:
    from tbdse.workloads import Application, bx

    app = Application("x")
    a, b = app.malloc("A", 1024), app.malloc("B", 1024)
    app.launch("k", 4, reads=[a[256 * bx + 10 : 256 * bx]], writes=[b[256 * bx : 256 * bx + 256]])


def _set(data: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    out = copy.deepcopy(data)
    node: Any = out
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value
    return out


def yaml_cases() -> Iterator[Any]:
    for path, values in BAD_VALUES:
        for value in values:
            text = yaml.safe_dump(_set(VALID, path, value), sort_keys=False).encode()
            yield pytest.param(text, id=f"{'.'.join(map(str, path))}={value!r}"[:60])
    for name, raw in RAW_FILES.items():
        yield pytest.param(raw, id=f"file: {name}")


class HangError(Exception):
    pass


@pytest.fixture(autouse=True)
def time_limit() -> Iterator[None]:
    def fire(signum: int, frame: Any) -> None:
        raise HangError(f"no answer within {SECONDS} s")

    previous = signal.signal(signal.SIGALRM, fire)
    signal.alarm(SECONDS)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def test_the_corpus_is_large() -> None:
    count = sum(1 for _ in yaml_cases()) + len(EDGE_LISTS) + len(STG_FILES) + len(API_CALLS)
    assert count >= 100, count


def test_the_valid_file_is_valid(tmp_path: Path) -> None:
    path = tmp_path / "ok.yaml"
    path.write_text(yaml.safe_dump(VALID, sort_keys=False))
    assert experiment.count_runs(experiment.load(path)) == 2 * 2 * 2 + 2 * 2


@pytest.mark.parametrize("raw", list(yaml_cases()))
def test_bad_experiment_files(
    raw: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.yaml"
    path.write_bytes(raw)
    with pytest.raises(td.ConfigError):
        experiment.load(path)
    assert cli.main(["validate", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "Traceback" not in err and str(path) in err


@pytest.mark.parametrize("name", list(EDGE_LISTS))
def test_bad_edge_lists(name: str, tmp_path: Path) -> None:
    path = tmp_path / "g.edges"
    path.write_bytes(EDGE_LISTS[name])
    with pytest.raises(td.ConfigError):
        td.workloads.read_edge_list(str(path))


@pytest.mark.parametrize("name", list(STG_FILES))
def test_bad_stg_files(name: str, tmp_path: Path) -> None:
    path = tmp_path / "g.stg"
    path.write_bytes(STG_FILES[name])
    with pytest.raises(td.ConfigError):
        td.workloads.read_stg(str(path))


@pytest.mark.parametrize("name", list(API_CALLS))
def test_bad_api_calls(name: str) -> None:
    with pytest.raises(td.ConfigError):
        API_CALLS[name]()
