"""The everyday command line (issue 20, part): overrides in OmegaConf's dotlist
grammar checked like the file, -o optional with a timestamped folder, the run's
provenance in its manifest, python -m tbdse, -v / -q, shell completion."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tbdse import experiment
from tbdse.experiment import cli
from tbdse.experiment.overrides import apply_overrides

EXPERIMENT = textwrap.dedent(
    """\
    name: wf
    gpu: gtx480
    workload: {generator: wavefront, rows: 5, cols: 5, cost: 500}
    scheme: wireframe
    schemes_note: null
    grid: {gpu.sms: [2, 4]}
    outputs: {tables: [csv]}
    """
).replace("schemes_note: null\n", "")


def write(folder: Path, text: str = EXPERIMENT) -> Path:
    path = folder / "wf.yaml"
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        (["seed=3"], {"seed": 3}),
        (["scheme.node_buffer=64"], {"scheme": {"name": "wireframe", "node_buffer": 64}}),
        (["grid.gpu.sms=[15,30]"], {"grid": {"gpu.sms": [15, 30]}}),
        (["gpu.sms=30"], {"gpu": {"preset": "gtx480", "sms": 30}}),
        (["~grid"], {}),
        (["outputs.tables=[parquet]"], {"outputs": {"tables": ["parquet"]}}),
        (["schemes.0.level_bound=2"], None),
    ],
)
def test_overrides_change_the_parsed_file(
    overrides: list[str], expected: dict[str, object] | None
) -> None:
    data = {
        "name": "wf",
        "gpu": "gtx480",
        "scheme": "wireframe",
        "schemes": ["wireframe"],
        "grid": {"gpu.sms": [2, 4]},
        "outputs": {"tables": ["csv"]},
    }
    out = apply_overrides(data, overrides)
    if overrides == ["~grid"]:
        assert "grid" not in out and "grid" in data  # a copy: the input is untouched
    elif expected is None:
        assert out["schemes"] == [{"name": "wireframe", "level_bound": 2}]
    else:
        for key, value in expected.items():
            assert out[key] == value


@pytest.mark.parametrize(
    ("override", "message"),
    [
        ("seed", "needs KEY=VALUE"),
        ("=3", "must be a dotted path"),
        ("schemes.5.level_bound=2", "is not a position in a list of 1"),
        ("name.x=1", "holds a value, not keys"),
        ("~nothing", "there is no 'nothing' to remove"),
    ],
)
def test_malformed_overrides(override: str, message: str) -> None:
    data = {"name": "wf", "schemes": ["wireframe"]}
    with pytest.raises(cli.ConfigError, match=message):
        apply_overrides(data, [override])


def test_an_override_is_checked_like_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path)
    assert cli.main(["validate", str(path), "scheme.node_bufer=64"]) == 2
    assert "node_buffer" in capsys.readouterr().err  # the suggestion
    assert cli.main(["validate", str(path), "grid.gpu.sm=[1,2]"]) == 2
    assert "no gpu parameter 'sm' (did you mean 'sms'?)" in capsys.readouterr().err
    assert cli.main(["validate", str(path), "'grid.gpu.sms=[15,30]'".strip("'")]) == 0
    exp = experiment.load(path, overrides=["scheme.node_buffer=64", "replicates=2"])
    assert exp.schemes[0].params["node_buffer"] == 64 and exp.replicates == 2


def test_out_is_optional_and_the_manifest_says_what_made_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    path = write(tmp_path)
    assert cli.main(["run", str(path), "seed=5", "--no-progress"]) == 0
    (folder,) = (tmp_path / "results" / "wf").iterdir()
    assert f"output folder: {Path('results') / 'wf' / folder.name}" in capsys.readouterr().out
    manifest = json.loads((folder / "tbdse-run.json").read_text())
    run = manifest["run"]
    assert run["overrides"] == ["seed=5"] and run["tbdse_version"]
    assert {"command", "git_commit", "host", "started", "finished"} <= set(run)
    assert cli.main(["run", str(path), "--no-progress"]) == 0  # a second folder, not the first
    assert len(list((tmp_path / "results" / "wf").iterdir())) == 2


def test_quiet_and_verbose(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path)
    assert cli.main(["run", str(path), "-o", str(tmp_path / "o"), "-q"]) == 0
    assert capsys.readouterr().out == ""
    assert cli.main(["validate", str(path), "-v"]) == 0
    assert "OK (2 runs)" in capsys.readouterr().out


def test_python_dash_m_and_completion() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tbdse", "--help"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0
    for command in ("run", "plot", "validate", "list", "completion"):
        assert command in done.stdout
    for shell in ("bash", "zsh"):
        done = subprocess.run(
            [sys.executable, "-m", "tbdse", "completion", shell],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0 and "tbdse" in done.stdout and "validate" in done.stdout


def test_trace_writes_the_first_runs_timeline(tmp_path: Path) -> None:
    path = write(tmp_path)
    out = tmp_path / "o"
    assert cli.main(["run", str(path), "-o", str(out), "--trace", "-q"]) == 0
    events = json.loads((out / "trace.json").read_text())["traceEvents"]
    slices = [e for e in events if e.get("ph") == "X"]
    assert len(slices) == 25  # one per TB of the 5 x 5 wavefront
    manifest = json.loads((out / "tbdse-run.json").read_text())
    assert "trace.json" in manifest["files"] and manifest["complete"] is True
    assert cli.main(["run", str(path), "-o", str(out), "-q"]) == 0
    assert not (out / "trace.json").exists()  # a run without --trace removes the stale one
