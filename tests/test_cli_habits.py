"""The command line behaves like the tools people know (issue 31): overrides
anywhere after the file, one summary line, no progress bar in a log file
unless asked, and --trace RUN picking a run by row or configuration hash."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pandas as pd
import pytest

import tbdse as td
from tbdse.experiment import cli
from tbdse.simulation import runner

EXPERIMENT = textwrap.dedent(
    """\
    name: habits
    gpu: gtx480
    workload: {generator: wavefront, rows: 5, cols: 5, cost: 500}
    schemes: [global_barrier, dataflow_ideal]
    outputs: {tables: [parquet]}
    """
)


def write(folder: Path) -> Path:
    path = folder / "habits.yaml"
    path.write_text(EXPERIMENT)
    return path


def test_overrides_may_follow_the_options(tmp_path: Path) -> None:
    path, out = write(tmp_path), tmp_path / "out"
    assert cli.main(["run", str(path), "-o", str(out), "replicates=2", "-q", "seed=4"]) == 0
    frame = pd.read_parquet(out / "results.parquet")
    assert sorted(frame["replicate"].unique()) == [0, 1] and (frame["seed"] == 4).all()
    manifest = json.loads((out / "tbdse-run.json").read_text())
    assert manifest["run"]["overrides"] == ["replicates=2", "seed=4"]
    assert cli.main(["validate", str(path), "-v", "replicates=3"]) == 0


def test_an_unknown_option_is_still_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        cli.main(["run", str(write(tmp_path)), "-o", str(tmp_path / "o"), "--bogus", "seed=1"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "unrecognized arguments: --bogus" in err and "seed=1" not in err.split("--bogus")[1]


def test_one_summary_line_says_what_ran_and_what_was_reused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, out = write(tmp_path), tmp_path / "out"
    assert cli.main(["run", str(path), "-o", str(out), "--no-progress"]) == 0
    assert capsys.readouterr().out == f"habits: simulated 2, reused 0, failed 0 -> {out}\n"
    assert cli.main(["run", str(path), "-o", str(out), "--no-progress", "replicates=2"]) == 0
    assert capsys.readouterr().out == f"habits: simulated 2, reused 2, failed 0 -> {out}\n"
    assert cli.main(["run", str(path), "-o", str(out), "--no-progress", "-v"]) == 0
    said = capsys.readouterr().out
    assert "reusing 2 of 2 runs" in said and "wrote " in said  # the details, with -v


def test_no_progress_bar_off_a_terminal_unless_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(runner, "PROGRESS_AFTER", 0.0)  # every sweep would earn a bar
    path = write(tmp_path)
    assert cli.main(["run", str(path), "-o", str(tmp_path / "a")]) == 0
    assert "tbdse sweep" not in capsys.readouterr().err  # captured stderr is not a terminal
    assert cli.main(["run", str(path), "-o", str(tmp_path / "b"), "--progress"]) == 0
    assert "tbdse sweep" in capsys.readouterr().err


def traced(out: Path) -> dict[str, object]:
    other: dict[str, object] = json.loads((out / "trace.json").read_text())["otherData"]
    return other


def test_trace_picks_a_run_by_row_or_hash(tmp_path: Path) -> None:
    path, out = write(tmp_path), tmp_path / "out"
    args = ["run", str(path), "-o", str(out), "-q", "replicates=2"]
    assert cli.main([*args, "--trace", "2"]) == 0
    frame = pd.read_parquet(out / "results.parquet")
    row = frame.iloc[2]
    assert row["scheme"] != frame.iloc[0]["scheme"]  # not the first run's timeline
    other = traced(out)
    assert other["config_hash"] == row["config_hash"]
    assert other["makespan_cycles"] == row["makespan_cycles"]
    first = frame.iloc[0]
    assert cli.main([*args, "--trace", str(first["config_hash"])[:6]]) == 0
    assert traced(out)["config_hash"] == first["config_hash"]
    # A bare --trace before the file is the first run; the file stays the file.
    assert cli.main(["run", "--trace", str(path), "-o", str(out), "-q", "replicates=2"]) == 0
    assert traced(out)["config_hash"] == first["config_hash"]


def test_a_trace_run_that_names_none_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, out = write(tmp_path), tmp_path / "out"
    assert cli.main(["run", str(path), "-o", str(out), "-q", "--trace", "7"]) == 2
    assert "there is no run 7; the experiment has 2" in capsys.readouterr().err
    assert not (out / "trace.json").exists()
    assert cli.main(["run", str(path), "-o", str(out), "-q", "--trace", "abcdef12"]) == 2
    assert "no run has configuration hash 'abcdef12'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["run", str(path), "-o", str(out), "-q", "--trace=x.yaml"])
    assert "RUN is a row number" in capsys.readouterr().err


def test_a_mechanism_that_never_acted_is_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """HWWL redistribution planned every interval but, with a threshold no bank
    reaches, moved no id: said on stderr and counted in the summary line."""
    path = tmp_path / "idle.yaml"
    path.write_text(
        textwrap.dedent(
            """\
            name: idle
            gpu: {preset: gpgpusim_hwwl, sms: 2}
            workload: {generator: bfs, graph: grid, rows: 12, cols: 12}
            scheme: {name: hwwl, redistribution: threshold}
            grid: {scheme.threshold: [5, 30]}
            outputs: {tables: [parquet]}
            """
        )
    )
    out = tmp_path / "out"
    assert cli.main(["run", str(path), "-o", str(out), "--no-progress"]) == 0
    said = capsys.readouterr()
    assert "warning: hwwl: in 1 of 2 runs redistributions were planned but no id moved" in (
        said.err
    )
    assert said.out == f"idle: simulated 2, reused 0, failed 0, warnings 1 (above) -> {out}\n"
    frame = pd.read_parquet(out / "results.parquet").set_index("threshold")
    assert frame.loc[30, "transfers"] == 0 and frame.loc[5, "transfers"] > 0
    # the run's own row says it, so the table shows which runs (not only stderr)
    assert frame.loc[30, "warnings"].startswith("never acted: redistributions were planned")
    assert pd.isna(frame.loc[5, "warnings"])


def test_the_never_acted_table_reads_each_entrys_counters() -> None:
    from tbdse.simulation.mechanisms import NEVER_ACTED, never_acted, run_warnings

    frame = pd.DataFrame(
        {
            "scheme": ["hwwl", "hwwl", "juggler", "juggler", "hwwl"],
            "status": ["ok", "ok", "ok", "ok", "failed"],
            "redistribution": ["lsorting", "none", None, None, "lsorting"],
            "redistributions": [0, 0, None, None, 0],
            "transfers": [0, 0, None, None, 0],
            "inter_core_transfers": [0, 0, None, None, 0],
            "locality_speedup": [None, None, 0.3, 0.0, None],
            "local_tasks": [None, None, 0, 0, None],
        }
    )
    said = never_acted(frame)
    assert len(said) == 2 and len(NEVER_ACTED) == 3
    assert said[0].startswith("hwwl: in 1 of 2 runs redistribution is on but none was planned")
    assert said[1].startswith("juggler: in 1 of 2 runs locality_speedup is set")
    assert never_acted(frame.iloc[:0]) == []
    rows = run_warnings(frame)
    assert rows.iloc[0].startswith("never acted: redistribution is on but none was planned")
    assert rows.iloc[2].startswith("never acted: locality_speedup is set")
    assert rows.iloc[[1, 3, 4]].isna().all()  # off, off, and a failed run
    assert run_warnings(frame.iloc[:0]).empty


def test_every_sweep_row_has_a_warnings_column() -> None:
    frame = td.sweep(td.workloads.wavefront(3, 3), "gtx480", ["global_barrier", "cdp"])
    assert list(frame.columns).index("warnings") == list(frame.columns).index("config_hash") - 1
    assert frame["warnings"].isna().all()  # nothing switched on did nothing
