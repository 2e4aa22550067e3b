"""Nothing is lost: result tables round-trip through Parquet and CSV whatever
their parameter columns mix, and `tbdse run` only ever deletes files it wrote,
writes every output atomically and refuses another experiment's folder."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tbdse as td
from tbdse import experiment
from tbdse.experiment import cli

EXPERIMENT = textwrap.dedent(
    """\
    name: {name}
    gpu: {{preset: gtx480, host_launch_us: 2}}
    workload: {{generator: wavefront, rows: 6, cols: 6, cost: 500}}
    schemes:
      - wireframe
      - {{name: wireframe, node_buffer: 64, label: nb64}}
    grid: {{edge_buffer: [512, unbounded]}}
    outputs:
      tables: [parquet, csv]
      plots:
        - {{kind: line, x: edge_buffer, y: makespan_us, file: {figure}}}
    """
)


def write_experiment(folder: Path, name: str = "exp", figure: str = "fig.png") -> Path:
    path = folder / f"{name}.yaml"
    path.write_text(EXPERIMENT.format(name=name, figure=figure))
    return path


def round_trips(frame: pd.DataFrame, tmp_path: Path) -> None:
    frame.to_parquet(tmp_path / "t.parquet", index=False)
    back = pd.read_parquet(tmp_path / "t.parquet")
    pd.testing.assert_frame_equal(back, frame, check_like=False)
    frame.to_csv(tmp_path / "t.csv", index=False)
    csv = pd.read_csv(tmp_path / "t.csv")
    assert list(csv.columns) == list(frame.columns)
    for c in frame.columns:  # CSV carries no types: compare values as text
        left = (
            frame[c]
            .astype(object)
            .where(frame[c].notna(), None)
            .map(lambda v: None if v is None else str(v))
        )
        right = (
            csv[c]
            .astype(object)
            .where(csv[c].notna(), None)
            .map(lambda v: None if v is None else str(v))
        )
        numeric = pd.api.types.is_numeric_dtype(frame[c]) and not pd.api.types.is_bool_dtype(
            frame[c]
        )
        if numeric:
            np.testing.assert_allclose(
                frame[c].to_numpy(dtype=float), csv[c].to_numpy(dtype=float), equal_nan=True
            )
        else:
            assert left.tolist() == right.tolist(), c


def test_a_column_mixing_numbers_auto_and_unbounded_round_trips(tmp_path: Path) -> None:
    # Today this simulated, then lost everything in pyarrow's ArrowInvalid.
    wl = td.workloads.wavefront(6, 6, cost=td.cost.constant(100))
    df = td.sweep(
        wl,
        td.gpus.gtx480(host_launch_us=1),
        ["wireframe", td.Scheme("wireframe", node_buffer=64, label="nb64"), "cdp"],
        grid={"edge_buffer": [512, "unbounded"], "level_bound": [2, 3]},
    )
    assert df["node_buffer"].tolist()[:1] == ["auto"] and "64" in df["node_buffer"].tolist()
    assert df["edge_buffer"].dtype == np.float64 and np.isinf(df["edge_buffer"]).any()
    assert df["level_bound"].dtype == "Int64"  # whole numbers stay whole (NaN for cdp)
    round_trips(df, tmp_path)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    node=st.lists(
        st.sampled_from([16, 64, 256, "unbounded", "auto"]), min_size=1, max_size=3, unique=True
    ),
    bound=st.lists(st.integers(1, 5), min_size=1, max_size=2, unique=True),
    second=st.booleans(),
)
def test_every_result_table_round_trips(
    node: list[object], bound: list[int], second: bool, tmp_path: Path
) -> None:
    wl = td.workloads.wavefront(5, 5, cost=td.cost.constant(100))
    schemes: list[object] = [td.Scheme("wireframe", pending_updates="unbounded")]
    if second:
        schemes += ["global_barrier", td.Scheme("dataflow_ideal", policy="lvl")]
    df = td.sweep(
        wl,
        td.gpus.gtx480(host_launch_us=1),
        schemes,
        grid={"node_buffer": node, "level_bound": bound},
        on_error="record",
    )
    round_trips(df, tmp_path)


def test_run_keeps_user_files_in_the_checkpoint_folder(tmp_path: Path) -> None:
    out = tmp_path / "out"
    (out / "checkpoint").mkdir(parents=True)
    mine = out / "checkpoint" / "notes.txt"
    mine.write_text("mine")
    path = write_experiment(tmp_path)
    for resume in (False, True):
        assert (
            cli.main(
                ["run", str(path), "-o", str(out), "--no-progress"]
                + (["--resume"] if resume else [])
            )
            == 0
        )
        assert mine.read_text() == "mine"  # today: deleted with the checkpoint folder
    assert (out / "results.parquet").exists()


def test_empty_output_path_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write_experiment(tmp_path)
    assert cli.main(["run", str(path), "-o", "", "--no-progress"]) == 2
    assert "output folder must be named" in capsys.readouterr().err


def test_another_experiments_folder_is_refused_unless_overwrite(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    first = write_experiment(tmp_path, "first", figure="old.png")
    second = write_experiment(tmp_path, "second", figure="new.png")
    assert cli.main(["run", str(first), "-o", str(out), "--no-progress"]) == 0
    (out / "keep.txt").write_text("a file of the user's")
    assert cli.main(["run", str(second), "-o", str(out), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "holds the results of experiment 'first'" in err and "--overwrite" in err
    assert (out / "old.png").exists()  # refused: nothing touched
    assert cli.main(["run", str(second), "-o", str(out), "--no-progress", "--overwrite"]) == 0
    assert not (out / "old.png").exists()  # the other experiment's figure is not left behind
    assert (out / "new.png").exists() and (out / "keep.txt").read_text() == "a file of the user's"
    manifest = json.loads((out / "tbdse-run.json").read_text())
    assert manifest["experiment"] == "second" and manifest["complete"] is True
    assert "new.png" in manifest["files"] and "keep.txt" not in manifest["files"]


def test_files_tbdse_did_not_write_are_not_overwritten(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "results.csv").write_text("precious,data\n1,2\n")
    path = write_experiment(tmp_path)
    assert cli.main(["run", str(path), "-o", str(out), "--no-progress"]) == 2
    assert "results.csv" in capsys.readouterr().err
    assert (out / "results.csv").read_text() == "precious,data\n1,2\n"


def test_rerunning_an_experiment_removes_its_stale_figures(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert (
        cli.main(
            [
                "run",
                str(write_experiment(tmp_path, figure="a.png")),
                "-o",
                str(out),
                "--no-progress",
            ]
        )
        == 0
    )
    assert (
        cli.main(
            [
                "run",
                str(write_experiment(tmp_path, figure="b.png")),
                "-o",
                str(out),
                "--no-progress",
            ]
        )
        == 0
    )
    assert (out / "b.png").exists() and not (out / "a.png").exists()


@pytest.mark.parametrize(
    "make_bad",
    [
        pytest.param(lambda t: (t / "file", (t / "file").write_text("x"))[0], id="a file"),
        pytest.param(lambda t: [(t / "f").write_text("x"), t / "f" / "out"][1], id="under a file"),
        pytest.param(lambda t: Path("/proc/tbdse-out"), id="read-only place"),
    ],
)
def test_output_folders_that_cannot_be_written(
    make_bad: object, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = make_bad(tmp_path)  # type: ignore[operator]
    path = write_experiment(tmp_path)
    assert cli.main(["run", str(path), "-o", str(out), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "Traceback" not in err and str(out) in err


def test_a_store_that_is_a_file_or_damaged_and_old_manifests(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_experiment(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    (out / "store").write_text("not a folder")
    assert cli.main(["run", str(path), "-o", str(out), "--no-progress"]) == 2
    assert "is a file" in capsys.readouterr().err
    (out / "store").unlink()
    (out / "store").mkdir()
    (out / "store" / "tbdse-store.json").write_text("[1, 2]")  # valid JSON, not a store's
    assert cli.main(["run", str(path), "-o", str(out), "--no-progress"]) == 2
    assert "not a tbdse results store" in capsys.readouterr().err
    assert (out / "store" / "tbdse-store.json").read_text() == "[1, 2]"
    (out / "tbdse-run.json").write_text("{broken")
    assert cli.main(["run", str(path), "-o", str(out), "--no-progress"]) == 2
    assert "tbdse-run.json is damaged" in capsys.readouterr().err
    # An older tbdse's manifest listed names without their content: nothing it
    # lists can be proved tbdse's, so the folder is refused, not cleaned.
    (out / "tbdse-run.json").write_text(json.dumps({"experiment": "exp", "files": []}))
    assert cli.main(["run", str(path), "-o", str(out), "--no-progress"]) == 2
    assert "older tbdse" in capsys.readouterr().err


def test_a_failed_write_leaves_the_previous_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A kill (here: an exception) during the final write leaves the old table
    # whole: never a 0-byte or half-written file.
    path = write_experiment(tmp_path)
    out = tmp_path / "out"
    exp = experiment.load(path)
    exp.run(out, progress=False, echo=lambda _: None)
    before = (out / "results.parquet").read_bytes()

    def broken(self: pd.DataFrame, target: object, *args: object, **kwargs: object) -> None:
        Path(str(target)).write_bytes(b"PAR1 half")
        raise KeyboardInterrupt

    monkeypatch.setattr(pd.DataFrame, "to_parquet", broken)
    with pytest.raises(KeyboardInterrupt):
        exp.run(out, progress=False, echo=lambda _: None)
    assert (out / "results.parquet").read_bytes() == before
    assert not [p for p in out.iterdir() if p.name.endswith(".tmp")]
