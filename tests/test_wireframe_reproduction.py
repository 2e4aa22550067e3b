"""Wireframe's claims ledger as reproduction tests (docs/MODELS.md §9).

Every claim of the paper's evaluation (Figs. 9-13, the level ranges, §5.4)
is an entry of docs/models/wireframe_claims.yaml: its paper value,
tolerance, kind (calibrated / predicted) and status.  Each is checked here
with the evaluator of the same id (tests/wireframe_claims.py) on the
ledger's experiments (five runs each for Figs. 9, 10, 12; three for the
buffer sweeps of Fig. 13).  A claim the ledger lists as a miss is a strict
xfail: if it starts holding, the test fails until the ledger is updated.
Run on their own: pytest -m reproduction."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from conftest import run_experiment
from wireframe_claims import CLAIMS, EXPERIMENTS, Tables

pytestmark = pytest.mark.reproduction

LEDGER = Path(__file__).parent.parent / "docs" / "models" / "wireframe_claims.yaml"
ENTRIES = yaml.safe_load(LEDGER.read_text())["claims"]


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> Tables:
    folder = tmp_path_factory.mktemp("wireframe")
    return Tables(*(run_experiment(name, folder) for name in EXPERIMENTS))


def test_the_ledger_lists_every_evaluator_once() -> None:
    ids = [e["id"] for e in ENTRIES]
    assert len(ids) == len(set(ids)) and set(ids) == set(CLAIMS)
    for e in ENTRIES:
        assert e["kind"] in ("calibrated", "predicted") and e["status"] in ("holds", "misses")
        assert e["status"] == "holds" or e.get("reason"), e["id"]  # a miss says why


@pytest.mark.parametrize("entry", ENTRIES, ids=[e["id"] for e in ENTRIES])
def test_claim(entry: dict, tables: Tables) -> None:
    value, holds = CLAIMS[entry["id"]](tables)
    if entry["status"] == "misses":
        assert not holds, f"{entry['id']} now holds ({value}): update the ledger"
        pytest.xfail(f"{entry['id']}: {value}; {entry['reason']}")
    assert holds, f"{entry['id']}: paper {entry['paper']}; tbdse {value} ({entry['tolerance']})"
