"""Shared by the scripts/make_*_notebook.py generators: writes a notebook from
(kind, source) cells, kind "md" or "code"."""

from __future__ import annotations

from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]


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
