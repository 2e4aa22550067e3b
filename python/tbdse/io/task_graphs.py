"""Shared by tbdse's task-graph file readers (tbdse.io.dot, wfcommons,
matrix_market, edge_list, stg): budgets, names, cycle checks and the
Workload they build.

Every reader names the task graph's nodes by the file's ids
(``workload.labels``, in order of first appearance), refuses a cycle naming
it (``a -> b -> a``), and reports problems with the file, line (DOT, Matrix
Market) or key path (JSON) and the element; files ending in ``.gz`` are read
decompressed.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from tbdse import _core
from tbdse._util.checks import real, whole
from tbdse._util.excerpts import excerpt, from_file, quoted
from tbdse.errors import ConfigError
from tbdse.workloads.base import Kernel, Workload, make_kernels
from tbdse.workloads.cost import CostModel, cycle_array, from_graph

CostArg = CostModel | Mapping[str, Any] | float | None
MAX_CYCLES = 2**48
# Budgets of the Python readers (tbdse.io.inputs limits every input to 256 MiB; these
# formats are parsed into Python objects, ~10 bytes per byte read, so less is read):
MAX_TEXT_BYTES = 32 * 2**20  # DOT, WfCommons JSON, Matrix Market task graphs
MAX_DOT_TOKENS = 1_000_000
MAX_MM_ENTRIES = 2_000_000
MAX_JSON_DEPTH = 100
MAX_DIGITS = 64

__all__ = ["check_acyclic", "from_edges", "task_graph_workload"]


def stem(path: str) -> str:
    """A workload name from a file name: without folders, ``.gz`` and the suffix."""
    name = Path(path).name
    if name.lower().endswith(".gz"):
        name = name[:-3]
    return Path(name).stem or name


def positive(value: Any, what: str) -> float:
    number = real(value, what)
    if not 0 < number <= 1e12:
        raise ConfigError(f"{what} must be > 0 and at most 1e12; got {excerpt(value)}")
    return number


def check_acyclic(labels: Sequence[Hashable], edges: Sequence[tuple[int, int]], where: str) -> None:
    """A ConfigError naming a cycle of ``edges`` (over ``labels``) if there is one."""
    n = len(labels)
    children: list[list[int]] = [[] for _ in range(n)]
    indegree = [0] * n
    for u, v in edges:
        children[u].append(v)
        indegree[v] += 1
    ready = [i for i in range(n) if indegree[i] == 0]
    done = 0
    while ready:
        u = ready.pop()
        done += 1
        for v in children[u]:
            indegree[v] -= 1
            if indegree[v] == 0:
                ready.append(v)
    if done == n:
        return
    # Every node left has a parent left: walk parents until one repeats.
    parent = {v: u for u, v in edges if indegree[u] > 0 and indegree[v] > 0}
    node = next(v for v in range(n) if indegree[v] > 0)
    walk: list[int] = []
    seen: dict[int, int] = {}
    while node not in seen:
        seen[node] = len(walk)
        walk.append(node)
        node = parent[node]
    cycle = walk[seen[node] :][::-1]
    first = cycle.index(min(cycle))  # start at the node the file names first
    cycle = cycle[first:] + cycle[:first]
    names = [quoted(labels[i]) for i in cycle[:12]]
    path = " -> ".join(names) + (" -> ..." if len(cycle) > 12 else "")
    raise ConfigError(
        f"{where}: the task graph has a cycle: {path} -> {quoted(labels[cycle[0]])} "
        "(a task graph must be acyclic)"
    )


def task_graph_workload(
    labels: list[Hashable],
    edges: list[tuple[int, int]],
    costs: list[int] | None,
    where: str,
    *,
    name: str,
    default_cost: CostModel | None,
    cost: CostArg,
    kernel: Kernel | None,
    kernels: Sequence[Kernel] | None,
) -> Workload:
    if not labels:
        raise ConfigError(f"{where}: the file holds no tasks")
    edges = list(dict.fromkeys(edges))
    with from_file():  # the labels are the file's
        check_acyclic(labels, edges, where)
    made = from_edges(
        edges,
        len(labels),
        name=name,
        costs=costs,
        cost=cost if cost is not None else (default_cost if costs is not None else None),
        kernel=kernel,
        kernels=kernels,
    )
    made.labels = labels
    # a regenerated workload keeps the user's cost model, not the file's default
    made.chosen_cost = None if cost is None else made.cost
    return made


def to_cycles(value: Any) -> int | None:
    """A whole, non-negative cycle count from a number or numeral, else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        try:
            value = float(value) if not value.strip().lstrip("+").isdigit() else int(value)
        except ValueError:
            return None
    if isinstance(value, int):
        return value if 0 <= value <= MAX_CYCLES else None
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return int(value) if 0 <= value <= MAX_CYCLES else None
    return None


# -- DOT ------------------------------------------------------------------------------------


# Budgets of the Python text readers (each edge or token becomes Python objects, ~100
# bytes apiece; graphs.read_edge_list reads large graphs in C++):
MAX_EDGES = 2_000_000
MAX_STG_TOKENS = 4_000_000


def _ids(values: Any, what: str) -> np.ndarray:
    """Whole numbers that fit in 32 bits (node ids, kernel ids, launch groups) as int64."""
    try:
        array = np.asarray(list(values) if not isinstance(values, np.ndarray) else values)
    except (TypeError, ValueError):
        raise ConfigError(f"{what}: expected whole numbers; got {values!r:.80}") from None
    if array.size == 0:
        return array.astype(np.int64)
    integral = np.issubdtype(array.dtype, np.integer) or (
        np.issubdtype(array.dtype, np.floating)
        and bool(np.all(np.isfinite(array)) and np.all(np.mod(array, 1) == 0))
    )
    if not integral:
        raise ConfigError(f"{what}: expected whole numbers; got {values!r:.80}")
    if array.min() < -(2**31) or array.max() >= 2**31:
        raise ConfigError(f"{what}: values must fit in 32 bits; got {values!r:.80}")
    return array.astype(np.int64)


def from_edges(
    edges: Iterable[tuple[int, int]] | np.ndarray,
    n: int | None = None,
    *,
    name: str = "edges",
    costs: Sequence[int] | None = None,
    kernel_ids: Sequence[int] | None = None,
    launch_groups: Sequence[int] | None = None,
    cost: CostArg = None,
    kernel: Kernel | None = None,
    kernels: Sequence[Kernel] | None = None,
) -> Workload:
    """A workload from (parent, child) pairs over node ids 0..n-1.

    ``n`` defaults to the largest id + 1.  ``costs`` are per-node cycles (the
    cost model then defaults to ``from_graph``); ``kernel_ids`` map nodes to
    ``kernels``; ``launch_groups`` give the kernel launch each node belongs to
    in a barrier-synchronised implementation.
    """
    pairs = _ids(edges, "edge list node ids")
    if pairs.size == 0:
        pairs = pairs.reshape(0, 2)
    if pairs.ndim != 2 or pairs.shape[1] != 2:
        raise ConfigError("edges must be (parent, child) pairs")
    if n is None:
        if pairs.size == 0:
            raise ConfigError("an edge list without edges needs the node count 'n'")
        n = int(pairs.max()) + 1
    n = whole(n, "the node count 'n'", 0)  # 0: the core says the graph is empty
    _core.check_graph_fits(f"graph '{name}'", n, len(pairs))
    graph = _core.TaskGraph.build(
        n,
        pairs[:, 0].astype(np.int32),
        pairs[:, 1].astype(np.int32),
        None if kernel_ids is None else _ids(kernel_ids, "kernel_ids").astype(np.int32),
        None if costs is None else cycle_array(costs, "node costs"),
        None if launch_groups is None else _ids(launch_groups, "launch_groups").astype(np.int32),
    )
    if cost is None and costs is not None:
        cost = from_graph()
    return Workload(graph, name=name, kernels=make_kernels(kernel, kernels), cost=cost)
