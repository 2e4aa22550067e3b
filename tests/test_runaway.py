"""Runs that run away (issue 21): Ctrl-C inside one long simulation, the
per-run time limit ``timeout_s``, memory under a process limit, special files
given as graph files, and what ``validate`` must refuse statically."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest
from conftest import default_sigint

import tbdse as td
from tbdse import _core
from tbdse.errors import ConfigError
from tbdse.experiment.cli import main

# One thread of block 1 loops with chance p at every visit: expected 1 / (1 - p)
# visits.  20000 threads at p = 0.99999 are ~2e9 block executions (a minute).
SPIN = textwrap.dedent(
    """
    import tbdse as td
    def spin(p=0.99999, threads=20000):
        blocks = [{"succ": [1]}, {"succ": [1, 2], "branch": "probability", "p": p, "name": "spin"},
                  {"succ": []}]
        return td.workloads.cfg_kernel(blocks, threads, name="spin")
    """
)


def spin(p: float = 0.99999, threads: int = 20000) -> td.Workload:
    """SPIN's kernel, in this process."""
    blocks = [{"succ": [1]}, {"succ": [1, 2], "branch": "probability", "p": p, "name": "spin"}]
    return td.workloads.cfg_kernel([*blocks, {"succ": []}], threads, name="spin")


def _child(code: str, **kwargs: object) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", SPIN + textwrap.dedent(code)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **kwargs,  # type: ignore[arg-type]
    )


# ---------------------------------------------------------------------------
# Ctrl-C inside one long simulation


@pytest.mark.parametrize("call", ["sweep", "simulate"])
def test_sigint_stops_one_long_simulation(call: str) -> None:
    child = _child(
        f"""
        import time
        print("ready", flush=True)
        try:
            if "{call}" == "sweep":
                td.sweep(spin(), "gtx480", "simt", progress=False)
            else:
                td.simulate(spin(), "gtx480", "simt")
            print("finished", flush=True)
        except td.SweepInterrupted as exc:
            print("interrupted", len(exc.results), time.monotonic(), flush=True)
        except KeyboardInterrupt:
            print("interrupted", 0, time.monotonic(), flush=True)
        """,
        preexec_fn=default_sigint,
    )
    assert child.stdout is not None
    try:
        assert child.stdout.readline().strip() == "ready"
        time.sleep(1.0)  # well inside the run (it takes about a minute)
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=10)
    finally:
        child.kill()
    words = out.split()
    assert words[:2] == ["interrupted", "0"], (out, err)  # the cut-short run is no result
    assert float(words[2]) - sent < 2.0


def test_cli_sigint_inside_a_long_run_exits_130(tmp_path: Path) -> None:
    kernel = tmp_path / "spin.yaml"
    kernel.write_text(
        "threads: 20000\nblocks:\n  - {succ: [1]}\n"
        "  - {succ: [1, 2], branch: probability, p: 0.99999}\n  - {succ: []}\n"
    )
    exp = tmp_path / "exp.yaml"
    exp.write_text("gpu: gtx480\nworkload: {generator: cfg_file, path: spin.yaml}\nscheme: simt\n")
    exe = Path(sys.executable).with_name("tbdse")
    child = subprocess.Popen(
        [str(exe), "run", str(exp), "-o", str(tmp_path / "out"), "--no-progress"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=default_sigint,
    )
    try:
        started = tmp_path / "out" / "resolved.yaml"  # written just before the sweep
        deadline = time.monotonic() + 30
        while not started.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(1.0)  # into the run (it takes about a minute)
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        _, err = child.communicate(timeout=10)
    finally:
        child.kill()
    assert child.returncode == 130, err
    assert time.monotonic() - sent < 5.0


# ---------------------------------------------------------------------------
# timeout_s


def test_timeout_records_timed_out_and_the_sweep_goes_on() -> None:
    quick = td.workloads.vgiw_example()
    start = time.monotonic()
    df = td.sweep([spin(), quick], "gtx480", "simt", timeout_s=0.3, progress=False)
    assert time.monotonic() - start < 5.0
    by = df.set_index("workload")
    assert by.loc["spin", "status"] == "timed_out"
    assert "timeout_s = 0.3 s" in by.loc["spin", "error"]
    assert np.isnan(by.loc["spin", "makespan_cycles"])
    assert by.loc[quick.name, "status"] == "ok"
    # A run that finishes gives the row it gives without a limit.
    plain = td.sweep(quick, "gtx480", "simt", progress=False)
    assert by.loc[quick.name, "makespan_cycles"] == plain["makespan_cycles"].iloc[0]
    lines = td.results.failure_summary(df)
    assert "timed out" in lines[0] and "timed_out" in lines[1]


@pytest.mark.parametrize("bad", [0, -1, "soon", True, float("nan"), 1e30])
def test_timeout_must_be_a_positive_number(bad: object) -> None:
    with pytest.raises(ConfigError, match="timeout_s"):
        td.sweep(td.workloads.vgiw_example(), "gtx480", "simt", timeout_s=bad)  # type: ignore[arg-type]


def test_timeout_in_an_experiment_file(tmp_path: Path) -> None:
    exp = tmp_path / "exp.yaml"
    exp.write_text(
        "gpu: gtx480\nworkload: {generator: vgiw_example}\nscheme: simt\ntimeout_s: 2.5\n"
    )
    loaded = td.experiment.load(exp)
    assert loaded.timeout_s == 2.5 and loaded.resolved()["timeout_s"] == 2.5
    exp.write_text(
        "gpu: gtx480\nworkload: {generator: vgiw_example}\nscheme: simt\ntimeout_s: -3\n"
    )
    with pytest.raises(ConfigError, match="timeout_s"):
        td.experiment.load(exp)


# ---------------------------------------------------------------------------
# Memory under a process limit (ulimit -v)


def _limit_address_space() -> None:
    limit = 2 * 1024**3
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def test_a_graph_too_big_for_ulimit_v_is_a_config_error() -> None:
    # ~5 GB to build: fits this machine, not a 2 GiB address space.
    child = _child(
        """
        try:
            td.workloads.bfs(nodes=2**22, degree=64)
            print("built")
        except td.ConfigError as exc:
            print("refused", exc)
        """,
        preexec_fn=_limit_address_space,
    )
    out, err = child.communicate(timeout=60)
    assert out.startswith("refused"), (out, err)
    assert "GB of memory" in out and "ulimit -v" in out


# ---------------------------------------------------------------------------
# Special files as graph files


@pytest.mark.parametrize("kind", ["dev_zero", "fifo", "directory"])
def test_special_files_are_refused_quickly(tmp_path: Path, kind: str) -> None:
    path = {"dev_zero": Path("/dev/zero"), "fifo": tmp_path / "pipe", "directory": tmp_path}[kind]
    if kind == "fifo":
        os.mkfifo(path)
    # In a child: a reader that blocked on the FIFO would hang the suite.
    child = _child(
        f"""
        from tbdse import _core
        try:
            _core.read_edge_list_digraph({str(path)!r})
            print("read")
        except td.ConfigError as exc:
            print("refused", exc)
        """
    )
    out, err = child.communicate(timeout=30)
    assert out.startswith("refused"), (out, err)
    assert "not a regular file" in out or "is a directory" in out


def test_file_errors_quote_a_short_escaped_excerpt(tmp_path: Path) -> None:
    path = tmp_path / "g.txt"
    path.write_text("0 1 " + "x'" * 100 + "\n")
    with pytest.raises(ConfigError) as info:
        _core.read_edge_list_digraph(str(path))
    message = str(info.value)
    assert "\\'" in message and "...'" in message and len(message) < len(str(path)) + 200


# ---------------------------------------------------------------------------
# What validate must say before anything runs


def _validate(tmp_path: Path, body: str, capsys: pytest.CaptureFixture[str]) -> str:
    exp = tmp_path / "exp.yaml"
    exp.write_text("gpu: gtx480\n" + body)
    assert main(["validate", str(exp)]) == 2
    return capsys.readouterr().err


def test_validate_refuses_a_fabric_without_needed_units(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    err = _validate(
        tmp_path,
        "workload: {generator: vgiw_example}\nscheme: {name: vgiw, fabric_alu: 0}\n",
        capsys,
    )
    assert "fabric_alu = 0" in err


def test_validate_refuses_a_loop_that_almost_never_exits(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "spin.yaml").write_text(
        "threads: 100000\nblocks:\n  - {succ: [1]}\n"
        "  - {succ: [1, 2], branch: probability, p: 0.9999999, name: spin}\n  - {succ: []}\n"
    )
    err = _validate(
        tmp_path, "workload: {generator: cfg_file, path: spin.yaml}\nscheme: simt\n", capsys
    )
    assert "block 1 'spin' (branch p = 0.9999999)" in err and "1e+12 blocks" in err


def test_validate_refuses_node_instructions_that_cannot_finish(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    err = _validate(
        tmp_path,
        "workload: {generator: bfs, nodes: 256, node_instructions: 1099511627776}\nscheme: hwwl\n",
        capsys,
    )
    assert "node_instructions = 1099511627776" in err and "events" in err
