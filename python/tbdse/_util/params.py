"""Python values <-> the encoded parameter values the compiled core uses.

Every parameter crosses into C++ as a float: integers exactly, booleans as 0/1,
a choice as its index, "unbounded" as +inf.  Range checks live in C++ (one
source of truth); this module checks types and turns Python values into floats.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

from tbdse._util.checks import plain, real, whole
from tbdse._util.excerpts import excerpt, quoted
from tbdse.errors import ConfigError

ParamInfo = Mapping[str, Any]

UNBOUNDED = "unbounded"
AUTO = "auto"


def _edit_distance(a: str, b: str) -> int:
    """Levenshtein distance, ignoring case."""
    a, b = a.lower(), b.lower()
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def suggest(name: str, valid: Iterable[str]) -> str:
    """' (did you mean 'x'?)' for a near miss, else ''.  The same rule as the
    core's closest_name: the nearest name within max(2, len/3) edits (case
    ignored), else the one valid name that starts with ``name``."""
    text = str(name)
    options = [str(v) for v in valid]
    if not options or len(text) > 64:  # no name is that long; spare the quadratic distance
        return ""
    best = min(options, key=lambda v: _edit_distance(text, v))
    if _edit_distance(text, best) <= max(2, len(text) // 3):
        return f" (did you mean '{best}'?)"
    starts = [v for v in options if v.startswith(text)] if len(text) >= 3 else []
    return f" (did you mean '{starts[0]}'?)" if len(starts) == 1 else ""


def unknown_name(what: str, name: str, valid: Iterable[str], owner: str = "") -> ConfigError:
    """ "[owner: ]unknown <what> 'name' (did you mean 'x'?); valid: a, b"."""
    valid = sorted(valid)
    prefix = f"{owner}: " if owner else ""
    return ConfigError(
        f"{prefix}unknown {what} {quoted(name)}{suggest(name, valid)}; "
        f"valid: {', '.join(valid) or '(none)'}"
    )


def _kind_words(info: ParamInfo) -> str:
    words = {
        "int": "an integer",
        "float": "a number",
        "bool": "true or false",
        "choice": "one of " + ", ".join(repr(c) for c in info["choices"]),
    }[info["kind"]]
    low, high = info.get("min", -math.inf), info.get("max", math.inf)
    if info["kind"] in ("int", "float") and (math.isfinite(low) or math.isfinite(high)):
        shown = [f"{v:g}" for v in (low, high)]
        if math.isfinite(low) and math.isfinite(high):
            words += f" in [{shown[0]}, {shown[1]}]"
        else:
            words += f" >= {shown[0]}" if math.isfinite(low) else f" <= {shown[1]}"
    if info["unbounded_ok"]:
        words += " or 'unbounded'"
    if info.get("auto_ok"):
        words += " or 'auto'"
    return words


def encode(info: ParamInfo, value: Any, owner: str) -> float:
    """The float the core expects for ``value``; ConfigError for a wrong type.

    Range checks of numbers are the core's (one source of truth), except that
    NaN and infinities are refused here: NaN would read as "not set".
    """
    kind = info["kind"]
    value = plain(value)

    def fail() -> ConfigError:
        return ConfigError(
            f"{owner} parameter '{info['name']}' must be {_kind_words(info)}; got {excerpt(value)}"
        )

    if (
        value is None
        or (isinstance(value, str) and value.lower() == UNBOUNDED)
        or (isinstance(value, float) and math.isinf(value) and value > 0)
    ):
        if info["unbounded_ok"]:
            return math.inf
        raise fail()
    if isinstance(value, str) and value.lower() == AUTO and info.get("auto_ok"):
        return -1.0
    if kind == "bool":
        if isinstance(value, bool):
            return 1.0 if value else 0.0
        raise fail()
    if kind == "choice":
        if isinstance(value, str) and value in info["choices"]:
            return float(info["choices"].index(value))
        if isinstance(value, str):
            raise ConfigError(
                f"{owner} parameter '{info['name']}' must be {_kind_words(info)}; "
                f"got {excerpt(value)}{suggest(value, info['choices'])}"
            )
        raise fail()
    try:
        whole_number = kind == "int"
        number = float(whole(value, "x", -(2**53), 2**53)) if whole_number else real(value, "x")
    except ConfigError:
        raise fail() from None
    if number == -1.0 and info.get("auto_ok") and info["min"] > -1:
        raise fail()  # -1 is how 'auto' travels: a literal -1 must not become it
    return number


def decode(info: ParamInfo, value: float) -> Any:
    """The Python value of an encoded float (inverse of :func:`encode`)."""
    if math.isnan(value):
        return None
    if math.isinf(value) and value > 0:
        return UNBOUNDED
    if value == -1.0 and info.get("auto_ok"):
        return AUTO
    kind = info["kind"]
    if kind == "int":
        return int(value)
    if kind == "bool":
        return bool(value)
    if kind == "choice":
        return info["choices"][int(value)]
    return float(value)


def encode_all(
    infos: Iterable[ParamInfo], values: Mapping[str, Any], owner: str
) -> dict[str, float]:
    """Encode a name->value mapping, rejecting names ``infos`` does not list."""
    by_name = {info["name"]: info for info in infos}
    out = {}
    for name, value in values.items():
        if name not in by_name:
            raise unknown_name("parameter", name, by_name, owner)
        out[name] = encode(by_name[name], value, owner)
    return out
