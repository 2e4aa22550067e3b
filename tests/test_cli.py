"""The tbdse command line: run, validate, list; exit codes and messages."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from tbdse.cli import main

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
    assert f"results and figures are in {out}" in done.stdout
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
