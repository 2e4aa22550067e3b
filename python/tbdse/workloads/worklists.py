"""Worklist workloads: an operator applied to work items, the nodes of a graph
(HWWL §II-A, Fig. 1), for the worklist machine's schemes ``hwwl``,
``topology`` and ``data`` (docs/models/hwwl.md).

* :func:`bfs` and :func:`sssp` relax real distances over a graph, generated
  (``rmat``, ``grid``, ``uniform``, ``road``) or read from a file (DIMACS ``.gr``,
  Matrix Market ``.mtx``, edge list, each also ``.gz``-compressed); every
  run's distances are checked against a reference solution.  A ``.mtx`` with
  real values needs ``weight_scale``: weight = round(value * weight_scale)
  (``graphs.read_matrix_market``); 0, the default, takes whole-number values
  as they are.
* :func:`lonestar` stands in for the LonestarGPU benchmarks tbdse does not
  model instruction by instruction (BH, DMR, MST, SP): work and activations
  per item drawn from distributions whose parameters are derived from the
  paper's description (§II-B, Table II) and labelled as tbdse's.
* :func:`graph_operator` applies BFS or SSSP to any graph (networkx, an edge
  list, a ``_core.Digraph``).

>>> import tbdse as td
>>> wl = td.workloads.bfs(graph="grid", rows=32, cols=32)
>>> wl.kind, wl.sizes()
('worklist', {'edges': 3968, 'nodes': 1024})
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tbdse import _core
from tbdse._util.checks import whole
from tbdse._util.params import unknown_name
from tbdse.errors import ConfigError
from tbdse.workloads import graphs
from tbdse.workloads.base import Workload, generator

__all__ = ["bfs", "graph_operator", "sssp"]

GRAPH_KINDS = ("rmat", "grid", "uniform", "road", "file")
# Parameters of graph "road" only, with their defaults (no result column otherwise).
ROAD_DEFAULTS = {"town_size": 1024, "highway_every": 4}


def _graph(
    graph: str,
    nodes: int,
    degree: float,
    rows: int,
    cols: int,
    path: str,
    symmetric: bool,
    max_weight: int,
    seed: int,
    weight_scale: float = 0.0,
    town_size: int = 1024,
    highway_every: int = 4,
) -> _core.Digraph:
    if graph == "rmat":
        return graphs.rmat(nodes, degree, symmetric=symmetric, max_weight=max_weight, seed=seed)
    if graph == "uniform":
        return graphs.uniform(nodes, degree, symmetric=symmetric, max_weight=max_weight, seed=seed)
    if graph == "grid":
        return graphs.grid(rows, cols, max_weight=max_weight, seed=seed)
    if graph == "road":
        return graphs.road(nodes, town_size=town_size, highway_every=highway_every, seed=seed)
    if graph == "file":
        if not path:
            raise ConfigError("graph 'file' needs 'path' (a .gr, .mtx or edge-list file)")
        return graphs.read(path, weight_scale=weight_scale or None)
    raise unknown_name("graph kind", graph, GRAPH_KINDS)


def _naming(operator: str) -> Any:
    def name(p: Mapping[str, Any]) -> str:
        kind = p.get("graph", "rmat")
        if kind == "grid":
            shape = f"grid {p.get('rows')}x{p.get('cols')}"
        elif kind == "file":
            shape = Path(str(p.get("path", ""))).name
        elif kind == "road":
            shape = f"road {p.get('nodes')}"
        else:
            shape = f"{kind} {p.get('nodes')} x {p.get('degree'):g}"
        return f"{operator}({shape})"

    return name


def graph_operator(
    graph: _core.Digraph,
    operator: str = "bfs",
    *,
    source: int = 0,
    node_instructions: int = 10,
    arc_instructions: int = 6,
    name: str | None = None,
) -> Workload:
    """BFS or SSSP over ``graph`` from ``source``.  Per item a thread executes
    ``node_instructions`` plus ``arc_instructions`` per arc and makes one load
    round trip for the node and one per arc (tbdse's operator model)."""
    if not isinstance(graph, _core.Digraph):
        raise ConfigError(
            "graph_operator needs a graph from td.workloads.graphs (e.g. graphs.from_networkx); "
            f"got {type(graph).__name__}"
        )
    if operator not in ("bfs", "sssp"):
        raise unknown_name("graph operator", str(operator), ("bfs", "sssp"))
    fields = {
        "source": whole(source, "source", 0, 2**31 - 1),
        "node_instructions": whole(node_instructions, "node_instructions", 0, 2**40),
        "arc_instructions": whole(arc_instructions, "arc_instructions", 0, 2**40),
    }
    problem = _core.WorklistProblem(graph, operator, {k: float(v) for k, v in fields.items()})
    return Workload(model_input=problem, name=name or f"{operator}(graph of {graph.nodes} nodes)")


def _graph_workload(operator: str, params: Mapping[str, Any], name: str | None) -> Workload:
    if params["graph"] not in GRAPH_KINDS:
        raise unknown_name("graph kind", params["graph"], GRAPH_KINDS)
    if params["path"] and params["graph"] != "file":
        # Silently generating a graph would hide that the file was never read.
        raise ConfigError(
            f"{operator}: 'path' is only read with graph 'file' (graph is "
            f"'{params['graph']}'); set graph to 'file' or drop 'path'"
        )
    if params["weight_scale"] and params["graph"] != "file":
        raise ConfigError(
            f"{operator}: 'weight_scale' applies to a Matrix Market file (graph 'file'); "
            f"graph is '{params['graph']}'"
        )
    if params["graph"] != "road":
        for key, default in ROAD_DEFAULTS.items():
            if params[key] != default:
                raise ConfigError(
                    f"{operator}: '{key}' shapes graph 'road'; graph is '{params['graph']}'"
                )
    elif params["symmetric"] or params["max_weight"] != (1 if operator == "bfs" else 100):
        # A road graph is symmetric and weighed in metres already.
        raise ConfigError(
            f"{operator}: graph 'road' is symmetric with lengths in metres; drop "
            "'symmetric' and 'max_weight'"
        )
    if params["weight_scale"] < 0:
        raise ConfigError(
            f"{operator}: 'weight_scale' must be > 0 (or 0: the file's weights are whole "
            f"numbers, used as they are); got {params['weight_scale']!r}"
        )
    g = _graph(
        params["graph"],
        params["nodes"],
        params["degree"],
        params["rows"],
        params["cols"],
        params["path"],
        params["symmetric"],
        params["max_weight"],
        params["seed"],
        params["weight_scale"],
        params["town_size"],
        params["highway_every"],
    )
    made = graph_operator(
        g,
        operator,
        source=params["source"],
        node_instructions=params["node_instructions"],
        arc_instructions=params["arc_instructions"],
        name=name or _naming(operator)(params),
    )
    made.generator, made.params = operator, dict(params)
    if not params["weight_scale"]:  # the default: no result column for it
        del made.params["weight_scale"]
    if params["graph"] != "road":
        for key in ROAD_DEFAULTS:
            del made.params[key]
    return made


@generator("bfs", naming=_naming("bfs"))
def bfs(
    graph: str = "rmat",
    nodes: int = 4096,
    degree: float = 8.0,
    rows: int = 64,
    cols: int = 64,
    path: str = "",
    symmetric: bool = False,
    max_weight: int = 1,
    seed: int = 0,
    source: int = 0,
    node_instructions: int = 10,
    arc_instructions: int = 6,
    weight_scale: float = 0.0,
    town_size: int = 1024,
    highway_every: int = 4,
    *,
    name: str | None = None,
) -> Workload:
    """Breadth-first search over a graph (HWWL §II-B): graph 'rmat', 'uniform' (nodes, degree),
    'grid' (rows, cols), 'road' (nodes, town_size, highway_every: graphs.road) or 'file'
    (path; a .mtx with real values: weight_scale)."""
    return _graph_workload("bfs", {k: v for k, v in locals().items() if k != "name"}, name)


@generator("sssp", naming=_naming("sssp"))
def sssp(
    graph: str = "rmat",
    nodes: int = 4096,
    degree: float = 8.0,
    rows: int = 64,
    cols: int = 64,
    path: str = "",
    symmetric: bool = False,
    max_weight: int = 100,
    seed: int = 0,
    source: int = 0,
    node_instructions: int = 10,
    arc_instructions: int = 8,
    weight_scale: float = 0.0,
    town_size: int = 1024,
    highway_every: int = 4,
    *,
    name: str | None = None,
) -> Workload:
    """Single-source shortest paths over a weighted graph (HWWL §II-B); graphs as for bfs."""
    return _graph_workload("sssp", {k: v for k, v in locals().items() if k != "name"}, name)
