"""A kernel's memory behaviour in the terms a GPU programmer uses, turned into
what the TB engine reads (docs/simulation.md "Describing a kernel's memory").

>>> from tbdse.workloads import KernelMemory
>>> m = KernelMemory(read_bytes=16_384, write_bytes=4_096, reuse=4, shared_bytes=1_024)
>>> m.requests, m.traffic_bytes
(544, 69632)

:class:`KernelMemory` says, per thread block: the distinct bytes it reads (its
working set) and writes, how many passes its warps make over what it reads
(``reuse``), how many of the bytes read its producers wrote
(``shared_bytes``), how many bytes of each 128-byte line it touches it uses
(``line_bytes``: coalescing) and, optionally, the share of its nominal time
that is memory time (``memory_share``, the kernel's ``mem_fraction``).
:func:`with_memory` builds from it a workload's data footprints and kernel
fields.  Every field reaches the run:

* ``read_bytes``, ``write_bytes``, ``shared_bytes`` and ``line_bytes`` become
  the byte ranges of the data footprints the engine sends through the L1, L2
  and DRAM (the addresses: a private input region per TB, read; an output
  region per TB, written at its end; ``shared_bytes`` read from the output
  regions of the TB's producers, split evenly; with ``line_bytes`` < 128 each
  128-byte line holds ``line_bytes`` used bytes, so the TB touches
  ``ceil(bytes / line_bytes)`` lines and, the hierarchy being sectored,
  fetches only the sectors it uses);
* ``reuse`` is the kernel's ``reuse`` (passes, docs/simulation.md "Reuse");
* ``memory_share`` is the kernel's ``mem_fraction`` (None: the kernel keeps
  its own);
* the kernel's ``mem_requests`` (128-byte requests per TB, read by the
  scheduler models that count memory requests) become ``reuse x`` the lines
  read plus the lines written.

A field that could not change a run is refused (tbdse's "no silent knobs"):
``reuse`` > 1 or ``memory_share`` > 0 with nothing read, ``shared_bytes`` on
a kernel none of whose TBs has a producer, a description of nothing.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from tbdse._util.checks import real, whole
from tbdse._util.excerpts import excerpt
from tbdse.errors import ConfigError
from tbdse.workloads.base import Workload
from tbdse.workloads.footprints import DataFootprints
from tbdse.workloads.kernel import Kernel

__all__ = ["KernelMemory", "footprint_memory", "with_memory"]

LINE = 128  # bytes of a cache line (docs/memory.md: fixed)
SECTOR = 32
_MAX_BYTES = 2**40
_MAX_ROWS = 1 << 25  # footprint rows one description may make (memory, not a model limit)


@dataclass(frozen=True)
class KernelMemory:
    """One thread block's memory behaviour (see the module docstring).

    ``read_bytes``: distinct bytes a TB reads, its working set;
    ``write_bytes``: bytes it writes; ``reuse``: passes its warps make over
    the bytes read (1-1024); ``shared_bytes``: of ``read_bytes``, those its
    producers wrote; ``line_bytes``: used bytes per 128-byte line it touches,
    a multiple of 32 (128: fully coalesced); ``memory_share``: the share of
    the TB's nominal time that is memory time (None: the kernel's own
    ``mem_fraction``)."""

    read_bytes: int
    write_bytes: int = 0
    reuse: int = 1
    shared_bytes: int = 0
    line_bytes: int = LINE
    memory_share: float | None = None

    def __post_init__(self) -> None:
        what = "kernel memory"
        for key in ("read_bytes", "write_bytes", "shared_bytes"):
            value = whole(getattr(self, key), f"{what}: '{key}'", 0, _MAX_BYTES)
            object.__setattr__(self, key, value)
        passes = whole(self.reuse, f"{what}: 'reuse' (passes over the bytes read)", 1, 1024)
        object.__setattr__(self, "reuse", passes)
        used = whole(self.line_bytes, f"{what}: 'line_bytes' (used bytes per line)", 1, LINE)
        if used % SECTOR:
            raise ConfigError(
                f"{what}: 'line_bytes' must be 32, 64, 96 or 128 (whole 32-byte sectors of a "
                f"128-byte line: the hierarchy fetches sectors); got {used}"
            )
        object.__setattr__(self, "line_bytes", used)
        if self.memory_share is not None:
            share = real(self.memory_share, f"{what}: 'memory_share'", 0, 1)
            object.__setattr__(self, "memory_share", share)
        if self.shared_bytes > self.read_bytes:
            raise ConfigError(
                f"{what}: 'shared_bytes' ({self.shared_bytes}) are part of 'read_bytes' "
                f"({self.read_bytes}); they cannot exceed it"
            )
        if self.read_bytes == 0 and self.write_bytes == 0:
            raise ConfigError(
                f"{what}: 'read_bytes' and 'write_bytes' are both 0: it describes nothing"
            )
        if self.read_bytes == 0 and self.reuse > 1:
            raise ConfigError(
                f"{what}: 'reuse' {self.reuse} counts passes over the bytes read, and "
                "'read_bytes' is 0: it would change nothing"
            )
        if self.read_bytes == 0 and self.memory_share:
            raise ConfigError(
                f"{what}: 'memory_share' {self.memory_share:g} is the time the reads replace, "
                "and 'read_bytes' is 0: nothing would time it"
            )

    @property
    def working_set_bytes(self) -> int:
        """The bytes each pass reads again: all of ``read_bytes``."""
        return self.read_bytes

    def lines(self, nbytes: int) -> int:
        """128-byte lines that ``nbytes`` used bytes occupy at this coalescing."""
        return -(-nbytes // self.line_bytes)

    @property
    def requests(self) -> int:
        """128-byte requests one TB makes: every pass's read lines and the lines written."""
        return self.reuse * self.lines(self.read_bytes) + self.lines(self.write_bytes)

    @property
    def traffic_bytes(self) -> int:
        """Used bytes a TB moves: ``reuse`` x read plus written."""
        return self.reuse * self.read_bytes + self.write_bytes

    def kernel(self, base: Kernel | str) -> Kernel:
        """``base`` (a Kernel or a name) with ``reuse``, ``mem_requests`` and,
        when given, ``mem_fraction`` from this description."""
        k = base if isinstance(base, Kernel) else Kernel(base)
        fraction = k.mem_fraction if self.memory_share is None else self.memory_share
        requests = min(self.requests, 2**31 - 1)
        return dataclasses.replace(
            k, reuse=self.reuse, mem_requests=requests, mem_fraction=fraction
        )


def _spread(
    task: np.ndarray, base: np.ndarray, used: np.ndarray, line_bytes: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Ranges of ``used`` bytes at ``base`` laid out ``line_bytes`` per 128-byte
    line: one row per range when coalesced, else one per line."""
    keep = used > 0
    task, base, used = task[keep], base[keep], used[keep]
    if line_bytes == LINE:
        return task, base, used
    lines = -(-used // line_bytes)
    t = np.repeat(task, lines)
    start = np.repeat(np.cumsum(lines) - lines, lines)
    k = np.arange(len(t), dtype=np.int64) - start
    left = np.repeat(used, lines) - k * line_bytes
    return t, np.repeat(base, lines) + k * LINE, np.minimum(left, line_bytes)


def _memory_of(
    workload: Workload, memory: KernelMemory | Mapping[str, KernelMemory]
) -> list[KernelMemory | None]:
    names = [k.name for k in workload.kernels]
    if isinstance(memory, KernelMemory):
        return [memory] * len(names)
    if not isinstance(memory, Mapping):
        raise ConfigError(
            f"workload '{workload.name}': memory must be a KernelMemory or a mapping of kernel "
            f"name to KernelMemory; got {excerpt(memory)}"
        )
    for key, value in memory.items():
        if key not in names:
            raise ConfigError(
                f"workload '{workload.name}': memory names kernel {excerpt(key)}; its kernels "
                f"are {names}"
            )
        if not isinstance(value, KernelMemory):
            raise ConfigError(
                f"workload '{workload.name}': memory of kernel '{key}' must be a KernelMemory; "
                f"got {excerpt(value)}"
            )
    return [memory.get(n) for n in names]


def with_memory(workload: Workload, memory: KernelMemory | Mapping[str, KernelMemory]) -> Workload:
    """``workload`` with its kernels' memory described: ``memory`` for every
    kernel, or a mapping of kernel name to description (kernels not named
    keep their fields and touch no data).  Builds the data footprints (one
    private input and one output region per TB, 128-byte aligned, kernels'
    regions apart) and sets each described kernel's ``reuse``,
    ``mem_requests`` and ``mem_fraction`` (see the module docstring)."""
    if workload.graph is None:
        raise ConfigError(
            f"workload '{workload.name}' ({workload.kind}) has no thread blocks to describe"
        )
    if workload.has_footprints:
        raise ConfigError(
            f"workload '{workload.name}' already carries data footprints; describe its memory "
            "on the workload without them (with_data(None))"
        )
    per_kernel = _memory_of(workload, memory)
    graph = workload.task_graph
    n = int(graph.size)
    kid = np.asarray(graph.kernels(), np.int64)
    starts, edges = np.asarray(graph.edge_starts(), np.int64), np.asarray(graph.edges(), np.int64)
    zero = KernelMemory(0, 1)  # placeholder of the undescribed kernels (no bytes used below)
    mems = [m or zero for m in per_kernel]
    described = np.array([m is not None for m in per_kernel])[kid]
    rd = np.array([m.read_bytes for m in mems], np.int64)[kid] * described
    wr = np.array([m.write_bytes for m in mems], np.int64)[kid] * described
    sh = np.array([m.shared_bytes for m in mems], np.int64)[kid] * described
    lb = np.array([m.line_bytes for m in mems], np.int64)[kid]

    def span(used: np.ndarray) -> np.ndarray:  # bytes of address space, 128-aligned
        return -(-used // lb) * LINE

    # Regions: all private inputs, then all outputs, task after task.
    in_base = np.concatenate([[0], np.cumsum(span(rd))])[:-1]
    out_start = int(span(rd).sum())
    out_base = out_start + np.concatenate([[0], np.cumsum(span(wr))])[:-1]
    # Producers of each task: edges are parent -> child in CSR by parent.
    parent = np.repeat(np.arange(n, dtype=np.int64), np.diff(starts))
    child = edges
    useful = described[child] & (wr[parent] > 0) & (sh[child] > 0)
    parent, child = parent[useful], child[useful]
    producers = np.bincount(child, minlength=n)
    for k, m in enumerate(per_kernel):
        if m is not None and m.shared_bytes and not (producers[kid == k] > 0).any():
            raise ConfigError(
                f"workload '{workload.name}': kernel '{workload.kernels[k].name}' declares "
                f"'shared_bytes' {m.shared_bytes} but none of its TBs has a producer that "
                "writes data: it would change nothing"
            )
    share = -(-sh[child] // np.maximum(producers[child], 1))
    from_parent = np.minimum(share, wr[parent])
    got = np.bincount(child, weights=from_parent, minlength=n).astype(np.int64)
    private = rd - got  # shared bytes no producer wrote are read from the TB's own input
    rows = int(np.sum(-(-private // lb)) + np.sum(-(-from_parent // lb[parent])))
    rows += int(np.sum(-(-wr // lb)))
    if rows > _MAX_ROWS:
        raise ConfigError(
            f"workload '{workload.name}': the description makes {rows} footprint ranges; at "
            f"most {_MAX_ROWS} (fewer tasks, or coalesced lines: line_bytes 128)"
        )
    tasks = np.arange(n, dtype=np.int64)
    parts: list[tuple[np.ndarray, np.ndarray, np.ndarray, bool]] = []
    for used_lb in np.unique(lb):
        sel = lb == used_lb
        parts.append((*_spread(tasks[sel], in_base[sel], private[sel], int(used_lb)), False))
        psel = lb[parent] == used_lb  # a producer's output keeps its own layout
        parts.append(
            (*_spread(child[psel], out_base[parent[psel]], from_parent[psel], int(used_lb)), False)
        )
    for used_lb in np.unique(lb):
        sel = lb == used_lb
        parts.append((*_spread(tasks[sel], out_base[sel], wr[sel], int(used_lb)), True))
    data = DataFootprints(
        np.concatenate([p[0] for p in parts]),
        np.concatenate([p[1] for p in parts]),
        np.concatenate([p[2] for p in parts]),
        np.concatenate([np.full(len(p[0]), p[3]) for p in parts]),
    )
    kernels = [
        k if m is None else m.kernel(k) for k, m in zip(workload.kernels, per_kernel, strict=True)
    ]
    made = workload.with_kernels(kernels).with_data(data)
    made.memory, made.memory_builder = memory, with_memory
    return made


def footprint_memory(workload: Workload) -> Any:
    """A workload's data footprints read back in :class:`KernelMemory`'s
    terms, one row per kernel (a pandas DataFrame): ``tbs``, and per TB on
    average ``read_bytes``, ``write_bytes``, ``shared_bytes`` (read bytes
    that a producer of the TB writes), ``line_bytes`` (used bytes per
    128-byte line touched: coalescing), with the kernel's ``reuse`` and
    ``memory_share`` (its ``mem_fraction``).  For docs and checks: what a
    generator that lays out its own addresses declares."""
    import pandas as pd

    data = workload.data
    if data is None or workload.graph is None:
        raise ConfigError(
            f"workload '{workload.name}' carries no data footprints (an application's "
            "locality ranges are built in the core and are not read back)"
        )
    graph = workload.task_graph
    n = int(graph.size)
    kid = np.asarray(graph.kernels(), np.int64)
    starts, edges = np.asarray(graph.edge_starts(), np.int64), np.asarray(graph.edges(), np.int64)
    lo, hi = data.base, data.base + data.bytes
    lines = np.where(data.bytes > 0, -(-hi // LINE) - lo // LINE, 0)
    order = np.argsort(data.task, kind="stable")
    bounds = np.searchsorted(data.task[order], np.arange(n + 1))
    shared = np.zeros(n, np.int64)
    for p in range(n):
        mine = order[bounds[p] : bounds[p + 1]]
        wr = mine[data.write[mine]]
        if not len(wr):
            continue
        for c in edges[starts[p] : starts[p + 1]]:
            theirs = order[bounds[c] : bounds[c + 1]]
            rd = theirs[~data.write[theirs]]
            if len(rd):
                overlap = np.minimum.outer(hi[rd], hi[wr]) - np.maximum.outer(lo[rd], lo[wr])
                shared[c] += int(np.clip(overlap, 0, None).sum())
    read = np.bincount(data.task, weights=data.bytes * ~data.write, minlength=n)
    written = np.bincount(data.task, weights=data.bytes * data.write, minlength=n)
    touched = np.bincount(data.task, weights=lines, minlength=n)
    rows = []
    for k, kernel in enumerate(workload.kernels):
        sel = kid == k
        tbs = int(sel.sum())
        if not tbs:
            continue
        moved = float(read[sel].sum() + written[sel].sum())
        rows.append(
            {
                "kernel": kernel.name,
                "tbs": tbs,
                "read_bytes": float(read[sel].mean()),
                "write_bytes": float(written[sel].mean()),
                "shared_bytes": float(np.minimum(shared, read)[sel].mean()),
                "line_bytes": moved / max(float(touched[sel].sum()), 1.0),
                "reuse": kernel.reuse,
                "memory_share": kernel.mem_fraction,
            }
        )
    return pd.DataFrame(rows)
