"""Data graphs for graph operators (BFS, SSSP): directed, integer arc weights.

Each function returns a :class:`tbdse._core.Digraph`, an immutable graph in
CSR form (``offsets()``, ``targets()``, ``weights()``) whose node ids are
0..nodes-1.  Unlike the task graphs of :mod:`tbdse.workloads`, a data graph
may have cycles, parallel arcs and self loops; they are kept as given.

* generators, seeded through the counter-based RNG (the same seed gives the
  same graph on any machine): :func:`grid`, :func:`rmat`, :func:`uniform`,
  :func:`road`;
* readers (parsed in C++; errors name the file and line): :func:`read_dimacs`,
  :func:`read_edge_list`, :func:`read_matrix_market`, and :func:`read`, which
  picks one by the file's suffix;
* converters: :func:`from_edges`, :func:`from_networkx`.

Weights are whole numbers 0..2^31-1.  A generator with ``max_weight=1`` gives
an unweighted graph (``weighted`` is False: every arc weighs 1); with more, the
weights are uniform in [1, max_weight], both directions of an edge alike.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Hashable, Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from tbdse import _core
from tbdse._util.checks import flag, real, text, whole
from tbdse._util.excerpts import content, showing_input, shown
from tbdse.errors import ConfigError
from tbdse.io.inputs import input_path, named

__all__ = [
    "from_edges",
    "from_networkx",
    "grid",
    "read",
    "read_dimacs",
    "read_edge_list",
    "read_matrix_market",
    "rmat",
    "road",
    "uniform",
]

MAX_NODES = 2**31 - 1
MAX_WEIGHT = 2**31 - 1
MAX_SEED = 2**63 - 1
FORMATS = ("dimacs", "edge_list", "matrix_market")


def grid(rows: int, cols: int, *, max_weight: int = 1, seed: int = 0) -> _core.Digraph:
    """A ``rows`` x ``cols`` grid: node ``r * cols + c`` has an arc to each of its
    (up to four) neighbours, so every edge exists in both directions;
    2 * (rows * (cols - 1) + cols * (rows - 1)) arcs."""
    return _core.make_grid_digraph(
        whole(rows, "grid: 'rows'", 1, MAX_NODES),
        whole(cols, "grid: 'cols'", 1, MAX_NODES),
        whole(max_weight, "grid: 'max_weight'", 1, MAX_WEIGHT),
        whole(seed, "grid: 'seed'", 0, MAX_SEED),
    )


def rmat(
    nodes: int,
    degree: float = 16.0,
    *,
    a: float = 0.57,
    b: float = 0.19,
    c: float = 0.19,
    symmetric: bool = False,
    max_weight: int = 1,
    seed: int = 0,
) -> _core.Digraph:
    """An R-MAT graph (Chakrabarti et al., SDM 2004): round(nodes * degree) arcs.

    Each arc picks, level by level in the 2^ceil(log2 nodes) id space, one of
    the adjacency matrix's quadrants with probabilities ``a`` (top left),
    ``b``, ``c`` and d = 1 - a - b - c; an arc that falls outside the nodes or
    is a self loop is drawn again.  The defaults (Graph 500's) give a
    power-law degree skew: a few hubs with thousands of arcs.  ``symmetric``
    adds every arc's reverse (twice the arcs).
    """
    return _core.make_rmat_digraph(
        whole(nodes, "rmat: 'nodes'", 1, MAX_NODES),
        real(degree, "rmat: 'degree'", 0.0),
        real(a, "rmat: 'a'", 0.0, 1.0),
        real(b, "rmat: 'b'", 0.0, 1.0),
        real(c, "rmat: 'c'", 0.0, 1.0),
        flag(symmetric, "rmat: 'symmetric'"),
        whole(max_weight, "rmat: 'max_weight'", 1, MAX_WEIGHT),
        whole(seed, "rmat: 'seed'", 0, MAX_SEED),
    )


def uniform(
    nodes: int, degree: float, *, symmetric: bool = False, max_weight: int = 1, seed: int = 0
) -> _core.Digraph:
    """A uniform random graph (Erdős–Rényi G(n, m)): round(nodes * degree) arcs with
    both endpoints uniform, self loops drawn again; ``symmetric`` adds reverses."""
    return _core.make_uniform_digraph(
        whole(nodes, "uniform: 'nodes'", 1, MAX_NODES),
        real(degree, "uniform: 'degree'", 0.0),
        flag(symmetric, "uniform: 'symmetric'"),
        whole(max_weight, "uniform: 'max_weight'", 1, MAX_WEIGHT),
        whole(seed, "uniform: 'seed'", 0, MAX_SEED),
    )


def road(
    nodes: int, *, town_size: int = 1024, highway_every: int = 4, seed: int = 0
) -> _core.Digraph:
    """A road-network-like graph of exactly ``nodes`` nodes, modelled on DIMACS road
    graphs (docs/models/hwwl.md, "Workloads"): planar but for highway
    interchanges, undirected degree 1-4 (mean ~2.6, ~11% dead ends), high
    diameter, every edge in both directions with one weight, its length in metres.

    About ``nodes / town_size`` towns of lognormal sizes, each a street grid
    thinned to a random spanning tree plus 30% of the other blocks; rural roads
    of 1-8 nodes join neighbouring towns; highways run along every
    ``highway_every``-th row and column of towns (0: none) and ramp into each
    town they pass.  Highways let a BFS reach many towns at nearly the same
    depth, so its frontiers are wide (1M nodes, defaults: depth ~300, peak
    frontier ~10,000-14,000); fewer highways give deeper, narrower searches
    (``highway_every=0``: depth ~1,100-2,000, frontiers ~2,000, like a grid).
    Ids go town by town in rows, so nearby places have nearby ids.
    """
    return _core.make_road_digraph(
        whole(nodes, "road: 'nodes'", 1, MAX_NODES),
        whole(town_size, "road: 'town_size'", 8, MAX_NODES),
        whole(highway_every, "road: 'highway_every'", 0, MAX_NODES),
        whole(seed, "road: 'seed'", 0, MAX_SEED),
    )


def _read_file(reader: Any, path: str | os.PathLike[str], caller: str, *args: Any) -> Any:
    """``reader`` (a C++ reader) over a graph file, checked first as every input is
    (a regular file within the size limit and the input root: tbdse.io.inputs); a
    ``.gz`` file is decompressed (bounded) into a temporary file, and messages
    name the file given."""
    name = text(path, f"{caller}: 'path'", path_ok=True)
    with input_path(name, "graph file") as local, named(local, name):
        return _parse(reader, local, name, *args)


# The C++ readers quote a line or word of the file ('...', escaped, at most 40
# characters) after these words; tbdse.io.inputs.content() replaces it unless shown.
_CPP_QUOTE = re.compile(r"\b(got|type|object|format|symmetry|id|count|weight) '((?:[^'\\]|\\.)*)'")


# Words of the formats themselves (Matrix Market banners), which messages may show.
_FORMAT_WORDS = {"matrix", "vector", "coordinate", "array", "pattern", "integer", "real"}
_FORMAT_WORDS |= {"complex", "general", "symmetric", "skew-symmetric", "hermitian"}


def _unquoted(message: str) -> str:
    """A C++ reader's message without the file's text it quotes (unless shown)."""
    if showing_input():
        return message

    def hide(match: re.Match[str]) -> str:
        if match.group(2).lower() in _FORMAT_WORDS:
            return match.group()
        text = re.sub(r"\\(x[0-9A-F]{2}|.)", "_", match.group(2))
        cut = text.endswith("...")
        what = "line" if match.group(1) == "got" and " " in text else "word"
        shown_ = content(text[:-3] if cut else text, what)
        return f"{match.group(1)} {shown_.replace(' of ', ' of more than ', 1) if cut else shown_}"

    return _CPP_QUOTE.sub(hide, message)


def _parse(reader: Any, path: str, name: str, *args: Any) -> Any:
    try:
        return reader(path, *args)
    except ConfigError as exc:
        hidden = _unquoted(str(exc))
        if hidden == str(exc):
            raise
        raise ConfigError(hidden) from None
    except UnicodeDecodeError:
        # The C++ reader's message quoted a line holding bytes that are not
        # UTF-8, which Python cannot turn into the ConfigError's text.
        raise ConfigError(
            f"{shown(name)}: the graph file holds bytes that are not UTF-8 text on a line "
            "that could not be read"
        ) from None


def read_dimacs(path: str | os.PathLike[str]) -> _core.Digraph:
    """A 9th DIMACS Challenge shortest-path file (``.gr``): 'c' comments, one
    'p sp N M' line and M arc lines 'a U V W' with 1-based ids (made 0-based).
    A name ending in ``.gz`` is read gzip-decompressed (as every reader here)."""
    return _read_file(_core.read_dimacs_digraph, path, "read_dimacs")


def read_edge_list(path: str | os.PathLike[str], *, one_based: bool = False) -> _core.Digraph:
    """One arc per line, 'U V' or 'U V W' (spaces, tabs or commas), '#' or '%'
    comments; every line has a weight or none.  Nodes = largest id + 1."""
    return _read_file(
        _core.read_edge_list_digraph,
        path,
        "read_edge_list",
        flag(one_based, "read_edge_list: 'one_based'"),
    )


def read_matrix_market(
    path: str | os.PathLike[str], *, weight_scale: float | None = None
) -> _core.Digraph:
    """A Matrix Market file ('%%MatrixMarket matrix coordinate <pattern|integer|real>
    <general|symmetric>'): entry (i, j) is the arc i -> j; a symmetric file also
    gives j -> i.  Pattern entries weigh 1.

    Without ``weight_scale`` the values are the weights and must be whole
    numbers >= 0.  With it (a number > 0) each weight is
    ``round(value * weight_scale)`` (half to even), so real-valued matrices
    (``real`` files: distances, conductances) become the whole-number weights
    the core takes: a negative value, or one whose weight exceeds 2^31 - 1, is
    refused with its line; a positive value that rounds to 0 gives weight 0.
    """
    if weight_scale is None:
        return _read_file(_core.read_matrix_market_digraph, path, "read_matrix_market")
    from tbdse.io.matrix_market import matrix_market_arcs

    scale = real(weight_scale, "read_matrix_market: 'weight_scale'")
    if not 0 < scale <= 1e12:
        raise ConfigError(
            f"read_matrix_market: 'weight_scale' must be > 0 and at most 1e12; got {scale!r}"
        )
    nodes, src, dst, weights = matrix_market_arcs(path, scale, MAX_WEIGHT)
    if weights is None:
        return from_edges(np.stack([src, dst], axis=1), nodes)
    return from_edges(np.stack([src, dst], axis=1), nodes, weights)


def read(
    path: str | os.PathLike[str], format: str | None = None, *, weight_scale: float | None = None
) -> _core.Digraph:
    """A graph file in ``format`` ('dimacs', 'matrix_market' or 'edge_list'), by
    default chosen by the suffix (after a ``.gz``, read decompressed): ``.gr``
    DIMACS, ``.mtx`` Matrix Market, else a 0-based edge list.  ``weight_scale``
    applies to Matrix Market files (:func:`read_matrix_market`)."""
    name = text(path, "read: 'path'", path_ok=True)
    if format is None:
        stem = name[:-3] if name.lower().endswith(".gz") else name
        suffix = Path(stem).suffix.lower()
        format = {".gr": "dimacs", ".mtx": "matrix_market"}.get(suffix, "edge_list")
    format = text(format, "read: 'format'")
    if weight_scale is not None and format != "matrix_market":
        raise ConfigError(
            f"read: 'weight_scale' applies to Matrix Market files; {shown(name)} is read as "
            f"{format}"
        )
    if format == "dimacs":
        return read_dimacs(name)
    if format == "matrix_market":
        return read_matrix_market(name, weight_scale=weight_scale)
    if format == "edge_list":
        return read_edge_list(name)
    raise ConfigError(f"read: unknown graph file format {format!r}; valid: {', '.join(FORMATS)}")


def _whole_array(values: Any, what: str, lo: int, hi: int) -> np.ndarray:
    """Whole numbers in [lo, hi] (integral floats too) as int64; ConfigError naming ``what``."""
    try:
        array = np.asarray(values if isinstance(values, np.ndarray) else list(values))
    except (TypeError, ValueError):
        raise ConfigError(f"{what}: expected whole numbers; got {values!r:.80}") from None
    if array.size == 0:
        return array.astype(np.int64)
    numeric = np.issubdtype(array.dtype, np.integer) or np.issubdtype(array.dtype, np.floating)
    if not numeric or (
        np.issubdtype(array.dtype, np.floating)
        and not (np.all(np.isfinite(array)) and np.all(np.mod(array, 1) == 0))
    ):
        raise ConfigError(f"{what}: expected whole numbers; got {values!r:.80}")
    low, high = array.min(), array.max()
    if low < lo or high > hi:
        bad = low if low < lo else high
        raise ConfigError(f"{what}: {bad} is out of range (valid: {lo}..{hi})")
    return array.astype(np.int64)


def from_edges(
    edges: Iterable[tuple[int, int]] | np.ndarray,
    nodes: int | None = None,
    weights: Sequence[int] | np.ndarray | None = None,
) -> _core.Digraph:
    """A graph from (source, target) pairs over ids 0..nodes-1, in that order.

    ``nodes`` defaults to the largest id + 1.  ``weights`` (one whole number
    >= 0 per arc) make the graph weighted; without them every arc weighs 1.
    """
    pairs = _whole_array(edges, "from_edges: node ids", 0, MAX_NODES - 1)
    if pairs.size == 0:
        pairs = pairs.reshape(0, 2)
    if pairs.ndim != 2 or pairs.shape[1] != 2:
        raise ConfigError("from_edges: edges must be (source, target) pairs")
    if nodes is None:
        if len(pairs) == 0:
            raise ConfigError("from_edges: a graph without arcs needs the node count 'nodes'")
        nodes = int(pairs.max()) + 1
    n = whole(nodes, "from_edges: 'nodes'", 1, MAX_NODES)
    weight = None
    if weights is not None:
        weight = _whole_array(weights, "from_edges: weights", 0, MAX_WEIGHT)
        if weight.shape != (len(pairs),):
            raise ConfigError(
                f"from_edges: {weight.size} weights for {len(pairs)} arcs (give one per arc)"
            )
    return _core.Digraph.build(n, pairs[:, 0], pairs[:, 1], weight)


def from_networkx(g: Any, weight: str | None = "weight") -> _core.Digraph:
    """A graph from a networkx graph; an undirected edge becomes two arcs.

    Nodes are numbered in sorted order when their labels sort, else in
    ``g.nodes`` order.  Parallel edges of a multigraph are kept.  With
    ``weight`` the edge attribute of that name gives the weights (an edge
    without it weighs 1, as in networkx's shortest paths); when no edge has
    it, or ``weight`` is None, the graph is unweighted.
    """
    if not hasattr(g, "nodes") or not hasattr(g, "edges"):
        raise ConfigError(f"from_networkx: expected a networkx graph; got {type(g).__name__}")
    if weight is not None:
        weight = text(weight, "from_networkx: 'weight'")
    labels: list[Hashable] = list(g.nodes)
    if not labels:
        raise ConfigError("from_networkx: the graph has no nodes")
    with contextlib.suppress(TypeError):  # unsortable labels keep g.nodes order
        labels = sorted(labels)  # type: ignore[type-var]
    index = {label: i for i, label in enumerate(labels)}
    directed = bool(g.is_directed())
    src: list[int] = []
    dst: list[int] = []
    values: list[int | None] = []
    for u, v, w in g.edges(data=weight, default=None):
        if w is not None:
            w = whole(w, f"from_networkx: the {weight!r} of edge ({u!r}, {v!r})", 0, MAX_WEIGHT)
        for s, d in [(u, v)] if directed or u == v else [(u, v), (v, u)]:
            src.append(index[s])
            dst.append(index[d])
            values.append(w)
    arcs = np.array([src, dst], dtype=np.int64).T.reshape(-1, 2)
    if all(w is None for w in values):  # also when weight is None
        return from_edges(arcs, len(labels))
    return from_edges(arcs, len(labels), [1 if w is None else w for w in values])
