"""Result tables: one tidy row per run, with every parameter, every metric,
seed, configuration hash and package version.

Column naming: scheme parameters by their bare name (``level_bound``); GPU
fields, workload and cost-model parameters qualified (``gpu.sms``,
``workload.rows``, ``cost.mean``); metrics by name (``makespan_us``).
:func:`column` resolves a bare name to its qualified column, as sweeps do.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

import numpy as np
import pandas as pd

from tbdse import _core
from tbdse._util.params import UNBOUNDED, suggest
from tbdse.errors import ConfigError
from tbdse.machine.gpus import field_info
from tbdse.simulation.plan import Plan

__all__ = ["column", "failure_summary", "metric_info", "units"]

STATUS_NAMES = {
    0: "ok",
    1: "config_error",
    2: "deadlock",
    3: "simulation_error",
    4: "timed_out",  # stopped at the sweep's timeout_s
    5: "infeasible",  # failed validation with on_error='record': never simulated
}
# Workload size columns (workload.<name>): each is its own unit.
SIZE_UNITS = ("tasks", "edges", "levels", "nodes", "items", "threads", "blocks")
_RUN_PREFIX = re.compile(r"^run \d+: .*?, replicate \d+: ")


def _failure_reason(error: str) -> str:
    """The part of a run's error message that runs failing the same way share."""
    text = _RUN_PREFIX.sub("", error, count=1)
    if "Cause: " in text:
        text = text.split("Cause: ", 1)[1].split(" Stuck:", 1)[0]
    else:
        text = text.split(". ", 1)[0]
    return re.sub(r"\d+", "N", text.strip().rstrip("."))


def failure_summary(frame: pd.DataFrame, limit: int = 8) -> list[str]:
    """Lines describing the failed runs of a table made with ``on_error='record'``,
    grouped by status and reason, largest group first, each with the schemes it
    hit and one full message; [] when every run succeeded."""
    if not isinstance(frame, pd.DataFrame):
        raise ConfigError(f"failure_summary needs a result table; got {type(frame).__name__}")
    if "status" not in frame.columns:
        return []
    failed = frame[frame["status"] != "ok"]
    if failed.empty:
        return []
    reasons = failed["error"].astype(str).map(_failure_reason)
    groups = failed.assign(_reason=reasons).groupby(["status", "_reason"], sort=False)
    timed_out = "timed_out" in set(failed["status"])
    verb = "failed or timed out (timeout_s)" if timed_out else "failed"
    lines = [f"{len(failed)} of {len(frame)} runs {verb}:"]
    for (status, reason), part in sorted(groups, key=lambda g: -len(g[1]))[:limit]:
        variants = list(dict.fromkeys(part["variant"].astype(str)))
        shown = ", ".join(variants[:3]) + (
            f" and {len(variants) - 3} more" if len(variants) > 3 else ""
        )
        lines.append(f"  {len(part)} x {status}: {reason} [{shown}]")
        lines.append(f"      e.g. {part['error'].iloc[0][:300]}")
    if groups.ngroups > limit:
        lines.append(
            f"  ... and {groups.ngroups - limit} more kinds of failure (see the 'error' column)"
        )
    return lines


# A statistic that reports the value an 'auto' parameter resolved to has the
# parameter's name in the core (Juggler's workers); in result tables the
# parameter's column keeps what was asked for ('auto', as for every scheme) and
# the statistic becomes '<param>_resolved'.
RESOLVED = "_resolved"


@cache
def resolved_metrics() -> dict[str, str]:
    """Result column -> core statistic, for statistics named like a parameter."""
    out = {}
    for name in _core.scheme_names():
        meta = _core.scheme_info(name)
        params = {p["name"] for p in meta["params"]}
        for s in meta["stats"]:
            if s["name"] in params:
                out[s["name"] + RESOLVED] = s["name"]
    return out


def metric_column(name: str) -> str:
    """The result column of core metric ``name``."""
    return name + RESOLVED if name + RESOLVED in resolved_metrics() else name


@cache
def metric_info() -> dict[str, dict[str, str]]:
    """Every metric any run can report (common and scheme-specific): unit and meaning."""
    out = {m["name"]: dict(m) for m in _core.common_metrics()}
    for name in _core.scheme_names():
        meta = _core.scheme_info(name)
        for s in [*meta["kind_metrics"], *meta["stats"]]:
            out.setdefault(s["name"], dict(s))
    for name in resolved_metrics():
        param = name.removesuffix(RESOLVED)
        unit = out.pop(param)["unit"]
        doc = f"the value of parameter {param} the run used (its column keeps 'auto')"
        out[name] = {"name": name, "unit": unit, "doc": doc}
    out["speedup"] = {"name": "speedup", "unit": "x", "doc": "baseline makespan / makespan"}
    out["baseline_makespan_cycles"] = {
        "name": "baseline_makespan_cycles",
        "unit": "cycles",
        "doc": "makespan of the baseline scheme in the same configuration (the shortest, "
        "when several baselines are given; their winner is in column 'baseline')",
    }
    return out


@cache
def units() -> dict[str, str]:
    """Unit of every known column (metrics, GPU fields, scheme parameters)."""
    out = {name: m["unit"] for name, m in metric_info().items()}
    out.update({f"gpu.{f['name']}": f["unit"] for f in field_info()})
    for name in _core.scheme_names():
        for p in _core.scheme_info(name)["params"]:
            out.setdefault(p["name"], p["unit"])
    out.update({f"workload.{k}": k for k in SIZE_UNITS})
    out.update({f"cost.{p}": "cycles" for p in ("cycles", "low", "high", "mean", "std")})
    return {k: v for k, v in out.items() if v}


def column(df: pd.DataFrame, name: str) -> str:
    """The column ``name`` refers to: itself, or gpu./workload./cost. + name when unique."""
    if not isinstance(df, pd.DataFrame):  # a plot given something else than a result table
        raise ConfigError(f"expected a result table (a DataFrame); got {type(df).__name__}")
    if not isinstance(name, str):
        raise ConfigError(f"a column is named by text; got {name!r:.60}")
    if name in df.columns:
        return name
    matches = [f"{t}.{name}" for t in ("gpu", "workload", "cost") if f"{t}.{name}" in df.columns]
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise ConfigError(f"column '{name}' is ambiguous; write one of {', '.join(matches)}")
    raise ConfigError(
        f"no column '{name}' in the results{suggest(name, map(str, df.columns))}; "
        f"columns: {', '.join(map(str, df.columns))}"
    )


def typed_column(values: Sequence[Any]) -> Any:
    """One type per parameter column, so that tables round-trip through Parquet
    and CSV: booleans as nullable booleans, whole numbers as nullable Int64,
    numbers mixed with 'unbounded' as floats (unbounded = inf), anything else
    ('auto' beside numbers, names, paths) as text.  None marks a run the
    parameter does not apply to."""
    present = [v for v in values if v is not None]
    # Decided on the set of value types, one pass: a sweep's columns hold
    # thousands of values of one or two types.
    kinds = set(map(type, present))
    if all(issubclass(k, (bool, np.bool_)) for k in kinds):
        return pd.array(values, dtype="boolean")
    whole = all(issubclass(k, (int, np.integer)) and not issubclass(k, bool) for k in kinds)
    if whole:
        return pd.array(values, dtype="Int64")
    numbers = {k for k in kinds if not issubclass(k, str)}
    numeric = all(
        issubclass(k, (int, float, np.number)) and not issubclass(k, (bool, np.bool_))
        for k in numbers
    ) and all(v == UNBOUNDED for v in present if isinstance(v, str))
    if numeric and present:
        return np.array(
            [np.nan if v is None else (np.inf if v == UNBOUNDED else float(v)) for v in values]
        )
    return pd.array([None if v is None else str(v) for v in values], dtype="str")


def _param_columns(plan: Plan, rows: np.ndarray) -> dict[str, Any]:
    """Scheme parameters (effective values), NaN/None where a scheme lacks one."""
    axes = plan.axes
    swept = {axes.keys[j].name: j for j in axes.columns("scheme")}
    names: list[str] = []
    for s in plan.schemes:
        names += [p for p in s.params if p not in names]
    out: dict[str, Any] = {}
    scheme_of = plan.scheme_of[rows]
    for name in names:
        col = np.full(len(rows), None, dtype=object)
        for si, s in enumerate(plan.schemes):
            if name not in s.params:
                continue
            mask = scheme_of == si
            if name in swept:
                j = swept[name]
                vals = np.empty(len(axes.values[j]), dtype=object)
                vals[:] = axes.values[j]
                col[mask] = vals[axes.points[plan.point_of[rows[mask]], j]]
            else:
                col[mask] = s.params[name]
        out[name] = typed_column(list(col))
    return out


def _labels(plan: Plan, rows: np.ndarray) -> np.ndarray:
    """Each row's scheme label naming the values of swept scheme parameters (``variant``)."""
    axes = plan.axes
    out = np.empty(len(rows), dtype=object)
    scheme_of = plan.scheme_of[rows]
    for si, s in enumerate(plan.schemes):
        mine = np.nonzero(scheme_of == si)[0]
        cols = [j for j in axes.columns("scheme") if axes.keys[j].name in s.params]
        if not cols or len(mine) == 0:
            out[mine] = s.label()
            continue
        picks = axes.points[plan.point_of[rows[mine]]][:, cols]
        combos, inverse = np.unique(picks, axis=0, return_inverse=True)
        texts = [
            s.label(
                {axes.keys[j].name: axes.values[j][v] for j, v in zip(cols, combo, strict=True)}
            )
            for combo in combos
        ]
        out[mine] = np.array(texts, dtype=object)[inverse.reshape(-1)]
    return out


def _gpu_columns(
    plan: Plan, rows: np.ndarray, overrides: Mapping[str, np.ndarray]
) -> dict[str, Any]:
    """Every GPU field's effective value: numbers, and choices as text."""
    out: dict[str, Any] = {}
    for f in field_info():
        name = f["name"]
        values = np.array([g.encoded()[name] for g in plan.gpus], dtype=np.float64)[
            plan.gpu_of[rows]
        ]
        if name in overrides:
            swept = overrides[name][rows]
            values = np.where(np.isnan(swept), values, swept)
        if f["kind"] == "choice":
            out[f"gpu.{name}"] = pd.array(
                np.asarray(f["choices"], dtype=object)[values.astype(np.int64)], dtype="str"
            )
        else:
            out[f"gpu.{name}"] = values.astype(np.int64) if f["kind"] == "int" else values
    return out


def _workload_columns(
    plan: Plan, rows: np.ndarray, cost_overrides: Mapping[str, np.ndarray]
) -> tuple[dict[str, Any], list[str]]:
    """Workload name, generator parameters, sizes and cost model; and which of
    the columns are sizes (derived from the parameters, not parameters)."""
    tables = plan.workloads
    w_of = plan.workload_of[rows]
    out: dict[str, Any] = {"workload": np.array([w.name for w in tables], dtype=object)[w_of]}
    params: list[str] = []
    for w in tables:
        params += [p for p in w.params if p not in params]
    for p in params:
        vals = np.array([w.params.get(p) for w in tables], dtype=object)[w_of]
        out[f"workload.{p}"] = typed_column(list(vals))
    sizes = [w.sizes() for w in tables]
    size_names: list[str] = []
    for s in sizes:
        size_names += [k for k in s if k not in size_names]
    # A size beats a generator parameter of the same name (bfs(graph='file')
    # has a 'nodes' parameter it does not use; the graph's size is what ran).
    for k in size_names:
        vals = np.array([s.get(k) for s in sizes], dtype=object)[w_of]
        out[f"workload.{k}"] = typed_column(list(vals))
    if any(w.cost is not None for w in tables):
        kinds = [None if w.cost is None else w.cost.kind for w in tables]
        out["cost.model"] = np.array(kinds, dtype=object)[w_of]
    cost_params: list[str] = []
    for w in tables:
        if w.cost is not None:
            cost_params += [p for p in w.cost.params if p not in cost_params]
    for p in cost_params:
        vals = np.array(
            [np.nan if w.cost is None else w.cost.params.get(p, np.nan) for w in tables],
            dtype=np.float64,
        )[w_of]
        if p in cost_overrides:
            swept = cost_overrides[p][rows]
            vals = np.where(np.isnan(swept), vals, swept)
        out[f"cost.{p}"] = vals
    # Sizes that are not also generator parameters describe, not configure.
    return out, [f"workload.{k}" for k in size_names if k not in params]


def build_frame(
    plan: Plan,
    columns: Sequence[str],
    metrics: np.ndarray,
    hashes: np.ndarray,
    status: np.ndarray,
    errors: Sequence[str],
    done: np.ndarray,
    record_errors: bool,
) -> pd.DataFrame:
    """The result DataFrame of the main runs that finished (``done``)."""
    rows = np.nonzero(done[: plan.main_runs])[0]
    cost_overrides = {k.name: v for k, v in plan.overrides if k.target == "cost"}
    gpu_overrides = {k.name: v for k, v in plan.overrides if k.target == "gpu"}
    data: dict[str, Any] = {
        "scheme": np.array([s.name for s in plan.schemes], dtype=object)[plan.scheme_of[rows]],
        "label": np.array([s.label() for s in plan.schemes], dtype=object)[plan.scheme_of[rows]],
        "variant": _labels(plan, rows),
    }
    workload_cols, size_cols = _workload_columns(plan, rows, cost_overrides)
    scheme_cols = _param_columns(plan, rows)
    gpu_cols = _gpu_columns(plan, rows, gpu_overrides)
    data.update(workload_cols)
    data["gpu"] = np.array([g.name for g in plan.gpus], dtype=object)[plan.gpu_of[rows]]
    data.update(scheme_cols)
    data.update(gpu_cols)
    data["replicate"] = plan.replicate_of[rows].astype(np.int64)
    data["seed"] = np.full(len(rows), plan.seed, dtype=np.int64)
    for c, name in enumerate(columns):
        values = metrics[rows, c]
        if (name.endswith("_cycles") or name == "events") and not np.isnan(values).any():
            values = values.astype(np.int64)
        data[metric_column(name)] = values  # a parameter's column is never overwritten
    if plan.baseline_of is not None:
        sources = plan.baseline_of[:, rows]  # (baselines, rows)
        each = metrics[sources, list(columns).index("makespan_cycles")]
        each = np.where(done[sources], each, np.nan)
        # The best baseline: the shortest makespan among those that finished.
        ranked = np.where(np.isnan(each), np.inf, each)
        best = np.argmin(ranked, axis=0) if len(rows) else np.zeros(0, dtype=np.int64)
        base = each[best, np.arange(len(rows))] if len(rows) else np.zeros(0)
        data["baseline_makespan_cycles"] = base
        if len(plan.baselines) > 1:  # which of them was the best
            labels = np.array([b.label() for b in plan.baselines], dtype=object)
            data["baseline"] = np.where(np.isnan(base), None, labels[best])
        mine = metrics[rows, list(columns).index("makespan_cycles")]
        with np.errstate(divide="ignore", invalid="ignore"):
            data["speedup"] = base / mine
    if record_errors or (status[rows] == 4).any():  # timed-out runs are rows with either setting
        data["status"] = np.array([STATUS_NAMES[int(s)] for s in status[rows]], dtype=object)
        # No error is a missing value, not "" (which CSV could not tell apart).
        data["error"] = np.array([errors[int(i)] or None for i in rows], dtype=object)
    data["config_hash"] = np.array([f"{int(h):016x}" for h in hashes[rows]], dtype=object)
    data["tbdse_version"] = _core.__version__
    frame = pd.DataFrame(data)
    # A mechanism switched on that did nothing in this run (a quiet zero else).
    from tbdse.simulation.mechanisms import run_warnings

    frame.insert(list(frame.columns).index("config_hash"), "warnings", run_warnings(frame))
    # Which scheme parameters the sweep varied, and which columns describe a
    # run's configuration: plots split lines by them rather than average them.
    frame.attrs["scheme_axes"] = [plan.axes.keys[j].name for j in plan.axes.columns("scheme")]
    frame.attrs["baselines"] = [b.label() for b in plan.baselines]  # speed-ups are over these
    frame.attrs["parameters"] = ["label", "workload", "gpu", *scheme_cols] + [
        c for c in [*workload_cols, *gpu_cols] if c != "workload" and c not in size_cols
    ]
    return frame
