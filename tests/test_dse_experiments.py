"""Experiment files with a ``sample:`` design or a ``search:`` instead of a
grid (issue 16), and ``--input-root`` on the command line (issue 21)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pandas as pd
import pytest
import yaml

from tbdse import experiment
from tbdse.experiment import cli

HEAD = textwrap.dedent(
    """\
    name: dse
    gpu: gtx480
    workload: {generator: wavefront, rows: 10, cols: 10, cost: {model: lognormal, mean: 800}}
    seed: 4
    """
)
SAMPLE = HEAD + textwrap.dedent(
    """\
    scheme: wireframe
    sample:
      space:
        node_buffer: {int: [16, 512], log: true}
        level_bound: {int: [1, 6]}
        prefetch: [true, false]
      n: 12
      method: lhs
    outputs:
      tables: [parquet]
      plots: [{kind: line, x: node_buffer, y: makespan_us, file: nb.png}]
    """
)
SEARCH = HEAD + textwrap.dedent(
    """\
    scheme: wireframe
    baseline: global_barrier
    search:
      space:
        node_buffer: {int: [16, 512], log: true}
        policy: [lrr, lvl]
      objectives: {speedup: max, makespan_us: min}
      trials: 12
      batch: 4
      sampler: nsga2
    outputs:
      tables: [parquet, csv]
      plots: [{kind: line, x: trial, y: speedup, file: trials.png}]
    """
)


def write(folder: Path, text: str, name: str = "dse.yaml") -> Path:
    path = folder / name
    path.write_text(text)
    return path


def errors(folder: Path, text: str, capsys: pytest.CaptureFixture[str]) -> str:
    assert cli.main(["validate", str(write(folder, text, "bad.yaml"))]) == 2
    return capsys.readouterr().err


def test_a_sample_section_sweeps_its_points(tmp_path: Path) -> None:
    exp = experiment.load(write(tmp_path, SAMPLE))
    assert experiment.count_runs(exp) == 12 and len(exp.zip["node_buffer"]) == 12
    df = exp.run(tmp_path / "out", progress=False, echo=lambda _: None)
    assert len(df) == 12 and df["node_buffer"].astype(int).between(16, 512).all()
    assert (tmp_path / "out" / "nb.png").exists()
    # resolved.yaml holds the drawn points: it gives the same runs
    again = experiment.load(tmp_path / "out" / "resolved.yaml")
    assert again.zip == exp.zip
    # the same file draws the same points; another seed other points
    assert experiment.load(write(tmp_path, SAMPLE)).zip == exp.zip
    other = experiment.load(
        write(tmp_path, SAMPLE.replace("method: lhs", "method: lhs\n  seed: 9"))
    )
    assert other.zip != exp.zip


def test_a_search_section_runs_a_search(tmp_path: Path) -> None:
    path = write(tmp_path, SEARCH)
    assert experiment.count_runs(experiment.load(path)) == 12
    out = tmp_path / "out"
    assert cli.main(["run", str(path), "-o", str(out), "--no-progress"]) == 0
    df = pd.read_parquet(out / "results.parquet")
    assert sorted(df["trial"]) == list(range(12)) and (out / "trials.png").exists()
    resolved = yaml.safe_load((out / "resolved.yaml").read_text())
    assert resolved["search"]["sampler"] == "nsga2"
    # run again: the same trials, every run from the store
    assert cli.main(["run", str(path), "-o", str(out), "--no-progress"]) == 0
    pd.testing.assert_frame_equal(pd.read_parquet(out / "results.parquet"), df)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (SAMPLE.replace("method: lhs", "method: latin"), "must be one of random, lhs, sobol"),
        (SAMPLE.replace("  n: 12\n", ""), "sample needs 'n'"),
        (SAMPLE.replace("  n: 12", "  n: 12\n  points: 3"), "unknown key 'points' in sample"),
        (SAMPLE.replace("{int: [1, 6]}", "{int: [6, 1]}"), "low must be below high"),
        (SAMPLE + "zip: {node_buffer: [16, 32]}\n", "give either 'zip' or 'sample'"),
        (SEARCH.replace("sampler: nsga2", "sampler: nsga"), "did you mean 'nsga2'"),
        (SEARCH.replace("speedup: max", "speedup: up"), "direction must be 'min' or 'max'"),
        (SEARCH.replace("  trials: 12\n", "  trials: 0\n"), "must be a whole number from 1"),
        (SEARCH + "grid: {level_bound: [1, 2]}\n", "'grid' and 'search' exclude each other"),
        (SEARCH.replace("scheme: wireframe", "schemes: [wireframe, cdp]"), "runs one scheme"),
        (
            SEARCH.replace("  objectives: {speedup: max, makespan_us: min}\n", ""),
            "search needs 'objectives'",
        ),
    ],
)
def test_bad_sample_and_search_sections(
    text: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert message in errors(tmp_path, text, capsys)


def test_input_root_confines_the_files_an_experiment_reads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = Path(__file__).parent / "data" / "stg"
    stg = next(data.glob("**/*.stg"))
    text = textwrap.dedent(
        f"""\
        gpu: gtx480
        workload: {{file: {stg}}}
        scheme: dataflow_ideal
        """
    )
    path = write(tmp_path, text)
    assert cli.main(["validate", str(path), "--input-root", str(data)]) == 0
    assert cli.main(["validate", str(path), "--input-root", str(tmp_path)]) == 2
    assert "outside the input root" in capsys.readouterr().err
    out = tmp_path / "out"
    assert cli.main(["run", str(path), "-o", str(out), "--input-root", str(tmp_path)]) == 2
    assert not out.exists()  # refused before anything was written
