"""Juggler (Belviranli et al., PPoPP 2018): the seven kernels of Table 1 as
task graphs (generator ``juggler_app``).  The in-GPU runtime with its LRR,
GRR and LF queues is cpp/models/juggler; docs/models/juggler.md."""

from tbdse.models.juggler.apps import (
    APPS,
    KINDS,
    PROFILE,
    juggler_app,
    juggler_app_names,
    juggler_tasks,
)
from tbdse.workloads.registry import export

__all__ = ["APPS", "KINDS", "PROFILE", "juggler_app", "juggler_app_names", "juggler_tasks"]

export(juggler_app, juggler_app_names, juggler_tasks)
