"""Cost models: how many cycles each task (thread block) runs.

Deterministic kinds (``constant``, ``per_kernel``, ``array`` and ``graph``,
which :func:`from_graph` makes) take an optional ``jitter``: the sigma of a
mean-one lognormal factor.  The distributions (``uniform``, ``normal``,
``lognormal``) draw from the seeded counter-based generator keyed by (seed,
workload, cost model, replicate), so every scheme compared in a sweep sees
the same task costs (common random numbers), and any run is reproducible on
its own.  Draws are rounded to whole cycles and never fall below one cycle.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import numpy as np

from tbdse import _core
from tbdse._util.checks import real
from tbdse._util.excerpts import excerpt
from tbdse._util.params import unknown_name
from tbdse.errors import ConfigError

__all__ = [
    "CostModel",
    "array",
    "constant",
    "from_graph",
    "kinds",
    "lognormal",
    "normal",
    "per_kernel",
    "uniform",
]


@cache
def kinds() -> dict[str, dict[str, float]]:
    """Every kind with its parameters and their defaults."""
    return dict(_core.cost_kinds())


@dataclass(frozen=True)
class CostModel:
    """A cost-model kind with its numeric parameters.

    ``table`` holds cycles per kernel (``per_kernel``: a mapping from kernel
    name, or a sequence indexed by kernel id) or per task (``array``).
    """

    kind: str
    params: Mapping[str, float] = field(default_factory=dict)
    table: Mapping[str, int] | Sequence[int] | None = None

    def __post_init__(self) -> None:
        if self.kind not in kinds():
            raise unknown_name("cost model", self.kind, kinds())
        full = dict(kinds()[self.kind])
        for key, value in self.params.items():
            if key not in full:
                raise unknown_name(f"parameter of cost model '{self.kind}'", key, full)
            full[key] = real(value, f"cost model '{self.kind}' parameter '{key}'")
        object.__setattr__(self, "params", full)
        if self.kind in ("per_kernel", "array") and self.table is None:
            raise ConfigError(f"cost model '{self.kind}' needs a table of cycles")
        if self.table is not None:
            what = f"cost model '{self.kind}' table"
            if isinstance(self.table, Mapping):
                if not all(isinstance(k, str) for k in self.table):
                    raise ConfigError(
                        f"{what} must map kernel names to cycles; got {self.table!r:.80}"
                    )
                cycle_array(list(self.table.values()), what)
            else:
                cycle_array(self.table, what)
        _core.check_cost(self.kind, full, None)

    def replace(self, **params: float) -> CostModel:
        return CostModel(self.kind, {**self.params, **params}, self.table)

    def values_for(self, kernel_names: Sequence[str], tasks: int) -> np.ndarray | None:
        """The table as cycles per kernel id (per_kernel) or per task (array)."""
        if self.table is None:
            return None
        if self.kind == "per_kernel" and isinstance(self.table, Mapping):
            missing = [k for k in kernel_names if k not in self.table]
            if missing:
                raise ConfigError(
                    f"cost model 'per_kernel' has no cost for kernel(s) {', '.join(missing)}; "
                    f"it names {', '.join(map(str, self.table))}"
                )
            extra = [k for k in self.table if k not in kernel_names]
            if extra:
                raise unknown_name("kernel in cost table", extra[0], kernel_names)
            return cycle_array(
                [self.table[k] for k in kernel_names], f"cost model '{self.kind}' table"
            )
        return cycle_array(self.table, f"cost model '{self.kind}' table")

    def describe(self) -> str:
        args = ", ".join(f"{k}={v:g}" for k, v in self.params.items())
        return f"{self.kind}({args})"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"model": self.kind, **self.params}
        if self.table is not None:
            out["table"] = dict(self.table) if isinstance(self.table, Mapping) else list(self.table)
        return out


def cycle_array(values: Any, what: str) -> np.ndarray:
    """A one-dimensional int64 array of whole, non-negative cycle counts (< 2^48)."""
    try:
        array = np.asarray(values)
    except (ValueError, TypeError):
        array = np.asarray([], dtype=object)
    if array.ndim != 1 or not (
        np.issubdtype(array.dtype, np.integer) or np.issubdtype(array.dtype, np.floating)
    ):
        raise ConfigError(f"{what} must be a list of whole cycle counts; got {values!r:.80}")
    if np.issubdtype(array.dtype, np.floating) and not (
        np.all(np.isfinite(array)) and np.all(np.mod(array, 1) == 0)
    ):
        raise ConfigError(f"{what} must hold whole cycle counts; got {values!r:.80}")
    if array.size and (array.min() < 0 or array.max() > 2**48):
        raise ConfigError(f"{what} must hold cycle counts in [0, 2^48]; got {values!r:.80}")
    return array.astype(np.int64)


def constant(cycles: float = 1000, *, jitter: float = 0.0) -> CostModel:
    """Every task takes ``cycles``."""
    return CostModel("constant", {"cycles": cycles, "jitter": jitter})


def per_kernel(table: Mapping[str, int] | Sequence[int], *, jitter: float = 0.0) -> CostModel:
    """Cycles by kernel: a mapping kernel name -> cycles, or a list by kernel id."""
    return CostModel("per_kernel", {"jitter": jitter}, table)


def array(values: Sequence[int], *, jitter: float = 0.0) -> CostModel:
    """Explicit cycles per task id."""
    return CostModel("array", {"jitter": jitter}, values)


def from_graph(scale: float = 1.0, *, jitter: float = 0.0) -> CostModel:
    """The graph's own node costs (e.g. an STG file's processing times) times ``scale``."""
    return CostModel("graph", {"scale": scale, "jitter": jitter})


def uniform(low: float, high: float) -> CostModel:
    """Uniform in [low, high] cycles."""
    return CostModel("uniform", {"low": low, "high": high})


def normal(mean: float, std: float) -> CostModel:
    """Normal with ``mean`` and ``std`` cycles (clamped to >= 1)."""
    return CostModel("normal", {"mean": mean, "std": std})


def lognormal(mean: float, sigma: float) -> CostModel:
    """Lognormal with mean ``mean`` cycles; ``sigma`` is the std of the underlying normal."""
    return CostModel("lognormal", {"mean": mean, "sigma": sigma})


def as_cost(value: CostModel | Mapping[str, Any] | int | float) -> CostModel:
    """A CostModel from a model, a number of cycles, or a mapping {'model': kind, ...}."""
    if isinstance(value, CostModel):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return constant(value)
    if isinstance(value, Mapping):
        spec = dict(value)
        kind = spec.pop("model", None)
        if kind is None:
            raise ConfigError(f"a cost model needs 'model' (one of {', '.join(kinds())})")
        table = spec.pop("table", None)
        return CostModel(str(kind), spec, table)
    raise ConfigError(
        f"a cost model must be a tbdse CostModel, a number or a mapping; got {excerpt(value)}"
    )
