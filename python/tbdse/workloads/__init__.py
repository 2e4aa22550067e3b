"""Workloads: task graphs with kernels and cost models.

Generators (registered by name for YAML files and sweeps): ``wavefront``,
``barrier``, ``global_barrier``, ``pairwise_barrier``, ``layered_random``,
``chain``, ``independent``, ``stg``, ``edge_list``, ``dot``, ``wfcommons`` and
``matrix_market`` (files: :mod:`tbdse.io`, one module per format).  Converters:
:func:`from_edges`, :func:`from_networkx`.  :class:`TaskBuilder` declares a
task graph as OpenMP tasks with depend clauses (``tasks_file`` reads one from
YAML); :class:`Application` a multi-kernel command queue.  Worklist workloads
for the hardware-worklist machine: ``bfs``, ``sssp`` (generators) and
:func:`graph_operator`, over graphs from :mod:`tbdse.workloads.graphs`.
Control-flow kernels for the simt, sgmf and vgiw machines: ``divergent_cfg``,
``cfg_file`` (generators) and :func:`cfg_kernel` over :class:`BasicBlock`.

The papers' own workloads live beside their models in :mod:`tbdse.models`
and are offered here too, under the names users call
(``td.workloads.wireframe_benchmark``, ``blockmaestro_app``,
``vector_add_pair``, ``juggler_app``, ``lonestar``, ``rodinia``,
``vgiw_example``, ``DepLinks``, ...): each paper's module registers them
(:func:`tbdse.workloads.registry.export`), so this package imports no paper.
"""

from typing import Any

import pandas as pd

from tbdse.io.dot import read_dot
from tbdse.io.edge_list import from_edges, read_edge_list
from tbdse.io.matrix_market import read_matrix_market
from tbdse.io.networkx import from_networkx
from tbdse.io.stg import read_stg
from tbdse.io.wfcommons import read_wfcommons
from tbdse.workloads import graphs
from tbdse.workloads.access import Access, Affine, Buffer, bx, by, bz
from tbdse.workloads.application import Application, dependency_report
from tbdse.workloads.application_file import application_file, application_from_spec
from tbdse.workloads.base import GENERATORS, Kernel, Workload, generator_names
from tbdse.workloads.cfg import BasicBlock, cfg_file, cfg_kernel, divergent_cfg
from tbdse.workloads.footprints import DataFootprints
from tbdse.workloads.generators import (
    barrier,
    chain,
    global_barrier,
    independent,
    layered_random,
    pairwise_barrier,
    wavefront,
)
from tbdse.workloads.memdesc import KernelMemory, footprint_memory, with_memory
from tbdse.workloads.registry import EXPORTS
from tbdse.workloads.task_file import tasks_file, tasks_from_spec
from tbdse.workloads.tasks import Section, TaskArray, TaskBuilder, task_report
from tbdse.workloads.worklists import bfs, graph_operator, sssp

__all__ = [
    "GENERATORS",
    "Access",
    "Affine",
    "Application",
    "BasicBlock",
    "Buffer",
    "DataFootprints",
    "Kernel",
    "KernelMemory",
    "Section",
    "TaskArray",
    "TaskBuilder",
    "Workload",
    "application_file",
    "application_from_spec",
    "barrier",
    "bfs",
    "bx",
    "by",
    "bz",
    "cfg_file",
    "cfg_kernel",
    "chain",
    "dependency_report",
    "divergent_cfg",
    "footprint_memory",
    "from_edges",
    "from_networkx",
    "generator_names",
    "global_barrier",
    "graph_operator",
    "graphs",
    "independent",
    "layered_random",
    "list_generators",
    "make",
    "pairwise_barrier",
    "read_dot",
    "read_edge_list",
    "read_matrix_market",
    "read_stg",
    "read_wfcommons",
    "sssp",
    "task_report",
    "tasks_file",
    "tasks_from_spec",
    "wavefront",
    "with_memory",
]


def make(generator: str, /, **params: object) -> Workload:
    """A workload from a registered generator by name."""
    from tbdse._util.excerpts import excerpt
    from tbdse._util.params import unknown_name
    from tbdse.errors import ConfigError

    if not isinstance(generator, str) or generator not in GENERATORS:
        raise unknown_name("workload generator", excerpt(generator).strip("'"), GENERATORS)
    gen = GENERATORS[generator]
    allowed = set(gen.params) | {"name", "cost", "kernel", "kernels"}
    for key in params:
        if key not in allowed:
            raise unknown_name(f"parameter of workload generator '{generator}'", key, allowed)
    missing = [k for k, p in gen.params.items() if p.default is p.empty and k not in params]
    if missing:
        raise ConfigError(f"workload generator '{generator}' needs {', '.join(missing)}")
    return gen.func(**params)  # checks and converts every parameter


def list_generators() -> pd.DataFrame:
    """One row per generator parameter."""

    rows = []
    for name in generator_names():
        gen = GENERATORS[name]
        for p in gen.describe() or [{}]:
            rows.append({"generator": name, "doc": gen.doc, **p})
    return pd.DataFrame(rows)


def __getattr__(name: str) -> Any:
    # A paper's workloads (registered by tbdse.models; see the module docs).
    if name in EXPORTS:
        return EXPORTS[name]
    raise AttributeError(f"module 'tbdse.workloads' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *EXPORTS})
