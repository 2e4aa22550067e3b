"""Figures from sweep results and recorded runs, drawn with seaborn.

Every sweep figure takes the DataFrame :func:`tbdse.sweep` returns, resolves
bare column names as sweeps do (``sms`` -> ``gpu.sms``), labels axes with
each column's readable name and unit, and returns the matplotlib Axes (the
list of panels when faceted by ``row``/``col``).  The modules, one per
family:

* :mod:`tbdse.plot.sweep`: :func:`line`, :func:`bar` (a metric against a parameter);
* :mod:`tbdse.plot.heatmap`: :func:`heatmap` (a metric over two parameters);
* :mod:`tbdse.plot.pareto`: :func:`pareto`, :func:`scatter` (runs as points);
* :mod:`tbdse.plot.timelines`: :func:`gantt` (a run's TBs per SM slot);
* :mod:`tbdse.plot.counters`: :func:`counters`, :func:`activity` (a run over time).

Nothing is averaged but replicates.  ``hue='auto'`` splits lines and bars by
the scheme label and by every other parameter that varies at a given x; an
explicit ``hue`` or a heatmap cell that would mix runs of different
parameters is refused with a message naming them.  Runs that failed
(``on_error='record'``) are marked with a red mark and the count.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pandas as pd

from tbdse._util.params import suggest
from tbdse.errors import ConfigError
from tbdse.plot._figure import LEGEND_INSIDE, nice_log_ticks
from tbdse.plot._labels import axis_label, baseline_name, tick_text, value_order
from tbdse.plot._rows import hue_columns, numeric, parameter_columns, select
from tbdse.plot.counters import activity, counters
from tbdse.plot.heatmap import heatmap
from tbdse.plot.pareto import DOMINATED_COLOUR, pareto, scatter
from tbdse.plot.sweep import FAILED_COLOUR, SUMMARIES, bar, line
from tbdse.plot.timelines import GANTT_MAX_BARS, gantt
from tbdse.simulation.results import column

__all__ = [
    "DOMINATED_COLOUR",
    "FAILED_COLOUR",
    "GANTT_MAX_BARS",
    "KINDS",
    "LEGEND_INSIDE",
    "SUMMARIES",
    "activity",
    "axis_label",
    "bar",
    "baseline_name",
    "check",
    "counters",
    "gantt",
    "heatmap",
    "line",
    "nice_log_ticks",
    "parameter_columns",
    "pareto",
    "scatter",
    "tick_text",
    "value_order",
]

# The kinds an experiment file's ``outputs.plots`` can draw.
KINDS: dict[str, Callable[..., Any]] = {
    "line": line,
    "heatmap": heatmap,
    "bar": bar,
    "scatter": scatter,
    "pareto": pareto,
}


def check(kind: str, df: pd.DataFrame, **options: Any) -> None:
    """The checks ``kind`` makes before drawing (columns exist, values are
    numeric, nothing would be averaged), without drawing; ConfigError otherwise."""
    if kind not in KINDS:
        raise ConfigError(f"unknown plot kind '{kind}'{suggest(kind, KINDS)}")
    df = select(df, options.get("where"))
    xc, yc = column(df, str(options.get("x"))), column(df, str(options.get("y")))
    facets = [column(df, options[k]) for k in ("row", "col", "facet") if options.get(k)]
    if kind == "pareto":
        from tbdse.plot.pareto import _directions

        _directions(df, xc, yc, options.get("directions", ("min", "min")))
        return
    if kind == "scatter":
        numeric(df, xc)
        numeric(df, yc)
        return
    value = options.get("value") if kind == "heatmap" else options.get("y")
    if value is not None:
        numeric(df, column(df, str(value)))
    if kind == "heatmap":
        hue_columns(df, None, [xc, yc, *facets])
    else:
        hue_columns(df, options.get("hue", "auto"), [xc, *facets])
