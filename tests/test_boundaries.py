"""Issue 33, item 5: errors at tbdse's boundaries are known before anything is
written: a Dask scheduler address Dask cannot parse is refused before the
output folder (or store) is claimed, and a search objective naming a text
column is refused when the file is validated, not after the first batch."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

import tbdse as td
from tbdse.experiment import cli

pytest.importorskip("distributed")

EXPERIMENT = textwrap.dedent(
    """\
    name: boundary
    gpu: gtx480
    workload: {generator: wavefront, rows: 4, cols: 4}
    scheme: global_barrier
    """
)
SEARCH = textwrap.dedent(
    """\
    name: dse
    gpu: gtx480
    workload: {generator: wavefront, rows: 6, cols: 6, cost: {model: lognormal, mean: 800}}
    scheme: wireframe
    search:
      space: {node_buffer: {int: [16, 512], log: true}, policy: [lrr, lvl]}
      objectives: {OBJECTIVE: min}
      trials: 4
      batch: 2
    """
)


@pytest.mark.parametrize(
    "address", ["tcp://host:notaport", "foo://host:1", "tcp://host", "tcp://:8786", "tcp://h:0"]
)
def test_a_bad_scheduler_address_is_refused_before_the_output_folder_exists(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], address: str
) -> None:
    exp, out = tmp_path / "exp.yaml", tmp_path / "out"
    exp.write_text(EXPERIMENT, encoding="utf-8")
    code = cli.main(["run", str(exp), "-o", str(out), "--no-progress", "--scheduler", address])
    err = capsys.readouterr().err
    assert code == 2, err
    assert f"the Dask scheduler address '{address}' cannot be used" in err
    assert "Traceback" not in err
    assert not out.exists()


def test_a_bad_executor_is_refused_before_a_sweeps_store_is_made(tmp_path: Path) -> None:
    wl = td.workloads.wavefront(4, 4)
    store = tmp_path / "store"
    with pytest.raises(td.ConfigError, match="scheduler address 'tcp://x:y' cannot be used"):
        td.sweep(wl, "gtx480", "global_barrier", store=store, executor="tcp://x:y")
    with pytest.raises(td.ConfigError, match=r"executor must be a distributed\.Client"):
        td.sweep(wl, "gtx480", "global_barrier", store=store, executor=42)
    assert not store.exists()


@pytest.mark.parametrize("objective", ["policy", "scheme", "workload"])
def test_a_text_objective_is_refused_at_validation(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], objective: str
) -> None:
    path = tmp_path / "dse.yaml"
    path.write_text(SEARCH.replace("OBJECTIVE", objective), encoding="utf-8")
    assert cli.main(["validate", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"search.objectives.{objective}: objective '{objective}' is a text column" in err
    assert "must be numeric, e.g. makespan_cycles" in err


def test_a_missing_objective_column_is_refused_at_validation(tmp_path: Path) -> None:
    path = tmp_path / "dse.yaml"
    path.write_text(SEARCH.replace("OBJECTIVE", "makespan_cyles"), encoding="utf-8")
    with pytest.raises(td.ConfigError, match=r"no result column 'makespan_cyles'.*makespan_cycles"):
        td.experiment.load(path)


def test_a_numeric_objective_still_validates(tmp_path: Path) -> None:
    path = tmp_path / "dse.yaml"
    path.write_text(SEARCH.replace("OBJECTIVE", "makespan_us"), encoding="utf-8")
    assert td.experiment.load(path).search is not None
