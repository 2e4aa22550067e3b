"""The LonestarGPU benchmarks of the hardware-worklist paper (Kim & Batten,
MICRO-47 2014, §II-B, Table II) as worklist workloads (generator
``lonestar``): BH, DMR, MST and SP as synthetic operators over their inputs'
structure (tbdse.models.hwwl.inputs).  BFS and SSSP are generic graph
workloads (tbdse.workloads.worklists)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tbdse import _core
from tbdse._util.checks import text, whole
from tbdse._util.params import unknown_name
from tbdse.errors import ConfigError
from tbdse.models.hwwl import inputs as li
from tbdse.workloads import graphs
from tbdse.workloads.base import Workload, generator

__all__ = ["LONESTAR", "STRUCTURED", "lonestar", "lonestar_names"]


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
# (inputs.py): work and loads per item as LONESTAR's, while which
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
    # Survey propagation (cpp/models/hwwl/survey.hpp): a clause's update
    # activates the clauses sharing a variable whose survey moved by more than
    # survey_epsilon (LonestarGPU sp's EPSILON); the pass simulated is the one
    # after the first decimation (fix_fraction: LonestarGPU's canfix, 1% of
    # the variables), so it starts from the clauses of the variables fixed;
    # generations caps a chain of activations at LonestarGPU's MAXITERATION.
    "sp": {
        "work_mean": 220,
        "work_sigma": 0.3,
        "mem_rounds": 10,
        "generations": 1000,
        "survey_epsilon": 0.01,
        "decimations": 1,
        "fix_fraction": 0.01,
    },
}
INPUTS = ("structured", "uniform", "file")


def lonestar_names() -> list[str]:
    return sorted(LONESTAR)


def _structured(key: str, nodes: int, seed: int, path: str) -> tuple[Any, Any, Any, Any]:
    if path:
        g = graphs.read(path)
        return g, li.degree_work(g), list(range(g.nodes)), []
    made = {
        "bh": li.plummer_bh,
        "dmr": li.clustered_dmr,
        "mst": li.rmat_mst,
        "sp": li.random_sat_sp,
    }[key](nodes, seed)
    literals: Any = [] if made.literals is None else made.literals
    return made.graph, made.work_scale, made.initial, literals


@generator(
    "lonestar", naming=lambda p: f"{str(p.get('benchmark', '?')).upper()} ({p.get('nodes')})"
)
def lonestar(
    benchmark: str,
    nodes: int = 65536,
    input: str = "structured",
    seed: int = 0,
    path: str = "",
    decimations: int | None = None,
    *,
    name: str | None = None,
) -> Workload:
    """A LonestarGPU benchmark (bh, dmr, mst, sp) over about ``nodes`` ids: input
    'structured' (the benchmark's input kind generated: Plummer bodies, a clustered
    mesh, an R-MAT graph, random 3-SAT; tbdse.models.hwwl.inputs), 'file' (mst: a graph file,
    path) or 'uniform' (the earlier stand-in, no input structure).  ``decimations``
    (sp, structured only): which pass of survey-inspired decimation runs, after that
    many decimation steps (default 1; 0: the first convergence, from random surveys)."""
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
    if decimations is not None:
        if key != "sp" or input != "structured":
            raise ConfigError(
                "lonestar: 'decimations' belongs to benchmark sp with input 'structured' "
                f"(benchmark '{key}', input '{input}')"
            )
        decimations = whole(decimations, "decimations", 0, 100_000)
    params: dict[str, Any] = {"benchmark": key, "nodes": n}
    if input == "uniform":
        problem = _core.WorklistProblem(None, "synthetic", {**LONESTAR[key], "nodes": float(n)})
    else:
        g, scale, initial, literals = _structured(key, n, seed, path)
        fields = {**STRUCTURED[key], "nodes": float(len(scale))}
        if decimations is not None:
            fields["decimations"] = float(decimations)
            params["decimations"] = decimations
        problem = _core.WorklistProblem(g, "synthetic", fields, scale, initial, literals)
        params.update(input=input, seed=seed)
        if path:
            params["path"] = path
            name = name or f"MST ({Path(path).name})"
    made = Workload(model_input=problem, name=name or f"{key.upper()} ({n})")
    made.generator, made.params = "lonestar", params
    return made
