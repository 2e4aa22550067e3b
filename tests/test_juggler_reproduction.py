"""Juggler's claims ledger as reproduction tests (docs/MODELS.md §9).

Every claim of the paper's evaluation is an entry of
docs/models/juggler_claims.yaml: its paper value, tolerance, kind
(calibrated / predicted) and status.  Each is checked here with the
evaluator of the same id (tests/juggler_claims.py) on five runs with a 2%
task-time spread (experiments/juggler_fig4.yaml, juggler_fig7.yaml).  A
claim the ledger lists as a miss is a strict xfail: if it starts holding,
the test fails until the ledger is updated.  Run on their own:
pytest -m reproduction."""

from __future__ import annotations

import pandas as pd
import pytest
from _ledger import check_claim, check_entries, load_entries
from conftest import run_experiment
from juggler_claims import CLAIMS

pytestmark = pytest.mark.reproduction

ENTRIES = load_entries("juggler_claims")


@pytest.fixture(scope="module")
def results() -> tuple[pd.DataFrame, pd.DataFrame]:
    return run_experiment("juggler_fig4"), run_experiment("juggler_fig7")


def test_the_ledger_lists_every_evaluator_once() -> None:
    check_entries(ENTRIES, CLAIMS)


@pytest.mark.parametrize("entry", ENTRIES, ids=[e["id"] for e in ENTRIES])
def test_claim(entry: dict, results: tuple[pd.DataFrame, pd.DataFrame]) -> None:
    value, holds = CLAIMS[entry["id"]](*results)
    check_claim(entry, value, holds)


def test_lf_survives_task_time_noise() -> None:
    # Issue 18: with LF's neighbour counter restarting per parent, HEAT-SIM's
    # LF fell 14x (1.44 -> 0.07) at 1% task-time spread.  With the counter
    # increasing (§5.6) it loses at most 3x over 0-5% (not a paper claim:
    # the merge of two rows on one worker still costs; ledger obs1).
    df = run_experiment("juggler_lf_stability")
    lf = df[df["label"] == "LF"].groupby("workload.cost_jitter")["speedup"].mean()
    assert lf.min() >= lf.max() / 3, lf
