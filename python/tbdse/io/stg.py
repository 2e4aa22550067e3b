"""STG is the Standard Task Graph Set (Kasahara lab, Waseda University).  Both of
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

from collections.abc import Sequence
from pathlib import Path

from tbdse._util.checks import real
from tbdse._util.excerpts import content, excerpt, shown
from tbdse.errors import ConfigError
from tbdse.io.inputs import text_lines
from tbdse.io.task_graphs import (
    MAX_DIGITS,
    MAX_STG_TOKENS,
    MAX_TEXT_BYTES,
    CostArg,
    from_edges,
)
from tbdse.io.yamlio import read_text
from tbdse.workloads.base import Kernel, Workload, generator
from tbdse.workloads.cost import from_graph

_STG_FIELDS = ("task id", "processing time", "predecessor count")

__all__ = ["read_stg"]


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
