"""One recorded run (``simulate(..., timeline=True)``) over time: the per-SM
Gantt chart of its thread blocks, its counters as steps, and a worklist
run's sampled activity (HWWL Fig. 8).  One panel each, on ``ax`` if given."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.collections import PolyCollection

from tbdse._util.excerpts import excerpt
from tbdse._util.params import suggest
from tbdse.errors import ConfigError

GANTT_MAX_BARS = 200_000  # beyond this matplotlib draws for minutes; zoom with ``cycles``
_MANY_ROWS = 48  # above this many SM slots, one tick per SM


def _axes(ax: Axes | None, size: tuple[float, float]) -> Axes:
    if ax is not None and not isinstance(ax, Axes):
        raise ConfigError(f"ax must be a matplotlib Axes; got {type(ax).__name__}")
    return ax if ax is not None else plt.subplots(figsize=size)[1]


def _recorded(result: Any, what: str) -> Any:
    from tbdse.simulation.result import Result

    if not isinstance(result, Result):
        raise ConfigError(
            f"{what} needs a Result from simulate(..., timeline=True); got {type(result).__name__}"
        )
    return result


def _finish(
    ax: Axes, ylabel: str, title: str, legend: bool = True, name: str | None = None
) -> Axes:
    """Axis titles, and the legend right of the axes (the series fill the plot)."""
    ax.set(xlabel="cycle", ylabel=ylabel, title=title)
    if legend:
        ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0,
                  fontsize="small", title=name)  # fmt: skip
    return ax


def gantt(
    result: Any, ax: Axes | None = None, *, cycles: tuple[float, float] | None = None,
    title: str | None = None,
) -> Axes:  # fmt: skip
    """Per-SM Gantt chart of a TB run: one row per SM slot (SM 0 slot 0 at the
    top), a bar from each TB's start to its end, coloured by kernel.
    ``cycles=(first, last)`` shows only the TBs overlapping that window; more
    than ``GANTT_MAX_BARS`` bars are refused (zoom in, or open the run in
    Perfetto: ``Result.to_perfetto``)."""
    tl = _recorded(result, "gantt").timeline()
    if cycles is not None:
        if not isinstance(cycles, (tuple, list)) or len(cycles) != 2:
            raise ConfigError(f"cycles must be (first, last); got {excerpt(cycles)}")
        tl = tl[(tl["end"] >= cycles[0]) & (tl["start"] <= cycles[1])]
    if len(tl) > GANTT_MAX_BARS:
        raise ConfigError(
            f"gantt would draw {len(tl):,} bars, more than {GANTT_MAX_BARS:,}; pass "
            "cycles=(first, last) to show a window, or use Result.to_perfetto"
        )
    slots = max(int(result.gpu.tb_slots), int(tl["slot"].max()) + 1 if len(tl) else 1)
    sms = max(int(result.gpu.sms), int(tl["sm"].max()) + 1 if len(tl) else 1)
    ax = _axes(ax, (8, max(2.5, 0.18 * sms * slots)))
    y = (tl["sm"] * slots + tl["slot"]).to_numpy()
    x0, x1 = tl["start"].to_numpy(), tl["end"].to_numpy()
    kernels = list(tl["kernel"].cat.categories)
    for i, kernel in enumerate(kernels):
        m = (tl["kernel"] == kernel).to_numpy()
        low, high = y[m] - 0.4, y[m] + 0.4
        corners = [np.c_[x0[m], low], np.c_[x1[m], low], np.c_[x1[m], high], np.c_[x0[m], high]]
        bars = PolyCollection(list(np.stack(corners, 1)),
                              facecolors=f"C{i % 10}", edgecolors="none", label=kernel)  # fmt: skip
        bars.set_gid("tb")
        ax.add_collection(bars)
    rows = range(sms * slots)
    if sms * slots <= _MANY_ROWS:
        ax.set_yticks(rows, [f"SM {s // slots} slot {s % slots}" for s in rows])
    else:
        ax.set_yticks(rows[::slots], [f"SM {s}" for s in range(sms)])
    ax.set_ylim(sms * slots - 0.5, -0.5)
    lo, hi = (x0.min(), x1.max()) if len(tl) else (0.0, 1.0)
    lo, hi = cycles if cycles is not None else (float(lo), float(hi))
    ax.set_xlim(lo, hi if hi > lo else lo + 1)
    ax.tick_params(axis="y", labelsize="small")
    title = title or f"{result.scheme.label()} on {result.workload.name}: TBs per SM slot"
    return _finish(ax, "", title, 1 < len(kernels) <= 20, "kernel")


def counters(
    result: Any, ax: Axes | None = None, *, columns: Sequence[str] | None = None,
    title: str | None = None,
) -> Axes:  # fmt: skip
    """What a run had in flight over time, as steps: for a TB run the TBs
    running and the TBs ready but not started (as the Perfetto export's
    counters), for a worklist run each series of ``Result.trace()`` (or
    ``columns`` of them)."""
    from tbdse.plot.perfetto import tb_counters

    result = _recorded(result, "counters")
    if result.workload.kind == "task_graph":
        series = {f"{k} TBs": v for k, v in tb_counters(result.timeline()).items()}
    else:
        trace = result.trace()
        series = {str(c): (trace["cycle"], trace[c]) for c in trace.columns if c != "cycle"}
    for name in columns or []:
        if name not in series:
            raise ConfigError(
                f"the run has no series '{name}'{suggest(str(name), series)}; it has "
                f"{', '.join(series)}"
            )
    ax = _axes(ax, (6.4, 3.6))
    for name in columns or series:
        ax.step(*series[name], where="post", label=name)
    ax.grid(True, alpha=0.3)
    ylabel = "TBs" if result.workload.kind == "task_graph" else "value"
    title = title or f"{result.scheme.label()} on {result.workload.name} over time"
    return _finish(ax, ylabel, title)


def activity(
    trace: Any, columns: Sequence[str] = ("active_threads", "waiting_threads"), *,
    ax: Axes | None = None, label: str | None = None, title: str | None = None,
) -> Axes:  # fmt: skip
    """A worklist run's sampled activity over time (HWWL Fig. 8): the share of
    threads active (holding a work item) and waiting, in percent.  ``trace``
    is a recorded :class:`~tbdse.Result` or its ``trace()`` table; ``label``
    prefixes the legend (to overlay runs)."""
    frame = trace.trace() if hasattr(trace, "trace") else trace
    if not isinstance(frame, pd.DataFrame) or "cycle" not in frame.columns:
        raise ConfigError("activity needs a recorded worklist run or its Result.trace() table")
    for c in columns:
        if c not in frame.columns:
            raise ConfigError(
                f"the trace has no column '{c}'{suggest(c, frame.columns)}; it has "
                f"{', '.join(map(str, frame.columns))}"
            )
    ax = _axes(ax, (6.4, 3.6))
    for c in columns:
        share = c.endswith("_threads")
        name = c.replace("_", " ") + (" (%)" if share else "")
        ax.plot(frame["cycle"], frame[c] * (100.0 if share else 1.0),
                label=f"{label}: {name}" if label else name)  # fmt: skip
    ax.grid(True, alpha=0.3)
    shares = all(c.endswith("_threads") for c in columns)
    return _finish(ax, "% of threads" if shares else "value", title or "activity over time")
