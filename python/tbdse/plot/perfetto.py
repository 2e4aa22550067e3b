"""One run as a Chrome trace-event JSON file, which ui.perfetto.dev and
chrome://tracing open (:meth:`tbdse.Result.to_perfetto`).

A TB run becomes one process (the run) with one track per SM slot, a slice
per TB (named by its task's label and kernel: "task 7 (sor)", or a graph
file's node name), counter tracks for the TBs running and ready-but-not-started, and a
"held" instant where a TB waited long after it was ready.  A simulator of its
own kind that samples over time (the worklist machine) becomes one counter
track per series of its ``Result.trace()``.  Timestamps are microseconds at the GPU clock.

The file is streamed in chunks (memory stays bounded by the timeline itself)
and written atomically; runs needing more than :data:`MAX_EVENTS` events are
refused before anything is written.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TextIO

import numpy as np
import pandas as pd

from tbdse._util.excerpts import excerpt
from tbdse.errors import ConfigError
from tbdse.io.files import atomic_write, require_replaceable

if TYPE_CHECKING:
    from tbdse.machine.gpus import Gpu
    from tbdse.schemes import Scheme
    from tbdse.workloads.base import Workload


class Result(Protocol):
    """What the export reads of a tbdse.Result (whose to_perfetto calls it):
    described here, so that this module does not import the simulation's."""

    gpu: Gpu
    scheme: Scheme
    workload: Workload

    @property
    def config_hash(self) -> str: ...

    @property
    def has_makespan(self) -> bool: ...

    @property
    def makespan_cycles(self) -> int: ...

    def timeline(self) -> pd.DataFrame: ...

    def trace(self) -> pd.DataFrame: ...


__all__ = ["MAX_EVENTS", "tb_counters", "write_perfetto"]

# About 1 GB of JSON; Perfetto's UI loads files of that size, but slowly.
MAX_EVENTS = 5_000_000
PID = 1  # one run, one process
_CHUNK = 20_000  # events formatted per write


def tb_counters(tl: pd.DataFrame) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Per counter (``running``: TBs on an SM; ``ready``: TBs ready but not
    started), the cycles at which it changes and its value from each of them on."""
    out = {}
    for name, up, down in (("running", "start", "end"), ("ready", "ready", "start")):
        cycles = np.concatenate([tl[up].to_numpy(), tl[down].to_numpy()])
        steps = np.concatenate([np.ones(len(tl), np.int64), -np.ones(len(tl), np.int64)])
        order = np.argsort(cycles, kind="stable")
        cycles, values = cycles[order], np.cumsum(steps[order])
        # One value per cycle: the count after every change at that cycle.
        last = np.r_[cycles[1:] != cycles[:-1], True] if len(cycles) else np.zeros(0, bool)
        cycles, values = cycles[last], values[last]
        changed = np.r_[True, values[1:] != values[:-1]] if len(values) else last[:0]
        out[name] = (cycles[changed], values[changed])
    return out


def _num(value: float) -> str:
    """A JSON number: whole values without '.0', others in full precision."""
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def _meta(name: str, tid: int, args: dict[str, Any]) -> str:
    return json.dumps({"name": name, "ph": "M", "pid": PID, "tid": tid, "args": args})


class _Plan:
    """The events of one run, counted before any is written."""

    def __init__(self, result: Result, held_min_cycles: int | None) -> None:
        self.result = result
        self.us_per_cycle = 1.0 / float(result.gpu.clock_mhz)
        self.timeline: pd.DataFrame | None = None
        self.trace: pd.DataFrame | None = None
        self.counters: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        if result.workload.kind == "task_graph":
            tl = result.timeline()
            self.timeline = tl
            self.slots = max(int(result.gpu.tb_slots), int(tl["slot"].max()) + 1 if len(tl) else 1)
            self.sms = max(int(result.gpu.sms), int(tl["sm"].max()) + 1 if len(tl) else 1)
            self.counters = tb_counters(tl)
            wait = (tl["start"] - tl["ready"]).to_numpy()
            if held_min_cycles is None:  # longer than a typical TB runs
                held_min_cycles = max(1, math.ceil(float(tl["duration"].mean()))) if len(tl) else 1
            self.held = np.flatnonzero(wait >= held_min_cycles)
            self.held_min_cycles = held_min_cycles
        else:
            try:
                self.trace = result.trace()
            except ConfigError:
                raise ConfigError(
                    f"this {result.scheme.name} run has no trace to export: "
                    "simulate(..., timeline=True) records one for simulators that sample over "
                    f"time (the worklist machine); {result.scheme.name} may record none"
                ) from None
            for name in self.trace.columns:
                if name != "cycle":
                    self.counters[str(name)] = (
                        self.trace["cycle"].to_numpy(),
                        self.trace[name].to_numpy(dtype=np.float64),
                    )
            self.held = np.zeros(0, np.int64)
            self.sms = self.slots = 0

    def count(self) -> int:
        tracks = self.sms * self.slots * 2 if self.timeline is not None else 0
        slices = 0 if self.timeline is None else len(self.timeline)
        samples = sum(len(c) for c, _ in self.counters.values())
        return 1 + tracks + slices + len(self.held) + samples

    def events(self) -> Iterator[str]:
        r = self.result
        name = f"{r.scheme.label()} on {r.workload.name}, {r.gpu.name}"
        yield _meta("process_name", 0, {"name": name})
        if self.timeline is not None:
            yield from self._slices(self.timeline)
        for counter, (cycles, values) in self.counters.items():
            key = json.dumps(counter)
            head = f'{{"name":{key},"ph":"C","pid":{PID},"ts":'
            for cycle, value in zip(cycles.tolist(), values.tolist(), strict=True):
                yield f'{head}{_num(cycle * self.us_per_cycle)},"args":{{{key}:{_num(value)}}}}}'

    def _slices(self, tl: pd.DataFrame) -> Iterator[str]:
        for sm in range(self.sms):
            for slot in range(self.slots):
                tid = sm * self.slots + slot + 1  # tid 0 is the idle thread in Perfetto
                yield _meta("thread_name", tid, {"name": f"SM {sm} slot {slot}"})
                yield _meta("thread_sort_index", tid, {"sort_index": tid})
        kernels = [json.dumps(str(k)) for k in tl["kernel"].cat.categories]
        raw_kernels = [str(k) for k in tl["kernel"].cat.categories]
        labels = self.result.workload.labels  # a graph file's node names, when it has them
        scale = self.us_per_cycle
        columns = ("task", "level", "sm", "slot", "deps_met", "ready", "start", "end")
        codes = tl["kernel"].cat.codes.to_numpy()
        for first in range(0, len(tl), _CHUNK):
            part = slice(first, first + _CHUNK)
            rows = zip(
                codes[part].tolist(),
                *(tl[c].to_numpy()[part].tolist() for c in columns),
                strict=True,
            )
            for code, task, level, sm, slot, deps, ready, start, end in rows:
                kernel = kernels[code]
                label = f"task {task}" if labels is None else str(labels[task])
                name = json.dumps(f"{label} ({raw_kernels[code]})")
                tid = sm * self.slots + slot + 1
                yield (
                    f'{{"name":{name},"ph":"X","pid":{PID},"tid":{tid},'
                    f'"ts":{_num(start * scale)},"dur":{_num((end - start) * scale)},'
                    f'"args":{{"task":{task},"label":{json.dumps(label)},"kernel":{kernel},'
                    f'"level":{level},"sm":{sm},"slot":{slot},"cost_cycles":{end - start},'
                    f'"deps_met_cycle":{deps},"ready_cycle":{ready},'
                    f'"start_cycle":{start},"end_cycle":{end}}}}}'
                )
        held = tl.iloc[self.held]
        for task, ready, start, sm, slot in zip(
            *(held[c].tolist() for c in ("task", "ready", "start", "sm", "slot")), strict=True
        ):
            yield (
                f'{{"name":"held","ph":"i","s":"t","pid":{PID},'
                f'"tid":{sm * self.slots + slot + 1},"ts":{_num(ready * scale)},'
                f'"args":{{"task":{task},"wait_cycles":{start - ready},'
                f'"ready_cycle":{ready},"start_cycle":{start}}}}}'
            )


def write_perfetto(
    result: Result,
    path: str | os.PathLike[str],
    *,
    overwrite: bool = False,
    held_min_cycles: int | None = None,
) -> Path:
    """Writes ``result`` to ``path`` (see :meth:`tbdse.Result.to_perfetto`)."""
    if not isinstance(path, (str, os.PathLike)) or not os.fspath(path):
        raise ConfigError(f"to_perfetto needs a file path; got {excerpt(path)}")
    if held_min_cycles is not None and (
        isinstance(held_min_cycles, bool)
        or not isinstance(held_min_cycles, int)
        or held_min_cycles < 1
    ):
        raise ConfigError(
            f"held_min_cycles must be a whole number of cycles >= 1 (or None for the mean "
            f"TB duration); got {excerpt(held_min_cycles)}"
        )
    target = Path(path)
    if target.is_dir():
        raise ConfigError(f"{target} is a folder; to_perfetto needs a file path (e.g. run.json)")
    require_replaceable(target)  # a link, FIFO or device: refused even with overwrite
    if target.exists() and not overwrite:
        raise ConfigError(
            f"{target} exists; tbdse does not overwrite a file it did not write: choose another "
            "path or pass overwrite=True"
        )
    if not target.parent.is_dir():
        raise ConfigError(f"cannot write {target}: folder {target.parent} does not exist")
    atomic_write(target, perfetto_writer(result, held_min_cycles))
    return target


def perfetto_writer(result: Result, held_min_cycles: int | None = None) -> Callable[[Path], None]:
    """A function writing ``result``'s trace into a file it is given (for
    tbdse's atomic writers); the event count is checked here, before any write."""
    plan = _Plan(result, held_min_cycles)
    total = plan.count()
    if total > MAX_EVENTS:
        raise ConfigError(
            f"the trace of this run would hold {total:,} events, more than the "
            f"{MAX_EVENTS:,} to_perfetto writes (Perfetto loads such files slowly if at all); "
            "export a smaller run (fewer tasks, or a smaller workload of the same shape)"
        )

    def write(tmp: Path) -> None:
        with open(tmp, "w", encoding="utf-8") as f:
            _stream(f, plan)

    return write


def _stream(f: TextIO, plan: _Plan) -> None:
    r = plan.result
    f.write('{"displayTimeUnit":"ns","traceEvents":[\n')
    chunk: list[str] = []
    first = True
    for event in plan.events():
        chunk.append(event)
        if len(chunk) >= _CHUNK:
            f.write(("" if first else ",\n") + ",\n".join(chunk))
            chunk, first = [], False
    if chunk:
        f.write(("" if first else ",\n") + ",\n".join(chunk))
    other = {
        "tool": "tbdse",
        "scheme": r.scheme.label(),
        "workload": r.workload.name,
        "gpu": r.gpu.name,
        "clock_mhz": float(r.gpu.clock_mhz),
        "config_hash": r.config_hash,
    }
    if r.has_makespan:
        other["makespan_cycles"] = r.makespan_cycles
    if plan.timeline is not None:
        other["held_min_cycles"] = plan.held_min_cycles
    f.write(f'\n],"otherData":{json.dumps(other)}}}\n')
