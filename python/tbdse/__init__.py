"""tbdse: design-space exploration of GPU thread-block scheduling.

>>> import tbdse as td
>>> wl = td.workloads.wavefront(32, 32, cost=td.cost.lognormal(2000, 0.2))
>>> r = td.simulate(wl, td.gpus.gtx480(), td.schemes.DataflowIdeal())
>>> df = td.sweep(wl, "gtx480", ["global_barrier", "dataflow_ideal"],
...               grid={"sms": [8, 15]}, baseline="global_barrier", replicates=3)

The package's folders follow its layers (docs/ARCHITECTURE.md "The Python
package"): ``machine/`` (gpus, the memory hierarchy), ``workloads/`` (task
graphs, kernels, cost models, generic generators), ``models/`` (one module per
published mechanism: its presets and benchmarks), ``schemes/`` (schemes and
user policies), ``io/`` (one module per file format, the safe opener),
``simulation/`` (simulate, sweep, results, store, executors), ``dse/`` (design
spaces, search, Pareto fronts), ``experiment/`` (YAML files, schema, output
folders, CLI) and ``plot/``.  The short names users call stay here:
``td.gpus``, ``td.cost``, ``td.memory``, ``td.policies``, ``td.space``,
``td.store``, ``td.results``, ``td.runner``, ``td.executors``, ``td.yamlio``,
``td.schema`` and ``td.examples`` name those modules in their folders.
"""

from tbdse import _core, _moved, models, schemes, workloads
from tbdse._util.excerpts import show_input
from tbdse.dse import space
from tbdse.dse.pareto import pareto  # the function; the module is tbdse.dse.pareto
from tbdse.dse.search import search  # the function; Optuna is imported only when it runs
from tbdse.errors import ConfigError, DeadlockError, SimulationError, SweepInterrupted, TbdseError
from tbdse.machine import gpus, memory
from tbdse.machine.gpus import Gpu
from tbdse.schemes import Scheme, policies
from tbdse.schemes.policies import Policy
from tbdse.simulation.result import Result
from tbdse.simulation.runner import simulate, sweep
from tbdse.simulation.store import ResultsStore
from tbdse.workloads import Kernel, Workload, cost

__version__: str = _core.__version__
_moved.install()  # the modules' earlier names keep working, with a warning

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
    "models",
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


# Public modules that are not imported above: loaded on first use (plot and
# experiment import matplotlib / YAML machinery), and listed by dir(tbdse).
_LAZY = {
    "examples": "tbdse.experiment.examples",
    "executors": "tbdse.simulation.executors",
    "experiment": "tbdse.experiment",
    "plot": "tbdse.plot",
    "results": "tbdse.simulation.results",
    "runner": "tbdse.simulation.runner",
    "schema": "tbdse.experiment.schema",
    "store": "tbdse.simulation.store",
    "yamlio": "tbdse.io.yamlio",
}


def __getattr__(name: str) -> object:
    if name in _LAZY:
        import importlib

        return importlib.import_module(_LAZY[name])
    raise AttributeError(f"module 'tbdse' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY, "errors"})
