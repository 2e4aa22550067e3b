"""Task graphs declared as OpenMP 4.5 tasks with ``depend`` clauses
(docs/MODELS.md §5, docs/models/juggler.md): :class:`TaskBuilder`.

>>> import tbdse as td
>>> b = td.workloads.TaskBuilder("lu-2x2", match="exact")
>>> a = b.array("a", 4)                         # 2 x 2 blocks, one element each
>>> _ = b.kind("lu0", cost=30000, threads=256)
>>> _ = b.kind("fwd", cost=20000, threads=256)
>>> _ = b.task("lu0", inout=[a[0:1]])
>>> _ = b.task("fwd", in_=[a[0:1]], inout=[a[1:2]])
>>> wl = b.build()
>>> wl.tasks, wl.edges
(2, 1)

Tasks are declared in program order; each names the array sections it reads
(``in_``, or ``depend={"in": ...}``), writes (``out``) or both (``inout``).
A section is ``array[lo:hi]``, elements lo to hi - 1 (Python's slice
convention; OpenMP writes ``a[lower:length]``), or ``array[i]`` for one
element. A later task depends on an earlier one that touches the same data
when one of them writes it: RAW (a read after the last write), WAW (a write
after the last write), WAR (a write after the reads since the last write).
``match="exact"`` relates only identical sections, as Juggler's inspector does
(§4.4: "only one-to-one matching data ranges"); ``match="overlap"`` relates
any sections with an element in common, as the OpenMP standard does. The
edges are found in C++ (``cpp/core/task_sections.hpp``).

Each kind is one kernel of the workload: its TB footprint, its memory
requests and its cost in cycles (a ``per_kernel`` cost model, with an
optional lognormal ``cost_jitter``). Launch groups, for the global-barrier
baseline: ``launch=`` on every task, or on none, and then a new group starts
whenever the kind changes in program order or a task depends on a task of
the current group.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from tbdse import _core
from tbdse._util.checks import plain, real, text, whole
from tbdse._util.excerpts import excerpt
from tbdse._util.params import unknown_name
from tbdse.errors import ConfigError
from tbdse.workloads.base import Kernel, Workload
from tbdse.workloads.cost import per_kernel
from tbdse.workloads.footprints import DataFootprints

__all__ = ["CHILD_LIMIT", "MATCHES", "MODES", "Section", "TaskArray", "TaskBuilder", "task_report"]

MODES = ("in", "out", "inout")
MATCHES = ("exact", "overlap")
# Juggler keeps a task's child count in a char (Listing 2): tasks with more
# children than this cannot be represented by its runtime as published.
CHILD_LIMIT = 255
_MAX_SIZE = 2**62
_MAX_COST = 2**48


@dataclass(frozen=True)
class Section:
    """Elements ``lo`` to ``hi - 1`` of an array: what a depend clause names."""

    array: TaskArray
    lo: int
    hi: int

    def __repr__(self) -> str:
        return f"{self.array.name}[{self.lo}:{self.hi}]"


class TaskArray:
    """An address space of ``size`` elements that sections index into."""

    def __init__(self, name: str, size: int, index: int, owner: str) -> None:
        self.name, self.size, self.index, self.owner = name, size, index, owner

    def __getitem__(self, key: int | slice) -> Section:
        if type(key) is slice and key.step is None:  # the common a[lo:hi]: checked inline
            lo, hi = key.start, key.stop
            if type(lo) is int and type(hi) is int and 0 <= lo <= hi <= self.size:
                return Section(self, lo, hi)
        key = plain(key)
        what = f"a section of array '{self.name}'"
        if isinstance(key, slice):
            if key.step is not None:
                raise ConfigError(f"{what} has no step; got {excerpt(key)}")
            lo = 0 if key.start is None else whole(key.start, f"{what}: lo", 0)
            hi = self.size if key.stop is None else whole(key.stop, f"{what}: hi", 0)
        else:
            lo = whole(key, f"{what}: index", 0)
            hi = lo + 1
        if lo > hi:
            raise ConfigError(
                f"section {self.name}[{lo}:{hi}]: lo > hi; a section is lo:hi with hi exclusive"
            )
        if hi > self.size:
            raise ConfigError(
                f"section {self.name}[{lo}:{hi}]: ends past the end of array '{self.name}' "
                f"({self.size} elements)"
            )
        return Section(self, lo, hi)

    def __len__(self) -> int:
        return self.size

    def __repr__(self) -> str:
        return f"TaskArray({self.name!r}, {self.size})"


# "a[lo:hi]", "a[i]", "a[:]" or "a" (the whole array).
_SECTION = re.compile(r"\s*([A-Za-z_][\w.\-]*)\s*(?:\[\s*(\d*)\s*(:?)\s*(\d*)\s*\])?\s*")


class TaskBuilder:
    """Declares arrays, kinds and tasks; :meth:`build` makes the Workload."""

    def __init__(self, name: str, *, match: str = "exact") -> None:
        self.name = text(name, "a task builder's name")
        if match not in MATCHES:
            raise unknown_name("section match", str(match), MATCHES, f"task builder '{name}'")
        self.match = match
        self.arrays: dict[str, TaskArray] = {}
        self.kinds: dict[str, tuple[Kernel, int]] = {}  # name -> (kernel, cost in cycles)
        self._kind_ids: dict[str, int] = {}
        self._kind: list[int] = []
        self._launch: list[int | None] = []
        self._start: list[int] = [0]
        self._array: list[int] = []
        self._lo: list[int] = []
        self._hi: list[int] = []
        self._mode: list[int] = []

    # -- declarations --------------------------------------------------------------
    def array(self, name: str, size: int) -> TaskArray:
        """Declares an array of ``size`` elements; returns it for sections."""
        name = text(name, f"task builder '{self.name}': an array's name")
        if name in self.arrays:
            raise ConfigError(f"task builder '{self.name}': array '{name}' is declared twice")
        size = whole(size, f"task builder '{self.name}': size of array '{name}'", 0, _MAX_SIZE)
        made = TaskArray(name, size, len(self.arrays), self.name)
        self.arrays[name] = made
        return made

    def kind(
        self,
        name: str,
        *,
        cost: float = 1000,
        threads: int = 0,
        regs_per_thread: int = 0,
        smem_bytes: int = 0,
        mem_requests: int = 0,
        mem_fraction: float = 0.0,
        issue_interval: float = 0.0,
        reuse: int = 1,
    ) -> str:
        """Declares a kind of task (a kernel): ``cost`` cycles per task and the
        TB footprint and memory traffic of :class:`~tbdse.workloads.Kernel`."""
        kernel = Kernel(
            text(name, f"task builder '{self.name}': a kind's name"),
            threads,
            regs_per_thread,
            smem_bytes,
            mem_requests,
            mem_fraction,
            issue_interval,
            reuse,
        )
        if name in self.kinds:
            raise ConfigError(f"task builder '{self.name}': kind '{name}' is declared twice")
        cycles = real(cost, f"task builder '{self.name}': cost of kind '{name}'", 0, _MAX_COST)
        self.kinds[name] = (kernel, round(cycles))
        self._kind_ids[name] = len(self._kind_ids)
        return name

    def task(
        self,
        kind: str,
        *,
        in_: Section | str | Iterable[Section | str] = (),
        out: Section | str | Iterable[Section | str] = (),
        inout: Section | str | Iterable[Section | str] = (),
        depend: Mapping[str, Section | str | Iterable[Section | str]] | None = None,
        launch: int | None = None,
    ) -> int:
        """Adds a task of ``kind`` after the ones before it; returns its id.
        Sections are :class:`Section` objects (``a[0:4]``) or strings
        (``"a[0:4]"``); ``depend`` maps ``in``/``out``/``inout`` to more."""
        t = len(self._kind)
        where = f"task builder '{self.name}': task {t}"
        if not isinstance(kind, str):
            raise ConfigError(f"{where}: a task's kind must be a kind's name; got {excerpt(kind)}")
        if kind not in self._kind_ids:
            error = unknown_name("kind", str(kind), self.kinds, where)
            raise ConfigError(f"{error} (declare kinds with kind() first)")
        where = f"{where} ('{kind}')"
        clauses: list[tuple[int, Any]] = [(0, in_), (1, out), (2, inout)]
        if depend is not None:
            if not isinstance(depend, Mapping):
                raise ConfigError(
                    f"{where}: depend maps in/out/inout to sections; got {excerpt(depend)}"
                )
            for name, given in depend.items():
                if name not in MODES:
                    raise unknown_name("depend mode", str(name), MODES, where)
                clauses.append((MODES.index(name), given))
        if launch is not None and not (type(launch) is int and 0 <= launch < 2**31):
            launch = whole(launch, f"{where}: launch", 0, 2**31 - 1)
        sections = [(m, self._own(s, where, m)) for m, g in clauses for s in _each(g)]
        for mode, s in sections:
            self._array.append(s.array.index)
            self._lo.append(s.lo)
            self._hi.append(s.hi)
            self._mode.append(mode)
        self._kind.append(self._kind_ids[kind])
        self._launch.append(launch)
        self._start.append(len(self._array))
        return t

    def _own(self, value: Section | str, where: str, mode: int) -> Section:
        """:meth:`section` of a task's clause; the clause's error text is made
        only when ``value`` is not already one of this builder's sections."""
        if type(value) is Section and self.arrays.get(value.array.name) is value.array:
            return value
        return self.section(value, f"{where}: {MODES[mode]}")

    def section(self, value: Section | str, where: str = "") -> Section:
        """``value`` as a section of one of this builder's arrays (parsing
        ``"a[lo:hi]"``, ``"a[i]"``, ``"a[:]"`` or ``"a"``); ``where`` prefixes
        error messages."""
        at = f"{where}: " if where else ""
        if isinstance(value, Section):
            if self.arrays.get(value.array.name) is not value.array:
                raise ConfigError(
                    f"{at}section {value!r} uses array '{value.array.name}' of task "
                    f"builder '{value.array.owner}', not one declared here (declared: "
                    f"{', '.join(self.arrays) or 'none'})"
                )
            return value
        if not isinstance(value, str):
            raise ConfigError(f"{at}expected a section such as a[0:4]; got {excerpt(value)}")
        found = _SECTION.fullmatch(value)
        if not found:
            raise ConfigError(f"{at}{value!r} is not a section such as 'a[0:4]' or 'a[3]'")
        name, lo, colon, hi = found.groups()
        if "[" in value and not (lo or colon):  # "a[]": say a[:] for the whole array
            raise ConfigError(f"{at}{value!r} has empty brackets: write 'a[:]' or 'a'")
        if name not in self.arrays:
            raise unknown_name("array", name, self.arrays, f"{at}section {value!r}")
        array = self.arrays[name]
        try:
            if colon:
                return array[slice(int(lo) if lo else None, int(hi) if hi else None)]
            return array[int(lo)] if lo else array[:]
        except ConfigError as exc:
            raise ConfigError(f"{at}{exc}") from None

    # -- results ---------------------------------------------------------------------
    @property
    def tasks(self) -> int:
        return len(self._kind)

    def section_table(self) -> pd.DataFrame:
        """One row per declared section: task, kind, array, lo, hi, mode."""
        starts = np.asarray(self._start)
        task = np.repeat(np.arange(self.tasks), np.diff(starts))
        kinds, arrays = list(self.kinds), list(self.arrays)
        return pd.DataFrame(
            {
                "task": task,
                "kind": [kinds[self._kind[t]] for t in task],
                "array": [arrays[a] for a in self._array],
                "lo": np.asarray(self._lo, dtype=np.int64),
                "hi": np.asarray(self._hi, dtype=np.int64),
                "mode": [MODES[m] for m in self._mode],
            }
        )

    def data_footprints(self, element_bytes: int = 4, align: int = 4096) -> DataFootprints:
        """The tasks' depend sections as byte ranges (docs/simulation.md "Data
        footprints"): every ``in``/``inout`` section a read, every
        ``out``/``inout`` section a write.  Layout: the arrays lie one after
        another in declaration order, each starting at a multiple of ``align``
        bytes; element ``e`` of an array is at ``base + e * element_bytes``
        (a section is contiguous: tile-major storage)."""
        what = f"task builder '{self.name}'"
        size = whole(element_bytes, f"{what}: element_bytes", 1, 1 << 20)
        step = whole(align, f"{what}: align", 1, 1 << 30)
        bases, at = [], 0
        for arr in self.arrays.values():
            bases.append(at)
            at += -(-arr.size * size // step) * step
        starts = np.asarray(self._start)
        task = np.repeat(np.arange(self.tasks, dtype=np.int64), np.diff(starts))
        base = np.asarray(bases, np.int64)[np.asarray(self._array, np.int64)]
        lo = np.asarray(self._lo, np.int64)
        nbytes = (np.asarray(self._hi, np.int64) - lo) * size
        mode = np.asarray(self._mode, np.int64)
        reads, writes = mode != MODES.index("out"), mode != MODES.index("in")
        return DataFootprints(
            np.concatenate([task[reads], task[writes]]),
            np.concatenate([(base + lo * size)[reads], (base + lo * size)[writes]]),
            np.concatenate([nbytes[reads], nbytes[writes]]),
            np.concatenate([np.zeros(reads.sum(), bool), np.ones(writes.sum(), bool)]),
        )

    def dependencies(self) -> pd.DataFrame:
        """One row per edge: parent, child and which hazards (RAW, WAR, WAW) make it."""
        deps = self._dependencies()
        bits = np.asarray(deps["hazards"])
        return pd.DataFrame(
            {
                "parent": deps["parent"],
                "child": deps["child"],
                "raw": (bits & 1) > 0,
                "war": (bits & 2) > 0,
                "waw": (bits & 4) > 0,
            }
        )

    def build(self, *, cost_jitter: float = 0.0, name: str | None = None) -> Workload:
        """The Workload: the task graph, one kernel per kind (ids in declaration
        order), per-kind costs with a lognormal ``cost_jitter``, launch groups."""
        if not self._kind:
            raise ConfigError(f"task builder '{self.name}' has no tasks")
        jitter = real(cost_jitter, f"task builder '{self.name}': cost_jitter", 0, 10)
        deps = self._dependencies()
        n = len(self._kind)
        _core.check_graph_fits(f"task builder '{self.name}'", n, len(deps["parent"]))
        graph = _core.TaskGraph.build(
            n,
            deps["parent"],
            deps["child"],
            kernel=np.asarray(self._kind, dtype=np.int32),
            launch_group=deps["launch_group"],
        )
        return Workload(
            graph,
            name=name or self.name,
            kernels=[k for k, _ in self.kinds.values()],
            cost=per_kernel({k: c for k, (_, c) in self.kinds.items()}, jitter=jitter),
        )

    def _dependencies(self) -> dict[str, Any]:
        given = [g for g in self._launch if g is not None]
        if given and len(given) != len(self._launch):
            first = self._launch.index(None)
            raise ConfigError(
                f"task builder '{self.name}': task {first} has no launch group but others do; "
                "give launch= to every task or to none"
            )
        return _core.task_dependencies(
            list(self.arrays),
            [a.size for a in self.arrays.values()],
            list(self.kinds),
            np.asarray(self._kind, dtype=np.int32),
            np.asarray(given, dtype=np.int32) if given else None,
            np.asarray(self._start, dtype=np.int64),
            np.asarray(self._array, dtype=np.int32),
            np.asarray(self._lo, dtype=np.int64),
            np.asarray(self._hi, dtype=np.int64),
            np.asarray(self._mode, dtype=np.int32),
            self.match,
        )

    def __repr__(self) -> str:
        return (
            f"TaskBuilder({self.name!r}, match={self.match!r}, arrays={len(self.arrays)}, "
            f"kinds={len(self.kinds)}, tasks={self.tasks})"
        )


def _each(given: Any) -> Sequence[Any]:
    if isinstance(given, (Section, str, Mapping)):
        return [given]  # a mapping is not a list of sections: reported as one bad section
    try:
        return list(given)
    except TypeError:
        return [given]  # not a list: reported by TaskBuilder.section


def task_report(workload: Workload, child_limit: int = CHILD_LIMIT) -> pd.DataFrame:
    """One row per kernel (kind): its tasks, launch groups, incoming edges,
    largest child count, and how many tasks have more than ``child_limit``
    children (``over_child_limit``; Juggler stores the count in a char, so
    255). The tasks themselves:
    ``np.flatnonzero(np.diff(workload.graph.edge_starts()) > 255)``."""
    limit = whole(child_limit, "child_limit", 0)
    graph = workload.task_graph
    kinds = np.asarray(graph.kernels())
    children = np.diff(np.asarray(graph.edge_starts()))
    parents = np.asarray(graph.parent_counts())
    groups = np.asarray(graph.launch_groups()) if graph.has_launch_groups else None
    rows = []
    for k, kernel in enumerate(workload.kernels):
        mine = kinds == k
        if not mine.any():
            continue
        rows.append(
            {
                "kind": kernel.name,
                "tasks": int(mine.sum()),
                "launch_groups": None if groups is None else int(np.unique(groups[mine]).size),
                "edges_in": int(parents[mine].sum()),
                "max_children": int(children[mine].max()),
                "over_child_limit": int((children[mine] > limit).sum()),
            }
        )
    return pd.DataFrame(rows)
