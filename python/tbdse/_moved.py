"""Modules that moved when the package took its layout (docs/ARCHITECTURE.md
"The Python package"): ``import tbdse.store`` or ``from
tbdse.workloads.juggler_apps import juggler_app`` in a user's code still
works, gives the module at its new place, and warns once with the new name.

A finder on ``sys.meta_path`` answers only for the old names below; the
module object is the new one (no copy), so both names share its state."""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import warnings
from types import ModuleType

# old dotted name -> new dotted name
MOVED = {
    "tbdse.gpus": "tbdse.machine.gpus",
    "tbdse.memory": "tbdse.machine.memory",
    "tbdse.cost": "tbdse.workloads.cost",
    "tbdse.policies": "tbdse.schemes.policies",
    "tbdse.runner": "tbdse.simulation.runner",
    "tbdse.results": "tbdse.simulation.results",
    "tbdse.executors": "tbdse.simulation.executors",
    "tbdse.store": "tbdse.simulation.store",
    "tbdse.space": "tbdse.dse.space",
    "tbdse.search": "tbdse.dse.search",
    "tbdse.pareto": "tbdse.dse.pareto",
    "tbdse.yamlio": "tbdse.io.yamlio",
    "tbdse.schema": "tbdse.experiment.schema",
    "tbdse.examples": "tbdse.experiment.examples",
    "tbdse.cli": "tbdse.experiment.cli",
    "tbdse.workloads.wireframe_benchmarks": "tbdse.models.wireframe.benchmarks",
    "tbdse.workloads.deplinks": "tbdse.models.wireframe.deplinks",
    "tbdse.workloads.blockmaestro_apps": "tbdse.models.blockmaestro.apps",
    "tbdse.workloads.juggler_apps": "tbdse.models.juggler.apps",
    "tbdse.workloads.lonestar_inputs": "tbdse.models.hwwl.inputs",
}


# Old module names that are also names of tbdse's functions (td.search,
# td.pareto): a first import through the finder would bind the module over the
# function, so these are registered at once (no warning), as they were before.
SHADOWED = ("tbdse.search", "tbdse.pareto")


class _MovedFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def __init__(self) -> None:
        # new name -> the module's own spec, kept while the import system
        # stamps the old name's on it (by name: imports may nest)
        self._specs: dict[str, importlib.machinery.ModuleSpec | None] = {}

    def find_spec(
        self, fullname: str, path: object = None, target: object = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MOVED:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        new = MOVED[spec.name]
        warnings.warn(
            f"{spec.name} is now {new} (docs/ARCHITECTURE.md, 'The Python package'); "
            "the old name still works",
            DeprecationWarning,
            stacklevel=2,
        )
        module = importlib.import_module(new)
        self._specs[module.__name__] = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        # The import system stamped the old name's spec on the module: give it
        # back its own, so that it stays importable and reloadable by its name.
        module.__spec__ = self._specs.pop(module.__name__)


def install() -> None:
    for old in SHADOWED:
        sys.modules.setdefault(old, importlib.import_module(MOVED[old]))
    if not any(isinstance(f, _MovedFinder) for f in sys.meta_path):
        sys.meta_path.append(_MovedFinder())
