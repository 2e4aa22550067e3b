"""Generated task graphs: wavefronts, barrier primitives, layered random DAGs.

The graphs are built in C++ (a million-task wavefront takes well under a
second).  Node ids are block indices in row-major order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from tbdse import _core
from tbdse.cost import CostModel
from tbdse.workloads.base import GENERATORS, Kernel, Workload, generator, make_kernels

__all__ = [
    "barrier",
    "chain",
    "global_barrier",
    "independent",
    "layered_random",
    "pairwise_barrier",
    "wavefront",
]

CostArg = CostModel | Mapping[str, Any] | float | None


def _made(
    gen: str,
    graph: _core.TaskGraph,
    params: dict[str, Any],
    name: str | None,
    cost: CostArg,
    kernel: Kernel | None,
    kernels: Sequence[Kernel] | None,
) -> Workload:
    return Workload(
        graph,
        name=name or GENERATORS[gen].default_name(params),
        kernels=make_kernels(kernel, kernels),
        cost=cost,
        generator=gen,
        params=params,
    )


@generator("wavefront")
def wavefront(
    rows: int,
    cols: int,
    *,
    name: str | None = None,
    cost: CostArg = None,
    kernel: Kernel | None = None,
    kernels: Sequence[Kernel] | None = None,
) -> Workload:
    """2-D wavefront: tile (i, j) depends on its west and north neighbours (Wireframe Fig. 1)."""
    graph = _core.make_wavefront(rows, cols)
    return _made("wavefront", graph, {"rows": rows, "cols": cols}, name, cost, kernel, kernels)


@generator("barrier")
def barrier(
    width: int,
    stages: int,
    group: int,
    *,
    name: str | None = None,
    cost: CostArg = None,
    kernel: Kernel | None = None,
    kernels: Sequence[Kernel] | None = None,
) -> Workload:
    """Stages of ``width`` blocks synchronised in groups of ``group`` (Wireframe Fig. 2)."""
    graph = _core.make_barrier(width, stages, group)
    params = {"width": width, "stages": stages, "group": group}
    return _made("barrier", graph, params, name, cost, kernel, kernels)


@generator("global_barrier")
def global_barrier(
    width: int,
    stages: int,
    *,
    name: str | None = None,
    cost: CostArg = None,
    kernel: Kernel | None = None,
    kernels: Sequence[Kernel] | None = None,
) -> Workload:
    """Global barrier primitive: each block of stage s+1 depends on every block of stage s."""
    graph = _core.make_barrier(width, stages, width)
    params = {"width": width, "stages": stages}
    return _made("global_barrier", graph, params, name, cost, kernel, kernels)


@generator("pairwise_barrier")
def pairwise_barrier(
    width: int,
    stages: int,
    *,
    name: str | None = None,
    cost: CostArg = None,
    kernel: Kernel | None = None,
    kernels: Sequence[Kernel] | None = None,
) -> Workload:
    """Inter-block barrier primitive: blocks synchronise in pairs between stages."""
    graph = _core.make_barrier(width, stages, min(2, width))
    params = {"width": width, "stages": stages}
    return _made("pairwise_barrier", graph, params, name, cost, kernel, kernels)


@generator("layered_random")
def layered_random(
    layers: int,
    width: int,
    edge_prob: float = 0.2,
    span: int = 1,
    seed: int = 0,
    *,
    name: str | None = None,
    cost: CostArg = None,
    kernel: Kernel | None = None,
    kernels: Sequence[Kernel] | None = None,
) -> Workload:
    """Layered random DAG: one parent from the previous layer, extra parents with edge_prob."""
    graph = _core.make_layered_random(layers, width, float(edge_prob), span, int(seed))
    params = {"layers": layers, "width": width, "edge_prob": edge_prob, "span": span, "seed": seed}
    return _made("layered_random", graph, params, name, cost, kernel, kernels)


@generator("chain")
def chain(
    n: int,
    *,
    name: str | None = None,
    cost: CostArg = None,
    kernel: Kernel | None = None,
    kernels: Sequence[Kernel] | None = None,
) -> Workload:
    """n tasks in a line: each depends on the one before."""
    ids = np.arange(max(n - 1, 0), dtype=np.int32)
    graph = _core.TaskGraph.build(n, ids, ids + 1)
    return _made("chain", graph, {"n": n}, name, cost, kernel, kernels)


@generator("independent")
def independent(
    n: int,
    *,
    name: str | None = None,
    cost: CostArg = None,
    kernel: Kernel | None = None,
    kernels: Sequence[Kernel] | None = None,
) -> Workload:
    """n tasks with no dependencies (one fully parallel kernel)."""
    empty = np.zeros(0, dtype=np.int32)
    graph = _core.TaskGraph.build(n, empty, empty)
    return _made("independent", graph, {"n": n}, name, cost, kernel, kernels)
