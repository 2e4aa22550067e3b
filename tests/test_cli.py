"""The tbdse command line: run, validate, list; exit codes and messages."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from conftest import default_sigint

from tbdse.experiment.cli import main

ROOT = Path(__file__).resolve().parents[1]


def test_run_quickstart_as_the_installed_command(tmp_path: Path) -> None:
    exe = Path(sys.executable).with_name("tbdse")
    out = tmp_path / "qs"
    done = subprocess.run(
        [
            str(exe),
            "run",
            str(ROOT / "experiments/quickstart.yaml"),
            "-o",
            str(out),
            "--no-progress",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == f"quickstart: simulated 48, reused 0, failed 0 -> {out}"
    frame = pd.read_parquet(out / "results.parquet")
    assert len(frame) == 48
    assert (out / "speedup_vs_block_time.png").exists()
    # Fine-grain dependencies never lose to one launch per wave here.
    ideal = frame[frame.scheme == "dataflow_ideal"]["speedup"]
    assert (ideal > 1).all()


def test_validate_ok_and_bad(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(ROOT / "experiments/quickstart.yaml")]) == 0
    assert "OK (48 runs)" in capsys.readouterr().out
    bad = tmp_path / "bad.yaml"
    bad.write_text("gpu: gtx480\nworkload: {generator: chain, n: 3}\nscheme: dataflow_idael\n")
    assert main(["validate", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "bad.yaml:3:1: scheme:" in err and "did you mean 'dataflow_ideal'" in err


def test_missing_file_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "no/such/file.yaml"]) == 2
    assert "no such file" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("what", "expected"),
    [
        ("schemes", ["global_barrier", "grouping = auto", "policy = lrr", "reports: launches"]),
        ("gpus", ["gtx480", "titanx_pascal", "h200"]),
        ("workloads", ["wavefront", "layered_random", "stg"]),
        ("costs", ["lognormal(mean=1000, sigma=0.2)"]),
        ("metrics", ["makespan_us", "speedup"]),
    ],
)
def test_list(what: str, expected: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list", what]) == 0
    out = capsys.readouterr().out
    for text in expected:
        assert text in out


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    import tbdse

    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.strip() == f"tbdse {tbdse.__version__}"


@pytest.mark.parametrize("what", ["schemes", "gpus", "workloads", "costs", "metrics"])
def test_list_is_plain_text_wrapped_to_the_terminal(
    what: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "72")
    assert main(["list", what]) == 0
    out = capsys.readouterr().out
    assert "``" not in out and ":func:" not in out  # no docstring markup
    if what != "gpus":  # a table keeps its rows whole
        assert max(len(line) for line in out.splitlines()) <= 72
    # sentences are wrapped, never cut: every word of a scheme's doc is there
    if what == "schemes":
        import tbdse as td

        doc = td.schemes.info("wireframe")["params"][0]["doc"]
        assert " ".join(out.split()).count(" ".join(doc.split())[:60]) == 1


def test_list_into_a_closed_pipe_exits_quietly() -> None:
    exe = Path(sys.executable).with_name("tbdse")
    done = subprocess.run(
        f"'{exe}' list schemes | head -1", shell=True, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0
    assert len(done.stdout.splitlines()) == 1
    assert done.stderr == ""  # no BrokenPipeError traceback


@pytest.mark.slow
def test_ctrl_c_during_validation_exits_130_with_one_line(tmp_path: Path) -> None:
    import signal
    import time

    values = ", ".join(str(v) for v in range(1, 401))
    path = tmp_path / "big.yaml"
    path.write_text(
        "gpu: gtx480\n"
        "workload: {generator: wavefront, rows: 40, cols: 40}\n"
        "schemes: [blockmaestro, wireframe, dataflow_ideal]\n"
        f"grid: {{cost.cycles: [{values}], gpu.sms: [{values}]}}\n"
    )
    # `tbdse validate` as its console script runs it, once its imports are
    # done: a fixed delay from the start raced Python's start-up on a busy
    # machine (the import got the KeyboardInterrupt, not the validation).
    started = "import sys; from tbdse.experiment.cli import main; print('ready', flush=True); "
    child = subprocess.Popen(
        [sys.executable, "-c", started + "sys.exit(main(['validate', sys.argv[1]]))", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=default_sigint,
    )
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "ready"
    time.sleep(1.0)
    assert child.poll() is None, "validation finished too fast for the test"
    child.send_signal(signal.SIGINT)
    _, err = child.communicate(timeout=30)
    assert child.returncode == 130
    assert err.strip() == "interrupted", err
