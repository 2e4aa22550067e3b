"""Which rows a figure draws and how they split: the configuration columns,
the hue that keeps configurations apart (nothing is averaged but
replicates), failed runs, a ``where`` filter."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd

from tbdse._util.excerpts import excerpt
from tbdse.errors import ConfigError
from tbdse.plot._labels import tick_text
from tbdse.simulation.results import SIZE_UNITS, column

Hue = str | Sequence[str] | None
# Columns that describe a run rather than measure it, besides the scheme parameters.
RUN_COLUMNS = ("label", "workload", "gpu")
_DERIVED = tuple(f"workload.{k}" for k in SIZE_UNITS)


def parameter_columns(df: pd.DataFrame) -> list[str]:
    """The columns that say which configuration a row ran (not its results)."""
    named = df.attrs.get("parameters")
    if named is None:  # a frame not made by tbdse.sweep: go by the naming rules
        named = [*RUN_COLUMNS, *(c for c in df.columns if str(c).startswith(("gpu.", "cost.")))]
        named += [c for c in df.columns if str(c).startswith("workload.")]
    return [c for c in named if c in df.columns and c not in _DERIVED]


def select(df: pd.DataFrame, where: dict[str, Any] | None) -> pd.DataFrame:
    """The rows whose column holds the value (or one of a list of values)."""
    if where is not None and not isinstance(where, dict):
        raise ConfigError(f"where must map result columns to values; got {excerpt(where)}")
    for name, wanted in (where or {}).items():
        df = df[df[column(df, name)].isin(wanted if isinstance(wanted, list) else [wanted])]
    return df


def _splitting(df: pd.DataFrame, fixed: list[str], params: list[str]) -> list[str]:
    """The fewest of ``params`` (preferring the scheme label, workload, GPU and
    swept axes) that make every group of rows sharing ``fixed`` one configuration."""
    swept = [c for c in df.attrs.get("scheme_axes", []) if c in params]
    chosen: list[str] = []
    for c in dict.fromkeys([*(c for c in RUN_COLUMNS if c in params), *swept, *params]):
        if df[c].nunique(dropna=False) <= 1:
            continue  # one value in every group (most scheme parameters): no grouping needed
        groups = df.groupby(fixed + chosen, dropna=False, sort=False)[c]
        if not df.empty and groups.nunique(dropna=False).max() > 1:
            chosen.append(c)
    return chosen


def hue_columns(df: pd.DataFrame, hue: Hue, fixed: list[str]) -> list[str]:
    """The columns lines/bars are split by, given the columns ``fixed`` per point."""
    params = [c for c in parameter_columns(df) if c not in fixed]
    if hue == "auto":
        return _splitting(df, fixed, params)
    if hue is not None and not isinstance(hue, (str, list, tuple)):
        raise ConfigError(f"hue must be 'auto', a column or a list of columns; got {excerpt(hue)}")
    chosen = [
        column(df, c) for c in ([] if hue is None else [hue] if isinstance(hue, str) else hue)
    ]
    left = _splitting(df, fixed + chosen, [c for c in params if c not in chosen])
    if left:
        values = "; ".join(
            f"{c}: {', '.join(tick_text(v) for v in list(dict.fromkeys(df[c]))[:4])}"
            for c in left[:4]
        )
        raise ConfigError(
            f"rows at the same {' / '.join(fixed)} differ in {', '.join(left)} ({values}), "
            "which the figure would average together; select rows first (where / df[...]), "
            f"split by them (hue=[..., {', '.join(repr(c) for c in left)}]) or draw one panel "
            "per value (row=/col=/facet=...)"
        )
    return chosen


def hue_labels(df: pd.DataFrame, cols: list[str]) -> pd.Series:
    """Legend text per row: the label/workload/gpu values, name=value for the
    rest (left out where the parameter does not apply to the row); a GPU or
    workload column by its bare name, as a sweep's grid takes it (tbs=256)."""

    def said(c: str, v: Any) -> str:
        if c in RUN_COLUMNS or c == "variant":
            return tick_text(v)
        bare = c.split(".", 1)[1] if c.startswith(("gpu.", "workload.")) else c
        return "" if pd.isna(v) else f"{bare}={tick_text(v)}"

    rows = df[cols].itertuples(index=False)
    texts = [", ".join(t for c, v in zip(cols, r, strict=True) if (t := said(c, v))) for r in rows]
    return pd.Series(texts, index=df.index)


def numeric(df: pd.DataFrame, name: str) -> None:
    """Refuses a column that cannot be drawn as a value."""
    if not pd.api.types.is_numeric_dtype(df[name]):
        raise ConfigError(f"column '{name}' is not numeric; it cannot be plotted as a value")


def failed(df: pd.DataFrame) -> pd.Series:
    """Per row: whether its run failed (``on_error='record'``)."""
    if "status" not in df.columns:
        return pd.Series(False, index=df.index)
    return df["status"].astype(str) != "ok"
