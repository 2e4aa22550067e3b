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
from tbdse._util.checks import text, whole
from tbdse._util.params import unknown_name
from tbdse.errors import ConfigError
from tbdse.workloads import graphs
from tbdse.workloads.base import Workload, generator

__all__ = ["LONESTAR", "STRUCTURED", "bfs", "graph_operator", "lonestar", "lonestar_names", "sssp"]

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


# The synthetic operator's parameters per LonestarGPU benchmark: tbdse's
# derivation from HWWL §II-B and Table II (docs/models/hwwl.md explains each).
LONESTAR: dict[str, dict[str, float]] = {
    # All bodies active, one force-computation pass; deeper bodies more work.
    # Bodies sorted along a space-filling curve: neighbours walk similar trees,
    # so 80% of the log-work's variance is a smooth field over 256 ids.
    "bh": {
        "initial": 1.0,
        "work_mean": 160,
        "work_sigma": 0.6,
        "mem_rounds": 6,
        "activations": 0.0,
        "max_activations": 1,
        "spread": 0,
        "generations": 1,
        "work_growth": 1.0,
        "locality": 64,
        "work_smooth": 0.8,
        "work_corr": 256,
    },
    # Bad triangles (a fifth at first) retriangulated by a complex operator,
    # each making new bad ones nearby.
    "dmr": {
        "initial": 0.2,
        "work_mean": 700,
        "work_sigma": 0.4,
        "mem_rounds": 14,
        "activations": 0.75,
        "max_activations": 3,
        "spread": 64,
        "generations": 16,
        "work_growth": 1.0,
        "locality": 64,
    },
    # Boruvka: every component active; half as many each round, operators
    # growing more complex; merges name nearby components (duplicates).
    "mst": {
        "initial": 1.0,
        "work_mean": 60,
        "work_sigma": 0.3,
        "mem_rounds": 4,
        "activations": 0.55,
        "max_activations": 2,
        "spread": 4,
        "generations": 12,
        "work_growth": 1.5,
        "locality": 4,
    },
    # Literals updating clauses, triggering neighbours far apart until they settle.
    "sp": {
        "initial": 1.0,
        "work_mean": 220,
        "work_sigma": 0.5,
        "mem_rounds": 10,
        "activations": 0.8,
        "max_activations": 3,
        "spread": 0,
        "generations": 6,
        "work_growth": 1.0,
        "locality": 0,
    },
}


# The synthetic operator over each benchmark's generated input
# (lonestar_inputs.py): work and loads per item as LONESTAR's, while which
# ids an item activates, and what each id costs, come from the input.
STRUCTURED: dict[str, dict[str, float]] = {
    # The interaction count gives the per-body work; a little noise beside it.
    "bh": {"work_mean": 160, "work_sigma": 0.2, "mem_rounds": 6, "locality": 64},
    # A bad triangle's refinement re-activates bad triangles of its cavity's ring.
    "dmr": {
        "work_mean": 700,
        "work_sigma": 0.4,
        "mem_rounds": 14,
        "arc_activation": 0.12,
        "generations": 16,
    },
    # Merges activate neighbouring components; operators grow every round.
    "mst": {
        "work_mean": 60,
        "work_sigma": 0.3,
        "mem_rounds": 4,
        "arc_activation": 0.006,
        "generations": 12,
        "work_growth": 1.5,
    },
    # A clause's update activates the clauses that share a variable with it.
    "sp": {
        "work_mean": 220,
        "work_sigma": 0.3,
        "mem_rounds": 10,
        "arc_activation": 0.015,
        "generations": 6,
    },
}
INPUTS = ("structured", "uniform", "file")


def lonestar_names() -> list[str]:
    return sorted(LONESTAR)


def _structured(key: str, nodes: int, seed: int, path: str) -> tuple[Any, Any, Any]:
    from tbdse.workloads import lonestar_inputs as li

    if path:
        g = graphs.read(path)
        return g, li.degree_work(g), list(range(g.nodes))
    made = {
        "bh": li.plummer_bh,
        "dmr": li.clustered_dmr,
        "mst": li.rmat_mst,
        "sp": li.random_sat_sp,
    }[key](nodes, seed)
    return made.graph, made.work_scale, made.initial


@generator(
    "lonestar", naming=lambda p: f"{str(p.get('benchmark', '?')).upper()} ({p.get('nodes')})"
)
def lonestar(
    benchmark: str,
    nodes: int = 65536,
    input: str = "structured",
    seed: int = 0,
    path: str = "",
    *,
    name: str | None = None,
) -> Workload:
    """A LonestarGPU benchmark (bh, dmr, mst, sp) over about ``nodes`` ids: input
    'structured' (the benchmark's input kind generated: Plummer bodies, a clustered
    mesh, an R-MAT graph, random 3-SAT; lonestar_inputs), 'file' (mst: a graph file,
    path) or 'uniform' (the earlier stand-in, no input structure)."""
    text(benchmark, "benchmark")
    key = benchmark.lower()
    if key not in LONESTAR:
        raise unknown_name("LonestarGPU benchmark", benchmark, LONESTAR)
    if input not in INPUTS:
        raise unknown_name("lonestar input", input, INPUTS)
    n = whole(nodes, "nodes", 1, 2**24)
    seed = whole(seed, "seed", 0, 2**63 - 1)
    if (input == "file") != bool(path) or (input == "file" and key != "mst"):
        raise ConfigError(
            "lonestar: 'path' (a graph file) goes with input 'file', for benchmark mst "
            f"only (benchmark '{key}', input '{input}', path {'set' if path else 'empty'})"
        )
    if input == "uniform" and seed:
        raise ConfigError("lonestar: input 'uniform' draws from the model's seed; drop 'seed'")
    params: dict[str, Any] = {"benchmark": key, "nodes": n}
    if input == "uniform":
        problem = _core.WorklistProblem(None, "synthetic", {**LONESTAR[key], "nodes": float(n)})
    else:
        g, scale, initial = _structured(key, n, seed, path)
        fields = {**STRUCTURED[key], "nodes": float(len(scale))}
        problem = _core.WorklistProblem(g, "synthetic", fields, scale, initial)
        params.update(input=input, seed=seed)
        if path:
            params["path"] = path
            name = name or f"MST ({Path(path).name})"
    made = Workload(model_input=problem, name=name or f"{key.upper()} ({n})")
    made.generator, made.params = "lonestar", params
    return made
