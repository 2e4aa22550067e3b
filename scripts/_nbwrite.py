# ruff: noqa: E501  (the helpers are notebook code, kept as the notebooks show them)
"""Shared by the scripts/make_*_notebook.py generators: writes a notebook from
(kind, source) cells, kind "md" or "code"."""

from __future__ import annotations

from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]

# Code every reproduction notebook starts with (after its imports, which bring
# tbdse as td): run a packaged example quietly (td.examples.run: a temporary
# folder, or the folder TBDSE_EXAMPLES_OUT names, whose results stores are
# reused), and collect the paper-vs-tbdse table row by row.
RUN_HELPER = """# A packaged example (it runs from any folder), quietly: its result table.  With
# TBDSE_EXAMPLES_OUT set, its results store is kept there and reused when run again.
run = td.examples.run
"""
ROWS_HELPER = """rows = []  # the paper-vs-tbdse table: (quantity, paper, tbdse, calibrated or predicted)
def row(quantity, paper, ours, kind):
    rows.append({"quantity": quantity, "paper": paper, "tbdse": ours, "kind": kind})"""


def write_notebook(cells: list[tuple[str, str]], name: str) -> Path:
    nb = nbformat.v4.new_notebook()
    for kind, source in cells:
        cell = nbformat.v4.new_markdown_cell if kind == "md" else nbformat.v4.new_code_cell
        nb.cells.append(cell(source))
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    path = ROOT / "notebooks" / name
    nbformat.write(nb, path)
    return path
