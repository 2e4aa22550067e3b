"""Task graphs from and to networkx DiGraphs (:func:`from_networkx`;
``Workload.to_networkx``), data footprints included.
"""

from __future__ import annotations

import contextlib
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from tbdse._util.excerpts import excerpt
from tbdse.errors import ConfigError
from tbdse.io.task_graphs import (
    CostArg,
    from_edges,
)
from tbdse.workloads.base import Kernel, Workload
from tbdse.workloads.cost import as_cost
from tbdse.workloads.footprints import DataFootprints

__all__ = ["from_networkx"]


def from_networkx(
    g: Any,
    *,
    name: str = "networkx",
    cost_attr: str | None = "cost",
    cost: CostArg = None,
    kernel: Kernel | None = None,
    kernels: Sequence[Kernel] | None = None,
) -> Workload:
    """A workload from a networkx DiGraph; node costs from ``cost_attr`` when every node has it.

    Nodes are numbered in sorted order when sortable, else in insertion order;
    ``workload.labels[i]`` is the original node of task i.  A graph made by
    :meth:`Workload.to_networkx` also gives back its cost model and kernels
    (graph attributes ``tbdse_cost`` and ``tbdse_kernels``, node attribute
    ``kernel``), so the round trip simulates the same; ``cost``, ``kernel``
    and ``kernels`` given here take precedence.  A node attribute ``data``,
    a list of ``("read" | "write", base, bytes)`` ranges, gives that task's
    data footprint (:class:`tbdse.workloads.DataFootprints`).
    """
    nodes: list[Hashable] = list(g.nodes)
    with contextlib.suppress(TypeError):  # unsortable labels keep insertion order
        nodes = sorted(nodes)  # type: ignore[type-var]
    index = {node: i for i, node in enumerate(nodes)}
    edges = [(index[u], index[v]) for u, v in g.edges]
    costs = None
    if cost_attr and nodes and all(cost_attr in g.nodes[v] for v in nodes):
        costs = [g.nodes[v][cost_attr] for v in nodes]
    attrs = getattr(g, "graph", {}) or {}
    kernel_ids = None
    if cost is None and isinstance(attrs.get("tbdse_cost"), Mapping):
        cost = as_cost(attrs["tbdse_cost"])
    if kernel is None and kernels is None and isinstance(attrs.get("tbdse_kernels"), list):
        kernels = [Kernel(**k) for k in attrs["tbdse_kernels"] if isinstance(k, Mapping)]
        by_name = {k.name: i for i, k in enumerate(kernels)}
        if len(kernels) > 1 and all(g.nodes[v].get("kernel") in by_name for v in nodes):
            kernel_ids = [by_name[g.nodes[v]["kernel"]] for v in nodes]
    made = from_edges(
        edges,
        len(nodes),
        name=name,
        costs=costs,
        kernel_ids=kernel_ids,
        cost=cost,
        kernel=kernel,
        kernels=kernels,
    )
    made.labels = nodes
    data = _footprints(g, nodes)
    return made if data is None else made.with_data(data)


def _footprints(g: Any, nodes: list[Hashable]) -> DataFootprints | None:
    """The nodes' ``data`` attributes as footprints (task i is ``nodes[i]``), or None."""
    rows: list[tuple[int, str, int, int]] = []
    found = False
    for i, node in enumerate(nodes):
        ranges = g.nodes[node].get("data")
        if ranges is None:
            continue
        found = True
        if isinstance(ranges, (str, bytes)) or not isinstance(ranges, Iterable):
            raise ConfigError(
                f"networkx node {excerpt(node)}: 'data' must be a list of "
                f"('read' | 'write', base, bytes) ranges; got {excerpt(ranges)}"
            )
        for r in ranges:
            ok = isinstance(r, (tuple, list)) and len(r) == 3 and r[0] in ("read", "write")
            whole_numbers = all(
                isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in r[1:]
            )
            if not ok or not whole_numbers:
                raise ConfigError(
                    f"networkx node {excerpt(node)}: a 'data' range is ('read' | 'write', "
                    f"base, bytes) with whole-number base and bytes; got {excerpt(r)}"
                )
            rows.append((i, r[0], int(r[1]), int(r[2])))
    return DataFootprints.from_rows(rows) if found else None
