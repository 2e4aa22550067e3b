"""What the package ships beside the code: the licence and citation files, the
example experiments (copies of experiments/) and `tbdse example`."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest
import yaml

import tbdse as td
from tbdse.experiment.cli import main

ROOT = Path(__file__).resolve().parents[1]
tomllib = pytest.importorskip("tomllib")  # Python 3.11+


def _sync_script():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location(
        "sync_examples", ROOT / "scripts" / "sync_examples.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_license_and_citation_match_the_metadata() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    license_text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert project["project"]["license"] == {"text": "MIT"}
    assert license_text.startswith("MIT License")
    assert "tbdse authors" in license_text
    assert project["tool"]["scikit-build"]["wheel"]["license-files"] == ["LICENSE"]
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    assert cff["cff-version"] == "1.2.0"
    assert cff["version"] == project["project"]["version"] == td.__version__
    assert cff["license"] == "MIT"
    assert cff["authors"] == [{"name": "tbdse authors"}]
    assert cff["title"] and cff["message"]


def test_the_packaged_examples_are_copies_of_experiments() -> None:
    sync = _sync_script()
    source = sync.shipped_files(ROOT / "experiments")
    shipped = sync.shipped_files(td.examples.folder())
    assert shipped == source, "run scripts/sync_examples.py"
    for rel in source:
        assert (td.examples.folder() / rel).read_bytes() == (
            ROOT / "experiments" / rel
        ).read_bytes(), f"{rel} differs: run scripts/sync_examples.py"
    assert td.examples.names() == sorted(p.stem for p in (ROOT / "experiments").glob("*.yaml"))


def test_an_unknown_example_suggests_a_name() -> None:
    with pytest.raises(td.ConfigError, match="did you mean 'quickstart'"):
        td.examples.path("quickstat")


def test_tbdse_example_lists_and_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)  # any folder: the example's data lie beside it in the package
    assert main(["example"]) == 0
    listed = capsys.readouterr().out
    assert re.search(r"^quickstart\s+Barrier baselines", listed, re.M)
    assert main(["example", "juggler_lu_tasks", "-o", "out", "--no-progress", "-q"]) == 0
    assert (tmp_path / "out" / "resolved.yaml").exists()
    assert (tmp_path / "out" / "results.csv").exists()
    assert main(["example", "quickstat"]) == 2
    assert "did you mean 'quickstart'" in capsys.readouterr().err


def test_notebooks_read_the_packaged_examples_not_a_relative_folder() -> None:
    """Notebooks run from any folder: they run experiment files through
    tbdse.experiment.examples (td.examples.run), never through ../experiments."""
    import nbformat

    sources = [(ROOT / "scripts" / "_nbwrite.py").read_text(encoding="utf-8")]
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        sources += [c.source for c in nb.cells if c.cell_type == "code"]
    assert not [s for s in sources if "../experiments" in s]
    assert "run = td.examples.run" in sources[0]


def test_examples_run_keeps_its_store_where_tbdse_examples_out_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """td.examples.run (the notebooks' runner): a temporary folder by default;
    under TBDSE_EXAMPLES_OUT one folder per example, whose results store a
    later run reuses instead of simulating again, with overrides too."""
    monkeypatch.delenv(td.examples.OUT_VARIABLE, raising=False)
    first = td.examples.run("juggler_lu_tasks")
    assert first.attrs["runs_simulated"] == len(first) and first.attrs["runs_reused"] == 0
    monkeypatch.setenv(td.examples.OUT_VARIABLE, str(tmp_path))
    fresh = td.examples.run("juggler_lu_tasks")
    again = td.examples.run("juggler_lu_tasks")
    assert (fresh.attrs["runs_simulated"], again.attrs["runs_simulated"]) == (len(first), 0)
    assert again.attrs["runs_reused"] == len(first)
    assert again["makespan_cycles"].tolist() == first["makespan_cycles"].tolist()
    assert (tmp_path / "juggler_lu_tasks" / "results.csv").exists()
    varied = td.examples.run("juggler_lu_tasks", "replicates=2")  # the same folder and store
    assert len(varied) == 2 * len(first) and varied.attrs["runs_reused"] == len(first)
    assert [p.name for p in tmp_path.iterdir()] == ["juggler_lu_tasks"]
