"""The suite's xdist grouping (tests/conftest.py, example_group): a model's
ledger tests and its executed notebook share one worker, so the notebook
reuses the ledger's results store instead of simulating its examples again."""

from __future__ import annotations

from pathlib import Path

from conftest import example_group

ROOT = Path(__file__).resolve().parents[1]


def test_every_ledger_has_a_notebook_of_its_name() -> None:
    """The group is read from the names: a notebook renamed away from its
    ledger would run on another worker and simulate its examples again."""
    ledgers = {
        example_group(f"tests/{p.name}::test_claim[x]")
        for p in (ROOT / "tests").glob("test_*_reproduction.py")
    }
    notebooks = {
        example_group(f"tests/test_notebooks.py::test_notebook_runs[{p.name}]")
        for p in (ROOT / "notebooks").glob("*.ipynb")
    }
    assert ledgers == {"blockmaestro", "hwwl", "juggler", "vgiw", "wireframe"}
    assert ledgers <= notebooks


def test_a_models_ledger_and_notebook_map_to_it_and_nothing_else_does() -> None:
    assert example_group("tests/test_hwwl_reproduction.py::test_claim[T2-W-BFS]") == "hwwl"
    assert example_group("tests/test_notebooks.py::test_notebook_runs[juggler.ipynb]") == "juggler"
    committed = "tests/test_notebooks.py::test_notebook_is_committed_executed[hwwl.ipynb]"
    assert example_group(committed) is None
    assert example_group("tests/test_hwwl.py::test_something") is None
    assert example_group("tests/test_juggler_apps.py::test_x[juggler]") is None
