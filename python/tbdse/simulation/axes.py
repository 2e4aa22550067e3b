"""A sweep's axes: keys ("scheme.node_buffer", "gpu.sms", ...) resolved
against the run's namespaces, their values, and the grid and zip of points
they span (tbdse.simulation.plan turns them into the run table)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from tbdse import _core
from tbdse._util.checks import plain
from tbdse._util.excerpts import excerpt
from tbdse._util.params import suggest
from tbdse.errors import ConfigError
from tbdse.machine.gpus import field_info
from tbdse.schemes import Scheme
from tbdse.workloads.base import GENERATORS, Workload

TARGETS = ("scheme", "gpu", "workload", "cost")
# Result columns that are not parameters; a parameter of the same name must be qualified.
RESULT_COLUMNS = frozenset({"scheme", "label", "workload", "gpu", "replicate", "seed", "baseline"})


@dataclass(frozen=True)
class AxisKey:
    """A swept parameter: which part of the configuration and which name."""

    target: str
    name: str

    @property
    def column(self) -> str:
        """Its column in result tables: bare for scheme parameters, else target.name."""
        return self.name if self.target == "scheme" else f"{self.target}.{self.name}"


def namespaces(schemes: Sequence[Scheme], workloads: Sequence[Workload]) -> dict[str, set[str]]:
    """The parameter names each target offers to a sweep over these schemes and workloads."""
    return {
        "scheme": {p for s in schemes for p in s.params},
        "gpu": {f["name"] for f in field_info()},
        "workload": {p for w in workloads if w.generator for p in GENERATORS[w.generator].params},
        "cost": {p for w in workloads if w.cost is not None for p in w.cost.params},
    }


def resolve_key(key: str, spaces: Mapping[str, set[str]]) -> AxisKey:
    """``level_bound`` / ``gpu.sms`` / ... as an AxisKey; ConfigError when unknown or ambiguous."""
    if not isinstance(key, str) or not key:
        raise ConfigError(f"a sweep axis must be named by a parameter name; got {excerpt(key)}")
    everything = sorted(
        {n for names in spaces.values() for n in names}
        | {f"{t}.{n}" for t, names in spaces.items() for n in names}
    )
    if "." in key:
        target, name = key.split(".", 1)
        if target not in TARGETS:
            raise ConfigError(
                f"sweep axis '{key}': '{target}' is not one of {', '.join(TARGETS)}"
                f"{suggest(target, TARGETS)}"
            )
        if name not in spaces[target]:
            valid = sorted(spaces[target]) or ["(none in this sweep)"]
            raise ConfigError(
                f"sweep axis '{key}': no {target} parameter '{name}'"
                f"{suggest(name, spaces[target])}; {target} parameters: {', '.join(valid)}"
            )
        return AxisKey(target, name)
    matches = [t for t in TARGETS if key in spaces[t]]
    if key in RESULT_COLUMNS and matches:
        # A bare 'seed' in a plot means the result column; an axis must say whose.
        raise ConfigError(
            f"sweep parameter '{key}' is also a result column ({key} of the run); write "
            f"{' or '.join(f'{t}.{key}' for t in matches)}"
        )
    if not matches:
        raise ConfigError(
            f"unknown sweep parameter '{key}'{suggest(key, everything)}; "
            f"valid: {', '.join(everything)}"
        )
    if len(matches) > 1:
        raise ConfigError(
            f"sweep parameter '{key}' is ambiguous; write one of "
            f"{', '.join(f'{t}.{key}' for t in matches)}"
        )
    return AxisKey(matches[0], key)


def gpu_axes(entries: Mapping[str, Any], spaces: Mapping[str, set[str]]) -> dict[str, list[Any]]:
    """The values that ``entries`` (a grid, a zip, a design space's
    representatives) give GPU fields, by field.  An entry that names no
    parameter, or whose values are no list, is left to the sweep's own checks."""
    out: dict[str, list[Any]] = {}
    for key, values in entries.items():
        try:
            axis = resolve_key(key, spaces)
        except ConfigError:
            continue
        if axis.target == "gpu" and isinstance(values, (list, tuple)):
            out.setdefault(axis.name, []).extend(values)
    return out


def axis_values(key: str, values: Any, distinct: bool = True) -> list[Any]:
    """The values of one sweep axis, checked: a flat, non-empty list, no NaN, and
    (for a grid axis, ``distinct``) no value twice."""
    if isinstance(values, (str, bytes)) or not isinstance(values, (Sequence, np.ndarray, range)):
        raise ConfigError(f"sweep axis '{key}' needs a list of values; got {excerpt(values)}")
    if isinstance(values, np.ndarray) and values.ndim != 1:
        raise ConfigError(
            f"sweep axis '{key}' needs a flat list of values; got a {values.ndim}-D array"
        )
    out = [plain(v) for v in values]
    if not out:
        raise ConfigError(f"sweep axis '{key}' has no values")
    seen: dict[Any, int] = {}
    for i, v in enumerate(out):
        if isinstance(v, float) and v != v:
            raise ConfigError(f"sweep axis '{key}': value {i} is NaN")
        identity = _value_identity(v)
        if distinct and identity in seen:
            raise ConfigError(
                f"sweep axis '{key}' lists the same value twice ({out[seen[identity]]!r} at "
                f"position {seen[identity]} and {v!r} at {i}); values must be distinct"
            )
        seen.setdefault(identity, i)
    return out


def _value_identity(value: Any) -> Any:
    """What makes two axis values the same run: numbers by value (1000 is
    1000.0; 'unbounded' is infinity), anything else by type and value."""
    if isinstance(value, str) and value.lower() == "unbounded":
        return ("number", math.inf)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return ("number", float(value))
    try:
        hash(value)
    except TypeError:
        return (type(value).__name__, repr(value))
    return (type(value).__name__, value)


@dataclass
class Axes:
    """Swept keys with their value lists, and the points as rows of value indices."""

    keys: list[AxisKey]
    values: list[list[Any]]
    points: np.ndarray  # (points, keys) int array of indices into values[k]
    zipped: list[bool]  # per key: varied together with the other zipped keys

    @classmethod
    def build(
        cls,
        grid: Mapping[str, Any] | None,
        zipped: Mapping[str, Any] | None,
        spaces: Mapping[str, set[str]],
    ) -> Axes:
        for what, given in (("grid", grid), ("zip", zipped)):
            if given is not None and not isinstance(given, Mapping):
                raise ConfigError(
                    f"'{what}' maps parameter names to lists of values; got {excerpt(given)}"
                )
        grid, zipped = dict(grid or {}), dict(zipped or {})
        keys: list[AxisKey] = []
        values: list[list[Any]] = []
        for raw, vals in itertools.chain(grid.items(), zipped.items()):
            key = resolve_key(raw, spaces)
            if key in keys:
                raise ConfigError(f"sweep parameter '{key.column}' is given twice")
            keys.append(key)
            values.append(axis_values(raw, vals, distinct=raw in grid))
        n_grid = len(grid)
        zip_lengths = {len(v) for v in values[n_grid:]}
        if len(zip_lengths) > 1:
            detail = ", ".join(
                f"{k.column}: {len(v)}" for k, v in zip(keys[n_grid:], values[n_grid:], strict=True)
            )
            raise ConfigError(f"zipped axes must have equal lengths; got {detail}")
        ranges = [range(len(v)) for v in values[:n_grid]]
        combinations = math.prod(len(r) for r in ranges) * (len(values[-1]) if zipped else 1)
        _core.check_memory(
            f"a sweep grid of {combinations:,} parameter combinations",
            combinations * (len(keys) + 1) * 8.0,
        )
        if n_grid < len(keys):
            tuples = list(zip(*values[n_grid:], strict=True))
            for i, t in enumerate(tuples):
                if t in tuples[:i]:
                    raise ConfigError(
                        f"zipped axes repeat the combination {t} (positions "
                        f"{tuples.index(t)} and {i}); combinations must be distinct"
                    )
            ranges.append(range(zip_lengths.pop()))
        rows = list(itertools.product(*ranges))
        points = np.array(rows, dtype=np.int64).reshape(len(rows), len(ranges))
        if n_grid < len(keys):  # the zip column drives every zipped key
            points = np.hstack([points[:, :n_grid]] + [points[:, n_grid:]] * (len(keys) - n_grid))
        return cls(keys, values, points, [j >= n_grid for j in range(len(keys))])

    def columns(self, target: str) -> list[int]:
        return [j for j, k in enumerate(self.keys) if k.target == target]
