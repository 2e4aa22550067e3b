"""* :func:`read_dot` — Graphviz DOT task graphs (``.dot``, ``.gv``), read by
tbdse's own parser of the DOT subset a task graph needs (no pydot or
pygraphviz): ``[strict] digraph [name] { ... }`` with node statements
``a [cost=100];``, edge chains ``a -> b -> c [label=x];``, default
attributes ``node [cost=10];`` (for the nodes that follow), graph
attributes ``rankdir=LR;`` (ignored), quoted ids ``"t 1"``, ports
(``a:out``, ignored) and ``//``, ``/* */`` and ``#`` comments.  Subgraphs,
``{a b}`` edge groups, HTML labels and undirected ``graph`` files are refused
with the line.  A node's ``cost`` (or else ``size``) attribute gives its
cycles: on every node or on none (then the cost model decides).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

from tbdse._util.excerpts import content, excerpt, from_file, quoted, shown
from tbdse.errors import ConfigError
from tbdse.io.task_graphs import (
    MAX_DOT_TOKENS,
    MAX_TEXT_BYTES,
    CostArg,
    stem,
    task_graph_workload,
    to_cycles,
)
from tbdse.io.yamlio import read_text
from tbdse.workloads.base import Kernel, Workload, generator
from tbdse.workloads.cost import from_graph

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

__all__ = ["read_dot"]


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


@generator("dot", naming=lambda p: stem(str(p.get("path", "dot"))))
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
    made = task_graph_workload(
        list(labels),
        edges,
        costs,
        where,
        name=name or stem(str(path)),
        default_cost=from_graph(),
        cost=cost,
        kernel=kernel,
        kernels=kernels,
    )
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
            cycles = to_cycles(attrs[n][key])
            if cycles is None:
                raise ConfigError(
                    f"{where}:{lines[n]}: DOT node {quoted(n)}: '{key}' must be a whole number "
                    f"of cycles in 0..2^48; got {excerpt(attrs[n][key])}"
                )
            costs.append(cycles)
    return costs


# -- WfCommons --------------------------------------------------------------------------------
