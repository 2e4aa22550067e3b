"""Infeasible configurations are rows, not a refused sweep (issue 16): with
``on_error='record'`` a run that fails validation gets status ``infeasible``,
its message and NaN metrics, is never simulated and is stored like any row;
with ``on_error='raise'`` (the default) the sweep is refused as before."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import tbdse as td
from tbdse.experiment import cli
from tbdse.simulation import runner as runner_module

WORKLOAD = td.workloads.wavefront(6, 6)
# A 128-byte chunk holds 16 node entries: node_buffer 4 can never load one.
GRID = {"node_buffer": [4, 64]}
MESSAGE = "smaller than one chunk"


def test_infeasible_runs_are_rows_with_their_message() -> None:
    df = td.sweep(WORKLOAD, "gtx480", "wireframe", grid=GRID, on_error="record")
    assert df["node_buffer"].tolist() == [4, 64]
    assert df["status"].tolist() == ["infeasible", "ok"]
    bad, good = df.iloc[0], df.iloc[1]
    assert MESSAGE in bad["error"] and bad["error"].startswith("run 0: scheme 'wireframe'")
    assert "scheme.node_buffer=4" in bad["error"]  # describe_run's prefix
    metrics = [c for c in df.columns if c in td.results.metric_info()]
    assert "storage_bytes" in metrics and bad[metrics].isna().all()
    assert good["makespan_cycles"] > 0 and pd.isna(good["error"])
    assert bad["config_hash"] != "0" * 16  # it resolved: only the scheme's check failed
    lines = td.results.failure_summary(df)
    assert lines[0] == "1 of 2 runs failed:" and "x infeasible:" in lines[1]


def test_raise_refuses_the_sweep_as_before() -> None:
    with pytest.raises(td.ConfigError, match=MESSAGE):
        td.sweep(WORKLOAD, "gtx480", "wireframe", grid=GRID)
    with pytest.raises(td.ConfigError, match=MESSAGE):
        td.sweep(WORKLOAD, "gtx480", "wireframe", grid=GRID, on_error="raise")


def test_infeasible_runs_are_never_simulated(monkeypatch: pytest.MonkeyPatch) -> None:
    simulated: list[list[int]] = []
    run = runner_module._core.Sweep.run

    def spy(core: Any, runs: Any, *args: Any) -> Any:
        simulated.append(list(np.asarray(runs)))
        return run(core, runs, *args)

    monkeypatch.setattr(runner_module._core.Sweep, "run", spy)
    td.sweep(WORKLOAD, "gtx480", "wireframe", grid=GRID, on_error="record")
    assert [run for chunk in simulated for run in chunk] == [1]


def test_core_validate_collects_errors() -> None:
    from tbdse.simulation.axes import Axes, namespaces
    from tbdse.simulation.plan import build_plan

    schemes = [td.schemes.Wireframe()]
    workloads = [WORKLOAD]
    grid = {"node_buffer": [4, 64], "gpu.sms": [0, 15]}
    axes = Axes.build(grid, None, namespaces(schemes, workloads))
    plan = build_plan(workloads, [td.gpus.gtx480()], schemes, axes, 1, 0, None)
    core = plan.core()
    hashes, errors = core.validate(collect=True)
    assert len(hashes) == len(errors) == 4
    by_run = {
        (int(plan_row["node_buffer"]), int(plan_row["gpu.sms"])): (h, e)
        for plan_row, h, e in zip(
            td.runner.Runner(plan, 1, False, "record", None)
            .preview()[["node_buffer", "gpu.sms"]]
            .to_dict("records"),
            hashes,
            errors,
            strict=True,
        )
    }
    assert by_run[64, 15][1] == "" and by_run[64, 15][0] != 0
    assert MESSAGE in by_run[4, 15][1] and by_run[4, 15][0] != 0  # resolved, check failed
    for nb in (4, 64):  # sms 0 does not even resolve: no configuration, hash 0
        h, e = by_run[nb, 0]
        assert h == 0 and "'sms' must be an integer" in e
    assert core.validate(np.array([], dtype=np.int64), collect=True)[1] == []
    with pytest.raises(td.ConfigError, match="'sms' must be an integer|" + MESSAGE):
        core.validate()


def test_infeasible_rows_are_stored_and_restored(tmp_path: Path) -> None:
    store = tmp_path / "store"
    first = td.sweep(WORKLOAD, "gtx480", "wireframe", grid=GRID, on_error="record", store=store)
    stored = td.ResultsStore(store).rows()
    assert sorted(stored["_status"].tolist()) == [0, 5]
    again = td.sweep(WORKLOAD, "gtx480", "wireframe", grid=GRID, on_error="record", store=store)
    pd.testing.assert_frame_equal(first, again)
    assert len(td.ResultsStore(store).rows()) == 2  # nothing written twice


def test_search_marks_infeasible_trials_failed() -> None:
    pytest.importorskip("optuna")
    df = td.search(
        WORKLOAD,
        "gtx480",
        "wireframe",
        space={"node_buffer": [4, 64]},
        objectives={"makespan_us": "min", "storage_bytes": "min"},
        trials=6,
        batch=3,
        sampler="random",
        seed=1,
    )
    assert set(df["node_buffer"].astype(int)) == {4, 64}
    small = df[df["node_buffer"].astype(int) == 4]
    assert (small["trial_state"] == "failed").all() and (small["status"] == "infeasible").all()
    assert (df.loc[df["node_buffer"].astype(int) == 64, "trial_state"] == "complete").all()


EXPERIMENT = textwrap.dedent(
    """\
    name: infeasible
    gpu: gtx480
    workload: {{generator: wavefront, rows: 4, cols: 4}}
    scheme: wireframe
    grid: {{node_buffer: [4, 64]}}
    on_error: record
    {extra}
    """
)


def test_tbdse_run_counts_infeasible_runs_as_failed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "e.yaml"
    path.write_text(EXPERIMENT.format(extra=""))
    assert cli.main(["validate", str(path)]) == 0  # recorded, not refused
    assert cli.main(["run", str(path), "-o", str(tmp_path / "out"), "--no-progress"]) == 1
    captured = capsys.readouterr()
    assert "1 of 2 runs failed:" in captured.err and "x infeasible:" in captured.err
    assert "simulated 1, reused 0, failed 1 ->" in captured.out  # infeasible: not simulated
    path.write_text(EXPERIMENT.format(extra="expect_failures: true"))
    assert cli.main(["run", str(path), "-o", str(tmp_path / "out2"), "--no-progress"]) == 0
    path.write_text(EXPERIMENT.format(extra="").replace("on_error: record", ""))
    assert cli.main(["validate", str(path)]) == 2  # raise: refused as before
    assert MESSAGE in capsys.readouterr().err
