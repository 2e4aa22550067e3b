"""The registry of workload generators by name (YAML files, sweeps, td.workloads.make).

A module that defines generators registers them with :func:`generator` when it
is imported; a paper's generators live in its module under tbdse.models."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar, cast

from tbdse._util.checks import flag, real, text, whole
from tbdse._util.excerpts import excerpt
from tbdse.errors import ConfigError

__all__ = ["EXPORTS", "GENERATORS", "Generator", "export", "generator", "generator_names"]


@dataclass(frozen=True)
class Generator:
    """A registered workload generator: its function and documented parameters."""

    name: str
    func: Callable[..., Any]  # returns a tbdse.workloads.base.Workload (which imports this)
    doc: str
    params: Mapping[str, inspect.Parameter]
    naming: Callable[[Mapping[str, Any]], str] | None = None

    def default_name(self, params: Mapping[str, Any]) -> str:
        """The name a workload gets when none is given: 'wavefront(rows=8, cols=8)'."""
        if self.naming is not None:
            return self.naming(params)
        shown = ", ".join(f"{k}={params[k]}" for k in self.params if k in params)
        return f"{self.name}({shown})"

    def coerce(self, key: str, value: Any) -> Any:
        """``value`` as the parameter's annotated type; ConfigError when it is not one."""
        kind = self.params[key].annotation
        kind = getattr(kind, "__name__", kind)
        what = f"parameter '{key}' of workload generator '{self.name}'"
        if kind == "int":
            number = whole(value, what)
            if not -(2**63) <= number < 2**63:
                raise ConfigError(f"{what} must fit in 64 bits; got {excerpt(value)}")
            return number
        if kind == "float":
            return real(value, what)
        if kind == "bool":
            return flag(value, what)
        if kind == "str":
            return text(value, what, path_ok=True)
        return value

    def describe(self) -> list[dict[str, Any]]:
        return [
            {
                "param": p.name,
                "default": None if p.default is inspect.Parameter.empty else p.default,
                "required": p.default is inspect.Parameter.empty,
                "type": getattr(p.annotation, "__name__", str(p.annotation)),
            }
            for p in self.params.values()
        ]


GENERATORS: dict[str, Generator] = {}
_COMMON = {"cost", "kernels", "kernel", "name"}


_F = TypeVar("_F", bound=Callable[..., Any])


def generator(
    name: str, naming: Callable[[Mapping[str, Any]], str] | None = None
) -> Callable[[_F], _F]:
    """Registers a workload generator under ``name`` (for YAML files and sweeps);
    ``naming`` gives a workload's default name from its parameters.  The
    registered function keeps its signature, for help(), IDEs and type checkers
    (functools.wraps at run time, the type variable for mypy)."""

    def register(func: _F) -> _F:
        sig = inspect.signature(func)
        params = {k: p for k, p in sig.parameters.items() if k not in _COMMON}
        doc = (func.__doc__ or "").strip().splitlines()[0] if func.__doc__ else ""

        @functools.wraps(func)
        def checked(*args: Any, **kwargs: Any) -> Any:
            """Calls ``func`` with every generator parameter checked and converted."""
            try:
                bound = sig.bind(*args, **kwargs)
            except TypeError as exc:
                raise ConfigError(f"workload generator '{name}': {exc}") from None
            for key in list(bound.arguments):
                if key in params:
                    bound.arguments[key] = gen.coerce(key, bound.arguments[key])
            return func(*bound.args, **bound.kwargs)

        gen = Generator(name, checked, doc, params, naming)
        GENERATORS[name] = gen
        return cast(_F, checked)

    return register


def generator_names() -> list[str]:
    return sorted(GENERATORS)


# What a paper's module adds to td.workloads (its presets and benchmark
# generators: td.workloads.juggler_app, ...).  tbdse.models fills it when
# tbdse is imported, so that td.workloads offers them while no generic module
# imports a paper (tests/test_layout.py).
EXPORTS: dict[str, Any] = {}


def export(*objects: Any) -> None:
    """Offers ``objects`` (functions, classes) as td.workloads.<their name>."""
    for obj in objects:
        EXPORTS[obj.__name__] = obj
