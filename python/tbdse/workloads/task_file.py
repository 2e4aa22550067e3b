"""Task graphs described in YAML (or any mapping): the generator
``tasks_file`` and :func:`tasks_from_spec`, the file form of
:class:`~tbdse.workloads.TaskBuilder`.

.. code-block:: yaml

    name: lu-2x2
    match: exact                 # or overlap (default exact)
    cost_jitter: 0.0             # lognormal spread of task run times
    arrays:                      # name: elements
      a: 4
    kinds:                       # name: cost (cycles) and TB footprint
      lu0: {cost: 30000, threads: 256, mem_requests: 256}
      fwd: {cost: 20000, threads: 256, regs_per_thread: 32, smem_bytes: 0,
            mem_requests: 384, mem_fraction: 0.2}
    tasks:                       # in program order
      - {kind: lu0, inout: "a[0:1]"}
      - {kind: fwd, in: ["a[0:1]"], inout: ["a[1:2]"]}
      - {kind: fwd, in: "a[0:1]", inout: "a[2:3]", launch: 1}   # launch: all or none

A section is ``"name[lo:hi]"`` (hi exclusive), ``"name[i]"``, ``"name[:]"``
or ``"name"`` (the whole array); ``in``, ``out`` and ``inout`` take one or a
list. Kind fields other than ``cost`` default to 0. An experiment reads such
a file with ``{file: lu.tasks.yaml}`` (the ``.tasks.yaml`` suffix) or
``{file: lu.yaml, format: tasks}``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from tbdse._util.checks import text
from tbdse._util.excerpts import excerpt, from_file
from tbdse._util.params import unknown_name
from tbdse.errors import ConfigError
from tbdse.io import yamlio
from tbdse.workloads.base import KERNEL_RESOURCES, Kernel, Workload, file_workload, generator
from tbdse.workloads.cost import CostModel
from tbdse.workloads.tasks import MODES, TaskBuilder

__all__ = ["tasks_file", "tasks_from_spec"]

_TOP = ("name", "match", "cost_jitter", "arrays", "kinds", "tasks")
_KIND = ("cost", *KERNEL_RESOURCES)
_TASK = ("kind", *MODES, "launch")

Locate = Callable[[tuple[str | int, ...]], str]


def tasks_from_spec(
    spec: Mapping[str, Any], *, where: str = "task list", locate: Locate | None = None
) -> Workload:
    """A workload from a task-list description (see the module doc);
    ``locate`` turns a key path into 'file:line:col' for messages."""

    def fail(path: tuple[str | int, ...], message: str) -> ConfigError:
        at = f"{locate(path)}: " if locate is not None else ""
        return ConfigError(f"{at}{where}: {yamlio.path_str(path)}: {message}")

    def check_keys(value: Any, path: tuple[str | int, ...], keys: tuple[str, ...]) -> dict:
        if not isinstance(value, Mapping):
            raise fail(path, f"must be a mapping with keys {', '.join(keys)}; got {excerpt(value)}")
        for key in value:
            if key not in keys:
                raise fail((*path, str(key)), str(unknown_name("key", str(key), keys)))
        return dict(value)

    spec = check_keys(spec, (), _TOP)
    for key in ("arrays", "kinds", "tasks"):
        if key not in spec:
            raise fail((), f"missing '{key}'")
    try:
        name = text(spec.get("name", "tasks"), "name")
    except ConfigError as exc:
        raise fail(("name",), str(exc)) from None
    try:
        b = TaskBuilder(name, match=spec.get("match", "exact"))
    except ConfigError as exc:
        raise fail(("match",), str(exc)) from None
    if not isinstance(spec["arrays"], Mapping) or not spec["arrays"]:
        raise fail(("arrays",), "must map array names to their sizes in elements")
    for array, size in spec["arrays"].items():
        try:
            b.array(str(array), size)
        except ConfigError as exc:
            raise fail(("arrays", str(array)), str(exc)) from None
    if not isinstance(spec["kinds"], Mapping) or not spec["kinds"]:
        raise fail(("kinds",), "must map kind names to {cost, threads, ...}")
    for kind, fields in spec["kinds"].items():
        at: tuple[str | int, ...] = ("kinds", str(kind))
        fields = check_keys(fields if fields is not None else {}, at, _KIND)
        try:
            b.kind(str(kind), **fields)
        except ConfigError as exc:
            raise fail(at, str(exc)) from None
    tasks = spec["tasks"]
    if not isinstance(tasks, list) or not tasks:
        raise fail(("tasks",), "must be a non-empty list of tasks in program order")
    for i, entry in enumerate(tasks):
        path: tuple[str | int, ...] = ("tasks", i)
        entry = check_keys(entry, path, _TASK)
        if "kind" not in entry:
            raise fail(path, "a task needs 'kind'")
        if not isinstance(entry["kind"], (str, int)) or isinstance(entry["kind"], bool):
            raise fail((*path, "kind"), f"must be the name of a kind; got {excerpt(entry['kind'])}")
        kind = str(entry["kind"])  # kinds are declared by name: 1 means '1'
        if kind not in b.kinds:
            raise fail((*path, "kind"), str(unknown_name("kind", kind, b.kinds)))
        for mode in MODES:
            given = entry.get(mode, [])
            for j, s in enumerate(given if isinstance(given, list) else [given]):
                try:
                    b.section(s)
                except ConfigError as exc:
                    raise fail((*path, mode, j), str(exc)) from None
        try:
            b.task(
                kind,
                depend={m: entry[m] for m in MODES if m in entry},
                launch=entry.get("launch"),
            )
        except ConfigError as exc:
            raise fail(path, str(exc)) from None
    try:
        return b.build(cost_jitter=spec.get("cost_jitter", 0.0))
    except ConfigError as exc:
        raise fail((), str(exc)) from None


@generator("tasks_file")
def tasks_file(
    path: str,
    *,
    name: str | None = None,
    cost: CostModel | Mapping[str, Any] | float | None = None,
    kernel: Kernel | None = None,
    kernels: list[Kernel] | None = None,
) -> Workload:
    """A task graph of OpenMP-style tasks with depend clauses, from a YAML file.

    The format: tbdse.workloads.task_file, docs/experiments.md."""
    with from_file():  # messages describe the file's values, not quote them
        doc = yamlio.load_yaml(Path(path))
        workload = tasks_from_spec(doc.data, where="task file", locate=doc.where)
    return file_workload(
        workload,
        "tasks_file",
        path,
        what="a task file describes its own kinds",
        name=name,
        cost=cost,
        kernel=kernel,
        kernels=kernels,
    )
