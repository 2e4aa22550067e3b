"""Workloads: task graphs with kernels and cost models.

Generators (registered by name for YAML files and sweeps): ``wavefront``,
``barrier``, ``global_barrier``, ``pairwise_barrier``, ``layered_random``,
``chain``, ``independent``, ``stg``, ``edge_list``, ``dot``, ``wfcommons`` and
``matrix_market`` (files: :mod:`tbdse.workloads.formats`), and
``wireframe_benchmark`` (the six benchmarks of Wireframe §5.2).  Converters:
:func:`from_edges`, :func:`from_networkx`; :class:`DepLinks` declares
dependencies per thread block as Wireframe's DepLinks API does.
``blockmaestro_app`` (BlockMaestro's Table II applications) and
``vector_add_pair`` (its Fig. 12 microbenchmark) are command-queue presets.
:class:`TaskBuilder` declares a task graph as OpenMP tasks with depend
clauses (``tasks_file`` reads one from YAML); ``juggler_app`` builds Juggler's
seven kernels (Table 1) with it.
Worklist workloads for the hardware-worklist machine: ``bfs``, ``sssp`` and
``lonestar`` (generators) and :func:`graph_operator`, over graphs from
:mod:`tbdse.workloads.graphs`.  Control-flow kernels for the simt, sgmf and
vgiw machines: ``rodinia`` (VGIW Table 2), ``divergent_cfg``, ``cfg_file``,
``vgiw_example`` (generators) and :func:`cfg_kernel` over :class:`BasicBlock`.
"""

import pandas as pd

from tbdse.workloads import graphs
from tbdse.workloads.access import Access, Affine, Buffer, bx, by, bz
from tbdse.workloads.application import Application, dependency_report
from tbdse.workloads.application_file import application_file, application_from_spec
from tbdse.workloads.base import GENERATORS, Kernel, Workload, generator_names
from tbdse.workloads.blockmaestro_apps import (
    blockmaestro_app,
    blockmaestro_app_names,
    vector_add_pair,
)
from tbdse.workloads.cfg import (
    BasicBlock,
    cfg_file,
    cfg_kernel,
    divergent_cfg,
    rodinia,
    rodinia_names,
    vgiw_example,
)
from tbdse.workloads.deplinks import DepLinks
from tbdse.workloads.footprints import DataFootprints
from tbdse.workloads.formats import read_dot, read_matrix_market, read_wfcommons
from tbdse.workloads.generators import (
    barrier,
    chain,
    global_barrier,
    independent,
    layered_random,
    pairwise_barrier,
    wavefront,
)
from tbdse.workloads.io import from_edges, from_networkx, read_edge_list, read_stg
from tbdse.workloads.juggler_apps import juggler_app, juggler_app_names, juggler_tasks
from tbdse.workloads.memdesc import KernelMemory, footprint_memory, with_memory
from tbdse.workloads.task_file import tasks_file, tasks_from_spec
from tbdse.workloads.tasks import Section, TaskArray, TaskBuilder, task_report
from tbdse.workloads.wireframe_benchmarks import wireframe_benchmark
from tbdse.workloads.worklists import bfs, graph_operator, lonestar, lonestar_names, sssp

__all__ = [
    "GENERATORS",
    "Access",
    "Affine",
    "Application",
    "BasicBlock",
    "Buffer",
    "DataFootprints",
    "DepLinks",
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
    "blockmaestro_app",
    "blockmaestro_app_names",
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
    "juggler_app",
    "juggler_app_names",
    "juggler_tasks",
    "layered_random",
    "list_generators",
    "lonestar",
    "lonestar_names",
    "make",
    "pairwise_barrier",
    "read_dot",
    "read_edge_list",
    "read_matrix_market",
    "read_stg",
    "read_wfcommons",
    "rodinia",
    "rodinia_names",
    "sssp",
    "task_report",
    "tasks_file",
    "tasks_from_spec",
    "vector_add_pair",
    "vgiw_example",
    "wavefront",
    "wireframe_benchmark",
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
