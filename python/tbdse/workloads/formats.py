"""Task graphs (and weighted data graphs) from other tools' file formats.

* :func:`read_dot` — Graphviz DOT task graphs (``.dot``, ``.gv``), read by
  tbdse's own parser of the DOT subset a task graph needs (no pydot or
  pygraphviz): ``[strict] digraph [name] { ... }`` with node statements
  ``a [cost=100];``, edge chains ``a -> b -> c [label=x];``, default
  attributes ``node [cost=10];`` (for the nodes that follow), graph
  attributes ``rankdir=LR;`` (ignored), quoted ids ``"t 1"``, ports
  (``a:out``, ignored) and ``//``, ``/* */`` and ``#`` comments.  Subgraphs,
  ``{a b}`` edge groups, HTML labels and undirected ``graph`` files are refused
  with the line.  A node's ``cost`` (or else ``size``) attribute gives its
  cycles: on every node or on none (then the cost model decides).
* :func:`read_wfcommons` — WfCommons WfFormat JSON workflows: version 1.4/1.5
  (``workflow.specification.tasks[*].{id, parents, children}`` with
  ``workflow.execution.tasks[*].{id, runtimeInSeconds}``) and the older layout
  (``workflow.tasks[*].{name, parents, children, runtime}``).  A task's
  runtime in seconds becomes ``round(runtime * cycles_per_second)`` cycles
  (default 1e9: a 1 GHz clock).
* :func:`read_matrix_market` — a Matrix Market matrix as the dependency DAG of
  a sparse triangular solve: task i is row i, an off-diagonal entry (i, j)
  makes task i wait for task j (edge j -> i), and a task costs its row's
  stored entries times ``cycles_per_nonzero``.  All off-diagonal entries must
  lie in one triangle (a symmetric file stores the lower one): any other
  matrix has no natural DAG and is refused, naming an entry of each triangle.
  :func:`matrix_market_arcs` reads one as a weighted data graph for
  ``graphs.read_matrix_market(path, weight_scale=...)``.

Every reader names the task graph's nodes by the file's ids
(``workload.labels``, in order of first appearance), refuses a cycle naming
it (``a -> b -> a``), and reports problems with the file, line (DOT, Matrix
Market) or key path (JSON) and the element; files ending in ``.gz`` are read
decompressed.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import re
from collections.abc import Hashable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from tbdse._util.checks import real
from tbdse._util.excerpts import content, excerpt, from_file, quoted, shown
from tbdse.errors import ConfigError
from tbdse.io.inputs import text_lines
from tbdse.io.yamlio import read_text
from tbdse.workloads.base import Kernel, Workload, generator
from tbdse.workloads.cost import CostModel, from_graph
from tbdse.workloads.io import from_edges

__all__ = ["matrix_market_arcs", "read_dot", "read_matrix_market", "read_wfcommons"]

CostArg = CostModel | Mapping[str, Any] | float | None
MAX_CYCLES = 2**48
# Budgets of the Python readers (tbdse.io.inputs limits every input to 256 MiB; these
# formats are parsed into Python objects, ~10 bytes per byte read, so less is read):
MAX_TEXT_BYTES = 32 * 2**20  # DOT, WfCommons JSON, Matrix Market task graphs
MAX_DOT_TOKENS = 1_000_000
MAX_MM_ENTRIES = 2_000_000
MAX_JSON_DEPTH = 100
MAX_DIGITS = 64


def _stem(path: str) -> str:
    """A workload name from a file name: without folders, ``.gz`` and the suffix."""
    name = Path(path).name
    if name.lower().endswith(".gz"):
        name = name[:-3]
    return Path(name).stem or name


def _positive(value: Any, what: str) -> float:
    number = real(value, what)
    if not 0 < number <= 1e12:
        raise ConfigError(f"{what} must be > 0 and at most 1e12; got {excerpt(value)}")
    return number


def check_acyclic(labels: Sequence[Hashable], edges: Sequence[tuple[int, int]], where: str) -> None:
    """A ConfigError naming a cycle of ``edges`` (over ``labels``) if there is one."""
    n = len(labels)
    children: list[list[int]] = [[] for _ in range(n)]
    indegree = [0] * n
    for u, v in edges:
        children[u].append(v)
        indegree[v] += 1
    ready = [i for i in range(n) if indegree[i] == 0]
    done = 0
    while ready:
        u = ready.pop()
        done += 1
        for v in children[u]:
            indegree[v] -= 1
            if indegree[v] == 0:
                ready.append(v)
    if done == n:
        return
    # Every node left has a parent left: walk parents until one repeats.
    parent = {v: u for u, v in edges if indegree[u] > 0 and indegree[v] > 0}
    node = next(v for v in range(n) if indegree[v] > 0)
    walk: list[int] = []
    seen: dict[int, int] = {}
    while node not in seen:
        seen[node] = len(walk)
        walk.append(node)
        node = parent[node]
    cycle = walk[seen[node] :][::-1]
    first = cycle.index(min(cycle))  # start at the node the file names first
    cycle = cycle[first:] + cycle[:first]
    names = [quoted(labels[i]) for i in cycle[:12]]
    path = " -> ".join(names) + (" -> ..." if len(cycle) > 12 else "")
    raise ConfigError(
        f"{where}: the task graph has a cycle: {path} -> {quoted(labels[cycle[0]])} "
        "(a task graph must be acyclic)"
    )


def _workload(
    labels: list[Hashable],
    edges: list[tuple[int, int]],
    costs: list[int] | None,
    where: str,
    *,
    name: str,
    default_cost: CostModel | None,
    cost: CostArg,
    kernel: Kernel | None,
    kernels: Sequence[Kernel] | None,
) -> Workload:
    if not labels:
        raise ConfigError(f"{where}: the file holds no tasks")
    edges = list(dict.fromkeys(edges))
    with from_file():  # the labels are the file's
        check_acyclic(labels, edges, where)
    made = from_edges(
        edges,
        len(labels),
        name=name,
        costs=costs,
        cost=cost if cost is not None else (default_cost if costs is not None else None),
        kernel=kernel,
        kernels=kernels,
    )
    made.labels = labels
    return made


def _cycles(value: Any) -> int | None:
    """A whole, non-negative cycle count from a number or numeral, else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        try:
            value = float(value) if not value.strip().lstrip("+").isdigit() else int(value)
        except ValueError:
            return None
    if isinstance(value, int):
        return value if 0 <= value <= MAX_CYCLES else None
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return int(value) if 0 <= value <= MAX_CYCLES else None
    return None


# -- DOT ------------------------------------------------------------------------------------

_DOT_TOKEN = re.compile(
    r"""
    (?P<space>[ \t\r\f\v]+)
  | (?P<newline>\n)
  | (?P<comment>//[^\n]*|/\*.*?\*/)
  | (?P<string>"(?:[^"\\]|\\.)*")
  | (?P<arrow>->|--)
  | (?P<number>-?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?))
  | (?P<id>[A-Za-z_\u0080-\U0010ffff][A-Za-z_0-9\u0080-\U0010ffff]*)
  | (?P<punct>[{}\[\];,=:])
    """,
    re.VERBOSE | re.DOTALL,
)
_KEYWORDS = ("strict", "graph", "digraph", "node", "edge", "subgraph")


class _Dot:
    """Tokens of a DOT file, each (kind, text, line); the parser walks them."""

    def __init__(self, source: str, path: str) -> None:
        self.path = path
        self.tokens: list[tuple[str, str, int]] = []
        line, pos = 1, 0
        at_line_start = True
        while pos < len(source):
            if at_line_start and source[pos] == "#":  # a C preprocessor line
                end = source.find("\n", pos)
                pos = len(source) if end < 0 else end
                continue
            match = _DOT_TOKEN.match(source, pos)
            if match is None:
                what = source[pos]
                hint = " (HTML labels are not supported)" if what == "<" else ""
                if what == '"':
                    raise self.fail(line, "a quoted id is not closed")
                shown_ = f"'{what}'" if what in "<>!$%&()*+./?@\\^`|~'" else content(what)
                raise self.fail(line, f"unexpected character {shown_}{hint}")
            kind = match.lastgroup or ""
            value = match.group()
            if kind == "string":
                value = value[1:-1].replace('\\"', '"').replace("\\\n", "")
                kind = "id"
            elif kind == "number":
                kind = "id"
            elif kind == "punct":
                kind = value
            elif kind == "id" and value.lower() in _KEYWORDS:
                kind = value.lower()
            if kind not in ("space", "newline", "comment"):
                if len(self.tokens) == MAX_DOT_TOKENS:
                    raise self.fail(
                        line, f"more than {MAX_DOT_TOKENS:,} tokens; a DOT file is read up to that"
                    )
                self.tokens.append((kind, value, line))
            line += match.group().count("\n")
            at_line_start = kind == "newline" or (at_line_start and kind == "space")
            pos = match.end()
        self.pos = 0

    def fail(self, line: int, message: str) -> ConfigError:
        return ConfigError(f"{self.path}:{line}: DOT: {message}")

    def peek(self, offset: int = 0) -> tuple[str, str, int]:
        at = self.pos + offset
        if at < len(self.tokens):
            return self.tokens[at]
        last = self.tokens[-1][2] if self.tokens else 1
        return ("end", "", last)

    def take(self, *kinds: str) -> tuple[str, str, int]:
        token = self.peek()
        if token[0] not in kinds:
            wanted = " or ".join(f"'{k}'" if k not in ("id", "end") else k for k in kinds)
            got = "the end of the file" if token[0] == "end" else f"'{token[1]}'"
            if token[0] == "id":  # a word of the file's own, not DOT's syntax
                got = content(token[1], "word")
            raise self.fail(token[2], f"expected {wanted}; got {got}")
        self.pos += 1
        return token

    def attrs(self) -> dict[str, str]:
        """``[a=b, c=d][e=f]`` lists (none: empty)."""
        out: dict[str, str] = {}
        while self.peek()[0] == "[":
            self.take("[")
            while self.peek()[0] != "]":
                key = self.take("id")[1]
                value = "true"
                if self.peek()[0] == "=":
                    self.take("=")
                    value = self.take("id")[1]
                out[key] = value
                if self.peek()[0] in (",", ";"):
                    self.pos += 1
            self.take("]")
        return out

    def node_id(self) -> tuple[str, int]:
        kind, value, line = self.peek()
        if kind == "subgraph" or kind == "{":
            raise self.fail(line, "subgraphs and '{...}' node groups are not supported")
        _, value, line = self.take("id")
        for _ in range(2):  # a port 'a:p' or 'a:p:n' names the node a
            if self.peek()[0] == ":":
                self.take(":")
                self.take("id")
        return value, line


def _dot_graph(
    source: str, path: str
) -> tuple[list[str], list[tuple[int, int]], dict[str, dict[str, str]], dict[str, int]]:
    """Nodes (first appearance), edges, node attributes and first lines of a DOT digraph."""
    dot = _Dot(source, path)
    if not dot.tokens:
        raise dot.fail(1, "the file is empty (expected 'digraph { ... }')")
    if dot.peek()[0] == "strict":
        dot.take("strict")
    kind, _, line = dot.peek()
    if kind == "graph":
        raise dot.fail(line, "an undirected 'graph': a task graph is a 'digraph' with '->' edges")
    dot.take("digraph")
    if dot.peek()[0] == "id":
        dot.take("id")
    dot.take("{")
    nodes: dict[str, int] = {}
    attrs: dict[str, dict[str, str]] = {}
    lines: dict[str, int] = {}
    edges: list[tuple[int, int]] = []
    defaults: dict[str, str] = {}

    def node(name: str, line: int) -> int:
        if name not in nodes:
            nodes[name] = len(nodes)
            attrs[name] = dict(defaults)
            lines[name] = line
        return nodes[name]

    while dot.peek()[0] != "}":
        kind, _, line = dot.peek()
        if kind in ("graph", "edge"):
            dot.take(kind)
            dot.attrs()
        elif kind == "node":
            dot.take("node")
            defaults.update(dot.attrs())
        elif kind == "id" and dot.peek(1)[0] == "=":
            dot.pos += 2
            dot.take("id")  # a graph attribute
        elif kind == "end":
            raise dot.fail(line, "the file ends before the closing '}'")
        else:
            name, line = dot.node_id()
            chain = [(name, line)]
            while dot.peek()[0] == "arrow":
                _, arrow, at = dot.take("arrow")
                if arrow == "--":
                    raise dot.fail(at, "'--' is an undirected edge; a digraph's edges are '->'")
                chain.append(dot.node_id())
            given = dot.attrs()
            ids = [node(n, at) for n, at in chain]
            if len(chain) == 1:
                attrs[name].update(given)
            edges += list(itertools.pairwise(ids))
        if dot.peek()[0] in (";", ","):
            dot.pos += 1
    dot.take("}")
    if dot.peek()[0] != "end":
        raise dot.fail(dot.peek()[2], "text after the graph's closing '}' (one graph per file)")
    return list(nodes), edges, attrs, lines


@generator("dot", naming=lambda p: _stem(str(p.get("path", "dot"))))
def read_dot(
    path: str,
    *,
    name: str | None = None,
    cost: CostArg = None,
    kernel: Kernel | None = None,
    kernels: Sequence[Kernel] | None = None,
) -> Workload:
    """A Graphviz DOT digraph as a task graph; node attribute 'cost' (or 'size'): cycles."""
    where = shown(path)
    with from_file():
        source = read_text(path, "DOT file", MAX_TEXT_BYTES)
        labels, edges, attrs, lines = _dot_graph(source, where)
        del source
        costs = _dot_costs(labels, attrs, lines, where)
    made = _workload(
        list(labels),
        edges,
        costs,
        where,
        name=name or _stem(str(path)),
        default_cost=from_graph(),
        cost=cost,
        kernel=kernel,
        kernels=kernels,
    )
    made.chosen_cost = None if cost is None else made.cost
    made.generator, made.params = "dot", {"path": str(path)}
    return made


def _dot_costs(
    labels: list[str], attrs: dict[str, dict[str, str]], lines: dict[str, int], where: str
) -> list[int] | None:
    """Each node's cycles from its 'cost' (or 'size') attribute; None when no node has one."""
    given = [n for n in labels if "cost" in attrs[n] or "size" in attrs[n]]
    costs = None
    if given:
        costs = []
        for n in labels:
            key = "cost" if "cost" in attrs[n] else "size"
            if key not in attrs[n]:
                raise ConfigError(
                    f"{where}:{lines[n]}: DOT node {quoted(n)} has no 'cost' (or 'size') "
                    f"attribute, but node {quoted(given[0])} (line {lines[given[0]]}) has one: "
                    "give every node its cycles, or none"
                )
            cycles = _cycles(attrs[n][key])
            if cycles is None:
                raise ConfigError(
                    f"{where}:{lines[n]}: DOT node {quoted(n)}: '{key}' must be a whole number "
                    f"of cycles in 0..2^48; got {excerpt(attrs[n][key])}"
                )
            costs.append(cycles)
    return costs


# -- WfCommons --------------------------------------------------------------------------------


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


@generator("wfcommons", naming=lambda p: _stem(str(p.get("path", "wfcommons"))))
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
    rate = _positive(cycles_per_second, "wfcommons: 'cycles_per_second'")
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
    made = _workload(
        [t[0] for t in tasks],
        edges,
        costs,
        where,
        name=name or _stem(str(path)),
        default_cost=from_graph(),
        cost=cost,
        kernel=kernel,
        kernels=kernels,
    )
    made.chosen_cost = None if cost is None else made.cost
    made.generator = "wfcommons"
    made.params = {"path": str(path), "cycles_per_second": cycles_per_second}
    return made


# -- Matrix Market ----------------------------------------------------------------------------

# Words of the Matrix Market format itself, shown in messages (any other word is the file's).
_MM_WORDS = {"matrix", "vector", "coordinate", "array", "pattern", "integer", "real", "complex"}
_MM_WORDS |= {"general", "symmetric", "skew-symmetric", "hermitian"}
_MM_SUPPORTED = (
    "supported: '%%MatrixMarket matrix coordinate <pattern|integer|real> <general|symmetric>'"
)


def _mm_entries(
    path: str | os.PathLike[str],
) -> tuple[int, str, bool, list[tuple[int, int, str, int]]]:
    """Node count, value type, symmetry and (row, column, value, line) entries (0-based)."""
    where = shown(path)
    with from_file():
        return _mm_read(read_text(os.fspath(path), "Matrix Market file", MAX_TEXT_BYTES), where)


def _mm_word(word: str) -> str:
    return f"'{word}'" if word in _MM_WORDS else content(word, "word")


def _mm_read(text: str, where: str) -> tuple[int, str, bool, list[tuple[int, int, str, int]]]:
    lines = text_lines(text)
    first = next(lines, "")
    banner = first.split()
    if not banner or banner[0].lower() != "%%matrixmarket":
        raise ConfigError(
            f"{where}:1: expected the Matrix Market banner '%%MatrixMarket matrix coordinate "
            f"...'; got {content(first, 'line')}"
        )
    if len(banner) != 5:
        raise ConfigError(
            f"{where}:1: the banner needs 4 words after '%%MatrixMarket'; {_MM_SUPPORTED}"
        )
    obj, fmt, field, symmetry = (w.lower() for w in banner[1:])
    for value, valid, what in (
        (obj, ("matrix",), "object"),
        (fmt, ("coordinate",), "format"),
        (field, ("pattern", "integer", "real"), "value type"),
        (symmetry, ("general", "symmetric"), "symmetry"),
    ):
        if value not in valid:
            raise ConfigError(
                f"{where}:1: {what} {_mm_word(value)} is not supported; {_MM_SUPPORTED}"
            )
    nodes = declared = size_line = 0
    entries: list[tuple[int, int, str, int]] = []
    want = 2 if field == "pattern" else 3
    for lineno, line in enumerate(lines, 2):
        words = line.split()
        if not words or words[0].startswith("%"):
            continue
        if not size_line:
            try:
                if len(words) != 3 or max(map(len, words)) > MAX_DIGITS:
                    raise ValueError
                rows, cols, declared = (int(w) for w in words)
            except ValueError:
                rows, cols, declared = 0, 0, -1
            if declared < 0 or rows < 1:
                raise ConfigError(
                    f"{where}:{lineno}: expected the size line '<rows> <columns> <entries>' "
                    f"(whole numbers, rows >= 1); got {content(line, 'line')}"
                )
            if rows != cols or rows >= 2**31:
                raise ConfigError(
                    f"{where}:{lineno}: the matrix is {rows} x {cols}: a graph's matrix must "
                    "be square, with at most 2^31 - 1 rows"
                )
            if declared > MAX_MM_ENTRIES:
                raise ConfigError(
                    f"{where}:{lineno}: the size line declares {declared:,} entries; a Matrix "
                    f"Market file is read here up to {MAX_MM_ENTRIES:,} (graphs.read_matrix_market "
                    "without weight_scale reads larger ones)"
                )
            nodes, size_line = rows, lineno
            continue
        if len(words) != want:
            shape = "<row> <column>" if want == 2 else "<row> <column> <value>"
            raise ConfigError(
                f"{where}:{lineno}: expected an entry '{shape}' ({field}); "
                f"got {content(line, 'line')}"
            )
        if len(entries) == declared:
            raise ConfigError(
                f"{where}:{lineno}: more entries than the {declared} that the size line "
                f"(line {size_line}) declares"
            )
        ids: list[int] = []
        for word in words[:2]:
            try:
                k = int(word) if len(word) <= MAX_DIGITS else 0
            except ValueError:
                k = 0
            if not 1 <= k <= nodes:
                index = "row" if not ids else "column"
                raise ConfigError(
                    f"{where}:{lineno}: the entry's {index} index ({content(word, 'word')}) is "
                    f"not a whole number in range (valid: 1..{nodes})"
                )
            ids.append(k - 1)
        if symmetry == "symmetric" and ids[0] < ids[1]:
            raise ConfigError(
                f"{where}:{lineno}: entry ({words[0]}, {words[1]}) lies above the diagonal; a "
                "symmetric file lists only row >= column"
            )
        entries.append((ids[0], ids[1], words[2] if want == 3 else "1", lineno))
    if not size_line:
        raise ConfigError(f"{where}: no size line '<rows> <columns> <entries>' after the banner")
    if len(entries) != declared:
        raise ConfigError(
            f"{where}: the size line (line {size_line}) declares {declared} entries but the "
            f"file has {len(entries)}"
        )
    return nodes, field, symmetry == "symmetric", entries


def matrix_market_arcs(
    path: str | os.PathLike[str], weight_scale: float, max_weight: int
) -> tuple[int, np.ndarray, np.ndarray, np.ndarray | None]:
    """Nodes, arc sources, targets and weights (None: a pattern file) of a Matrix
    Market file as a data graph: entry (i, j) is the arc i -> j (and j -> i in a
    symmetric file); weight ``round(value * weight_scale)``, refusing negative
    values and weights above ``max_weight``, naming the line."""
    where = shown(path)
    nodes, field, symmetric, entries = _mm_entries(path)
    src: list[int] = []
    dst: list[int] = []
    weights: list[int] = []
    for i, j, word, line in entries:
        weight = 1
        if field != "pattern":
            try:
                if len(word) > MAX_DIGITS:  # int() balks at 4300 digits, float() overflows
                    raise ValueError
                value = int(word) if field == "integer" else float(word)
            except ValueError:
                raise ConfigError(
                    f"{where}:{line}: entry ({i + 1}, {j + 1}): the value "
                    f"({content(word, 'word')}) is not "
                    f"{'a whole number' if field == 'integer' else 'a number'}"
                ) from None
            scaled = value * weight_scale
            if not math.isfinite(scaled) or value < 0 or round(scaled) > max_weight:
                raise ConfigError(
                    f"{where}:{line}: entry ({i + 1}, {j + 1}): value {excerpt(word)} times "
                    f"weight_scale {weight_scale:g} is no arc weight (weights are "
                    f"0..{max_weight}; negative values are refused)"
                )
            weight = round(scaled)
        for s, d in [(i, j), (j, i)] if symmetric and i != j else [(i, j)]:
            src.append(s)
            dst.append(d)
            weights.append(weight)
    arrays = np.asarray(src, dtype=np.int64), np.asarray(dst, dtype=np.int64)
    return nodes, *arrays, None if field == "pattern" else np.asarray(weights, dtype=np.int64)


@generator("matrix_market", naming=lambda p: _stem(str(p.get("path", "matrix_market"))))
def read_matrix_market(
    path: str,
    cycles_per_nonzero: float = 100.0,
    *,
    name: str | None = None,
    cost: CostArg = None,
    kernel: Kernel | None = None,
    kernels: Sequence[Kernel] | None = None,
) -> Workload:
    """A triangular Matrix Market matrix as a sparse triangular solve's task DAG (row = task)."""
    per_entry = _positive(cycles_per_nonzero, "matrix_market: 'cycles_per_nonzero'")
    where = shown(path)
    nodes, _, _, entries = _mm_entries(path)
    if nodes > 2**24:
        raise ConfigError(f"{where}: {nodes} rows: a task graph from a matrix has at most 2^24")
    triangle: dict[bool, tuple[int, int, int]] = {}
    edges: list[tuple[int, int]] = []
    counts = [0] * nodes
    for i, j, _, line in entries:
        counts[i] += 1
        if i == j:
            continue
        triangle.setdefault(i > j, (i, j, line))
        edges.append((j, i))
    if len(triangle) == 2:
        (li, lj, ll), (ui, uj, ul) = triangle[True], triangle[False]
        raise ConfigError(
            f"{where}:{ul}: entry ({ui + 1}, {uj + 1}) lies above the diagonal but entry "
            f"({li + 1}, {lj + 1}) (line {ll}) lies below: a matrix is read as the task DAG "
            "of a triangular solve, so its off-diagonal entries must all lie in one triangle"
        )
    made = _workload(
        list(range(nodes)),
        edges,
        counts,
        where,
        name=name or _stem(str(path)),
        default_cost=from_graph(per_entry),
        cost=cost,
        kernel=kernel,
        kernels=kernels,
    )
    made.chosen_cost = None if cost is None else made.cost
    made.generator = "matrix_market"
    made.params = {"path": str(path), "cycles_per_nonzero": cycles_per_nonzero}
    return made
