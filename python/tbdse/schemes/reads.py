"""When a scheme parameter is read: the core's conditions (``read_when`` in
:func:`tbdse.schemes.info`'s parameters, stated in the models' parameter
tables, cpp/core/params.hpp) evaluated at a scheme's values and a run's GPUs.

``read_when`` is a list of conditions that must all hold; a condition is a
list of terms of which any must hold (most have one); a term is
``{"param", "values", "among"}``: the parameter's value is (``among``) or is
not one of ``values``, written as a user writes them.  A term's ``param`` is
one of the scheme's parameters, or ``gpu.<field>``, a field of the GPU the run
uses (Juggler's ``spin_weight`` is read only where ``gpu.sm_model`` is
'shared')."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from tbdse._util.params import ParamInfo, encode

GPU_PREFIX = "gpu."

# The values each GPU field takes over a run's GPUs and GPU axes: a term on a
# GPU field holds where one of them satisfies it (a parameter is read if some
# run reads it).  None: the GPUs are not known yet (a scheme on its own), and a
# term on a GPU field holds, as it does in the core's own check
# (check_params_read, which knows no GPU).
GpuValues = Mapping[str, Collection[Any]]


def terms(p: ParamInfo) -> list[Mapping[str, Any]]:
    """Every term of parameter ``p``'s conditions."""
    return [t for cond in p["read_when"] for t in cond]


def scheme_controls(p: ParamInfo) -> set[str]:
    """The scheme parameters whose values decide whether ``p`` is read."""
    return {t["param"] for t in terms(p) if not t["param"].startswith(GPU_PREFIX)}


def gpu_controls(p: ParamInfo) -> set[str]:
    """The GPU fields (without ``gpu.``) whose values decide whether ``p`` is read."""
    return {t["param"][len(GPU_PREFIX) :] for t in terms(p) if t["param"].startswith(GPU_PREFIX)}


def condition_value(info: ParamInfo, text: str) -> float:
    """A condition's value (as the core's table writes it) encoded like a user's."""
    value: Any = text
    if info["kind"] == "bool":
        value = text == "true"
    elif info["kind"] in ("int", "float") and text not in ("unbounded", "auto"):
        value = float(text)
    return encode(info, value, "read_when")


def gpu_values(gpus: Iterable[Any], swept: Mapping[str, Sequence[Any]] | None = None) -> GpuValues:
    """The values each GPU field takes over ``gpus`` (tbdse Gpu objects) and
    the GPU axes ``swept`` (field -> its values)."""
    from tbdse.machine.gpus import field_info

    gpus = list(gpus)
    swept = swept or {}
    out: dict[str, list[Any]] = {}
    for f in field_info():
        name = f["name"]
        values = [getattr(g, name) for g in gpus] + list(swept.get(name, ()))
        # By equality, not hashing: a malformed axis value (a list) is refused
        # later with a ConfigError naming the axis, not here with a TypeError.
        out[name] = [v for i, v in enumerate(values) if v not in values[:i]]
    return out


def _gpu_info(field: str) -> ParamInfo:
    from tbdse.machine.gpus import field_info

    return next(f for f in field_info() if f["name"] == field)


def _holds(
    term: Mapping[str, Any],
    infos: Mapping[str, ParamInfo],
    values: Mapping[str, Any],
    gpu: GpuValues | None,
    owner: str,
) -> bool:
    param = term["param"]
    if param.startswith(GPU_PREFIX):
        if gpu is None:
            return True
        info = _gpu_info(param[len(GPU_PREFIX) :])
        have = [encode(info, v, "GPU") for v in gpu[info["name"]]]
    else:
        info = infos[param]
        have = [encode(info, values[param], owner)]
    named = {condition_value(info, t) for t in term["values"]}
    return any((v in named) == term["among"] for v in have)


def _now(term: Mapping[str, Any], values: Mapping[str, Any], gpu: GpuValues | None) -> str:
    """A term's controller as it stands: "policy is 'lrr'", "gpu.sm_model is
    'fixed' on every GPU of the run"."""
    param = term["param"]
    if not param.startswith(GPU_PREFIX):
        return f"{param} is {values[param]!r}"
    assert gpu is not None  # a GPU term fails only where the GPUs are known
    shown = " or ".join(repr(v) for v in gpu[param[len(GPU_PREFIX) :]])
    return f"{param} is {shown} on every GPU of the run"


def unread_why(
    infos: Mapping[str, ParamInfo],
    name: str,
    values: Mapping[str, Any],
    gpu: GpuValues | None = None,
    owner: str = "",
) -> str | None:
    """Why parameter ``name`` (of the scheme whose parameters are ``infos``) is
    not read at ``values`` (every parameter's value) on the GPUs ``gpu``: its
    first failing condition as it stands ("policy is 'lrr'",
    "dependency_list_entries is 'unbounded' and parent_counter_entries is
    'unbounded'"); None when read."""
    for cond in infos[name]["read_when"]:
        if not any(_holds(t, infos, values, gpu, owner) for t in cond):
            return " and ".join(_now(t, values, gpu) for t in cond)
    return None
