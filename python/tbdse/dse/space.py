"""Design spaces and seeded sampling designs: points to sweep besides a grid.

A space maps parameter names (as a sweep names them: ``node_buffer``,
``gpu.sms``, ``workload.rows``, ``cost.mean``) to ranges or choices:

>>> import tbdse as td
>>> space = {
...     "node_buffer": td.space.Int(16, 1024, log=True),
...     "cost.sigma": td.space.Float(0.1, 0.9),
...     "policy": ["lrr", "lvl"],  # a list is a choice
... }
>>> points = td.space.sample(space, 16, "lhs", seed=1)
>>> sorted(points) == ["cost.sigma", "node_buffer", "policy"]
True

``sample`` returns parameter -> list of values, ready for
``td.sweep(..., zip=points)``.  Experiment files write the same space in YAML
(:func:`from_yaml`): ``{int: [16, 1024], log: true}``, ``{float: [0.1, 0.9]}``,
``[lrr, lvl]``.

Every design first draws points in the unit cube (:func:`unit_points`), one
dimension per parameter in the mapping's order, then maps each coordinate to
its parameter: ranges linearly or, with ``log``, uniformly in log space;
integers and choices by equal bins (each integer of a range, each choice, gets
the same share of the unit interval, or of the log interval for a log range).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from tbdse import _core
from tbdse._util.checks import flag, plain, real, whole
from tbdse._util.excerpts import excerpt
from tbdse._util.params import suggest
from tbdse.errors import ConfigError
from tbdse.simulation.axes import _value_identity

__all__ = [
    "METHODS",
    "Choice",
    "Float",
    "Int",
    "Param",
    "checked",
    "from_yaml",
    "sample",
    "unit_points",
]

METHODS = ("random", "lhs", "sobol")
# Integers beyond 2**53 are not exact as floats, which is how values reach the core.
_INT_LIMIT = 2**53
_MAX_POINTS = 2**30  # SciPy's Sobol' generator stops there
_KINDS = ("int", "float", "choice")
_YAML_KEYS = (*_KINDS, "log", "step")
_OPTIONS = {"int": ("log", "step"), "float": ("log",), "choice": ()}


class _Dimension:
    """A dimension of a design space: maps unit-interval coordinates to values."""

    def values(self, u: np.ndarray) -> list[Any]:
        """The values at coordinates ``u`` (in [0, 1)), as plain Python values."""
        raise NotImplementedError


def _check_range(
    low: Any, high: Any, log: Any, where: str, integer: bool
) -> tuple[float, float, bool]:
    if integer:
        lo: float = whole(low, f"{where}: low", -_INT_LIMIT, _INT_LIMIT)
        hi: float = whole(high, f"{where}: high", -_INT_LIMIT, _INT_LIMIT)
    else:
        lo, hi = real(low, f"{where}: low"), real(high, f"{where}: high")
    log = flag(log, f"{where}: log")
    if not lo < hi:
        raise ConfigError(f"{where}: low must be below high; got low={low!r}, high={high!r}")
    if log and lo <= 0:
        raise ConfigError(f"{where}: a log scale needs low > 0; got low={low!r}")
    return lo, hi, log


def _check_int(low: Any, high: Any, log: Any, step: Any, where: str) -> tuple[int, int, bool, int]:
    lo, hi, log = _check_range(low, high, log, where, integer=True)
    step = whole(step, f"{where}: step", 1, _INT_LIMIT)
    if log and step != 1:
        raise ConfigError(f"{where}: log and step cannot be combined; got step={step}")
    if (hi - lo) % step:
        top = lo + (hi - lo) // step * step
        raise ConfigError(
            f"{where}: high - low must be a multiple of step ({step}); got low={lo}, "
            f"high={hi} (high={top} or high={top + step} would do)"
        )
    return int(lo), int(hi), log, step


def _check_choices(values: Any, where: str) -> tuple[Any, ...]:
    if isinstance(values, (str, bytes)) or not isinstance(values, (Sequence, np.ndarray)):
        raise ConfigError(f"{where}: a choice needs a list of values; got {excerpt(values)}")
    out = tuple(plain(v) for v in values)
    if not out:
        raise ConfigError(f"{where}: a choice needs at least one value; got an empty list")
    seen: dict[Any, int] = {}
    for i, v in enumerate(out):
        number = isinstance(v, (int, float)) and not isinstance(v, bool)
        if not (isinstance(v, (str, bool)) or (number and math.isfinite(v))):
            raise ConfigError(
                f"{where}: choice {i} must be a finite number, true/false or a name such as "
                f"'auto' or 'unbounded'; got {excerpt(v)}"
            )
        identity = _value_identity(v)
        if identity in seen:
            # A repeated choice would get two bins, twice the share of the others.
            raise ConfigError(
                f"{where}: the choice {out[seen[identity]]!r} is given twice (positions "
                f"{seen[identity]} and {i}); choices must be distinct"
            )
        seen[identity] = i
    return out


def _bins(u: np.ndarray, count: int) -> np.ndarray:
    """Equal bins of [0, 1): coordinate -> bin index in [0, count)."""
    return np.minimum(np.floor(u * count), count - 1).astype(np.int64)


@dataclass(frozen=True)
class Int(_Dimension):
    """Integers from ``low`` to ``high``, both included, every ``step``.

    With ``log=True`` (``low`` > 0, ``step`` 1) the values are spread
    uniformly in log space: integer k gets the log-width of [k, k + 1), so
    16..31 are as likely together as 512..1023.
    """

    low: int
    high: int
    log: bool = False
    step: int = 1

    def __post_init__(self) -> None:
        checked = _check_int(self.low, self.high, self.log, self.step, "td.space.Int")
        for name, value in zip(("low", "high", "log", "step"), checked, strict=True):
            object.__setattr__(self, name, value)

    def values(self, u: np.ndarray) -> list[Any]:
        if self.log:
            lo, hi = math.log(self.low), math.log(self.high + 1)
            raw = np.floor(np.exp(lo + u * (hi - lo)))
            return [int(v) for v in np.clip(raw, self.low, self.high)]
        count = (self.high - self.low) // self.step + 1
        return [self.low + int(k) * self.step for k in _bins(u, count)]


@dataclass(frozen=True)
class Float(_Dimension):
    """Numbers from ``low`` to ``high``; with ``log=True`` (``low`` > 0)
    uniform in log space."""

    low: float
    high: float
    log: bool = False

    def __post_init__(self) -> None:
        checked = _check_range(self.low, self.high, self.log, "td.space.Float", integer=False)
        for name, value in zip(("low", "high", "log"), checked, strict=True):
            object.__setattr__(self, name, value)

    def values(self, u: np.ndarray) -> list[Any]:
        if self.log:
            lo, hi = math.log(self.low), math.log(self.high)
            raw = np.exp(lo + u * (hi - lo))
        else:
            raw = self.low + u * (self.high - self.low)
        # exp and the product can round a hair past a bound
        return [float(v) for v in np.clip(raw, self.low, self.high)]


@dataclass(frozen=True)
class Choice(_Dimension):
    """One of ``options`` (numbers, true/false, or names such as 'auto',
    'unbounded', 'lvl'), each equally likely."""

    options: tuple[Any, ...]

    def __init__(self, options: Sequence[Any]) -> None:
        object.__setattr__(self, "options", _check_choices(options, "td.space.Choice"))

    def values(self, u: np.ndarray) -> list[Any]:
        return [self.options[k] for k in _bins(u, len(self.options))]


# A union rather than the base class, so that type checkers narrow it.
Param = Int | Float | Choice


def _param(name: str, value: Any) -> Param:
    if isinstance(value, (Int, Float, Choice)):
        return value
    if isinstance(value, (list, tuple, np.ndarray)):
        return Choice(_check_choices(value, f"space parameter '{name}'"))
    raise ConfigError(
        f"space parameter '{name}' needs td.space.Int(low, high), td.space.Float(low, high), "
        f"td.space.Choice([...]) or a list of choices; got {excerpt(value)}"
    )


def checked(space: Any) -> dict[str, Param]:
    """A design space given in Python (parameter -> Int / Float / Choice, or a
    list of choices), every entry checked."""
    if not isinstance(space, Mapping):
        raise ConfigError(
            f"a design space maps parameter names to ranges or choices; got {excerpt(space)}"
        )
    if not space:
        raise ConfigError("a design space needs at least one parameter; got an empty mapping")
    out: dict[str, Param] = {}
    for name, value in space.items():
        if not isinstance(name, str) or not name:
            raise ConfigError(f"a space parameter is named by text; got {excerpt(name)}")
        out[name] = _param(name, value)
    return out


def from_yaml(mapping: Any, where: str = "space") -> dict[str, Param]:
    """A design space as an experiment file writes it: parameter -> entry.

    An entry is a list of choices (``[lrr, lvl]``), or a mapping with one of
    ``int: [low, high]`` (with ``step: k`` or ``log: true``),
    ``float: [low, high]`` (with ``log: true``) or ``choice: [...]``.
    ``where`` names the section in messages.  Returns the space for
    :func:`sample`; every malformed entry is a ConfigError that names it.
    """
    if not isinstance(mapping, Mapping) or not mapping:
        raise ConfigError(
            f"'{where}' maps parameter names to ranges or choices, e.g. "
            f"{{node_buffer: {{int: [16, 1024], log: true}}, policy: [lrr, lvl]}}; "
            f"got {excerpt(mapping)}"
        )
    out: dict[str, Param] = {}
    for name, entry in mapping.items():
        if not isinstance(name, str) or not name:
            raise ConfigError(f"'{where}': a parameter is named by text; got {excerpt(name)}")
        out[name] = _entry(entry, f"{where}: parameter '{name}'")
    return out


def _entry(entry: Any, where: str) -> Param:
    if isinstance(entry, (list, tuple)):
        return Choice(_check_choices(entry, where))
    if not isinstance(entry, Mapping):
        raise ConfigError(
            f"{where} needs a list of choices or one of {{int: [low, high]}}, "
            f"{{float: [low, high]}}, {{choice: [...]}}; got {excerpt(entry)}"
        )
    for key in entry:
        if key not in _YAML_KEYS:
            raise ConfigError(
                f"{where}: unknown key {excerpt(key)}{suggest(str(key), _YAML_KEYS)}; "
                f"valid: {', '.join(_YAML_KEYS)}"
            )
    kinds = [k for k in _KINDS if k in entry]
    if len(kinds) != 1:
        raise ConfigError(
            f"{where} needs exactly one of int, float, choice; got {', '.join(kinds) or 'none'}"
        )
    kind = kinds[0]
    extra = [k for k in ("log", "step") if k in entry and k not in _OPTIONS[kind]]
    if extra:
        raise ConfigError(
            f"{where}: '{extra[0]}' does not apply to a {kind} "
            f"({', '.join(_OPTIONS[kind]) or 'no options'} for {kind})"
        )
    if kind == "choice":
        return Choice(_check_choices(entry["choice"], where))
    bounds = entry[kind]
    if not isinstance(bounds, (list, tuple)) or len(bounds) != 2:
        raise ConfigError(f"{where}: {kind} needs [low, high]; got {excerpt(bounds)}")
    log = entry.get("log", False)
    if kind == "int":
        lo, hi, log, step = _check_int(bounds[0], bounds[1], log, entry.get("step", 1), where)
        return Int(lo, hi, log, step)
    lo_f, hi_f, log = _check_range(bounds[0], bounds[1], log, where, integer=False)
    return Float(lo_f, hi_f, log)


def unit_points(n: int, d: int, method: str = "random", seed: int = 0) -> np.ndarray:
    """``n`` points of a ``d``-dimensional design in the unit cube [0, 1)^d.

    ``random``: independent uniform draws (NumPy's PCG64).  ``lhs``: a
    scrambled Latin hypercube (scipy.stats.qmc): along every axis each of the
    n equal bins holds exactly one point.  ``sobol``: a scrambled Sobol'
    sequence; its balance properties hold for n a power of two, other n take
    the first n points of the next power of two.  The same arguments give the
    same points on any machine with the same NumPy and SciPy releases.
    """
    if method not in METHODS:
        raise ConfigError(
            f"sampling method must be one of {', '.join(METHODS)}; got {excerpt(method)}"
            f"{suggest(method, METHODS) if isinstance(method, str) else ''}"
        )
    n = whole(n, "the number of points 'n'", 1, _MAX_POINTS)
    d = whole(d, "the number of dimensions 'd'", 1, 10_000)
    seed = whole(seed, "'seed'", 0, 2**63 - 1)
    _core.check_memory(f"a design of {n:,} points in {d} dimensions", 3.0 * 8 * n * d)
    rng = np.random.default_rng(seed)
    if method == "random":
        return rng.random((n, d))
    try:
        from scipy.stats import qmc  # heavy: only for the designs that need it
    except ImportError as e:
        raise ConfigError(
            f"sampling method '{method}' needs SciPy (pip install scipy); 'random' does not"
        ) from e

    if method == "lhs":
        return qmc.LatinHypercube(d, rng=rng).random(n)
    # random_base2 keeps SciPy from warning about n that is not a power of two
    return qmc.Sobol(d, rng=rng).random_base2(max(0, math.ceil(math.log2(n))))[:n]


def sample(
    space: Mapping[str, Any], n: int, method: str = "random", seed: int = 0
) -> dict[str, list[Any]]:
    """``n`` seeded points of a design space, as parameter -> list of values.

    Parameters
    ----------
    space
        Parameter name -> :class:`Int`, :class:`Float`, :class:`Choice` or a
        list of choices (see :func:`from_yaml` for the YAML form).
    n
        How many points to draw (at most 2**30).
    method
        ``'random'``, ``'lhs'`` (Latin hypercube) or ``'sobol'`` (see
        :func:`unit_points`; Sobol' designs are balanced for n a power of two).
    seed
        The same space (with its parameters in the same order), n, method and
        seed give the same points.

    Returns
    -------
    dict
        Parameter -> list of plain values (int, float, str, bool), one per
        point, for ``td.sweep(..., zip=...)``.  Integers, choices and ranges
        narrow enough that two draws round to the same values give repeated
        points; a repeat is dropped and the first occurrence kept (a sweep's
        ``zip`` refuses repeated points), so fewer than ``n`` points come back
        then.  Dropping keeps the design's properties (a Latin hypercube stays
        one); ask for more points, or check ``len``, where the count matters.
    """
    params = checked(space)
    u = unit_points(n, len(params), method, seed)
    columns = [p.values(u[:, j]) for j, p in enumerate(params.values())]
    seen: set[tuple[Any, ...]] = set()
    keep = []
    for i, point in enumerate(zip(*columns, strict=True)):
        identity = tuple(_value_identity(v) for v in point)
        if identity not in seen:
            seen.add(identity)
            keep.append(i)
    return {name: [col[i] for i in keep] for name, col in zip(params, columns, strict=True)}
