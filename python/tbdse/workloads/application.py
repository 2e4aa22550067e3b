"""Multi-kernel applications (docs/MODELS.md §4; BlockMaestro, ISCA 2021).

An application is the ordered command queue its host issues — ``malloc``,
``memcpy_h2d``, ``memcpy_d2h``, ``launch(kernel)``, ``sync`` — and each
kernel's grid, TB footprint, cost and the buffer ranges each TB reads and
writes (:mod:`tbdse.workloads.access`). :meth:`Application.build` extracts
the TB dependencies between consecutive kernels by intersecting the child
kernel's per-TB read sets with the parent kernel's per-TB write sets
(Algorithm 1) and returns a :class:`~tbdse.workloads.Workload`: every TB a
task, launch ``i`` its launch group ``i``. The schemes ``baseline``,
``ideal_baseline``, ``prelaunch`` and ``blockmaestro`` run its command
queue; the others run its task graph.

>>> import tbdse as td
>>> from tbdse.workloads import Application, bx
>>> app = Application("vecadd2")
>>> a, b, c = (app.malloc(n, 256 * 64) for n in "ABC")
>>> app.memcpy_h2d(a); app.memcpy_h2d(b)
>>> _ = app.launch("add", 64, reads=[a[256*bx : 256*bx + 256], b[256*bx : 256*bx + 256]],
...                writes=[c[256*bx : 256*bx + 256]], cost=2000)
>>> _ = app.launch("scale", 64, reads=[c[256*bx : 256*bx + 256]],
...                writes=[c[256*bx : 256*bx + 256]], cost=1000)
>>> app.memcpy_d2h(c)
>>> wl = app.build()
>>> wl.tasks, wl.edges                      # 1-to-1: each scale TB waits for one add TB
(128, 64)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from tbdse import _core
from tbdse._util.checks import real, text, whole
from tbdse._util.excerpts import excerpt
from tbdse.errors import ConfigError
from tbdse.workloads.access import Access, Buffer
from tbdse.workloads.base import Kernel, Workload
from tbdse.workloads.cost import per_kernel

__all__ = ["MAX_PAIR_EDGES", "Application", "dependency_report"]

# A pair with more TB-level edges than this is kept as one kernel-level
# dependency (every child TB waits for the whole parent kernel) instead of a
# list of edges: an indirect access to a large buffer would otherwise list
# N x M of them.
MAX_PAIR_EDGES = 1 << 22
# TBs over all launches: the task graph's node ids are 32-bit.
MAX_TOTAL_TBS = 2**31 - 1
# Data footprints: at most this many byte ranges per TB (a box of many short
# rows makes one range per row).
MAX_TB_RANGES = 1 << 16


class Application:
    """Builds a multi-kernel application call by call (see the module doc)."""

    def __init__(self, name: str, *, element_bytes: int = 4, mem_fraction: float = 0.0) -> None:
        self.name = text(name, "an application's name")
        self.element_bytes = whole(element_bytes, f"application '{name}': element_bytes", 1, 2**20)
        # The kernels' mem_fraction when a launch names none.
        self.mem_fraction = real(mem_fraction, f"application '{name}': mem_fraction", 0, 1)
        self.buffers: dict[str, Buffer] = {}
        self.commands: list[tuple[str, Any]] = []
        self._launches: list[dict[str, Any]] = []
        self._blocks = 0  # TBs over all launches so far

    # -- the API calls ------------------------------------------------------------
    def malloc(
        self, name: str, shape: int | Sequence[int], *, element_bytes: int | None = None
    ) -> Buffer:
        """Allocates a buffer of ``shape`` elements; returns it for accesses."""
        name = text(name, "a buffer's name")
        if name in self.buffers:
            raise ConfigError(f"application '{self.name}': buffer '{name}' is allocated twice")
        buf = Buffer(name, shape, self.element_bytes if element_bytes is None else element_bytes)
        self.buffers[buf.name] = buf
        self.commands.append(("malloc", buf.name))
        return buf

    def memcpy_h2d(self, buffer: Buffer | str, bytes: int | None = None) -> None:
        """Copies ``bytes`` (default: the whole buffer) from the host to the device."""
        self._copy("memcpy_h2d", buffer, bytes)

    def memcpy_d2h(self, buffer: Buffer | str, bytes: int | None = None) -> None:
        """Copies ``bytes`` (default: the whole buffer) from the device to the host."""
        self._copy("memcpy_d2h", buffer, bytes)

    def sync(self) -> None:
        """cudaDeviceSynchronize: the host waits until the stream has drained."""
        self.commands.append(("sync", None))

    def launch(
        self,
        kernel: str | Kernel,
        grid: int | Sequence[int],
        *,
        reads: Iterable[Access] = (),
        writes: Iterable[Access] = (),
        cost: float = 1000,
        threads: int = 0,
        regs_per_thread: int = 0,
        smem_bytes: int = 0,
        mem_requests: int = 0,
        mem_fraction: float | None = None,
        issue_interval: float = 0.0,
        reuse: int = 1,
    ) -> int:
        """Launches ``kernel`` on ``grid`` blocks (an int or (x, y[, z])), each
        running ``cost`` cycles and touching ``reads`` / ``writes``; returns the
        launch's index."""
        index = len(self._launches)
        if isinstance(kernel, Kernel):
            base = kernel
        else:
            base = Kernel(
                text(kernel, "a kernel's name"),
                threads,
                regs_per_thread,
                smem_bytes,
                mem_requests,
                self.mem_fraction if mem_fraction is None else mem_fraction,
                issue_interval,
                reuse,
            )
        where = f"application '{self.name}': launch {index} ('{base.name}')"
        if isinstance(grid, (int, np.integer)):
            dims = [grid]
        elif isinstance(grid, Sequence) and not isinstance(grid, str):
            dims = list(grid)
        else:
            dims = []
        if not 1 <= len(dims) <= 3:
            raise ConfigError(
                f"{where}: grid must be a block count or (x, y[, z]); got {excerpt(grid)}"
            )
        shape = tuple(whole(d, f"{where}: a grid dimension", 1, 2**31 - 1) for d in dims)
        grid3 = (*shape, 1, 1)
        shape = (grid3[0], grid3[1], grid3[2])
        blocks = shape[0] * shape[1] * shape[2]
        if blocks > 2**31 - 1:
            raise ConfigError(f"{where}: the grid has more than 2^31 - 1 blocks")
        if self._blocks + blocks > MAX_TOTAL_TBS:
            raise ConfigError(
                f"{where}: the application would have {self._blocks + blocks} TBs; at most "
                f"{MAX_TOTAL_TBS} (2^31 - 1) TBs over all launches are supported"
            )
        self._blocks += blocks
        cycles = real(cost, f"{where}: cost", 0, 2**48)
        self._launches.append(
            {
                "kernel": dataclasses.replace(base, name=f"{base.name}#{index}"),
                "grid": shape,
                "reads": self._accesses(reads, where, "reads", shape),
                "writes": self._accesses(writes, where, "writes", shape),
                "cost": round(cycles),
                "cycles": cycles,  # as given: launch_cycles()
            }
        )
        self.commands.append(("launch", index))
        return index

    # -- building -------------------------------------------------------------------
    @property
    def launches(self) -> int:
        return len(self._launches)

    def launch_cycles(self) -> list[float]:
        """Each launch's TB cost as given to :meth:`launch` (before rounding to
        whole cycles): a generator that only rescales costs builds the
        application once and derives the costs from these."""
        return [L["cycles"] for L in self._launches]

    def build(
        self,
        *,
        hazards: str = "raw",
        cost_jitter: float = 0.0,
        max_pair_edges: int = MAX_PAIR_EDGES,
        name: str | None = None,
        locality: bool = False,
    ) -> Workload:
        """The application as a Workload: its TB graph (dependencies between
        consecutive launches; ``hazards='all'`` adds WAR and WAW to RAW) and
        its command queue. Costs are per launch, with a lognormal
        ``cost_jitter`` per TB. ``locality``: each TB also carries its data
        footprint — the byte ranges its accesses read and write (buffers laid
        out in malloc order, 4 KiB aligned, row-major; indirect accesses
        add none) — so its memory time comes from the GPU's memory hierarchy
        and the part ``mem_fraction`` of its cost is replaced by it
        (docs/models/blockmaestro.md "Locality")."""
        if not self._launches:
            raise ConfigError(f"application '{self.name}' launches no kernel")
        if hazards not in ("raw", "all"):
            raise ConfigError(f"hazards must be 'raw' or 'all'; got {excerpt(hazards)}")
        limit = whole(max_pair_edges, "max_pair_edges", 0, 2**31 - 1)
        ids = {b: i for i, b in enumerate(self.buffers)}
        shapes = [(b.name, list(b.shape)) for b in self.buffers.values()]
        kernels = [
            (
                L["kernel"].name,
                L["grid"],
                self._core_accesses(L["reads"], ids),
                self._core_accesses(L["writes"], ids),
            )
            for L in self._launches
        ]
        if not isinstance(locality, (bool, np.bool_)):
            raise ConfigError(f"locality must be true or false; got {excerpt(locality)}")
        deps = _core.extract_dependencies(
            shapes,
            kernels,
            hazards,
            limit,
            [b.element_bytes for b in self.buffers.values()],
            MAX_TB_RANGES if locality else 0,
        )
        sizes = np.array([g[0] * g[1] * g[2] for g in (L["grid"] for L in self._launches)])
        offset = np.concatenate([[0], np.cumsum(sizes)])
        src, dst = [], []
        waits = [int(s) for s in deps["skip"]]
        for i, pair in enumerate(deps["pairs"], start=1):
            if pair["full"]:
                waits[i] = i - 1  # kernel-level: too many edges to list
                continue
            starts = np.asarray(pair["child_start"])
            counts = np.diff(starts)
            dst.append(offset[i] + np.repeat(np.arange(sizes[i]), counts))
            src.append(offset[i - 1] + np.asarray(pair["parents"], dtype=np.int64))
        n = int(offset[-1])
        launch_of = np.repeat(np.arange(len(sizes)), sizes).astype(np.int32)
        graph = _core.TaskGraph.build(
            n,
            np.concatenate(src) if src else np.zeros(0, np.int32),
            np.concatenate(dst) if dst else np.zeros(0, np.int32),
            kernel=launch_of,
            launch_group=launch_of,
        )
        app = _core.Application(
            list(self.buffers),
            [self._core_command(kind, arg, ids) for kind, arg in self.commands],
            [sorted({ids[a.buffer.name] for a in L["reads"]}) for L in self._launches],
            [sorted({ids[a.buffer.name] for a in L["writes"]}) for L in self._launches],
            waits,
            deps.get("footprints"),
        )
        kernels_out = [L["kernel"] for L in self._launches]
        return Workload(
            graph,
            name=name or self.name,
            kernels=kernels_out,
            cost=per_kernel([L["cost"] for L in self._launches], jitter=cost_jitter),
            application=app,
        )

    # -- helpers ------------------------------------------------------------------------
    def _buffer(self, buffer: Buffer | str, what: str) -> Buffer:
        name = buffer.name if isinstance(buffer, Buffer) else text(buffer, what)
        if name not in self.buffers or (
            isinstance(buffer, Buffer) and self.buffers[name] is not buffer
        ):
            raise ConfigError(
                f"application '{self.name}': {what} uses buffer '{name}', which is not "
                f"allocated here (malloc it first; allocated: {', '.join(self.buffers) or 'none'})"
            )
        return self.buffers[name]

    def _copy(self, kind: str, buffer: Buffer | str, size: int | None) -> None:
        buf = self._buffer(buffer, kind)
        amount = buf.bytes if size is None else size
        amount = whole(amount, f"{kind} of '{buf.name}': bytes", 0, 2**62)
        self.commands.append((kind, (buf.name, amount)))

    def _accesses(
        self, accesses: Iterable[Access], where: str, what: str, grid: tuple[int, int, int]
    ) -> list[Access]:
        if isinstance(accesses, Access):
            accesses = [accesses]
        if isinstance(accesses, (str, bytes, Mapping)) or not isinstance(accesses, Iterable):
            raise ConfigError(
                f"{where}: {what} must be a list of buffer accesses such as "
                f"A[256*bx : 256*bx + 256]; got {excerpt(accesses)}"
            )
        out = []
        for a in accesses:
            if not isinstance(a, Access):
                raise ConfigError(
                    f"{where}: {what} must be buffer accesses such as A[256*bx : 256*bx + 256]; "
                    f"got {excerpt(a)}"
                )
            self._buffer(a.buffer, f"{where} ({what})")
            _check_bounds_order(a, grid, f"{where} ({what} {a!r})")
            out.append(a)
        return out

    @staticmethod
    def _core_accesses(accesses: list[Access], ids: Mapping[str, int]) -> list[Any]:
        return [
            (
                ids[a.buffer.name],
                a.dims is None,
                [] if a.dims is None else [(lo.as_tuple(), hi.as_tuple()) for lo, hi in a.dims],
            )
            for a in accesses
        ]

    @staticmethod
    def _core_command(kind: str, arg: Any, ids: Mapping[str, int]) -> tuple[str, int, int, int]:
        if kind == "malloc":
            return (kind, ids[arg], 0, -1)
        if kind in ("memcpy_h2d", "memcpy_d2h"):
            return (kind, ids[arg[0]], int(arg[1]), -1)
        if kind == "launch":
            return (kind, -1, 0, int(arg))
        return (kind, -1, 0, -1)

    def __repr__(self) -> str:
        return (
            f"Application({self.name!r}, buffers={len(self.buffers)}, "
            f"commands={len(self.commands)}, launches={self.launches})"
        )


def dependency_report(workload: Workload, parent_counter_bits: int = 6) -> pd.DataFrame:
    """One row per launch: its TB dependencies on the previous launch as
    BlockMaestro classifies and stores them (Table I, Table III) — pattern,
    edges, degrees, plain and encoded bytes — and whether the hardware tracks
    the pair per kernel (fully connected, or a child with more parents than a
    ``parent_counter_bits`` counter holds) or must wait for a launch further
    back. A plain task graph is read as one launch per launch group (or level).
    The first launch has no previous one: its pattern is ``"none"`` (P# 0)."""
    bits = whole(parent_counter_bits, "parent_counter_bits", 1, 62)
    rows = _core.launch_pairs(workload.core_tuple(), bits)
    rows[0].update(pattern="none", pattern_number=0)
    frame = pd.DataFrame(rows)
    if workload.application is not None:
        frame.insert(1, "kernel", [k.name for k in workload.kernels[: len(frame)]])
    return frame


def _check_bounds_order(access: Access, grid: tuple[int, int, int], where: str) -> None:
    """ConfigError when some TB of the grid would get a range whose start lies
    after its end (an empty range, lo == hi, is allowed)."""
    for d, (lo, hi) in enumerate(access.dims or ()):
        # lo - hi is affine in the block coordinates: its largest value over
        # the grid is at a corner, each coordinate at 0 or at its last index.
        diff = (lo.c0 - hi.c0, lo.cx - hi.cx, lo.cy - hi.cy, lo.cz - hi.cz)
        corner = [n - 1 if c > 0 else 0 for c, n in zip(diff[1:], grid, strict=True)]
        worst = diff[0] + sum(c * b for c, b in zip(diff[1:], corner, strict=True))
        if worst > 0:
            block = ", ".join(f"{n}={b}" for n, b in zip(("bx", "by", "bz"), corner, strict=True))
            raise ConfigError(
                f"{where}: dimension {d} starts after it ends for the TB at ({block}): "
                f"{lo} > {hi}; a range is lo : hi with lo <= hi"
            )
