"""Pareto fronts of result tables: the rows no other row beats on every objective.

>>> import pandas as pd, tbdse as td
>>> df = pd.DataFrame({"speedup": [2.0, 1.5, 1.0, 2.0], "storage_bytes": [64, 32, 32, 128]})
>>> td.pareto(df, {"speedup": "max", "storage_bytes": "min"}).index.tolist()
[0, 1]

Row a dominates row b when a is at least as good as b on every objective and
better on one.  Rows with the same objective values do not dominate each
other, so ties on the front are all kept.
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from tbdse._util.excerpts import excerpt
from tbdse._util.params import suggest
from tbdse.errors import ConfigError
from tbdse.simulation.results import column

__all__ = ["DIRECTIONS", "dominated", "front_mask", "pareto"]

DIRECTIONS = ("min", "max")
_BLOCK = 256  # rows compared at once against the front found so far (4+ objectives)
_CHUNK = 4096  # front rows per comparison: bounds the (chunk, block, k) temporary


def objective_columns(df: pd.DataFrame, objectives: Any) -> dict[str, str]:
    """``objectives`` with columns resolved as plots resolve them (``sms`` ->
    ``gpu.sms``) and directions checked; ConfigError naming what is wrong."""
    if not isinstance(objectives, Mapping) or not objectives:
        raise ConfigError(
            "objectives map result columns to 'min' or 'max', e.g. "
            f"{{'speedup': 'max', 'storage_bytes': 'min'}}; got {excerpt(objectives)}"
        )
    out: dict[str, str] = {}
    for name, direction in objectives.items():
        resolved = column(df, name)
        if direction not in DIRECTIONS:
            hint = suggest(direction, DIRECTIONS) if isinstance(direction, str) else ""
            raise ConfigError(
                f"objective '{name}': the direction must be 'min' or 'max'; got "
                f"{excerpt(direction)}{hint}"
            )
        if resolved in out:
            raise ConfigError(f"objective '{name}' names column '{resolved}' a second time")
        values = df[resolved]
        if pd.api.types.is_bool_dtype(values) or not pd.api.types.is_numeric_dtype(values):
            raise ConfigError(
                f"objective '{name}': column '{resolved}' is not numeric ({values.dtype}); "
                "an objective needs numbers"
            )
        out[resolved] = direction
    return out


def _costs(df: pd.DataFrame, objectives: Mapping[str, str]) -> np.ndarray:
    """(rows, objectives) floats to minimise: 'max' columns negated, NA as NaN."""
    cols = [
        df[c].to_numpy(dtype=np.float64, na_value=np.nan) * (-1.0 if d == "max" else 1.0)
        for c, d in objectives.items()
    ]
    return np.column_stack(cols) if cols else np.zeros((len(df), 0))


def _front_unique(points: np.ndarray) -> np.ndarray:
    """Non-dominated mask of distinct points sorted lexicographically (minimise).

    A dominating point is lexicographically smaller, so it comes first: one
    pass in order decides each point against the points before it.
    """
    m, k = points.shape
    if k == 1:
        return np.arange(m) == 0
    if k == 2:
        x, y = points[:, 0], points[:, 1]
        # within a run of equal x only the first (smallest y) can be on the
        # front; it is unless an earlier, smaller x reached its y.
        first = np.ones(m, dtype=bool)
        first[1:] = x[1:] != x[:-1]
        best_before = np.empty(m)
        best_before[0] = np.inf
        best_before[1:] = np.minimum.accumulate(y)[:-1]
        return first & ((np.arange(m) == 0) | (y < best_before))
    if k == 3:
        return _front_3(points)
    return _front_blocks(points)


def _front_3(points: np.ndarray) -> np.ndarray:
    """Three objectives in O(n log n) comparisons: an earlier point (x no
    larger) dominates p when its (y, z) is no larger, so p only needs the
    staircase of (y, z) seen so far: y increasing, z decreasing."""
    keep = np.zeros(len(points), dtype=bool)
    ys: list[float] = []
    neg_z: list[float] = []  # -z, increasing, for bisect
    for i, (y, z) in enumerate(points[:, 1:].tolist()):
        at = bisect.bisect_right(ys, y)
        if at and -neg_z[at - 1] <= z:
            continue  # the stair at or below y is no higher: dominated
        keep[i] = True
        start = at - 1 if at and ys[at - 1] == y else at  # a stair at the same y, now beaten
        end = bisect.bisect_right(neg_z, -z, lo=at)  # stairs right of y that are no lower
        ys[start:end] = [y]
        neg_z[start:end] = [-z]
    return keep


def _front_blocks(points: np.ndarray) -> np.ndarray:
    """Four or more objectives: each block of rows against the front so far,
    then the block's survivors among themselves (a dominator beaten by the
    front is beaten by what beats it, so survivors suffice)."""
    m, k = points.shape
    keep = np.zeros(m, dtype=bool)
    front = np.empty((0, k))
    for start in range(0, m, _BLOCK):
        block = points[start : start + _BLOCK]
        beaten = np.zeros(len(block), dtype=bool)
        for f in range(0, len(front), _CHUNK):
            part = front[f : f + _CHUNK]
            beaten |= np.all(part[:, None, :] <= block[None, :, :], axis=2).any(axis=0)
        alive = np.flatnonzero(~beaten)
        rest = block[alive]
        # distinct rows: i <= j on every objective means i dominates j
        inside = np.all(rest[:, None, :] <= rest[None, :, :], axis=2)
        np.fill_diagonal(inside, False)
        beaten[alive[inside.any(axis=0)]] = True
        keep[start : start + len(block)] = ~beaten
        front = np.concatenate([front, block[~beaten]])
    return keep


def front_mask(df: pd.DataFrame, objectives: Mapping[str, str]) -> np.ndarray:
    """Per row (by position): True on the front, False when dominated or when an
    objective is NaN.  ``objectives`` as for :func:`pareto`."""
    costs = _costs(df, objective_columns(df, objectives))
    valid = ~np.isnan(costs).any(axis=1)
    mask = np.zeros(len(df), dtype=bool)
    if valid.any():
        # equal vectors (ties) share one unique row and its verdict
        uniq, inverse = np.unique(costs[valid], axis=0, return_inverse=True)
        mask[valid] = _front_unique(uniq)[inverse.reshape(-1)]
    return mask


def pareto(df: pd.DataFrame, objectives: Mapping[str, str]) -> pd.DataFrame:
    """The non-dominated rows of a result table.

    Parameters
    ----------
    df
        A result table (e.g. from :func:`tbdse.sweep`), or any DataFrame.
    objectives
        Column -> ``'min'`` or ``'max'``, e.g. ``{"speedup": "max",
        "storage_bytes": "min"}``.  Bare names resolve as in plots (``sms`` ->
        ``gpu.sms``).

    Returns
    -------
    DataFrame
        The rows no other row dominates, in the input's order with its index.
        Rows with NaN in an objective (failed runs, parameters that do not
        apply) are left out; rows with equal objective values are all kept.
        Each row is one run: average replicates first for a front of means.
    """
    return df.iloc[np.flatnonzero(front_mask(df, objectives))]


def dominated(df: pd.DataFrame, objectives: Mapping[str, str]) -> pd.Series:
    """Per row: True when another row dominates it, False on the front, and
    NA where an objective is NaN (nullable boolean, indexed like ``df``), so
    that ``df[~dominated(df, objectives)]`` is :func:`pareto`'s result."""
    resolved = objective_columns(df, objectives)
    on_front = front_mask(df, resolved)
    missing = np.isnan(_costs(df, resolved)).any(axis=1)
    values = pd.array(~on_front, dtype="boolean")
    values[missing] = pd.NA
    return pd.Series(values, index=df.index, name="dominated")
