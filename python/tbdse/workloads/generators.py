"""Generated task graphs: wavefronts, barrier primitives, layered random DAGs.

The graphs are built in C++ (a million-task wavefront takes well under a
second).  Node ids are block indices in row-major order.  Every generator also
takes the keyword-only ``name``, ``cost``, ``kernel`` and ``kernels`` arguments
of a workload (see :func:`tbdse.workloads.base.graph_generator`).
"""

from __future__ import annotations

import numpy as np

from tbdse import _core
from tbdse.workloads.base import graph_generator

__all__ = [
    "barrier",
    "chain",
    "global_barrier",
    "independent",
    "layered_random",
    "pairwise_barrier",
    "wavefront",
]


@graph_generator("wavefront")
def wavefront(rows: int, cols: int) -> _core.TaskGraph:
    """2-D wavefront: tile (i, j) depends on its west and north neighbours (Wireframe Fig. 1)."""
    return _core.make_wavefront(rows, cols)


@graph_generator("barrier")
def barrier(width: int, stages: int, group: int) -> _core.TaskGraph:
    """Stages of ``width`` blocks synchronised in groups of ``group`` (Wireframe Fig. 2)."""
    return _core.make_barrier(width, stages, group)


@graph_generator("global_barrier")
def global_barrier(width: int, stages: int) -> _core.TaskGraph:
    """Global barrier primitive: each block of stage s+1 depends on every block of stage s."""
    return _core.make_barrier(width, stages, width)


@graph_generator("pairwise_barrier")
def pairwise_barrier(width: int, stages: int) -> _core.TaskGraph:
    """Inter-block barrier primitive: blocks synchronise in pairs between stages."""
    return _core.make_barrier(width, stages, min(2, width))


@graph_generator("layered_random")
def layered_random(
    layers: int, width: int, edge_prob: float = 0.2, span: int = 1, seed: int = 0
) -> _core.TaskGraph:
    """Layered random DAG: one parent from the previous layer, extra parents with edge_prob."""
    return _core.make_layered_random(layers, width, float(edge_prob), span, int(seed))


@graph_generator("chain")
def chain(n: int) -> _core.TaskGraph:
    """n tasks in a line: each depends on the one before."""
    _core.check_graph_fits("chain", n, max(n - 1, 0))
    ids = np.arange(max(n - 1, 0), dtype=np.int32)
    return _core.TaskGraph.build(n, ids, ids + 1)


@graph_generator("independent")
def independent(n: int) -> _core.TaskGraph:
    """n tasks with no dependencies (one fully parallel kernel)."""
    _core.check_graph_fits("independent", n, 0)
    empty = np.zeros(0, dtype=np.int32)
    return _core.TaskGraph.build(n, empty, empty)
