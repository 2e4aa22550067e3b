"""tbdse: design-space exploration of GPU thread-block scheduling.

>>> import tbdse as td
>>> wl = td.workloads.wavefront(32, 32, cost=td.cost.lognormal(2000, 0.2))
>>> r = td.simulate(wl, td.gpus.gtx480(), td.schemes.DataflowIdeal())
>>> df = td.sweep(wl, "gtx480", ["global_barrier", "dataflow_ideal"],
...               grid={"sms": [8, 15]}, baseline="global_barrier", replicates=3)

Modules: :mod:`tbdse.gpus`, :mod:`tbdse.workloads`, :mod:`tbdse.cost`,
:mod:`tbdse.schemes`, :mod:`tbdse.plot`, :mod:`tbdse.experiment`, :mod:`tbdse.store`,
:mod:`tbdse.space` (design spaces and sampling designs), :mod:`tbdse.memory` (the
memory hierarchy, trace-driven); :func:`tbdse.pareto`,
:func:`tbdse.search` (Optuna), :mod:`tbdse.executors` (Dask).
"""

from tbdse import (
    _core,
    cost,
    gpus,
    memory,
    policies,
    schemes,
    space,  # light: it imports SciPy only to draw a Latin hypercube or Sobol' design
    workloads,
)
from tbdse._inputs import show_input
from tbdse.errors import ConfigError, DeadlockError, SimulationError, SweepInterrupted, TbdseError
from tbdse.gpus import Gpu
from tbdse.pareto import pareto  # the function; the module stays tbdse.pareto in sys.modules
from tbdse.policies import Policy
from tbdse.results import Result
from tbdse.runner import simulate, sweep
from tbdse.schemes import Scheme
from tbdse.search import search  # the function; Optuna is imported only when it runs
from tbdse.store import ResultsStore
from tbdse.workloads import Kernel, Workload

__version__: str = _core.__version__

__all__ = [
    "ConfigError",
    "DeadlockError",
    "Gpu",
    "Kernel",
    "Policy",
    "Result",
    "ResultsStore",
    "Scheme",
    "SimulationError",
    "SweepInterrupted",
    "TbdseError",
    "Workload",
    "__version__",
    "cost",
    "gpus",
    "memory",
    "pareto",
    "policies",
    "schemes",
    "search",
    "show_input",
    "simulate",
    "space",
    "sweep",
    "workloads",
]


# Public submodules that are not imported above: loaded on first use (plot and
# experiment import matplotlib / YAML machinery), and listed by dir(tbdse).
_LAZY = (
    "examples",
    "executors",
    "experiment",
    "plot",
    "results",
    "runner",
    "schema",
    "store",
    "yamlio",
)


def __getattr__(name: str) -> object:
    if name in _LAZY:
        import importlib

        return importlib.import_module(f"tbdse.{name}")
    raise AttributeError(f"module 'tbdse' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY, "errors"})
