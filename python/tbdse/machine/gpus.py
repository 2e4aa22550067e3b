"""GPU descriptions: presets with vendor figures, every field overridable.

>>> import tbdse as td
>>> gpu = td.gpus.gtx480(host_launch_us=20)
>>> gpu.sms, gpu.clock_mhz
(15, 700.0)
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

import pandas as pd

from tbdse import _core
from tbdse._util.checks import text
from tbdse._util.excerpts import excerpt
from tbdse._util.params import encode, unknown_name
from tbdse.errors import ConfigError

__all__ = [
    "Gpu",
    "custom",
    "field_info",
    "gpgpusim_hwwl",
    "gtx480",
    "h100",
    "h200",
    "list_presets",
    "p100",
    "preset",
    "preset_names",
    "titanx_pascal",
]


@cache
def field_info() -> tuple[Mapping[str, Any], ...]:
    """Description of every GPU field: name, kind, unit, doc, default."""
    return tuple(_core.gpu_params())


def field_names() -> list[str]:
    return [f["name"] for f in field_info()]


def preset_names() -> list[str]:
    return list(_core.gpu_preset_names())


class Gpu:
    """An immutable GPU description: a name and a value for every field.

    Fields read as attributes (``gpu.sms``); :meth:`replace` makes a modified copy.
    :attr:`explicit` names the fields a user set to something else than the
    preset's value (or, for a GPU from no preset, the default): overrides of a
    preset, the fields given to :func:`custom`, those changed by
    :meth:`replace`.  A run
    whose schemes read none of them is refused, since the setting would
    change nothing (docs/experiments.md, "Values that would be silently ignored").
    """

    __slots__ = ("_encoded", "_values", "explicit", "name", "preset")

    def __init__(
        self,
        name: str,
        values: Mapping[str, Any],
        explicit: frozenset[str] | None = None,
        preset: str | None = None,
    ) -> None:
        text(name, "a GPU's name")
        infos = {f["name"]: f for f in field_info()}
        full = {f["name"]: f["default"] for f in field_info()}
        for key, value in values.items():
            if key not in infos:
                raise unknown_name("GPU field", key, infos)
            full[key] = value
        owner = f"GPU '{name}'"
        encoded = {key: encode(infos[key], value, owner) for key, value in full.items()}
        _core.check_gpu(name, encoded)  # range checks live in C++
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "_values", dict(full))
        object.__setattr__(self, "_encoded", encoded)
        # A field set to its preset's (or, without one, the default) value changes nothing.
        base = _core.gpu_preset(preset) if preset else {}
        given = frozenset(values) if explicit is None else frozenset(explicit)
        differ = {
            k for k in given & frozenset(infos) if full[k] != base.get(k, infos[k]["default"])
        }
        object.__setattr__(self, "explicit", frozenset(differ))
        object.__setattr__(self, "preset", preset)  # the preset it was made from, if any

    def __getattr__(self, key: str) -> Any:
        # Only fields: a copy or unpickling under way (no _values yet) must not
        # look for its own attributes here.
        if key.startswith("_") or key == "name":
            raise AttributeError(key)
        try:
            return self._values[key]
        except KeyError:
            raise AttributeError(f"GPU has no field '{key}'") from None

    def __reduce__(self) -> tuple[Any, ...]:
        return (Gpu, (self.name, self._values, self.explicit, self.preset))

    def __setattr__(self, key: str, value: Any) -> None:
        raise AttributeError("Gpu is immutable; use gpu.replace(...)")

    def replace(self, name: str | None = None, **fields: Any) -> Gpu:
        """A copy with some fields changed."""
        explicit = self.explicit | set(fields)
        return Gpu(name or self.name, {**self._values, **fields}, explicit, self.preset)

    def to_dict(self) -> dict[str, Any]:
        return dict(self._values)

    def to_entry(self) -> dict[str, Any]:
        """The GPU as an experiment file writes it: its name, the preset it
        came from and every field (loading it gives an equal Gpu with the
        same :attr:`explicit`: the fields that differ from that preset)."""
        head = {"name": self.name} | ({"preset": self.preset} if self.preset else {})
        return head | self._values

    def encoded(self) -> dict[str, float]:
        return dict(self._encoded)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Gpu) and (self.name, self._values) == (other.name, other._values)

    def __hash__(self) -> int:
        return hash((self.name, tuple(sorted(self._values.items()))))

    def __repr__(self) -> str:
        """The name and the fields that differ from the preset of that name (from
        the defaults for a GPU that is no preset); ``str(gpu)`` lists them all."""
        if self.name in preset_names():
            base = _core.gpu_preset(self.name)
        else:
            base = {f["name"]: f["default"] for f in field_info()}
        changed = {k: v for k, v in self._values.items() if base.get(k) != v}
        args = ", ".join(f"{k}={v!r}" for k, v in changed.items())
        return f"Gpu({self.name!r}{', ' if args else ''}{args})"

    def __str__(self) -> str:
        """Every field, one a line: name, value, unit."""
        units = {f["name"]: f["unit"] for f in field_info()}
        width = max(map(len, self._values))
        lines = [f"Gpu {self.name!r}"]
        for key, value in self._values.items():
            unit = f"  {units[key]}" if units.get(key) else ""
            lines.append(f"  {key:<{width}}  {value!s:>10}{unit}")
        return "\n".join(lines)


def preset(name: str, **overrides: Any) -> Gpu:
    """A preset by name, with optional field overrides."""
    text(name, "a GPU preset")
    if name not in preset_names():
        raise unknown_name("GPU preset", name, preset_names())
    return Gpu(name, {**_core.gpu_preset(name), **overrides}, frozenset(overrides), name)


def custom(name: str = "custom", **fields: Any) -> Gpu:
    """A GPU from explicit fields; unspecified fields take the GTX480-like defaults."""
    return Gpu(name, fields)


def gtx480(**overrides: Any) -> Gpu:
    """NVIDIA GTX480 (Fermi) as in GPGPU-Sim: 15 SMs x 8 TBs, 700 MHz, 30 us host launch."""
    return preset("gtx480", **overrides)


def titanx_pascal(**overrides: Any) -> Gpu:
    """NVIDIA Titan X (Pascal): 28 SMs x 32 TBs, 1417 MHz, 5 us launch, 3 us CDP launch."""
    return preset("titanx_pascal", **overrides)


def p100(**overrides: Any) -> Gpu:
    """NVIDIA P100: 56 SMs x 32 TBs, 1328 MHz; shared SMs (2 TBs at full speed)
    and 15 us synchronous launches, as calibrated on Juggler's Fig. 4."""
    return preset("p100", **overrides)


def h100(**overrides: Any) -> Gpu:
    """NVIDIA H100 SXM: 132 SMs x 32 TBs, 1980 MHz."""
    return preset("h100", **overrides)


def h200(**overrides: Any) -> Gpu:
    """NVIDIA H200: 132 SMs x 32 TBs, 1980 MHz."""
    return preset("h200", **overrides)


def gpgpusim_hwwl(**overrides: Any) -> Gpu:
    """The hardware-worklist paper's GPGPU-Sim configuration (Table IV): 4 cores x 16 lanes,
    48 warps, 2 issue slots, 700 MHz, 100-cycle memory."""
    return preset("gpgpusim_hwwl", **overrides)


def list_presets() -> pd.DataFrame:
    """Every preset with every field, one row per preset."""
    rows = [{"preset": name, **_core.gpu_preset(name)} for name in preset_names()]
    return pd.DataFrame(rows).set_index("preset")


def as_gpu(value: Gpu | str | Mapping[str, Any]) -> Gpu:
    """Accepts a Gpu, a preset name, or a mapping with 'preset' and overrides."""
    if isinstance(value, Gpu):
        return value
    if isinstance(value, str):
        return preset(value)
    if isinstance(value, Mapping):
        fields = dict(value)
        name = fields.pop("preset", None)
        label = fields.pop("name", None)
        gpu = preset(name, **fields) if name else custom(label or "custom", **fields)
        return gpu.replace(name=label) if label and name else gpu
    raise ConfigError(
        f"a GPU must be a preset name, a tbdse Gpu or a mapping; got {excerpt(value)}"
    )
