"""Type and range checks of user values, one rule per kind of value.

Every public entry point (constructors, generators, sweep options, YAML
fields) goes through these, so a value is accepted or refused the same way
wherever it is given, with a ConfigError that names it.
"""

from __future__ import annotations

import math
import os
from typing import Any

from tbdse._util.excerpts import excerpt
from tbdse.errors import ConfigError

__all__ = ["flag", "plain", "real", "text", "whole"]


def plain(value: Any) -> Any:
    """A NumPy scalar as the Python scalar it holds; anything else unchanged."""
    if (
        hasattr(value, "item")
        and not isinstance(value, (str, bytes))
        and getattr(value, "ndim", 0) == 0
    ):
        return value.item()
    return value


def whole(value: Any, what: str, lo: int | None = None, hi: int | None = None) -> int:
    """An integer (a float with no fraction is accepted: YAML reads 1e3 as one)."""
    value = plain(value)
    ok = not isinstance(value, bool) and (
        isinstance(value, int)
        or (isinstance(value, float) and math.isfinite(value) and value.is_integer())
    )
    if ok:
        number = int(value)
        if (lo is None or number >= lo) and (hi is None or number <= hi):
            return number
    bounds = _bounds(lo, hi)
    raise ConfigError(f"{what} must be a whole number{bounds}; got {excerpt(value)}")


def real(value: Any, what: str, lo: float | None = None, hi: float | None = None) -> float:
    """A finite number."""
    value = plain(value)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        try:
            number = float(value)
        except OverflowError:
            number = math.inf
        if math.isfinite(number) and (lo is None or number >= lo) and (hi is None or number <= hi):
            return number
    raise ConfigError(f"{what} must be a finite number{_bounds(lo, hi)}; got {excerpt(value)}")


def flag(value: Any, what: str) -> bool:
    value = plain(value)
    if isinstance(value, bool):
        return value
    raise ConfigError(f"{what} must be true or false; got {excerpt(value)}")


def text(value: Any, what: str, *, path_ok: bool = False) -> str:
    """A non-empty string (or a path, when ``path_ok``)."""
    if path_ok and isinstance(value, os.PathLike):
        value = os.fspath(value)
    if isinstance(value, str) and value:
        return value
    raise ConfigError(f"{what} must be a non-empty string; got {excerpt(value)}")


def _bounds(lo: float | None, hi: float | None) -> str:
    def fmt(x: float) -> str:
        return str(x) if isinstance(x, int) else f"{x:g}"

    if lo is not None and hi is not None:
        return f" in [{fmt(lo)}, {fmt(hi)}]"
    if lo is not None:
        return f" >= {fmt(lo)}"
    if hi is not None:
        return f" <= {fmt(hi)}"
    return ""
