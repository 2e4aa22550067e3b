"""The checks a sweep's plan passes before any run: scheme kinds against
workload kinds, GPU fields and scheme parameters no run reads (refused with
what is read), the run count's memory, duplicate runs."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from tbdse import _core
from tbdse.errors import ConfigError
from tbdse.machine.gpus import Gpu
from tbdse.schemes import Scheme, gpu_fields_read, names_for_kind
from tbdse.schemes import info as scheme_info
from tbdse.schemes import names as scheme_names
from tbdse.schemes.reads import GPU_PREFIX, GpuValues, gpu_controls, scheme_controls, unread_why
from tbdse.simulation.axes import Axes
from tbdse.workloads.base import Workload

MAX_REPLICATES = 2**31 - 1  # replicate numbers travel to the core as int32
# Memory a run costs outside its simulation: its row in the run table, in the
# result matrix and columns, and in the final DataFrame (about 60 columns).
BYTES_PER_RUN = 1500


def check_kinds(workloads: Sequence[Workload], schemes: Sequence[Scheme]) -> None:
    """Every scheme simulates the kind of every workload (a TB scheme runs task
    graphs, the worklist machine graph operators, ...)."""
    for s in schemes:
        wanted = scheme_info(s.name)["workload_kind"]
        for w in workloads:
            if w.kind != wanted:
                fitting = ", ".join(names_for_kind(w.kind)) or "none"
                raise ConfigError(
                    f"scheme '{s.name}' simulates {wanted} workloads, but workload '{w.name}' is "
                    f"a {w.kind} workload (schemes for it: {fitting})"
                )


def _unread_reason(name: str, schemes: Sequence[Scheme], traits: tuple[bool, bool, bool]) -> str:
    """Why no scheme of the run reads GPU field ``name``: under 'shared' SMs
    one would, or which schemes do."""
    if any(name in gpu_fields_read(s.name, *traits[:2], True) for s in schemes):
        return "it is read only under sm_model 'shared', and every GPU of the run is 'fixed'"
    readers = sorted({n for n in scheme_names() if name in gpu_fields_read(n, True, True)})
    return f"schemes that read it: {', '.join(readers) or 'none'}"


def check_gpu_axes(schemes: Sequence[Scheme], axes: Axes, traits: tuple[bool, bool, bool]) -> None:
    """A GPU axis must change some run: at least one scheme reads the field
    (``traits``: a workload has data footprints, so TB schemes read the
    memory fields; a kernel states an issue interval, so they read the
    SM's issue rate; some GPU has shared SMs)."""
    for key in axes.keys:
        if key.target != "gpu":
            continue
        if not any(key.name in gpu_fields_read(s.name, *traits) for s in schemes):
            shown = ", ".join(dict.fromkeys(s.name for s in schemes))
            raise ConfigError(
                f"sweep axis '{key.column}' changes nothing: no scheme of the sweep ({shown}) "
                f"reads the GPU field '{key.name}' ({_unread_reason(key.name, schemes, traits)})"
            )


def check_gpu_fields(
    gpus: Sequence[Gpu], schemes: Sequence[Scheme], traits: tuple[bool, bool, bool]
) -> None:
    """A field a user set on a GPU must be read by some scheme of the run:
    otherwise the setting changes nothing (a "magic memory" study that sets
    ``mem_latency`` for the worklist machine, which times memory through the
    hierarchy's fields, would silently measure the default machine)."""
    for gpu in gpus:
        for name in sorted(getattr(gpu, "explicit", ())):
            if any(name in gpu_fields_read(s.name, *traits) for s in schemes):
                continue
            shown = ", ".join(dict.fromkeys(s.name for s in schemes))
            read = sorted(frozenset().union(*(gpu_fields_read(s.name, *traits) for s in schemes)))
            raise ConfigError(
                f"GPU '{gpu.name}' sets '{name}', which no scheme of this run ({shown}) reads "
                f"({_unread_reason(name, schemes, traits)}), so it would change nothing; drop "
                f"it, or set a field they read: {', '.join(read)}"
            )


def read_when_text(scheme: str, name: str) -> str:
    """When parameter ``name`` is read, in words ("" when always)."""
    return str(
        next(p for p in scheme_info(scheme)["params"] if p["name"] == name)["read_when_text"]
    )


def unread_params(
    scheme: str, values: Mapping[str, Any], names: Sequence[str], gpu: GpuValues | None = None
) -> list[tuple[str, str]]:
    """(parameter, why) for each of ``names`` that scheme ``scheme`` does not
    read at ``values`` (every parameter's value) on any of the GPUs ``gpu``
    (None: not known, a condition on the GPU holds): the core's read_when
    conditions (cpp/core/params.hpp), e.g. ('level_bound', "policy is 'lrr'")."""
    infos = {p["name"]: p for p in scheme_info(scheme)["params"]}
    out = []
    for name in names:
        why = unread_why(infos, name, values, gpu, f"scheme '{scheme}'")
        if why is not None:
            out.append((name, why))
    return out


def watched_params(s: Scheme, swept: set[str]) -> list[str]:
    """The swept parameters of ``s`` that have read conditions.  (A given one
    whose condition a swept one decides is read at some points, and repeats no
    run where it is not: allowed.)"""
    infos = scheme_info(s.name)["params"]
    return [p["name"] for p in infos if p["read_when"] and p["name"] in swept]


def _reads(s: Scheme, values: Mapping[str, Any], gpu: GpuValues | None) -> str:
    every = [p["name"] for p in scheme_info(s.name)["params"]]
    return ", ".join(n for n in every if not unread_params(s.name, values, [n], gpu)) or "(none)"


def refuse_unread(
    s: Scheme, point: Mapping[str, Any], where: str, gpu: GpuValues | None = None
) -> None:
    """ConfigError when a parameter swept at this ``point`` of a sweep or space
    is not read there (its conditions fail on ``s``'s parameters, on another
    swept one or on every GPU ``gpu`` of the run): such runs would repeat each
    other (issue 29).  ``where`` names the sweep or space."""
    values = {**s.params, **point}
    unread = unread_params(s.name, values, watched_params(s, set(point)), gpu)
    if not unread:
        return
    name, why = unread[0]
    shown = ", ".join(f"{k}={v!r}" for k, v in point.items())
    raise ConfigError(
        f"{where} sets '{name}' for scheme '{s.name}' where it is not read: '{name}' is read only "
        f"when {read_when_text(s.name, name)}, and at the point ({shown}) {why}, so those runs "
        f"would repeat each other; sweep '{name}' only with schemes, points and GPUs where it is "
        f"read (docs/experiments.md, \"Parameters a run does not read\"); scheme '{s.name}' "
        f"reads there: {_reads(s, values, gpu)}"
    )


def _check_given(s: Scheme, axes: Axes | None, gpu: GpuValues) -> None:
    """Every parameter ``s`` was given is read at some point of the sweep
    ``axes`` (None: a baseline, which no axis changes) on some GPU of the run.
    The core checked them against the scheme's own values when it was made;
    the run's GPUs and its other axes are known only here."""
    infos = {p["name"]: p for p in scheme_info(s.name)["params"]}
    cols = (
        [] if axes is None else [j for j in axes.columns("scheme") if axes.keys[j].name in s.params]
    )
    for name in s._given:
        controls = scheme_controls(infos[name])
        mine = [j for j in cols if axes is not None and axes.keys[j].name in controls]
        if not gpu_controls(infos[name]) and not mine:
            continue  # decided by the scheme's own values: the core's check
        points: list[dict[str, Any]] = [{}]
        if axes is not None and mine:
            rows = np.unique(axes.points[:, mine], axis=0)
            points = [
                {axes.keys[j].name: axes.values[j][v] for j, v in zip(mine, row, strict=True)}
                for row in rows
            ]
        whys = [unread_params(s.name, {**s.params, **p}, [name], gpu) for p in points]
        if not all(whys):
            continue  # read at some point
        why = whys[0][0][1]
        if mine:  # the first point's reason, and that none reads it
            shown = ", ".join(f"{k}={v!r}" for k, v in points[0].items())
            why = f"at the point ({shown}) {why}" + (
                ", and no other point of the sweep reads it" if len(points) > 1 else ""
            )
        deciders = sorted(controls | {GPU_PREFIX + f for f in gpu_controls(infos[name])})
        raise ConfigError(
            f"scheme '{s.name}' sets '{name}', which is read only when "
            f"{read_when_text(s.name, name)}, and {why}, so it would change nothing; drop "
            f"'{name}', or set (or sweep) {' or '.join(deciders)} so that it is read; "
            f"scheme '{s.name}' reads there: {_reads(s, {**s.params, **points[0]}, gpu)}"
        )


def check_scheme_reads(
    schemes: Sequence[Scheme], baselines: Sequence[Scheme], axes: Axes, gpu: GpuValues
) -> None:
    """Every parameter a scheme or baseline was given is read at some point on
    some GPU ``gpu`` of the run, and every scheme axis is read at every point
    of every scheme that has it (on some GPU of the run)."""
    for s in schemes:
        _check_given(s, axes, gpu)
    for b in baselines:
        _check_given(b, None, gpu)
    for s in schemes:
        cols = [j for j in axes.columns("scheme") if axes.keys[j].name in s.params]
        if not cols or not watched_params(s, {axes.keys[j].name for j in cols}):
            continue
        for row in np.unique(axes.points[:, cols], axis=0):
            point = {axes.keys[j].name: axes.values[j][v] for j, v in zip(cols, row, strict=True)}
            refuse_unread(s, point, "a sweep", gpu)


def check_run_count(
    workloads: Sequence[Workload],
    gpus: Sequence[Gpu],
    schemes: Sequence[Scheme],
    axes: Axes,
    replicates: int,
) -> None:
    """Refuses, before any run table is built, a sweep whose runs cannot fit in memory."""
    per_scheme = []
    for s in schemes:
        count, zip_counted = 1, False
        for key, values, zipped in zip(axes.keys, axes.values, axes.zipped, strict=True):
            if (key.target == "scheme" and key.name not in s.params) or (zipped and zip_counted):
                continue  # an axis the scheme lacks; a zip counts once
            zip_counted = zip_counted or zipped
            count *= len(values)
        per_scheme.append(count)
    runs = len(workloads) * len(gpus) * sum(per_scheme) * replicates
    _core.check_memory(
        f"a sweep of {runs:,} runs ({len(workloads)} workload(s) x {len(gpus)} GPU(s) x "
        f"{sum(per_scheme):,} scheme configurations x {replicates:,} replicate(s))",
        runs * float(BYTES_PER_RUN),
    )


def reject_duplicates(
    workloads: Sequence[Workload], gpus: Sequence[Gpu], schemes: Sequence[Scheme]
) -> None:
    """The same workload, GPU or scheme twice would only repeat identical rows."""
    names = [w.name for w in workloads]
    for what, keys, shown in (
        ("workload names", names, names),
        (
            "GPUs",
            [(g.name, tuple(sorted(g.to_dict().items()))) for g in gpus],
            [g.name for g in gpus],
        ),
        ("schemes", [s.key() for s in schemes], [s.label() for s in schemes]),
    ):
        seen: dict[Any, int] = {}
        for i, key in enumerate(keys):
            if key in seen:
                raise ConfigError(
                    f"a sweep lists the same {what[:-1] if what != 'GPUs' else 'GPU'} twice "
                    f"('{shown[i]}', positions {seen[key]} and {i}); {what} must be distinct"
                )
            seen[key] = i
