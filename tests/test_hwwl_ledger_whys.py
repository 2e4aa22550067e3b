"""Every miss of the HWWL claims ledger says why (issue 29)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import hwwl_claims as claims
from hwwl_whys import MISS_WHY

RECORDED = json.loads((Path(__file__).parent / "data" / "hwwl_ledger.json").read_text())


def test_every_recorded_miss_has_a_reason() -> None:
    missing = [
        c.id for c in claims.CLAIMS if RECORDED[c.id] is False and not (c.why or MISS_WHY.get(c.id))
    ]
    assert not missing, f"ledger misses without a reason (tests/hwwl_whys.py): {missing}"


def test_reasons_name_recorded_misses_only() -> None:
    stale = [k for k in MISS_WHY if RECORDED.get(k) is not False]
    assert not stale, f"tests/hwwl_whys.py gives reasons for claims that do not miss: {stale}"
