"""What simulate, sweep and search accept for their workloads, GPUs and
schemes (one or a list of each, by object, name or mapping), and how many
threads a sweep of user policies may use."""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from typing import Any

from tbdse.errors import ConfigError
from tbdse.machine.gpus import Gpu, as_gpu
from tbdse.schemes import Scheme, as_scheme
from tbdse.workloads.base import Workload

WorkloadArg = Workload | Sequence[Workload]
GpuArg = Gpu | str | Mapping[str, Any] | Sequence[Gpu | str | Mapping[str, Any]]
SchemeArg = Scheme | str | Mapping[str, Any] | Sequence[Scheme | str | Mapping[str, Any]]


def listify(value: Any, kinds: tuple[type, ...]) -> list[Any]:
    if isinstance(value, (str, Mapping, *kinds)):
        return [value]
    if isinstance(value, Sequence):
        return list(value)
    return [value]


def normalise(
    workload: WorkloadArg, gpu: GpuArg, scheme: SchemeArg
) -> tuple[list[Workload], list[Gpu], list[Scheme]]:
    workloads = listify(workload, (Workload,))
    for w in workloads:
        if not isinstance(w, Workload):
            raise ConfigError(f"a workload must be a tbdse Workload; got {w!r}")
    gpus = [as_gpu(g) for g in listify(gpu, (Gpu,))]
    schemes = [as_scheme(s) for s in listify(scheme, (Scheme,))]
    for what, items in (("workload", workloads), ("GPU", gpus), ("scheme", schemes)):
        if not items:
            raise ConfigError(f"a sweep needs at least one {what}")
    names = [w.name for w in workloads]
    if len(set(names)) != len(names):
        raise ConfigError(f"workload names must be distinct within a sweep; got {names}")
    return workloads, gpus, schemes


def serial_policies(schemes: Sequence[Scheme], threads: int | None, executor: Any) -> int | None:
    """User policies live in this process: never sent to an executor.  Plain
    Python ones hold the GIL in every decision: their runs go one at a time
    (threads=1), with a warning."""
    from tbdse.schemes.policies import Policy

    policies = sorted({s.policy_name for s in schemes if isinstance(s, Policy)})
    if policies and executor is not None:
        raise ConfigError(
            f"policy {', '.join(policies)} is registered in this process only; run the sweep "
            "here (no executor): a Dask worker could not find it"
        )
    serial = [s for s in schemes if getattr(s, "serial", False)]
    if not serial:
        return threads
    names = ", ".join(sorted({getattr(s, "policy_name", s.name) for s in serial}))
    if threads != 1:
        from tbdse.schemes.policies import PolicyWarning

        warnings.warn(
            f"policy {names} is a plain Python callable: the sweep runs one run at a time "
            "(threads=1); compile it (jit=True, or a Numba @cfunc) to run in parallel",
            PolicyWarning,
            stacklevel=3,
        )
    return 1
