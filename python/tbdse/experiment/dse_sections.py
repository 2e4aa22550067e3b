"""The ``sample:`` and ``search:`` sections of experiment files.

``sample:`` draws points of a design space as the sweep's zipped axes (a
seeded random, Latin hypercube or Sobol' design, :func:`tbdse.dse.space.sample`)::

    sample:
      space: {node_buffer: {int: [16, 1024], log: true}, policy: [lrr, lvl]}
      n: 64
      method: lhs          # random | lhs | sobol
      seed: 1              # default: the experiment's seed

``search:`` replaces the grid by an Optuna search (:func:`tbdse.dse.search`)::

    search:
      space: {node_buffer: {int: [16, 1024], log: true}, policy: [lrr, lvl]}
      objectives: {speedup: max, storage_bytes: min}
      trials: 64
      batch: 16
      sampler: nsga2       # tpe | nsga2 | random

Every problem is reported where it stands in the file.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tbdse._util.excerpts import excerpt
from tbdse._util.params import suggest
from tbdse.errors import ConfigError
from tbdse.io.yamlio import Problems

__all__ = ["SearchSpec", "parse_sample", "parse_search"]

SAMPLE_KEYS = ("space", "n", "method", "seed")
SEARCH_KEYS = ("space", "objectives", "trials", "batch", "sampler", "seed")
MAX_POINTS = 1_000_000


@dataclass
class SearchSpec:
    """A file's ``search:`` section, checked."""

    space: dict[str, Any]  # parameter -> tbdse.dse.space.Param
    objectives: dict[str, str]  # result column -> 'min' / 'max'
    trials: int = 64
    batch: int = 16
    sampler: str = "tpe"
    seed: int | None = None  # default: the experiment's
    given: dict[str, Any] | None = None  # the section as written (for resolved.yaml)


def _keys(problems: Problems, section: str, value: Any, valid: tuple[str, ...]) -> bool:
    if not isinstance(value, Mapping):
        problems.add((section,), f"must be a mapping with {', '.join(valid)}; got {excerpt(value)}")
        return False
    for key in value:
        if key not in valid:
            problems.add(
                (section, key),
                f"unknown key '{key}' in {section}{suggest(str(key), valid)}; "
                f"valid: {', '.join(valid)}",
            )
    if "space" not in value:
        problems.add((section,), f"{section} needs a 'space' (parameter -> range or choices)")
    return True


def _whole(
    problems: Problems,
    section: str,
    value: Mapping[str, Any],
    key: str,
    default: int | None,
    low: int,
    high: int,
) -> int | None:
    raw = value.get(key, default)
    if raw is None:
        return None
    if isinstance(raw, bool) or not isinstance(raw, int) or not low <= raw <= high:
        problems.add(
            (section, key), f"must be a whole number from {low} to {high}; got {excerpt(raw)}"
        )
        return default
    return raw


def _space(problems: Problems, section: str, value: Mapping[str, Any]) -> dict[str, Any] | None:
    from tbdse.dse import space

    if "space" not in value:
        return None
    try:
        return space.from_yaml(value["space"], where=f"{section}.space")
    except ConfigError as exc:
        problems.add((section, "space"), str(exc))
        return None


def parse_sample(problems: Problems, value: Any, seed: int) -> dict[str, list[Any]]:
    """The points a ``sample:`` section draws, as zipped axes ({} on problems)."""
    from tbdse.dse import space

    if not _keys(problems, "sample", value, SAMPLE_KEYS):
        return {}
    params = _space(problems, "sample", value)
    n = _whole(problems, "sample", value, "n", None, 1, MAX_POINTS)
    if "n" not in value:
        problems.add(("sample",), "sample needs 'n', the number of points to draw")
    method = value.get("method", "lhs")
    if method not in space.METHODS:
        problems.add(
            ("sample", "method"),
            f"must be one of {', '.join(space.METHODS)}{suggest(str(method), space.METHODS)}; "
            f"got {excerpt(method)}",
        )
        return {}
    draw_seed = _whole(problems, "sample", value, "seed", seed, 0, 2**63 - 1)
    if params is None or n is None or draw_seed is None:
        return {}
    try:
        return space.sample(params, n, method, seed=draw_seed)
    except ConfigError as exc:
        problems.add(("sample",), str(exc))
        return {}


def parse_search(problems: Problems, value: Any) -> SearchSpec | None:
    """A ``search:`` section, checked (None on problems)."""
    from tbdse.dse.search import SAMPLERS, check_objectives

    if not _keys(problems, "search", value, SEARCH_KEYS):
        return None
    params = _space(problems, "search", value)
    objectives: dict[str, str] | None = None
    if "objectives" not in value:
        problems.add(("search",), "search needs 'objectives' (result column -> min or max)")
    else:
        try:
            objectives = check_objectives(value["objectives"])
        except ConfigError as exc:
            problems.add(("search", "objectives"), str(exc))
    trials = _whole(problems, "search", value, "trials", 64, 1, MAX_POINTS)
    batch = _whole(problems, "search", value, "batch", 16, 1, MAX_POINTS)
    seed = _whole(problems, "search", value, "seed", None, 0, 2**63 - 1)
    sampler = value.get("sampler", "tpe")
    if sampler not in SAMPLERS:
        problems.add(
            ("search", "sampler"),
            f"must be one of {', '.join(SAMPLERS)}{suggest(str(sampler), SAMPLERS)}; "
            f"got {excerpt(sampler)}",
        )
        return None
    if params is None or objectives is None or trials is None or batch is None:
        return None
    return SearchSpec(params, objectives, trials, batch, sampler, seed, dict(value))
