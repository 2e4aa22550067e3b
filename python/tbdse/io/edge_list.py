"""Task graphs from edges: :func:`from_edges` (arrays or pairs) and
:func:`read_edge_list` (a text file of ``parent child`` lines).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from tbdse._util.excerpts import content, shown
from tbdse.errors import ConfigError
from tbdse.io.inputs import text_lines
from tbdse.io.task_graphs import (
    MAX_DIGITS,
    MAX_EDGES,
    MAX_TEXT_BYTES,
    CostArg,
    from_edges,
)
from tbdse.io.yamlio import read_text
from tbdse.workloads.base import Kernel, Workload, generator

__all__ = ["from_edges", "read_edge_list"]


@generator("edge_list")
def read_edge_list(
    path: str,
    *,
    name: str | None = None,
    cost: CostArg = None,
    kernel: Kernel | None = None,
    kernels: Sequence[Kernel] | None = None,
) -> Workload:
    """An edge-list file: one 'parent child' pair per line (spaces or commas), '#' comments."""
    edges = []
    where = shown(path)
    source = read_text(path, "graph file", MAX_TEXT_BYTES)
    for lineno, line in enumerate(text_lines(source), 1):
        text = line.split("#", 1)[0].replace(",", " ").split()
        if not text:
            continue
        try:
            if len(text) != 2 or max(len(text[0]), len(text[1])) > MAX_DIGITS:
                raise ValueError
            edge = (int(text[0]), int(text[1]))
        except ValueError:
            raise ConfigError(
                f"{where}:{lineno}: expected 'parent child' node ids (whole numbers); "
                f"got {content(line, 'line')}"
            ) from None
        if not (0 <= edge[0] < 2**31 and 0 <= edge[1] < 2**31):
            raise ConfigError(
                f"{where}:{lineno}: node ids are 0..2147483647; this line's are "
                f"{edge[0]} and {edge[1]}"
            )
        edges.append(edge)
        if len(edges) > MAX_EDGES:
            raise ConfigError(
                f"{where}:{lineno}: more than {MAX_EDGES:,} edges; an edge-list task graph is "
                "read up to that"
            )
    del source
    made = from_edges(
        edges, name=name or Path(path).stem, cost=cost, kernel=kernel, kernels=kernels
    )
    made.generator, made.params = "edge_list", {"path": str(path)}
    return made
