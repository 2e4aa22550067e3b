"""One recorded run (``simulate(..., timeline=True)``) over time: the per-SM
Gantt chart of its thread blocks, its counters as steps, and a worklist
run's sampled activity (HWWL Fig. 8).  One panel each, on ``ax`` if given,
its legend right of the data."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.collections import PolyCollection

from tbdse._util.excerpts import excerpt
from tbdse._util.params import suggest
from tbdse.errors import ConfigError
from tbdse.plot import _figure as fg

GANTT_MAX_BARS = 200_000  # beyond this matplotlib draws for minutes; zoom with ``cycles``
_MANY_ROWS = 48  # above this many SM slots, one tick per SM


def _recorded(result: Any, what: str) -> Any:
    from tbdse.simulation.result import Result

    if not isinstance(result, Result):
        raise ConfigError(
            f"{what} needs a Result from simulate(..., timeline=True); got {type(result).__name__}"
        )
    return result


def _columns(wanted: Sequence[str], have: Sequence[str], missing: str) -> None:
    for name in wanted:
        if name not in have:
            raise ConfigError(
                f"{missing} {name!r}{suggest(str(name), have)}; it has {', '.join(have)}"
            )


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
    y = (tl["sm"] * slots + tl["slot"]).to_numpy()
    x0, x1 = tl["start"].to_numpy(), tl["end"].to_numpy()
    kernels = list(tl["kernel"].cat.categories)
    with fg.panels(None, ax, size=(8, max(2.5, 0.18 * sms * slots))) as p:
        ax = p.axes[0]
        for i, kernel in enumerate(kernels):
            m = (tl["kernel"] == kernel).to_numpy()
            low, high = y[m] - 0.4, y[m] + 0.4
            corners = [np.c_[x0[m], low], np.c_[x1[m], low], np.c_[x1[m], high], np.c_[x0[m], high]]
            bars = PolyCollection(list(np.stack(corners, 1)), facecolors=f"C{i % 10}",
                                  edgecolors="none", label=kernel, gid="tb")  # fmt: skip
            ax.add_collection(bars)
        rows = range(sms * slots)
        if sms * slots <= _MANY_ROWS:
            ax.set_yticks(rows, [f"SM {s // slots} slot {s % slots}" for s in rows])
        else:
            ax.set_yticks(rows[::slots], [f"SM {s}" for s in range(sms)])
        ax.set_ylim(sms * slots - 0.5, -0.5)
        lo, hi = cycles or ((float(x0.min()), float(x1.max())) if len(tl) else (0.0, 1.0))
        ax.set_xlim(lo, hi if hi > lo else lo + 1)
        ax.tick_params(axis="y", labelsize="small")
        title = title or f"{result.scheme.label()} on {result.workload.name}: TBs per SM slot"
        return fg.finish(p, "cycle", "", title, legend=1 < len(kernels) <= 20, legend_out=True,
                         legend_title="kernel")  # fmt: skip


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
    tasks = result.workload.kind == "task_graph"
    if tasks:
        series = {f"{k} TBs": v for k, v in tb_counters(result.timeline()).items()}
    else:
        trace = result.trace()
        series = {str(c): (trace["cycle"], trace[c]) for c in trace.columns if c != "cycle"}
    _columns(columns or [], list(series), "the run has no series")
    title = title or f"{result.scheme.label()} on {result.workload.name} over time"
    lines = {name: series[name] for name in columns or series}
    return _over_time(ax, lines, "TBs" if tasks else "value", title, "steps-post")


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
    _columns(columns, list(map(str, frame.columns)), "the trace has no column")
    lines, shares = {}, [c.endswith("_threads") for c in columns]  # shares in percent
    for c, share in zip(columns, shares, strict=True):
        name = c.replace("_", " ") + (" (%)" if share else "")
        scaled = frame[c] * (100.0 if share else 1.0)
        lines[f"{label}: {name}" if label else name] = (frame["cycle"], scaled)
    ylabel = "% of threads" if all(shares) else "value"
    return _over_time(ax, lines, ylabel, title or "activity over time", "default")


def _over_time(ax: Axes | None, lines: dict[str, Any], ylabel: str, title: str, how: str) -> Axes:
    """Series over cycles (drawn as ``how``: 'default' or 'steps-post'), the legend beside them."""
    with fg.panels(None, ax, size=(7.6, 3.6)) as p:
        for name, (cycles, values) in lines.items():
            p.axes[0].plot(cycles, values, drawstyle=how, label=name)
        p.axes[0].grid(True, alpha=0.3)
        return fg.finish(p, "cycle", ylabel, title, legend_out=True)
