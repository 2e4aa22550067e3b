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

import pytest
from _ledger import check_claim, check_entries, load_entries
from conftest import run_experiment
from wireframe_claims import CLAIMS, EXPERIMENTS, Tables, dgb_bytes_lvl

pytestmark = pytest.mark.reproduction

ENTRIES = load_entries("wireframe_claims")


@pytest.fixture(scope="module")
def tables() -> Tables:
    return Tables(*(run_experiment(name) for name in EXPERIMENTS))


def test_the_ledger_lists_every_evaluator_once() -> None:
    check_entries(ENTRIES, CLAIMS)


@pytest.mark.parametrize("entry", ENTRIES, ids=[e["id"] for e in ENTRIES])
def test_claim(entry: dict, tables: Tables) -> None:
    value, holds = CLAIMS[entry["id"]](tables)
    check_claim(entry, value, holds)


def test_dgb_size_is_the_papers_formula(tables: Tables) -> None:
    # Not a prediction (the ledger's not_counted: s54_dgb_2304_bytes): §5.4's
    # 2304 B is arithmetic on the buffer sizes.  Fig. 9's LVL runs report the
    # DGB at §5.1's sizes, whose PUB has 64 entries where §5.4 counts 32: at
    # 4 B an entry, 2304 + 32 x 4 B.
    assert dgb_bytes_lvl(tables) == 2304 + 32 * 4
