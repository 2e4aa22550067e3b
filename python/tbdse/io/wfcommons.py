"""* :func:`read_wfcommons` — WfCommons WfFormat JSON workflows: version 1.4/1.5
(``workflow.specification.tasks[*].{id, parents, children}`` with
``workflow.execution.tasks[*].{id, runtimeInSeconds}``) and the older layout
(``workflow.tasks[*].{name, parents, children, runtime}``).  A task's
runtime in seconds becomes ``round(runtime * cycles_per_second)`` cycles
(default 1e9: a 1 GHz clock).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

import numpy as np

from tbdse._util.excerpts import excerpt, from_file, quoted, shown
from tbdse.errors import ConfigError
from tbdse.io.task_graphs import (
    MAX_CYCLES,
    MAX_DIGITS,
    MAX_JSON_DEPTH,
    MAX_TEXT_BYTES,
    CostArg,
    positive,
    stem,
    task_graph_workload,
)
from tbdse.io.yamlio import read_text
from tbdse.workloads.base import Kernel, Workload, generator
from tbdse.workloads.cost import from_graph

__all__ = ["read_wfcommons"]


def _wf_list(value: Any, where: str, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise ConfigError(f"{where}: {what} must be a list; got {excerpt(value)}")
    return value


def _wf_tasks(data: Any, where: str) -> list[tuple[Hashable, list[Any], list[Any], Any, str]]:
    """(id, parents, children, runtime, key path) per task, from either WfFormat layout."""
    workflow = data.get("workflow") if isinstance(data, Mapping) else None
    if not isinstance(workflow, Mapping):
        raise ConfigError(
            f"{where}: not a WfCommons workflow: expected a JSON object with a 'workflow' "
            "object (WfFormat)"
        )
    out = []
    if "specification" in workflow:
        spec = workflow["specification"]
        tasks = _wf_list(
            spec.get("tasks") if isinstance(spec, Mapping) else None,
            where,
            "workflow.specification.tasks",
        )
        execution = workflow.get("execution")
        runs = _wf_list(
            execution.get("tasks") if isinstance(execution, Mapping) else None,
            where,
            "workflow.execution.tasks (WfFormat 1.4+ keeps runtimes there)",
        )
        runtime: dict[Any, Any] = {}
        for k, run in enumerate(runs):
            key = f"workflow.execution.tasks[{k}]"
            if not isinstance(run, Mapping) or not isinstance(run.get("id"), (str, int)):
                raise ConfigError(f"{where}: {key} needs an 'id'; got {excerpt(run)}")
            runtime[run["id"]] = run.get("runtimeInSeconds", run.get("runtime"))
        for k, task in enumerate(tasks):
            key = f"workflow.specification.tasks[{k}]"
            if not isinstance(task, Mapping) or not isinstance(task.get("id"), (str, int)):
                raise ConfigError(f"{where}: {key} needs an 'id' (text); got {excerpt(task)}")
            tid = task["id"]
            if tid not in runtime:
                raise ConfigError(
                    f"{where}: {key}: task {quoted(tid)} has no entry with its id in "
                    "workflow.execution.tasks (its 'runtimeInSeconds')"
                )
            out.append((tid, task.get("parents", []), task.get("children", []), runtime[tid], key))
        return out
    tasks = _wf_list(workflow.get("tasks"), where, "workflow.tasks")
    for k, task in enumerate(tasks):
        key = f"workflow.tasks[{k}]"
        tid = task.get("name", task.get("id")) if isinstance(task, Mapping) else None
        if not isinstance(tid, (str, int)):
            raise ConfigError(f"{where}: {key} needs a 'name'; got {excerpt(task)}")
        assert isinstance(task, Mapping)
        value = task.get("runtimeInSeconds", task.get("runtime"))
        out.append((tid, task.get("parents", []), task.get("children", []), value, key))
    return out


@generator("wfcommons", naming=lambda p: stem(str(p.get("path", "wfcommons"))))
def read_wfcommons(
    path: str,
    cycles_per_second: float = 1e9,
    *,
    name: str | None = None,
    cost: CostArg = None,
    kernel: Kernel | None = None,
    kernels: Sequence[Kernel] | None = None,
) -> Workload:
    """A WfCommons WfFormat JSON workflow; task runtimes (s) x cycles_per_second are cycles."""
    rate = positive(cycles_per_second, "wfcommons: 'cycles_per_second'")
    where = shown(path)
    with from_file():
        return _wfcommons(path, where, rate, cycles_per_second, name, cost, kernel, kernels)


def _json(text: str, where: str) -> Any:
    """``text`` parsed as JSON, its nesting depth and number lengths checked first."""
    depth = _json_depth(text)
    if depth > MAX_JSON_DEPTH:
        raise ConfigError(
            f"{where}: JSON nested {depth} levels deep; a workflow file is read up to "
            f"{MAX_JSON_DEPTH} levels"
        )

    def number(digits: str) -> int:
        if len(digits.lstrip("-")) > MAX_DIGITS:
            at = text.find(digits)
            line = text.count("\n", 0, at) + 1
            col = at - (text.rfind("\n", 0, at) + 1) + 1
            raise ConfigError(
                f"{where}:{line}:{col}: a whole number of {len(digits):,} digits; numbers "
                f"are read up to {MAX_DIGITS} digits"
            )
        return int(digits)

    try:
        return json.loads(text, parse_int=number)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{where}:{exc.lineno}:{exc.colno}: not valid JSON ({exc.msg})") from None
    except (RecursionError, ValueError) as exc:  # a depth or size the checks above missed
        raise ConfigError(f"{where}: cannot read the JSON ({type(exc).__name__})") from None


_JSON_SKIP = re.compile(r'"(?:[^"\\]|\\.)*"')
_JSON_OPEN = str.maketrans({"[": "(", "{": "(", "]": ")", "}": ")"})


def _json_depth(text: str) -> int:
    """The deepest nesting of [ and { outside strings, counted without recursion."""
    bare = _JSON_SKIP.sub("", text)
    bare = re.sub(r"[^\[\]{}]+", "", bare)
    if not bare:
        return 0
    steps = np.frombuffer(bare.translate(_JSON_OPEN).encode("ascii"), dtype=np.uint8)
    return int(np.cumsum(np.where(steps == ord("("), 1, -1)).max())


def _wfcommons(
    path: str,
    where: str,
    rate: float,
    cycles_per_second: float,
    name: str | None,
    cost: CostArg,
    kernel: Kernel | None,
    kernels: Sequence[Kernel] | None,
) -> Workload:
    data = _json(read_text(path, "workflow file", MAX_TEXT_BYTES), where)
    tasks = _wf_tasks(data, where)
    index: dict[Hashable, int] = {}
    for i, (tid, _, _, _, key) in enumerate(tasks):
        if tid in index:
            raise ConfigError(f"{where}: {key}: a second task {quoted(tid)} (ids must be unique)")
        index[tid] = i
    aliases: dict[Hashable, int] = {}  # old layouts may name parents by 'id' besides 'name'
    if isinstance(data["workflow"].get("tasks"), list):
        for i, task in enumerate(data["workflow"]["tasks"]):
            other = task.get("id")
            if isinstance(other, (str, int)) and other not in index:
                aliases.setdefault(other, i)
    edges: list[tuple[int, int]] = []
    costs: list[int] = []
    for i, (tid, parents, children, runtime, key) in enumerate(tasks):
        if isinstance(runtime, bool) or not isinstance(runtime, (int, float)):
            raise ConfigError(
                f"{where}: {key}: task {quoted(tid)} needs a runtime in seconds (a number >= 0; "
                f"'runtimeInSeconds' or 'runtime'); got {excerpt(runtime)}"
            )
        cycles = round(float(runtime) * rate) if math.isfinite(runtime) else -1
        if runtime < 0 or not 0 <= cycles <= MAX_CYCLES:
            raise ConfigError(
                f"{where}: {key}: task {quoted(tid)}: runtime {excerpt(runtime)} s must be >= 0 "
                f"and at most 2^48 cycles at {rate:g} cycles per second"
            )
        costs.append(cycles)
        for field, links in (("parents", parents), ("children", children)):
            for ref in _wf_list(links, f"{where}: {key}", f"'{field}'"):
                other = index.get(ref) if isinstance(ref, Hashable) else None
                if other is None and isinstance(ref, Hashable):
                    other = aliases.get(ref)
                if other is None:
                    raise ConfigError(
                        f"{where}: {key}.{field}: task {quoted(tid)} names {excerpt(ref)}, "
                        "which is no task of the workflow"
                    )
                edges.append((other, i) if field == "parents" else (i, other))
    made = task_graph_workload(
        [t[0] for t in tasks],
        edges,
        costs,
        where,
        name=name or stem(str(path)),
        default_cost=from_graph(),
        cost=cost,
        kernel=kernel,
        kernels=kernels,
    )
    made.generator = "wfcommons"
    made.params = {"path": str(path), "cycles_per_second": cycles_per_second}
    return made


# -- Matrix Market ----------------------------------------------------------------------------

# Words of the Matrix Market format itself, shown in messages (any other word is the file's).
