"""Applications described in YAML (or any mapping): the generator
``application_file`` and :func:`application_from_spec`.

.. code-block:: yaml

    name: vecadd
    element_bytes: 4                  # default element size of the buffers
    hazards: raw                      # or 'all' (adds WAR and WAW)
    cost_jitter: 0.0                  # lognormal spread of TB run times
    commands:
      - malloc: {buffer: A, shape: 1048576}      # shape: elements, or [rows, cols]
      - malloc: {buffer: C, shape: 1048576}
      - memcpy_h2d: A                            # or {buffer: A, bytes: 4096}
      - launch:
          kernel: add
          grid: 4096                             # blocks, or [x, y] / [x, y, z]
          cost: 2000                             # cycles per TB
          threads: 256
          reads: {A: "256*bx : 256*bx + 256"}    # a string or a list of them
          writes: {C: "256*bx : 256*bx + 256"}
      - sync
      - memcpy_d2h: C

An access string gives ``lo : hi`` per buffer dimension (hi exclusive,
affine in ``bx``, ``by``, ``bz``), dimensions separated by commas; ``":"`` is a
whole dimension, ``"all"`` the whole buffer, ``"indirect"`` an address loaded
from memory.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tbdse._util.checks import text
from tbdse._util.excerpts import excerpt, from_file
from tbdse._util.params import unknown_name
from tbdse.errors import ConfigError
from tbdse.io import yamlio
from tbdse.workloads.access import parse_access
from tbdse.workloads.application import MAX_PAIR_EDGES, Application
from tbdse.workloads.base import KERNEL_RESOURCES, Kernel, Workload, file_workload, generator
from tbdse.workloads.cost import CostModel

__all__ = ["application_file", "application_from_spec"]

_TOP = ("name", "element_bytes", "hazards", "cost_jitter", "max_pair_edges", "commands")
_LAUNCH = ("kernel", "grid", "cost", *KERNEL_RESOURCES, "reads", "writes")


def _mapping(value: Any, where: str, keys: tuple[str, ...]) -> dict[str, Any]:
    if not isinstance(value, Mapping):
        raise ConfigError(f"{where} must be a mapping; got {excerpt(value)}")
    for key in value:
        if key not in keys:
            raise unknown_name(f"key of {where}", str(key), keys)
    return dict(value)


def application_from_spec(spec: Mapping[str, Any], *, where: str = "application") -> Workload:
    """A workload from an application description (see the module doc)."""
    spec = _mapping(spec, where, _TOP)
    name = text(spec.get("name", "application"), f"{where}: name")
    where = f"{where} '{name}'"
    app = Application(name, element_bytes=spec.get("element_bytes", 4))
    commands = spec.get("commands")
    if not isinstance(commands, list) or not commands:
        raise ConfigError(f"{where}: 'commands' must be a non-empty list of API calls")
    for i, entry in enumerate(commands):
        _command(app, entry, f"{where}: commands[{i}]")
    return app.build(
        hazards=spec.get("hazards", "raw"),
        cost_jitter=spec.get("cost_jitter", 0.0),
        max_pair_edges=spec.get("max_pair_edges", MAX_PAIR_EDGES),
    )


def _command(app: Application, entry: Any, where: str) -> None:
    kinds = ("malloc", "memcpy_h2d", "memcpy_d2h", "launch", "sync")
    if entry == "sync":
        app.sync()
        return
    if not isinstance(entry, Mapping) or len(entry) != 1:
        raise ConfigError(
            f"{where} must be one of {', '.join(kinds)} as a one-key mapping (or 'sync'); "
            f"got {excerpt(entry)}"
        )
    ((kind, arg),) = entry.items()
    if kind not in kinds:
        raise unknown_name(f"API call in {where}", str(kind), kinds)
    where = f"{where} ({kind})"
    if kind == "sync":
        app.sync()
    elif kind == "malloc":
        m = _mapping(arg, where, ("buffer", "shape", "element_bytes"))
        if "buffer" not in m or "shape" not in m:
            raise ConfigError(f"{where} needs 'buffer' and 'shape'")
        app.malloc(m["buffer"], m["shape"], element_bytes=m.get("element_bytes"))
    elif kind in ("memcpy_h2d", "memcpy_d2h"):
        m = {"buffer": arg} if isinstance(arg, str) else _mapping(arg, where, ("buffer", "bytes"))
        copy = app.memcpy_h2d if kind == "memcpy_h2d" else app.memcpy_d2h
        copy(m.get("buffer", ""), m.get("bytes"))
    else:
        _launch(app, _mapping(arg, where, _LAUNCH), where)


def _launch(app: Application, m: dict[str, Any], where: str) -> None:
    if "kernel" not in m or "grid" not in m:
        raise ConfigError(f"{where} needs 'kernel' and 'grid'")
    accesses = {}
    for what in ("reads", "writes"):
        given = m.get(what, {}) or {}
        if not isinstance(given, Mapping):
            raise ConfigError(
                f"{where}: '{what}' maps buffer names to access strings; got {excerpt(given)}"
            )
        out = []
        for buf_name, value in given.items():
            if buf_name not in app.buffers:
                raise unknown_name(
                    f"buffer in {where} '{what}' (malloc it first)", str(buf_name), app.buffers
                )
            for src in value if isinstance(value, list) else [value]:
                out.append(parse_access(app.buffers[buf_name], src))
        accesses[what] = out
    kernel = Kernel(
        text(m["kernel"], f"{where}: kernel"),
        m.get("threads", 0),
        m.get("regs_per_thread", 0),
        m.get("smem_bytes", 0),
        m.get("mem_requests", 0),
        m.get("mem_fraction", 0.0),
        m.get("issue_interval", 0.0),
        m.get("reuse", 1),
    )
    app.launch(
        kernel,
        m["grid"],
        reads=accesses["reads"],
        writes=accesses["writes"],
        cost=m.get("cost", 1000),
    )


@generator("application_file")
def application_file(
    path: str,
    *,
    name: str | None = None,
    cost: CostModel | Mapping[str, Any] | float | None = None,
    kernel: Kernel | None = None,
    kernels: list[Kernel] | None = None,
) -> Workload:
    """A multi-kernel application read from a YAML file (see tbdse.workloads.application_file)."""
    with from_file():  # messages describe the file's values, not quote them
        spec = yamlio.load_yaml(Path(path)).data
        workload = application_from_spec(spec, where=f"application file '{path}'")
    return file_workload(
        workload,
        "application_file",
        path,
        what="an application file describes its own kernels",
        name=name,
        cost=cost,
        kernel=kernel,
        kernels=kernels,
    )
