"""A recorded run's timeline: the per-SM Gantt chart of its thread blocks."""

from __future__ import annotations

from typing import Any

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes

from tbdse._util.excerpts import excerpt
from tbdse.errors import ConfigError

GANTT_MAX_BARS = 200_000  # beyond this matplotlib draws for minutes; zoom with ``cycles``
_MANY_ROWS = 48  # above this many SM slots, one tick per SM


def beside(ax: Axes, title: str | None = None) -> None:
    """The legend right of the axes: a run's series fill the plot area."""
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0,
              fontsize="small", title=title)  # fmt: skip


def recorded(result: Any, what: str) -> Any:
    from tbdse.simulation.result import Result

    if not isinstance(result, Result):
        raise ConfigError(
            f"{what} needs a Result from simulate(..., timeline=True); got {type(result).__name__}"
        )
    return result


def gantt(
    result: Any,
    ax: Axes | None = None,
    *,
    cycles: tuple[float, float] | None = None,
    title: str | None = None,
) -> Axes:
    """Per-SM Gantt chart of a TB run: one row per SM slot (SM 0 slot 0 at the
    top), a bar from each TB's start to its end, coloured by kernel.
    ``cycles=(first, last)`` shows only the TBs overlapping that window; more
    than ``GANTT_MAX_BARS`` bars are refused (zoom in, or open the run in
    Perfetto: ``Result.to_perfetto``)."""
    from matplotlib.collections import PolyCollection

    tl = recorded(result, "gantt").timeline()
    if cycles is not None:
        if not isinstance(cycles, (tuple, list)) or len(cycles) != 2:
            raise ConfigError(f"cycles must be (first, last); got {excerpt(cycles)}")
        tl = tl[(tl["end"] >= cycles[0]) & (tl["start"] <= cycles[1])]
    if len(tl) > GANTT_MAX_BARS:
        raise ConfigError(
            f"gantt would draw {len(tl):,} bars, more than {GANTT_MAX_BARS:,}; pass "
            "cycles=(first, last) to show a window, or use Result.to_perfetto"
        )
    if ax is not None and not isinstance(ax, Axes):
        raise ConfigError(f"ax must be a matplotlib Axes; got {type(ax).__name__}")
    gpu = result.gpu
    slots = max(int(gpu.tb_slots), int(tl["slot"].max()) + 1 if len(tl) else 1)
    sms = max(int(gpu.sms), int(tl["sm"].max()) + 1 if len(tl) else 1)
    ax = ax if ax is not None else plt.subplots(figsize=(8, max(2.5, 0.18 * sms * slots)))[1]
    row = (tl["sm"] * slots + tl["slot"]).to_numpy()
    start, end = tl["start"].to_numpy(), tl["end"].to_numpy()
    for i, kernel in enumerate(tl["kernel"].cat.categories):
        mine = (tl["kernel"] == kernel).to_numpy()
        if not mine.any():
            continue
        x0, x1, y = start[mine], end[mine], row[mine]
        verts = np.stack(
            [np.c_[x0, y - 0.4], np.c_[x1, y - 0.4], np.c_[x1, y + 0.4], np.c_[x0, y + 0.4]], 1
        )
        colour = f"C{i % 10}"
        bars = PolyCollection(list(verts), facecolors=colour, edgecolors="none", label=kernel)
        bars.set_gid("tb")
        ax.add_collection(bars)
    if sms * slots <= _MANY_ROWS:
        ax.set_yticks(
            range(sms * slots), [f"SM {s // slots} slot {s % slots}" for s in range(sms * slots)]
        )
    else:
        ax.set_yticks(range(0, sms * slots, slots), [f"SM {s}" for s in range(sms)])
    ax.set_ylim(sms * slots - 0.5, -0.5)
    first = float(start.min()) if len(tl) else 0.0
    last = float(end.max()) if len(tl) else 1.0
    lo, hi = cycles if cycles is not None else (first, last)
    ax.set_xlim(lo, hi if hi > lo else lo + 1)
    ax.set_xlabel("cycle")
    ax.tick_params(axis="y", labelsize="small")
    if 1 < len(tl["kernel"].cat.categories) <= 20:
        beside(ax, title="kernel")
    ax.set_title(title or f"{result.scheme.label()} on {result.workload.name}: TBs per SM slot")
    return ax
