"""Hardware worklists (Kim & Batten, MICRO-47 2014): the LonestarGPU
benchmarks of Table II (generator ``lonestar``) with generated inputs of
their kinds (Plummer bodies, clustered meshes, R-MAT graphs, random 3-SAT;
:mod:`tbdse.models.hwwl.inputs`).  The worklist machine is cpp/models/hwwl
(schemes ``hwwl``, ``topology``, ``data``); docs/models/hwwl.md."""

from tbdse.models.hwwl import inputs
from tbdse.models.hwwl.lonestar import LONESTAR, STRUCTURED, lonestar, lonestar_names
from tbdse.workloads.registry import export

__all__ = ["LONESTAR", "STRUCTURED", "inputs", "lonestar", "lonestar_names"]

export(lonestar, lonestar_names)
