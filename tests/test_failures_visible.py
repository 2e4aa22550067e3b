"""Failures are visible: recorded failures are counted, grouped and fail the
command unless expected; figures mark them and never average unrelated runs;
plot problems are found by `tbdse validate`, before anything runs."""

from __future__ import annotations

import textwrap
from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd
import pytest

import tbdse as td
from tbdse.experiment import cli

matplotlib.use("Agg")
import matplotlib.pyplot as plt

# Wireframe with no Pending Update Buffer, two node entries and
# when_pub_full 'stall' deadlocks on this wavefront (the completion of task 0
# waits for PUB space its children's loading needs: test_wireframe.py); four
# entries suffice.  A third of the runs below fail.
FAILING = textwrap.dedent(
    """\
    name: failing
    gpu: {{name: small, sms: 2, tb_slots: 2, mem_latency: 10, host_launch_us: 0}}
    workload:
      generator: wavefront
      rows: 3
      cols: 3
      cost: {{model: lognormal, mean: 10, sigma: 0.5}}
    schemes:
      - {{name: wireframe, node_buffer: 2, edge_buffer: 8, chunk_bytes: 8, when_pub_full: stall}}
      - {{name: dataflow_ideal, policy: lvl}}  # LRR would not read the level_bound axis
    grid: {{pending_updates: [0, 4, unbounded], level_bound: [2, 3]}}
    replicates: 2
    on_error: record
    {extra}
    """
)


def failing_frame() -> pd.DataFrame:
    wl = td.workloads.wavefront(3, 3, cost=td.cost.lognormal(10, 0.5))
    return td.sweep(
        wl,
        td.gpus.custom("small", sms=2, tb_slots=2, mem_latency=10, host_launch_us=0),
        [
            td.Scheme(
                "wireframe", node_buffer=2, edge_buffer=8, chunk_bytes=8, when_pub_full="stall"
            ),
            td.Scheme("dataflow_ideal", policy="lvl"),  # LRR does not read level_bound
        ],
        grid={"pending_updates": [0, 4, "unbounded"], "level_bound": [2, 3]},
        replicates=2,
        on_error="record",
    )


def test_recorded_failures_are_counted_grouped_and_fail_the_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    frame = failing_frame()
    failed = int((frame["status"] != "ok").sum())
    assert 0 < failed < len(frame), "the scenario must fail partly"
    path = tmp_path / "f.yaml"
    path.write_text(FAILING.format(extra=""))
    assert cli.main(["run", str(path), "-o", str(tmp_path / "out"), "--no-progress"]) == 1
    captured = capsys.readouterr()
    assert f"{failed} of {len(frame)} runs failed:" in captured.err
    assert "x deadlock:" in captured.err and "wireframe" in captured.err  # grouped, with the cause
    assert f"simulated {len(frame)}, reused 0, failed {failed} ->" in captured.out
    assert "expect_failures: true" in captured.err
    path.write_text(FAILING.format(extra="expect_failures: true"))
    assert cli.main(["run", str(path), "-o", str(tmp_path / "out"), "--no-progress"]) == 0


def test_expect_failures_needs_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "f.yaml"
    path.write_text(FAILING.format(extra="expect_failures: true").replace("on_error: record", ""))
    assert cli.main(["validate", str(path)]) == 2
    assert "goes with 'on_error: record'" in capsys.readouterr().err


def test_failure_summary_groups_by_reason() -> None:
    lines = td.results.failure_summary(failing_frame())
    assert lines[0].endswith("runs failed:")
    assert any("deadlock" in line for line in lines[1:])
    assert td.results.failure_summary(failing_frame().query("status == 'ok'")) == []


def test_heatmap_marks_cells_whose_runs_partly_or_wholly_failed() -> None:
    frame = failing_frame()
    frame = frame[frame.scheme == "wireframe"].copy()
    # One replicate of a finished cell fails too: the cell shows the survivor's value, marked.
    one = frame.index[(frame["pending_updates"] == 4) & (frame["level_bound"] == 2)][:1]
    frame.loc[one, "status"] = "deadlock"
    frame.loc[one, "makespan_us"] = np.nan
    ax = td.plot.heatmap(frame, x="pending_updates", y="level_bound", value="makespan_us")
    texts = [t.get_text() for t in ax.texts]
    assert sum("1/2 failed" in t for t in texts) == 1, texts
    assert texts.count("failed") == 2  # pending_updates 0: every run of both cells failed
    assert [t.get_text() for t in ax.get_xticklabels()] == ["0", "4", "unbounded"]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["2", "3"]  # whole numbers
    plt.close(ax.figure)


def test_line_marks_points_with_failed_runs() -> None:
    ax = td.plot.line(failing_frame(), x="pending_updates", y="makespan_us")
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "some runs failed" in labels
    assert sum(t.get_text() == "2/2 failed" for t in ax.texts) == 2  # wireframe, 2 level bounds
    plt.close(ax.figure)


def test_integers_stay_integers_in_tables_and_ticks() -> None:
    frame = failing_frame()
    assert str(frame["level_bound"].dtype) == "Int64"
    assert str(frame["node_buffer"].dtype) == "Int64"  # <NA> for dataflow_ideal
    assert frame["pending_updates"].dtype == np.float64  # 'unbounded' is inf
    assert td.plot.tick_text(np.inf) == "unbounded" and td.plot.tick_text(1000.0) == "1000"


def test_unbounded_is_drawn_past_the_largest_value() -> None:
    wl = td.workloads.wavefront(5, 5, cost=td.cost.constant(100))
    df = td.sweep(
        wl,
        td.gpus.gtx480(host_launch_us=1),
        "wireframe",
        grid={"node_buffer": [16, 64, "unbounded"]},
    )
    ax = td.plot.line(df, x="node_buffer", y="makespan_us")
    xs = ax.get_lines()[0].get_xdata()
    assert list(xs[:2]) == [16, 64] and xs[2] > 64
    assert "unbounded" in [t.get_text() for t in ax.get_xticklabels()]
    plt.close(ax.figure)


def test_bar_with_many_categories_stays_readable() -> None:
    rows = [
        {
            "label": "s",
            "workload": f"benchmark-{i:02d}",
            "gpu": "g",
            "replicate": r,
            "speedup": 1 + i / 10 + r,
        }
        for i in range(30)
        for r in range(2)
    ]
    frame = pd.DataFrame(rows)
    ax = td.plot.bar(frame, x="workload", y="speedup")
    assert ax.get_yticklabels()[0].get_text() == "benchmark-00"  # horizontal past 24 bars
    assert "whiskers: min to max over replicates" in ax.get_title()
    plt.close(ax.figure)
    ax = td.plot.bar(frame[frame.workload < "benchmark-10"], x="workload", y="speedup")
    assert ax.get_xticklabels()[0].get_rotation() == 45
    plt.close(ax.figure)


VALIDATE = textwrap.dedent(
    """\
    name: plots
    gpu: gtx480
    workload: {generator: wavefront, rows: 4, cols: 4}
    schemes: [cdp, dataflow_ideal]
    grid: {gpu.sms: [2, 4], cost.cycles: [100, 200]}
    outputs:
      plots:
    """
)


@pytest.mark.parametrize(
    ("plot", "message"),
    [
        ("{kind: line, x: sms, y: scheme}", "column 'scheme' is not numeric"),
        ("{kind: line, x: sms, y: speedup}", "'speedup': it needs a baseline"),
        ("{kind: line, x: sms, y: status}", "only with 'on_error: record'"),
        ("{kind: line, x: sms, y: makespan_us, hue: label}", "differ in cost.cycles"),
        ("{kind: heatmap, x: sms, y: label, value: makespan_us}", "differ in cost.cycles"),
        (
            "{kind: line, x: sms, y: makespan_us, where: {scheme: cpd}}",
            "matches none of the 8 runs",
        ),
        ("{kind: bar, x: sms, y: makespan_us, file: results.csv/a.png}", "inside results.csv"),
    ],
)
def test_plot_problems_are_found_by_validate(
    plot: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "p.yaml"
    path.write_text(VALIDATE + f"    - {plot}\n")
    assert cli.main(["validate", str(path)]) == 2
    err = capsys.readouterr().err
    assert message in err, err
    assert "p.yaml:8:" in err  # file:line of the plot


def test_two_plots_writing_one_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "p.yaml"
    plot = "{kind: line, x: sms, y: makespan_us, file: a.png}"
    path.write_text(VALIDATE + f"    - {plot}\n    - {plot}\n")
    assert cli.main(["validate", str(path)]) == 2
    assert "plots 0 and 1 both write a.png" in capsys.readouterr().err
