"""Executes notebooks in place so their stored outputs match the code.

Usage: python scripts/run_notebooks.py [notebooks/NAME.ipynb ...]  (default: all)
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]


def main(paths: list[str]) -> int:
    targets = [Path(p) for p in paths] or sorted((ROOT / "notebooks").glob("*.ipynb"))
    for path in targets:
        nb = nbformat.read(path, as_version=4)
        NotebookClient(
            nb,
            timeout=600,
            kernel_name="python3",
            resources={"metadata": {"path": str(path.parent)}},
        ).execute()
        nbformat.write(nb, path)
        print(f"executed {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
