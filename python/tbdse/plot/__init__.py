"""Figures from sweep results and recorded runs, drawn with seaborn.

Sweep figures take the DataFrame :func:`tbdse.sweep` returns, resolve bare
column names as sweeps do (``sms`` -> ``gpu.sms``), name axes with each
column's documented name and unit, and return the matplotlib Axes, or the
list of panels when faceted by ``row``/``col`` (a seaborn FacetGrid, which
makes its own figure: ``ax=`` is for one panel only).  One module per
family: :mod:`~tbdse.plot.sweep` (:func:`line`, :func:`bar`),
:mod:`~tbdse.plot.heatmap`, :mod:`~tbdse.plot.pareto` (:func:`pareto`,
:func:`scatter`) and :mod:`~tbdse.plot.runs` (:func:`gantt`,
:func:`counters`, :func:`activity`: one recorded run).  Nothing is averaged
but replicates (see ``docs/experiments.md``, "Figures").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pandas as pd
from matplotlib.figure import Figure

from tbdse._util.params import suggest
from tbdse.errors import ConfigError
from tbdse.plot import heatmap as _heatmap
from tbdse.plot import sweep as _sweep
from tbdse.plot._figure import LEGEND_INSIDE, nice_log_ticks
from tbdse.plot._labels import axis_label, baseline_name, tick_text, value_order
from tbdse.plot._rows import numeric, parameter_columns, select
from tbdse.plot.heatmap import heatmap
from tbdse.plot.pareto import DOMINATED_COLOUR, _directions, pareto, scatter
from tbdse.plot.runs import GANTT_MAX_BARS, activity, counters, gantt
from tbdse.plot.sweep import FAILED_COLOUR, SUMMARIES, bar, line
from tbdse.simulation.results import column

__all__ = [
    "DOMINATED_COLOUR", "FAILED_COLOUR", "GANTT_MAX_BARS", "KINDS", "LEGEND_INSIDE", "SUMMARIES",
    "activity", "axis_label", "bar", "baseline_name", "check", "counters", "draw", "gantt",
    "heatmap", "line", "nice_log_ticks", "parameter_columns", "pareto", "scatter", "tick_text",
    "value_order",
]  # fmt: skip

# The kinds an experiment file's ``outputs.plots`` can draw.
KINDS: dict[str, Callable[..., Any]] = {
    "line": line, "heatmap": heatmap, "bar": bar, "scatter": scatter, "pareto": pareto,
}  # fmt: skip


def check(kind: str, df: pd.DataFrame, **options: Any) -> None:
    """The checks ``kind`` makes before drawing (columns exist, values are
    numeric, nothing would be averaged), without drawing; ConfigError otherwise."""
    if kind not in KINDS:
        raise ConfigError(f"unknown plot kind '{kind}'{suggest(kind, KINDS)}")
    x, y, value, where = (options.get(k) for k in ("x", "y", "value", "where"))
    facets = [options.get(k) for k in ("row", "col", "facet")]
    if x is None or y is None or (kind == "heatmap" and value is None):
        return  # a plot without its axes is refused as such by the caller
    if kind in ("line", "bar"):
        _sweep.prepare(df, x, y, options.get("hue", "auto"), where, facets)
    elif kind == "heatmap":
        _heatmap.prepare(df, x, y, value, where, facets)
    else:  # runs as points: nothing is averaged
        df = select(df, where)
        xc, yc = column(df, str(x)), column(df, str(y))
        if kind == "pareto":
            _directions(df, xc, yc, options.get("directions", ("min", "min")))
        else:
            numeric(df, xc)
            numeric(df, yc)


def draw(kind: str, df: pd.DataFrame, **options: Any) -> Figure:
    """The figure an experiment file's plot entry draws: one panel on a
    figure outside pyplot (no GUI backend, a notebook's left alone), or a
    faceted grid's own figure (close it with ``plt.close`` once saved)."""
    if any(options.get(k) for k in ("row", "col", "facet")):
        drawn = KINDS[kind](df, **options)
        return drawn[0].get_figure(root=True)
    figure = Figure(figsize=(6.4, 4.2))
    KINDS[kind](df, ax=figure.subplots(), **options)
    return figure
