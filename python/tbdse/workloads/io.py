"""Workloads from existing graphs: edge lists, networkx and STG files.

STG is the Standard Task Graph Set (Kasahara lab, Waseda University).  Both of
its layouts are read:

* standard: first line ``n``; then n+2 task lines ``id cost npred pred...``
  including a zero-cost dummy entry node 0 and exit node n+1;
* prototype: first line ``n processors``; then tasks 1..n and a zero-cost exit
  dummy n+1, in the same per-task form.

Lines from ``#`` on are the information part and are skipped.  Predecessor
lists may wrap over several lines.  Dummy nodes are dropped unless
``keep_dummies``; the remaining tasks are renumbered 0..n-1 in file order.
"""

from __future__ import annotations

import contextlib
from collections.abc import Hashable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from tbdse import _core
from tbdse._util.checks import real, whole
from tbdse._util.excerpts import content, excerpt, shown
from tbdse.errors import ConfigError
from tbdse.io.inputs import text_lines
from tbdse.io.yamlio import read_text
from tbdse.workloads.base import Kernel, Workload, generator, make_kernels
from tbdse.workloads.cost import CostModel, as_cost, cycle_array, from_graph
from tbdse.workloads.footprints import DataFootprints

__all__ = ["from_edges", "from_networkx", "read_edge_list", "read_stg"]

CostArg = CostModel | Mapping[str, Any] | float | None
# Budgets of the Python text readers (each edge or token becomes Python objects, ~100
# bytes apiece; graphs.read_edge_list reads large graphs in C++):
MAX_TEXT_BYTES = 32 * 2**20
MAX_EDGES = 2_000_000
MAX_STG_TOKENS = 4_000_000
MAX_DIGITS = 64  # int() refuses 4300 digits with a ValueError; no id or cost is that long


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


_STG_FIELDS = ("task id", "processing time", "predecessor count")


def _stg_number(tok: str, path: str, line: int, field: str, lo: int = 0) -> int:
    try:
        value = int(tok) if len(tok) <= MAX_DIGITS else None
    except ValueError:
        value = None
    if value is None or value < lo:
        raise ConfigError(
            f"{path}:{line}: STG {field}: expected a whole number >= {lo}; "
            f"got {content(tok, 'word')}"
        )
    return value


def _stg_tasks(text: str, path: str) -> tuple[list[int], list[tuple[int, int, list[int], int]]]:
    """Header numbers and (id, cost, predecessors, line) records of an STG file."""
    tokens: list[tuple[str, int]] = []  # (text, line)
    for lineno, line in enumerate(text_lines(text), 1):
        if line.lstrip().startswith("#"):
            break  # the information part
        tokens.extend((tok, lineno) for tok in line.split())
        if len(tokens) > MAX_STG_TOKENS:
            raise ConfigError(
                f"{path}:{lineno}: more than {MAX_STG_TOKENS:,} numbers; an STG file is read "
                "up to that"
            )
    if not tokens:
        raise ConfigError(f"{path}: empty STG file (expected a header line 'n' first)")
    header_line = tokens[0][1]
    header_tokens = [t for t, line in tokens if line == header_line]
    if len(header_tokens) not in (1, 2):
        raise ConfigError(
            f"{path}:{header_line}: STG header: expected 'n' (standard layout) or "
            f"'n processors' (prototype layout); got {len(header_tokens)} numbers"
        )
    header = [
        _stg_number(t, path, header_line, f)
        for t, f in zip(header_tokens, ("task count", "processor count"), strict=False)
    ]
    pos = len(header)
    records = []
    while pos < len(tokens):
        at_line = tokens[pos][1]
        if pos + 3 > len(tokens):
            raise ConfigError(
                f"{path}:{at_line}: truncated STG task record: expected "
                f"'id processing-time predecessor-count predecessors...'"
            )
        tid, cost_units, npred = (
            _stg_number(t, path, line, f)
            for (t, line), f in zip(tokens[pos : pos + 3], _STG_FIELDS, strict=True)
        )
        pos += 3
        if pos + npred > len(tokens):
            raise ConfigError(
                f"{path}:{at_line}: STG task {tid} lists {npred} predecessors, but only "
                f"{len(tokens) - pos} more number(s) follow"
            )
        preds = [
            _stg_number(t, path, line, "predecessor id") for t, line in tokens[pos : pos + npred]
        ]
        pos += npred
        records.append((tid, cost_units, preds, at_line))
    return header, records


@generator("stg")
def read_stg(
    path: str,
    cycles_per_unit: float = 1000.0,
    keep_dummies: bool = False,
    *,
    name: str | None = None,
    cost: CostArg = None,
    kernel: Kernel | None = None,
    kernels: Sequence[Kernel] | None = None,
) -> Workload:
    """A Standard Task Graph Set file (standard or prototype layout).

    Processing times become node costs; the default cost model is
    ``from_graph(scale=cycles_per_unit)``.
    """
    cycles = real(cycles_per_unit, "stg: 'cycles_per_unit' (cycles per STG time unit)")
    if not 0 < cycles <= 1e12:
        raise ConfigError(
            "stg: 'cycles_per_unit' (cycles per STG time unit) must be > 0 and at most 1e12; "
            f"got {excerpt(cycles_per_unit)}"
        )
    header, records = _stg_tasks(read_text(path, "graph file", MAX_TEXT_BYTES), shown(path))
    n = header[0]
    prototype = len(header) == 2
    expected = n + 1 if prototype else n + 2
    if len(records) != expected:
        layout = "prototype" if prototype else "standard"
        raise ConfigError(
            f"{path}: the STG header says {n} tasks, so the {layout} layout needs {expected} "
            f"task records (with dummy nodes); found {len(records)}"
        )
    first = 1 if prototype else 0
    for k, (tid, _, _, line) in enumerate(records):
        if tid != first + k:
            raise ConfigError(
                f"{path}:{line}: STG task id {tid}: ids must run {first}..{first + expected - 1} "
                f"in order, so this record needs id {first + k}"
            )
    ids = [r[0] for r in records]
    dummies = set()
    if not keep_dummies:
        entry, exit_ = (None if prototype else 0), ids[-1]
        dummies = {d for d in (entry, exit_) if d is not None and records[d - first][1] == 0}
    kept = [tid for tid in ids if tid not in dummies]
    index = {tid: i for i, tid in enumerate(kept)}
    edges = []
    for tid, _, preds, line in records:
        for p in preds:
            if p not in index and p not in dummies:
                raise ConfigError(
                    f"{path}:{line}: STG task {tid} names predecessor {p}; task ids run "
                    f"{first}..{first + expected - 1}"
                )
            if tid in index and p in index:
                edges.append((index[p], index[tid]))
    costs = [records[tid - first][1] for tid in kept]
    made = from_edges(
        edges,
        len(kept),
        name=name or Path(path).stem,
        costs=costs,
        cost=cost if cost is not None else from_graph(cycles),
        kernel=kernel,
        kernels=kernels,
    )
    made.labels = kept
    made.chosen_cost = None if cost is None else made.cost  # the default follows cycles_per_unit
    made.generator = "stg"
    made.params = {
        "path": str(path),
        "cycles_per_unit": cycles_per_unit,
        "keep_dummies": keep_dummies,
    }
    return made
