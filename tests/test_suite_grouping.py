"""The suite's xdist grouping (tests/conftest.py, example_group): a model's
ledger tests and its executed notebook share one worker, so the notebook
reuses the ledger's results store instead of simulating its examples again."""

from __future__ import annotations

from pathlib import Path

from conftest import MODELS, example_group

ROOT = Path(__file__).resolve().parents[1]


def test_every_model_with_a_ledger_and_a_notebook_is_a_group() -> None:
    ledgers = {
        p.stem.removeprefix("test_").removesuffix("_reproduction")
        for p in (ROOT / "tests").glob("test_*_reproduction.py")
    }
    notebooks = {p.stem for p in (ROOT / "notebooks").glob("*.ipynb")}
    assert set(MODELS) == ledgers & notebooks


def test_a_models_ledger_and_notebook_map_to_it_and_nothing_else_does() -> None:
    assert example_group("tests/test_hwwl_reproduction.py::test_claim[T2-W-BFS]") == "hwwl"
    assert example_group("tests/test_notebooks.py::test_notebook_runs[juggler.ipynb]") == "juggler"
    assert example_group("tests/test_notebooks.py::test_notebook_runs[00_tour.ipynb]") is None
    committed = "tests/test_notebooks.py::test_notebook_is_committed_executed[hwwl.ipynb]"
    assert example_group(committed) is None
    assert example_group("tests/test_hwwl.py::test_something") is None
    assert example_group("tests/test_juggler_apps.py::test_x[juggler]") is None
