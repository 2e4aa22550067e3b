"""What a recorded run had in flight over time: its counters as steps, and a
worklist run's sampled activity (HWWL Fig. 8)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import matplotlib.pyplot as plt
import pandas as pd
from matplotlib.axes import Axes

from tbdse._util.params import suggest
from tbdse.errors import ConfigError
from tbdse.plot.timelines import beside, recorded


def counters(
    result: Any,
    ax: Axes | None = None,
    *,
    columns: Sequence[str] | None = None,
    title: str | None = None,
) -> Axes:
    """What a run had in flight over time: for a TB run the TBs running and the
    TBs ready but not started (as the Perfetto export's counters), for a
    worklist run each series of ``Result.trace()`` (or ``columns`` of them),
    as steps."""
    from tbdse._perfetto import tb_counters

    result = recorded(result, "counters")
    if ax is not None and not isinstance(ax, Axes):
        raise ConfigError(f"ax must be a matplotlib Axes; got {type(ax).__name__}")
    if result.workload.kind == "task_graph":
        series = {f"{k} TBs": v for k, v in tb_counters(result.timeline()).items()}
        ylabel = "TBs"
    else:
        trace = result.trace()
        series = {
            str(c): (trace["cycle"].to_numpy(), trace[c].to_numpy())
            for c in trace.columns
            if c != "cycle"
        }
        ylabel = "value"
    names = list(series) if columns is None else list(columns)
    for name in names:
        if name not in series:
            raise ConfigError(
                f"the run has no series '{name}'{suggest(str(name), series)}; it has "
                f"{', '.join(series)}"
            )
    ax = ax if ax is not None else plt.subplots(figsize=(6.4, 3.6))[1]
    for name in names:
        x, y = series[name]
        ax.step(x, y, where="post", label=name)
    ax.set_xlabel("cycle")
    ax.set_ylabel(ylabel)
    ax.grid(True, alpha=0.3)
    beside(ax)
    ax.set_title(title or f"{result.scheme.label()} on {result.workload.name} over time")
    return ax


def activity(
    trace: Any,
    columns: Sequence[str] = ("active_threads", "waiting_threads"),
    *,
    ax: Axes | None = None,
    label: str | None = None,
    title: str | None = None,
) -> Axes:
    """A worklist run's sampled activity over time (HWWL Fig. 8): the share of
    threads active (holding a work item) and waiting, in percent.  ``trace``
    is a :class:`~tbdse.Result` recorded with ``timeline=True`` or its
    ``trace()`` table; ``label`` prefixes the legend (to overlay runs)."""
    frame = trace.trace() if hasattr(trace, "trace") else trace
    if not isinstance(frame, pd.DataFrame) or "cycle" not in frame.columns:
        raise ConfigError("activity needs a recorded worklist run or its Result.trace() table")
    ax = ax if ax is not None else plt.subplots(figsize=(6.4, 3.6))[1]
    for c in columns:
        if c not in frame.columns:
            raise ConfigError(
                f"the trace has no column '{c}'{suggest(c, frame.columns)}; it has "
                f"{', '.join(map(str, frame.columns))}"
            )
        fraction = c.endswith("_threads")
        values = frame[c] * (100.0 if fraction else 1.0)
        name = c.replace("_", " ") + (" (%)" if fraction else "")
        ax.plot(frame["cycle"], values, label=f"{label}: {name}" if label else name)
    ax.set_xlabel("cycle")
    ax.set_ylabel("% of threads" if all(c.endswith("_threads") for c in columns) else "value")
    ax.grid(True, alpha=0.3)
    beside(ax)
    ax.set_title(title or "activity over time")
    return ax
