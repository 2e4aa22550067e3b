"""Checks shared by the claims-ledger reproduction tests (docs/MODELS.md §9):
a ledger is a YAML list of claims, each with an id, its paper value and
tolerance, ``kind`` (calibrated / predicted / input) and ``status`` (holds / misses,
a miss with its ``reason``); an evaluator of the same id returns tbdse's
value as text and whether the claim holds."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
import yaml

DOCS = Path(__file__).parent.parent / "docs" / "models"


def load_entries(name: str) -> list[dict[str, Any]]:
    """The claims of docs/models/<name>.yaml."""
    return yaml.safe_load((DOCS / f"{name}.yaml").read_text())["claims"]


def check_entries(entries: list[dict[str, Any]], evaluators: Mapping[str, Any]) -> None:
    """Every claim has one evaluator and every evaluator one claim; kinds and
    statuses are valid and a miss says why."""
    ids = [e["id"] for e in entries]
    assert len(ids) == len(set(ids)) and set(ids) == set(evaluators)
    for e in entries:
        assert e["kind"] in ("calibrated", "predicted", "input") and e["status"] in (
            "holds",
            "misses",
        )
        assert e["status"] == "holds" or e.get("reason"), e["id"]  # a miss says why


def check_claim(entry: dict[str, Any], value: str, holds: bool) -> None:
    """A claim the ledger lists as a miss is a strict xfail: if it starts
    holding, the test fails until the ledger is updated.  With
    TBDSE_LEDGER_VALUES set, each value is also appended to that file (one
    JSON line) for scripts/ledger_sync.py."""
    if record := os.environ.get("TBDSE_LEDGER_VALUES"):
        with open(record, "a", encoding="utf-8") as out:
            out.write(
                json.dumps({"id": entry["id"], "value": str(value), "holds": bool(holds)}) + "\n"
            )
    if entry["status"] == "misses":
        assert not holds, f"{entry['id']} now holds ({value}): update the ledger"
        pytest.xfail(f"{entry['id']}: {value}; {entry['reason']}")
    assert holds, f"{entry['id']}: paper {entry['paper']}; tbdse {value} ({entry['tolerance']})"
