"""Generated task graphs: wavefronts, barrier primitives, layered random DAGs.

The graphs are built in C++ (a million-task wavefront takes well under a
second).  Node ids are block indices in row-major order.  Every generator also
takes the keyword-only ``name``, ``cost``, ``kernel`` and ``kernels`` arguments
of a workload, spelled out so that type checkers see the whole signature
(:func:`tbdse.workloads.base.graph_workload`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from tbdse import _core
from tbdse.workloads.base import CostArg, Kernel, Workload, generator, graph_workload

__all__ = [
    "barrier",
    "chain",
    "global_barrier",
    "independent",
    "layered_random",
    "pairwise_barrier",
    "wavefront",
]


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
    params = {"rows": rows, "cols": cols}
    return graph_workload(
        "wavefront", graph, params, name=name, cost=cost, kernel=kernel, kernels=kernels
    )


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
    return graph_workload(
        "barrier", graph, params, name=name, cost=cost, kernel=kernel, kernels=kernels
    )


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
    return graph_workload(
        "global_barrier", graph, params, name=name, cost=cost, kernel=kernel, kernels=kernels
    )


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
    return graph_workload(
        "pairwise_barrier", graph, params, name=name, cost=cost, kernel=kernel, kernels=kernels
    )


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
    return graph_workload(
        "layered_random", graph, params, name=name, cost=cost, kernel=kernel, kernels=kernels
    )


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
    _core.check_graph_fits("chain", n, max(n - 1, 0))
    ids = np.arange(max(n - 1, 0), dtype=np.int32)
    graph = _core.TaskGraph.build(n, ids, ids + 1)
    params = {"n": n}
    return graph_workload(
        "chain", graph, params, name=name, cost=cost, kernel=kernel, kernels=kernels
    )


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
    _core.check_graph_fits("independent", n, 0)
    empty = np.zeros(0, dtype=np.int32)
    graph = _core.TaskGraph.build(n, empty, empty)
    params = {"n": n}
    return graph_workload(
        "independent", graph, params, name=name, cost=cost, kernel=kernel, kernels=kernels
    )
