"""One simulation's Result (:func:`tbdse.simulate`): its metrics, its
configuration, its timeline and series; tbdse.simulation.results builds the
sweeps' DataFrames."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from tbdse.errors import ConfigError
from tbdse.simulation.plan import Plan
from tbdse.simulation.results import build_frame

__all__ = ["Result"]


class Result:
    """One simulation (:func:`tbdse.simulate`): its metrics, its configuration
    and, on request, its timeline.  ``row`` is the same row a sweep would give."""

    def __init__(self, plan: Plan, out: Mapping[str, Any]) -> None:
        self.workload, self.gpu, self.scheme = plan.workloads[0], plan.gpus[0], plan.schemes[0]
        self._plan, self._out = plan, out
        self._row: pd.Series | None = None
        self._timeline: pd.DataFrame | None = None
        values = out["metrics"][0]
        self._metrics = {
            str(name): (int(v) if name.endswith("_cycles") or name == "events" else float(v))
            for name, v in zip(out["columns"], values, strict=True)
            if not np.isnan(v)
        }

    @property
    def row(self) -> pd.Series:
        """Everything about the run as one row (parameters, metrics, hash, version)."""
        if self._row is None:
            o = self._out
            frame = build_frame(
                self._plan,
                o["columns"],
                o["metrics"],
                o["config_hash"],
                o["status"],
                o["errors"],
                np.ones(1, dtype=bool),
                False,
            )
            self._row = frame.iloc[0]
        return self._row

    @property
    def has_makespan(self) -> bool:
        """False for a run that reports no time, e.g. a kernel that does not
        map onto an SGMF fabric (its metric ``maps`` is 0)."""
        return "makespan_cycles" in self._metrics

    @property
    def makespan_cycles(self) -> int:
        self._require_makespan()
        return int(self._metrics["makespan_cycles"])

    @property
    def makespan_us(self) -> float:
        self._require_makespan()
        return float(self._metrics["makespan_us"])

    def _require_makespan(self) -> None:
        if not self.has_makespan:
            raise ConfigError(
                "this run has no makespan (a kernel that does not map onto the fabric "
                "reports maps = 0); check Result.has_makespan first"
            )

    @property
    def metrics(self) -> dict[str, float]:
        """Every metric the run reported (common and scheme-specific)."""
        return dict(self._metrics)

    @property
    def stats(self) -> dict[str, float]:
        """The scheme's own statistics (NaN where one does not apply to this run)."""
        from tbdse.schemes import info

        return {
            s["name"]: float(self._metrics.get(s["name"], np.nan))
            for s in info(self.scheme.name)["stats"]
        }

    @property
    def config_hash(self) -> str:
        return f"{int(self._out['config_hash'][0]):016x}"

    def timeline(self) -> pd.DataFrame:
        """One row per task, by start time: kernel, level, SM, slot, and the cycles
        at which its dependencies were met (``deps_met``), it became ready to
        issue, it started and it ended.  ``deps_met`` precedes ``ready`` when a
        scheme holds a TB back after its data is there (a kernel not launched
        yet); otherwise the two are equal.

        The table is built once (ids and levels as int32, the kernel as a
        category: a 10M-task timeline is about 600 MB) and each call returns a
        shallow copy of it."""
        if self._timeline is None:
            raw = self._out["timeline"]
            if raw is None:
                if self.workload.kind != "task_graph":
                    raise ConfigError(
                        f"a {self.workload.kind} run has no per-task timeline; "
                        "Result.trace() holds what it records over time"
                    )
                raise ConfigError(
                    "this result has no timeline; simulate(..., timeline=True) records one"
                )
            self._timeline = self._timeline_frame(raw)
            self._out = {**self._out, "timeline": None}  # the table replaces the raw columns
        return self._timeline.copy(deep=False)

    def _timeline_frame(self, raw: dict[str, Any]) -> pd.DataFrame:
        graph = self.workload.task_graph
        order = np.argsort(raw["start"], kind="stable")  # by start, then task id
        columns: dict[str, Any] = {"task": order.astype(np.int32)}
        kernel_ids = graph.kernels()[order]
        names = [k.name for k in self.workload.kernels]
        columns["kernel"] = pd.Categorical.from_codes(kernel_ids, categories=pd.Index(names))
        columns["level"] = graph.levels()[order]
        columns["sm"] = raw.pop("sm")[order]
        columns["slot"] = raw.pop("slot")[order]
        ready = raw.pop("ready")
        deps = raw.pop("deps_met")
        columns["deps_met"] = (ready if deps is None else deps)[order]
        columns["ready"] = ready[order]
        del ready, deps
        for name in ("start", "end"):
            columns[name] = raw.pop(name)[order]
        columns["duration"] = columns["end"] - columns["start"]
        return pd.DataFrame(columns, copy=False)

    def trace(self) -> pd.DataFrame:
        """What a simulator other than the TB engine sampled over time (e.g. the
        worklist machine's active threads and bank occupancy), one row per
        sample, with a ``cycle`` column; needs ``simulate(..., timeline=True)``."""
        series = self._out.get("trace") or {}
        if not series:
            raise ConfigError(
                "this result has no trace; simulate(..., timeline=True) records one "
                "(for task-graph runs see Result.timeline())"
            )
        return pd.DataFrame({k: np.asarray(v) for k, v in series.items()})

    def to_perfetto(
        self,
        path: str | os.PathLike[str],
        *,
        overwrite: bool = False,
        held_min_cycles: int | None = None,
    ) -> Path:
        """Writes the run as a Chrome trace-event JSON file for ui.perfetto.dev or
        chrome://tracing (docs/simulation.md, "Timelines in Perfetto"); returns its path.

        A TB run: a track per SM slot ("SM k slot j") with a slice per TB (named by
        its task's label and kernel, "task 7 (sor)" or a graph file's node name
        (``Workload.labels``); task, label, kernel, level, SM, slot, cost (the
        cycles it held its slot) and its cycles as args), counters ``running`` and
        ``ready`` (TBs ready but not started), and a ``held`` instant at the ready
        time of each TB that waited at least ``held_min_cycles`` to start (default:
        the mean TB duration).  A worklist run: each series of
        :meth:`trace` as a counter.  Times are microseconds at the GPU clock.
        Needs ``simulate(..., timeline=True)``; an existing file is replaced only
        with ``overwrite=True``, and only a regular file (a symbolic link, FIFO,
        device or folder at ``path`` is refused); more than
        ``tbdse.plot.perfetto.MAX_EVENTS`` events (5M) is refused."""
        from tbdse.plot.perfetto import write_perfetto

        return write_perfetto(self, path, overwrite=overwrite, held_min_cycles=held_min_cycles)

    def values(self) -> pd.DataFrame:
        """Per-item results of the run that can be checked (e.g. BFS distances
        per node), one column each; empty when the simulator reports none."""
        return pd.DataFrame({k: np.asarray(v) for k, v in (self._out.get("values") or {}).items()})

    def dependency_stalls(self) -> pd.Series:
        """Per task, (start - deps_met) / its run time: how long it waited after
        its data was there, in units of its own execution (BlockMaestro
        Fig. 11). Indexed by task; needs ``simulate(..., timeline=True)``."""
        tl = self.timeline().set_index("task").sort_index()
        run = tl["duration"].where(tl["duration"] > 0)
        return ((tl["start"] - tl["deps_met"]) / run).fillna(0.0).rename("dependency_stall")

    def level_range(self) -> pd.DataFrame:
        """Levels of the running thread blocks over time (Wireframe Fig. 10).

        One row per cycle at which the set of running TBs changes, valid until
        the next row: ``cycle``, ``running`` (TBs), ``min_level``, ``max_level``
        and ``level_range`` (max - min; NaN while nothing runs).  Completions
        at a cycle count before the starts at that cycle, as in the engine, so
        the column's maximum is the ``max_level_range`` statistic.  Needs
        ``simulate(..., timeline=True)``."""
        tl = self.timeline()
        tl = tl[tl["end"] > tl["start"]]  # a zero-length TB never overlaps another
        cycles = np.concatenate([tl["end"].to_numpy(), tl["start"].to_numpy()])
        steps = np.concatenate([np.full(len(tl), -1), np.full(len(tl), 1)])
        levels = np.concatenate([tl["level"].to_numpy(), tl["level"].to_numpy()])
        order = np.lexsort((steps, cycles))  # by cycle, completions first
        cycle_of = cycles[order].tolist()
        step_of, level_of = steps[order].tolist(), levels[order].tolist()
        count = [0] * (max(level_of, default=0) + 1)  # running TBs per level
        rows: list[tuple[int, int, float, float]] = []
        running, low, high = 0, 0, 0
        for i, (cycle, step, level) in enumerate(zip(cycle_of, step_of, level_of, strict=True)):
            count[level] += step
            running += step
            if step > 0:
                low, high = (level, level) if running == 1 else (min(low, level), max(high, level))
            elif running > 0:
                while count[low] == 0:
                    low += 1
                while count[high] == 0:
                    high -= 1
            if i + 1 == len(cycle_of) or cycle_of[i + 1] != cycle:  # the cycle's last change
                bounds = (float(low), float(high)) if running else (np.nan, np.nan)
                rows.append((cycle, running, *bounds))
        frame = pd.DataFrame(rows, columns=["cycle", "running", "min_level", "max_level"])
        frame["level_range"] = frame["max_level"] - frame["min_level"]
        return frame

    def __repr__(self) -> str:
        return (
            f"Result({self.scheme.label()} on {self.workload.name}, {self.gpu.name}: "
            f"makespan {self.makespan_cycles} cycles = {self.makespan_us:.2f} us)"
        )
