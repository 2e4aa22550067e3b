"""Copies experiments/*.yaml and experiments/data/ into python/tbdse/experiment/examples/,
the example experiments the package ships (tbdse.experiment.examples, `tbdse example`).

    .venv/bin/python scripts/sync_examples.py

tests/test_packaging.py fails while the two differ.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "experiments"
TARGET = ROOT / "python" / "tbdse" / "experiment" / "examples"


def shipped_files(base: Path) -> list[str]:
    """The example files below ``base``, relative: *.yaml and data/*."""
    files = [p for p in base.glob("*.yaml")] + [p for p in (base / "data").rglob("*")]
    return sorted(str(p.relative_to(base)) for p in files if p.is_file())


def main() -> int:
    wanted = shipped_files(SOURCE)
    for stale in set(shipped_files(TARGET)) - set(wanted):
        (TARGET / stale).unlink()
    for rel in wanted:
        (TARGET / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(SOURCE / rel, TARGET / rel)
    print(f"copied {len(wanted)} files to {TARGET}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
