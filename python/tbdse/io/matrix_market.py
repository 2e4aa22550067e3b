"""* :func:`read_matrix_market` — a Matrix Market matrix as the dependency DAG of
a sparse triangular solve: task i is row i, an off-diagonal entry (i, j)
makes task i wait for task j (edge j -> i), and a task costs its row's
stored entries times ``cycles_per_nonzero``.  All off-diagonal entries must
lie in one triangle (a symmetric file stores the lower one): any other
matrix has no natural DAG and is refused, naming an entry of each triangle.
:func:`matrix_market_arcs` reads one as a weighted data graph for
``graphs.read_matrix_market(path, weight_scale=...)``.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence

import numpy as np

from tbdse._util.excerpts import content, excerpt, from_file, shown
from tbdse.errors import ConfigError
from tbdse.io.inputs import text_lines
from tbdse.io.task_graphs import (
    MAX_DIGITS,
    MAX_MM_ENTRIES,
    MAX_TEXT_BYTES,
    CostArg,
    positive,
    stem,
    task_graph_workload,
)
from tbdse.io.yamlio import read_text
from tbdse.workloads.base import Kernel, Workload, generator
from tbdse.workloads.cost import from_graph

_MM_WORDS = {"matrix", "vector", "coordinate", "array", "pattern", "integer", "real", "complex"}
_MM_WORDS |= {"general", "symmetric", "skew-symmetric", "hermitian"}
_MM_SUPPORTED = (
    "supported: '%%MatrixMarket matrix coordinate <pattern|integer|real> <general|symmetric>'"
)

__all__ = ["matrix_market_arcs", "read_matrix_market"]


def _mm_entries(
    path: str | os.PathLike[str],
) -> tuple[int, str, bool, list[tuple[int, int, str, int]]]:
    """Node count, value type, symmetry and (row, column, value, line) entries (0-based)."""
    where = shown(path)
    with from_file():
        return _mm_read(read_text(os.fspath(path), "Matrix Market file", MAX_TEXT_BYTES), where)


def _mm_word(word: str) -> str:
    return f"'{word}'" if word in _MM_WORDS else content(word, "word")


def _mm_read(text: str, where: str) -> tuple[int, str, bool, list[tuple[int, int, str, int]]]:
    lines = text_lines(text)
    first = next(lines, "")
    banner = first.split()
    if not banner or banner[0].lower() != "%%matrixmarket":
        raise ConfigError(
            f"{where}:1: expected the Matrix Market banner '%%MatrixMarket matrix coordinate "
            f"...'; got {content(first, 'line')}"
        )
    if len(banner) != 5:
        raise ConfigError(
            f"{where}:1: the banner needs 4 words after '%%MatrixMarket'; {_MM_SUPPORTED}"
        )
    obj, fmt, field, symmetry = (w.lower() for w in banner[1:])
    for value, valid, what in (
        (obj, ("matrix",), "object"),
        (fmt, ("coordinate",), "format"),
        (field, ("pattern", "integer", "real"), "value type"),
        (symmetry, ("general", "symmetric"), "symmetry"),
    ):
        if value not in valid:
            raise ConfigError(
                f"{where}:1: {what} {_mm_word(value)} is not supported; {_MM_SUPPORTED}"
            )
    nodes = declared = size_line = 0
    entries: list[tuple[int, int, str, int]] = []
    want = 2 if field == "pattern" else 3
    for lineno, line in enumerate(lines, 2):
        words = line.split()
        if not words or words[0].startswith("%"):
            continue
        if not size_line:
            try:
                if len(words) != 3 or max(map(len, words)) > MAX_DIGITS:
                    raise ValueError
                rows, cols, declared = (int(w) for w in words)
            except ValueError:
                rows, cols, declared = 0, 0, -1
            if declared < 0 or rows < 1:
                raise ConfigError(
                    f"{where}:{lineno}: expected the size line '<rows> <columns> <entries>' "
                    f"(whole numbers, rows >= 1); got {content(line, 'line')}"
                )
            if rows != cols or rows >= 2**31:
                raise ConfigError(
                    f"{where}:{lineno}: the matrix is {rows} x {cols}: a graph's matrix must "
                    "be square, with at most 2^31 - 1 rows"
                )
            if declared > MAX_MM_ENTRIES:
                raise ConfigError(
                    f"{where}:{lineno}: the size line declares {declared:,} entries; a Matrix "
                    f"Market file is read here up to {MAX_MM_ENTRIES:,} (graphs.read_matrix_market "
                    "without weight_scale reads larger ones)"
                )
            nodes, size_line = rows, lineno
            continue
        if len(words) != want:
            shape = "<row> <column>" if want == 2 else "<row> <column> <value>"
            raise ConfigError(
                f"{where}:{lineno}: expected an entry '{shape}' ({field}); "
                f"got {content(line, 'line')}"
            )
        if len(entries) == declared:
            raise ConfigError(
                f"{where}:{lineno}: more entries than the {declared} that the size line "
                f"(line {size_line}) declares"
            )
        ids: list[int] = []
        for word in words[:2]:
            try:
                k = int(word) if len(word) <= MAX_DIGITS else 0
            except ValueError:
                k = 0
            if not 1 <= k <= nodes:
                index = "row" if not ids else "column"
                raise ConfigError(
                    f"{where}:{lineno}: the entry's {index} index ({content(word, 'word')}) is "
                    f"not a whole number in range (valid: 1..{nodes})"
                )
            ids.append(k - 1)
        if symmetry == "symmetric" and ids[0] < ids[1]:
            raise ConfigError(
                f"{where}:{lineno}: entry ({words[0]}, {words[1]}) lies above the diagonal; a "
                "symmetric file lists only row >= column"
            )
        entries.append((ids[0], ids[1], words[2] if want == 3 else "1", lineno))
    if not size_line:
        raise ConfigError(f"{where}: no size line '<rows> <columns> <entries>' after the banner")
    if len(entries) != declared:
        raise ConfigError(
            f"{where}: the size line (line {size_line}) declares {declared} entries but the "
            f"file has {len(entries)}"
        )
    return nodes, field, symmetry == "symmetric", entries


def matrix_market_arcs(
    path: str | os.PathLike[str], weight_scale: float, max_weight: int
) -> tuple[int, np.ndarray, np.ndarray, np.ndarray | None]:
    """Nodes, arc sources, targets and weights (None: a pattern file) of a Matrix
    Market file as a data graph: entry (i, j) is the arc i -> j (and j -> i in a
    symmetric file); weight ``round(value * weight_scale)``, refusing negative
    values and weights above ``max_weight``, naming the line."""
    where = shown(path)
    nodes, field, symmetric, entries = _mm_entries(path)
    src: list[int] = []
    dst: list[int] = []
    weights: list[int] = []
    for i, j, word, line in entries:
        weight = 1
        if field != "pattern":
            try:
                if len(word) > MAX_DIGITS:  # int() balks at 4300 digits, float() overflows
                    raise ValueError
                value = int(word) if field == "integer" else float(word)
            except ValueError:
                raise ConfigError(
                    f"{where}:{line}: entry ({i + 1}, {j + 1}): the value "
                    f"({content(word, 'word')}) is not "
                    f"{'a whole number' if field == 'integer' else 'a number'}"
                ) from None
            scaled = value * weight_scale
            if not math.isfinite(scaled) or value < 0 or round(scaled) > max_weight:
                raise ConfigError(
                    f"{where}:{line}: entry ({i + 1}, {j + 1}): value {excerpt(word)} times "
                    f"weight_scale {weight_scale:g} is no arc weight (weights are "
                    f"0..{max_weight}; negative values are refused)"
                )
            weight = round(scaled)
        for s, d in [(i, j), (j, i)] if symmetric and i != j else [(i, j)]:
            src.append(s)
            dst.append(d)
            weights.append(weight)
    arrays = np.asarray(src, dtype=np.int64), np.asarray(dst, dtype=np.int64)
    return nodes, *arrays, None if field == "pattern" else np.asarray(weights, dtype=np.int64)


@generator("matrix_market", naming=lambda p: stem(str(p.get("path", "matrix_market"))))
def read_matrix_market(
    path: str,
    cycles_per_nonzero: float = 100.0,
    *,
    name: str | None = None,
    cost: CostArg = None,
    kernel: Kernel | None = None,
    kernels: Sequence[Kernel] | None = None,
) -> Workload:
    """A triangular Matrix Market matrix as a sparse triangular solve's task DAG (row = task)."""
    per_entry = positive(cycles_per_nonzero, "matrix_market: 'cycles_per_nonzero'")
    where = shown(path)
    nodes, _, _, entries = _mm_entries(path)
    if nodes > 2**24:
        raise ConfigError(f"{where}: {nodes} rows: a task graph from a matrix has at most 2^24")
    triangle: dict[bool, tuple[int, int, int]] = {}
    edges: list[tuple[int, int]] = []
    counts = [0] * nodes
    for i, j, _, line in entries:
        counts[i] += 1
        if i == j:
            continue
        triangle.setdefault(i > j, (i, j, line))
        edges.append((j, i))
    if len(triangle) == 2:
        (li, lj, ll), (ui, uj, ul) = triangle[True], triangle[False]
        raise ConfigError(
            f"{where}:{ul}: entry ({ui + 1}, {uj + 1}) lies above the diagonal but entry "
            f"({li + 1}, {lj + 1}) (line {ll}) lies below: a matrix is read as the task DAG "
            "of a triangular solve, so its off-diagonal entries must all lie in one triangle"
        )
    made = task_graph_workload(
        list(range(nodes)),
        edges,
        counts,
        where,
        name=name or stem(str(path)),
        default_cost=from_graph(per_entry),
        cost=cost,
        kernel=kernel,
        kernels=kernels,
    )
    made.generator = "matrix_market"
    made.params = {"path": str(path), "cycles_per_nonzero": cycles_per_nonzero}
    return made
