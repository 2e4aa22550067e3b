"""Helpers every section of an experiment file's reader uses: unknown keys
with the closest valid one, lists of entries, and problems collected instead
of raised."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from tbdse._util.excerpts import quoted
from tbdse._util.params import suggest
from tbdse.errors import ConfigError
from tbdse.io.yamlio import Problems


def one_of(value: Any, names: Any) -> bool:
    """``value`` is one of the names (a list or mapping in the file is not, and
    must not reach a dict lookup, where it is unhashable)."""
    return isinstance(value, str) and value in names


def unknown_keys(
    problems: Problems,
    path: tuple[Any, ...],
    data: Mapping[str, Any],
    valid: tuple[str, ...] | list[str],
    replaced: Mapping[str, str] | None = None,
) -> None:
    """A problem per key not in ``valid``; ``replaced``: removed keys -> what replaced them."""
    replaced = replaced or {}
    for key in data:
        if key not in valid:
            hint = f"; '{key}' was replaced {replaced[key]}" if key in replaced else ""
            problems.add(
                (*path, key),
                f"unknown key {quoted(key)}{suggest(str(key), valid)}; "
                f"valid keys: {', '.join(valid)}" + hint,
            )


def each(
    problems: Problems,
    data: Mapping[str, Any],
    one: str,
    many: str,
    build: Callable[[Any, tuple[Any, ...]], Any],
) -> list[Any]:
    if many in data:
        items = data[many]
        if not isinstance(items, list) or not items:
            problems.add((many,), "must be a non-empty list")
            return []
        built = [build(v, (many, i)) for i, v in enumerate(items)]
    elif one in data:
        built = [build(data[one], (one,))]
    else:
        return []
    return [b for b in built if b is not None]


def guard(problems: Problems, path: tuple[Any, ...], make_it: Callable[[], Any]) -> Any:
    try:
        return make_it()
    except ConfigError as exc:
        problems.add(path, str(exc))
        return None
