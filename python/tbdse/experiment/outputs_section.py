"""An experiment file's ``outputs`` section: tables and plots, each plot's
keys checked for its kind, and (once a preview of the results exists) each
named column checked against it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from tbdse._util.excerpts import excerpt
from tbdse._util.params import suggest
from tbdse.errors import ConfigError
from tbdse.experiment.keys import one_of, unknown_keys
from tbdse.experiment.spec import TABLE_FORMATS, PlotSpec
from tbdse.io.yamlio import Problems

# Every kind: axis labels, the figure's size in inches and a matplotlib style.
_FIGURE_KEYS = ("xlabel", "ylabel", "figsize", "style")
_FACETS = ("facet", "row", "col", "sharex", "sharey")
PLOT_KEYS: dict[str, tuple[str, ...]] = {
    "line": ("kind", "x", "y", "hue", *_FACETS, "spread", "logx", "logy", "title", "file", "where"),
    "heatmap": (
        *("kind", "x", "y", "value", "facet", "row", "col", "agg", "title", "file", "cmap"),
        "where",
    ),
    "bar": ("kind", "x", "y", "hue", *_FACETS, "title", "file", "logy", "summary", "where"),
    "scatter": ("kind", "x", "y", "hue", *_FACETS, "logx", "logy", "title", "file", "where"),
    "pareto": ("kind", "x", "y", "directions", "hue", "logx", "logy", "title", "file", "where"),
}
PLOT_CHOICES = {
    "spread": ("minmax", "std", "none"),
    "agg": ("mean", "median", "min", "max"),
    "summary": ("none", "gmean"),
}
PLOT_KEYS = {kind: (*keys, *_FIGURE_KEYS) for kind, keys in PLOT_KEYS.items()}


def outputs(problems: Problems, value: Any) -> tuple[list[str], list[PlotSpec]]:
    if value is None:
        return list(TABLE_FORMATS), []
    if not isinstance(value, Mapping):
        problems.add(("outputs",), "must be a mapping with 'tables' and/or 'plots'")
        return list(TABLE_FORMATS), []
    unknown_keys(problems, ("outputs",), value, ("tables", "plots"))
    tables = value.get("tables", list(TABLE_FORMATS))
    if not isinstance(tables, list) or any(t not in TABLE_FORMATS for t in tables):
        problems.add(
            ("outputs", "tables"),
            f"must be a list drawn from {', '.join(TABLE_FORMATS)}; got {excerpt(tables)}",
        )
        tables = list(TABLE_FORMATS)
    plots: list[PlotSpec] = []
    plot_specs = value.get("plots") or []
    if not isinstance(plot_specs, list):
        problems.add(("outputs", "plots"), "must be a list of plots")
        plot_specs = []
    for i, spec in enumerate(plot_specs):
        path = ("outputs", "plots", i)
        if not isinstance(spec, Mapping):
            problems.add(path, "a plot is a mapping with 'kind', axes and 'file'")
            continue
        kind = spec.get("kind")
        if not one_of(kind, PLOT_KEYS):
            problems.add(
                (*path, "kind"),
                f"must be one of {', '.join(PLOT_KEYS)}; got {excerpt(kind)}"
                f"{suggest(str(kind), PLOT_KEYS)}",
            )
            continue
        kind = str(kind)
        unknown_keys(problems, path, spec, PLOT_KEYS[kind])
        required = ("x", "y") if kind != "heatmap" else ("x", "y", "value")
        for r in required:
            if r not in spec:
                problems.add(path, f"a {kind} plot needs '{r}'")
        file = spec.get("file", f"plot{i}_{kind}.png")
        problem = plot_file_problem(file)
        bad_file = problem is not None
        if problem is not None:
            problems.add(
                (*path, "file"),
                "must be a .png, .pdf or .svg file name inside the output folder "
                f"({problem}); got {excerpt(file)}",
            )
        for option, choices in PLOT_CHOICES.items():
            if option in spec and spec[option] not in choices:
                problems.add(
                    (*path, option),
                    f"must be one of {', '.join(choices)}; got {excerpt(spec[option])}",
                )
        for option in ("logx", "logy", "sharex", "sharey"):
            if option in spec and not isinstance(spec[option], bool):
                problems.add((*path, option), f"must be true or false; got {excerpt(spec[option])}")
        for option in ("title", "xlabel", "ylabel"):
            if option in spec and not isinstance(spec[option], str):
                problems.add((*path, option), f"must be text; got {excerpt(spec[option])}")
        check_figure_options(problems, path, spec)
        if "cmap" in spec:
            import matplotlib

            if not one_of(spec["cmap"], matplotlib.colormaps):
                problems.add(
                    (*path, "cmap"),
                    f"unknown colour map {spec['cmap']!r}"
                    f"{suggest(str(spec['cmap']), list(matplotlib.colormaps))}",
                )
        where = spec.get("where") or {}
        if not isinstance(where, Mapping):
            problems.add((*path, "where"), "must map result columns to a value or a list of values")
            continue
        if bad_file:
            continue
        options = {k: v for k, v in spec.items() if k not in ("kind", "file", "where")}
        plots.append(PlotSpec(kind, options, file, dict(where)))
    return list(tables), plots


def check_figure_options(problems: Problems, path: tuple[Any, ...], spec: Mapping) -> None:
    """A plot's figsize ([width, height] in inches) and style (a matplotlib style)."""
    size = spec.get("figsize")
    if "figsize" in spec and not (
        isinstance(size, list)
        and len(size) == 2
        and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in size)
        and all(0 < v <= 100 for v in size)
    ):
        problems.add(
            (*path, "figsize"),
            f"must be [width, height] in inches, each above 0 and at most 100; got {excerpt(size)}",
        )
    if "style" in spec:
        import matplotlib.pyplot as plt

        if not one_of(spec["style"], plt.style.available):
            problems.add(
                (*path, "style"),
                f"must name a matplotlib style (plt.style.available: ggplot, seaborn-v0_8, ...); "
                f"got {excerpt(spec['style'])}"
                f"{suggest(str(spec['style']), plt.style.available)}",
            )


def plot_file_problem(file: Any) -> str | None:
    """Why ``file`` cannot name a figure in the output folder, or None.  Checked
    when the file is validated: a NUL or a '..' found only when the figure is
    saved would fail after the tables were written."""
    if not isinstance(file, str) or not file:
        return "it is not a non-empty name"
    if not file.isprintable():
        return "it contains a control character or NUL"
    if "\\" in file:
        return "it contains a backslash; separate folders with '/'"
    if not file.endswith((".png", ".pdf", ".svg")):
        return "it has another suffix"
    if file.startswith("/"):
        return "it is an absolute path"
    parts = file.split("/")
    if any(part in ("", ".", "..") for part in parts):
        return "it has an empty, '.' or '..' folder part"
    if any(part.startswith(".") and part.endswith((".png", ".pdf", ".svg")) for part in parts):
        return "it has no name before the suffix"
    return None


def check_objectives(problems: Problems, goals: dict[str, str], frame: pd.DataFrame) -> None:
    """Each objective is a numeric result column: known now, not after the
    first batch of trials has run."""
    from tbdse.simulation.results import column, metric_info

    def numeric(name: str) -> bool:
        dtype = frame[name].dtype
        return pd.api.types.is_numeric_dtype(dtype) and not pd.api.types.is_bool_dtype(dtype)

    metrics = [c for c in frame.columns if c in metric_info() and numeric(c)]
    for name in goals:
        where = ("search", "objectives", name)
        try:
            found = column(frame, name)
        except ConfigError:
            problems.add(where, missing_column(name, frame))
            continue
        if not numeric(found):
            problems.add(
                where,
                f"objective '{name}' is a text column; an objective must be numeric, e.g. "
                + ", ".join(metrics),
            )


def missing_column(name: str, frame: pd.DataFrame) -> str:
    if name in ("speedup", "baseline_makespan_cycles"):
        return f"no result column '{name}': it needs a baseline (add 'baseline: <scheme>')"
    if name in ("status", "error"):
        return f"no result column '{name}': failed runs are kept only with 'on_error: record'"
    return f"no result column '{name}'{suggest(name, map(str, frame.columns))}"


def check_plot_columns(
    problems: Problems, path: tuple[Any, ...], spec: PlotSpec, frame: pd.DataFrame
) -> bool:
    from tbdse.simulation.results import column

    ok = True
    named: list[tuple[tuple[Any, ...], Any]] = []
    for axis in ("x", "y", "value", "facet", "row", "col", "hue"):
        value = spec.options.get(axis)
        if axis == "hue" and value == "auto":
            continue
        if isinstance(value, list) and axis == "hue":
            named += [((*path, axis, k), v) for k, v in enumerate(value)]
        elif value is not None:
            named.append(((*path, axis), value))
    named += [((*path, "where", name), name) for name in spec.where]
    for where, name in named:
        try:
            column(frame, str(name))
        except ConfigError:
            problems.add(where, missing_column(str(name), frame))
            ok = False
    return ok


def check_plot_rows(
    problems: Problems, path: tuple[Any, ...], spec: PlotSpec, frame: pd.DataFrame
) -> None:
    """The plot's rows exist and draw without averaging configurations (known
    before running: the parameter columns are)."""
    from tbdse import plot
    from tbdse.simulation.results import column

    known = set(plot.parameter_columns(frame)) | {"scheme", "variant", "replicate", "seed"}
    if all(column(frame, name) in known for name in spec.where):
        rows = spec.rows(frame)
        if rows.empty:
            values = {n: list(dict.fromkeys(frame[column(frame, n)]))[:6] for n in spec.where}
            shown = "; ".join(f"{n}: {', '.join(map(str, v))}" for n, v in values.items())
            problems.add((*path, "where"), f"matches none of the {len(frame)} runs ({shown})")
            return
    else:
        rows = frame
    try:
        plot.check(spec.kind, rows, **spec.options)
    except ConfigError as exc:
        problems.add(path, str(exc))
