"""The Juggler ledger with data locality on: Figs. 4 and 7 rerun with
``locality: true`` on every workload (tbdse.workloads.juggler_apps), every
claim evaluated as in tests/test_juggler_reproduction.py, printed next to its
ledger status.  ``python scripts/juggler_locality_ledger.py [cost_scale]``."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import yaml

import tbdse as td

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from juggler_claims import CLAIMS  # noqa: E402


def run(name: str, folder: Path, scale: float | None) -> object:
    spec = yaml.safe_load((ROOT / "experiments" / f"{name}.yaml").read_text())
    items = spec.get("workloads") or [spec["workload"]]
    for w in items:
        w["locality"] = True
        if scale is not None:
            w["cost_scale"] = scale
    path = folder / f"{name}.yaml"
    path.write_text(yaml.safe_dump(spec))
    return td.experiment.load(path).run(folder / name, progress=False, echo=lambda _: None)


def main() -> None:
    scale = float(sys.argv[1]) if len(sys.argv) > 1 else None
    ledger = yaml.safe_load((ROOT / "docs/models/juggler_claims.yaml").read_text())["claims"]
    with tempfile.TemporaryDirectory() as tmp:
        f4, f7 = run("juggler_fig4", Path(tmp), scale), run("juggler_fig7", Path(tmp), scale)
    held = 0
    for e in ledger:
        value, holds = CLAIMS[e["id"]](f4, f7)
        held += bool(holds)
        now = "holds" if holds else "misses"
        print(f"{e['id']:32s} ledger {e['status']:6s} locality {now}: {value}")
    print(f"{held} of {len(ledger)} hold with locality")


if __name__ == "__main__":
    main()
