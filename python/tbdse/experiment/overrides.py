"""Command-line overrides of an experiment file, in OmegaConf's dotlist grammar.

    tbdse run exp.yaml scheme.node_buffer=64 'grid.gpu.sms=[15,30]' seed=3
    tbdse run exp.yaml ~baseline                  # remove a key (Hydra's ~)

``KEY=VALUE`` sets a key (made if missing), ``~KEY`` removes one.  VALUE is
parsed by OmegaConf (``OmegaConf.from_dotlist``): ``64`` an integer,
``[15,30]`` a list, ``{a: 1}`` a mapping, ``auto`` text.  KEY is a dotted path
into the file: ``seed``, ``outputs.tables``, ``schemes.1.level_bound`` (list
items by position).  Three conventions fit tbdse's files:

* under ``grid``, ``zip`` and ``sample.space`` / ``search.space`` the rest of
  the key is one axis name, dots included: ``grid.gpu.sms`` is the axis
  ``gpu.sms``;
* a scheme, GPU or baseline written as a name becomes a mapping when a key
  below it is set: ``scheme.node_buffer=64`` on ``scheme: wireframe`` gives
  ``{name: wireframe, node_buffer: 64}`` (a GPU's name is its ``preset``);
* the result is validated like the file itself, so a misspelt key gets the
  same error, with the closest valid key suggested.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from tbdse._util.excerpts import excerpt
from tbdse.errors import ConfigError

__all__ = ["apply_overrides"]

# Sections whose keys below a prefix are axis names that contain dots.
_AXIS_SECTIONS = {("grid",): 1, ("zip",): 1, ("sample", "space"): 2, ("search", "space"): 2}
# What a name stands for when a key is set below it.
_NAME_KEY = {
    "scheme": "name",
    "schemes": "name",
    "baseline": "name",
    "gpu": "preset",
    "gpus": "preset",
}


def _value(override: str, raw: str) -> Any:
    try:
        from omegaconf import OmegaConf
    except ImportError:
        raise ConfigError("command-line overrides need OmegaConf: pip install omegaconf") from None
    try:
        parsed: Any = OmegaConf.to_container(OmegaConf.from_dotlist([f"value={raw}"]))
        return parsed["value"]
    except Exception as exc:  # OmegaConf raises its own grammar errors
        raise ConfigError(f"override {excerpt(override)}: cannot read the value: {exc}") from None


def _path(override: str, key: str) -> list[str]:
    parts = key.split(".")
    if not key or any(not p for p in parts):
        raise ConfigError(
            f"override {excerpt(override)}: the key must be a dotted path such as "
            "scheme.node_buffer or grid.gpu.sms"
        )
    for prefix, depth in _AXIS_SECTIONS.items():
        if tuple(parts[:depth]) == prefix and len(parts) > depth:
            return [*parts[:depth], ".".join(parts[depth:])]
    return parts


def _child(node: Any, part: str, override: str, top: str, make: bool) -> tuple[Any, Any]:
    """The container ``node`` and the key of ``part`` in it (an index for a list)."""
    if isinstance(node, list):
        if not part.isdigit() or int(part) >= len(node):
            raise ConfigError(
                f"override {excerpt(override)}: '{part}' is not a position in a list of "
                f"{len(node)} (0 to {len(node) - 1})"
            )
        return node, int(part)
    if isinstance(node, dict):
        if part not in node and make:
            node[part] = {}
        return node, part
    raise ConfigError(f"override {excerpt(override)}: '{top}' holds a value, not keys")


def _named(value: Any, top: str) -> Any:
    """A scheme/GPU written as a name, as a mapping (so a key can be set below it)."""
    if isinstance(value, str) and top in _NAME_KEY:
        return {_NAME_KEY[top]: value}
    return value


def apply_overrides(data: Any, overrides: Sequence[str]) -> Any:
    """A copy of a parsed experiment file with ``overrides`` applied (module docs)."""
    if not overrides:
        return data
    if not isinstance(data, Mapping):
        raise ConfigError("overrides apply to an experiment file that is a mapping")
    out = copy.deepcopy(dict(data))
    for override in overrides:
        if not isinstance(override, str):
            raise ConfigError(f"an override is text KEY=VALUE; got {excerpt(override)}")
        remove = override.startswith("~")
        key, sep, raw = override.lstrip("~+").partition("=")
        if not remove and not sep:
            raise ConfigError(
                f"override {excerpt(override)} needs KEY=VALUE (or ~KEY to remove a key)"
            )
        parts = _path(override, key.strip())
        top = parts[0]
        node: Any = out
        for i, part in enumerate(parts[:-1]):
            container, k = _child(node, part, override, top, make=not remove)
            if remove and isinstance(container, dict) and k not in container:
                raise ConfigError(f"override {excerpt(override)}: there is no '{part}' to remove")
            owner = top if i == 0 else parts[i - 1] if parts[i - 1] in _NAME_KEY else ""
            container[k] = _named(container[k], part if i == 0 else owner)
            node = container[k]
        container, k = _child(node, parts[-1], override, top, make=False)
        if remove:
            if isinstance(container, dict) and k not in container:
                raise ConfigError(
                    f"override {excerpt(override)}: there is no '{parts[-1]}' to remove"
                )
            del container[k]
        else:
            container[k] = _value(override, raw)
    return out
