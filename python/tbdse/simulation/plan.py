"""Expanding a sweep description into the flat run table the core simulates.

A sweep is workloads x GPUs x schemes x points x replicates, where the points
are the product of the ``grid`` axes with the element-wise ``zip`` axes.  Each
axis key names a parameter of a scheme, the GPU, the workload generator or the
cost model (``level_bound``, ``gpu.sms``, ``workload.rows``, ``cost.mean``).
A scheme axis applies only to schemes that have that parameter; the others
run once per remaining axis values instead of repeating identical runs.

Runs are index arithmetic in NumPy: a point is a row of value indices, and
the run table is a few integer arrays, so ten thousand configurations cost
ten thousand array rows rather than ten thousand configuration objects.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tbdse import _core
from tbdse._util.checks import real, whole
from tbdse._util.params import encode
from tbdse.errors import ConfigError
from tbdse.machine.gpus import Gpu, field_info
from tbdse.schemes import Scheme
from tbdse.schemes import info as scheme_info
from tbdse.schemes.reads import gpu_values
from tbdse.simulation.axes import (
    Axes,
    AxisKey,
)
from tbdse.simulation.plan_checks import (
    MAX_REPLICATES,
    check_gpu_axes,
    check_gpu_fields,
    check_kinds,
    check_run_count,
    check_scheme_reads,
    reject_duplicates,
)
from tbdse.workloads.base import Workload


@dataclass
class Plan:
    """The flat run table of a sweep, ready for the core."""

    workloads: list[Workload]  # unique (derived) workloads, one cost model each
    gpus: list[Gpu]
    schemes: list[Scheme]  # the sweep's schemes, then the baselines not among them
    axes: Axes
    replicates: int
    seed: int
    workload_of: np.ndarray
    gpu_of: np.ndarray
    scheme_of: np.ndarray
    point_of: np.ndarray
    replicate_of: np.ndarray
    main_runs: int  # runs [0, main_runs) are result rows; the rest only serve as baselines
    # (baselines, main runs): per baseline scheme and main run, the run giving its
    # makespan; a row's baseline is the best (shortest) of them.
    baseline_of: np.ndarray | None = None
    baselines: list[Scheme] = field(default_factory=list)
    overrides: list[tuple[AxisKey, np.ndarray]] = field(default_factory=list)

    @property
    def runs(self) -> int:
        return len(self.workload_of)

    def single(self, run: int) -> Plan:
        """A plan of run ``run`` alone (its workload, GPU, scheme, point, replicate
        and swept values), which simulates the same as that run of this plan:
        a run's random draws follow its configuration hash and replicate."""
        one = [int(run)]
        return Plan(
            workloads=[self.workloads[self.workload_of[run]]],
            gpus=[self.gpus[self.gpu_of[run]]],
            schemes=[self.schemes[self.scheme_of[run]]],
            axes=self.axes,
            replicates=1,
            seed=self.seed,
            workload_of=np.zeros(1, dtype=self.workload_of.dtype),
            gpu_of=np.zeros(1, dtype=self.gpu_of.dtype),
            scheme_of=np.zeros(1, dtype=self.scheme_of.dtype),
            point_of=self.point_of[one],
            replicate_of=self.replicate_of[one],
            main_runs=1,
            overrides=[(k, v[one]) for k, v in self.overrides],
        )

    def weights(self) -> np.ndarray:
        """Relative cost of each run (its task count), for chunk sizing."""
        sizes = np.array([w.weight for w in self.workloads], dtype=np.float64)
        return sizes[self.workload_of]

    def core(self) -> _core.Sweep:
        i32 = np.int32
        return _core.Sweep(
            [w.core_tuple() for w in self.workloads],
            [(g.name, g.encoded()) for g in self.gpus],
            [(s.name, s.given_encoded()) for s in self.schemes],
            [w.core_cost() for w in self.workloads],
            self.workload_of.astype(i32),
            self.gpu_of.astype(i32),
            self.scheme_of.astype(i32),
            self.workload_of.astype(i32),  # each derived workload carries its own cost model
            self.replicate_of.astype(i32),
            self._core_overrides(),
            int(self.seed),
        )

    def _core_overrides(self) -> list[tuple[str, str, np.ndarray]]:
        """The overrides by the core's parameter names: a scheme axis whose
        name a scheme maps to another parameter (a user policy's named
        parameters, p0..p3) becomes one column per name it maps to."""
        out = []
        for k, v in self.overrides:
            if k.target != "scheme":
                out.append((k.target, k.name, v))
                continue
            core = np.array([s.core_param(k.name) for s in self.schemes])[self.scheme_of]
            for name in dict.fromkeys(core.tolist()):
                out.append((k.target, name, np.where(core == name, v, np.nan)))
        return out


def _derived_workloads(
    base: Workload, axes: Axes, table: list[Workload], index: dict[Any, int]
) -> np.ndarray:
    """Table index of the workload each point uses (the base, or regenerated with new params)."""
    cols = axes.columns("workload")
    cost_cols = axes.columns("cost")
    if not cols:
        made = [base]
        inverse = np.zeros(len(axes.points), dtype=np.int64)
    else:
        uniq, inverse = np.unique(axes.points[:, cols], axis=0, return_inverse=True)
        inverse = inverse.reshape(-1)
        made = []
        for row in uniq:
            changes = {axes.keys[j].name: axes.values[j][v] for j, v in zip(cols, row, strict=True)}
            made.append(base.with_params(**changes))
    out = np.empty(len(made), dtype=np.int64)
    for i, w in enumerate(made):
        for j in cost_cols:
            if w.cost is None or axes.keys[j].name not in w.cost.params:
                whose = (
                    "it has no cost model"
                    if w.cost is None
                    else (f"whose cost model is {w.cost.describe()}")
                )
                raise ConfigError(
                    f"sweep axis '{axes.keys[j].column}' does not apply to workload '{w.name}', "
                    f"{whose}"
                )
        key = w.key()
        if key not in index:
            index[key] = len(table)
            table.append(w)
        out[i] = index[key]
    return out[inverse]


def build_plan(
    workloads: Sequence[Workload],
    gpus: Sequence[Gpu],
    schemes: Sequence[Scheme],
    axes: Axes,
    replicates: int,
    seed: int,
    baseline: Scheme | Sequence[Scheme] | None,
) -> Plan:
    replicates = whole(replicates, "'replicates'", 1, MAX_REPLICATES)
    seed = whole(seed, "'seed'", 0, 2**63 - 1)
    reject_duplicates(workloads, gpus, schemes)
    baselines = (
        [] if baseline is None else [baseline] if isinstance(baseline, Scheme) else list(baseline)
    )
    if len({b.key() for b in baselines}) != len(baselines):
        raise ConfigError("a sweep lists the same baseline scheme twice")
    check_kinds(workloads, [*schemes, *baselines])
    # The values each GPU field takes over the run's GPUs and GPU axes.
    gpu = gpu_values(
        gpus, {k.name: v for k, v in zip(axes.keys, axes.values, strict=True) if k.target == "gpu"}
    )
    traits = (
        any(getattr(w, "has_footprints", False) for w in workloads),
        any(getattr(w, "has_issue_rates", False) for w in workloads),
        "shared" in gpu["sm_model"],
    )
    check_gpu_axes([*schemes, *baselines], axes, traits)
    check_gpu_fields(gpus, [*schemes, *baselines], traits)
    check_scheme_reads(schemes, baselines, axes, gpu)
    check_run_count(workloads, gpus, schemes, axes, replicates)
    table: list[Workload] = []
    index: dict[Any, int] = {}
    derived = [_derived_workloads(w, axes, table, index) for w in workloads]
    scheme_cols = axes.columns("scheme")
    other_cols = [j for j in range(len(axes.keys)) if j not in scheme_cols]
    reps = np.arange(replicates, dtype=np.int64)

    parts: dict[str, list[np.ndarray]] = {k: [] for k in ("w", "g", "s", "p", "r")}
    for wi in range(len(workloads)):
        for gi in range(len(gpus)):
            for si, s in enumerate(schemes):
                cols = other_cols + [j for j in scheme_cols if axes.keys[j].name in s.params]
                if len(cols) == len(axes.keys):
                    chosen = np.arange(len(axes.points))
                else:  # axes this scheme lacks collapse: first point of each distinct rest
                    _, first = np.unique(axes.points[:, cols], axis=0, return_index=True)
                    chosen = np.sort(first)
                chosen = np.repeat(chosen, replicates)
                parts["w"].append(derived[wi][chosen])
                parts["g"].append(np.full(len(chosen), gi))
                parts["s"].append(np.full(len(chosen), si))
                parts["p"].append(chosen)
                parts["r"].append(np.tile(reps, len(chosen) // replicates))
    w_of, g_of, s_of, p_of, r_of = (np.concatenate(parts[k]) for k in ("w", "g", "s", "p", "r"))
    plan_schemes = list(schemes)
    plan = Plan(
        table,
        list(gpus),
        plan_schemes,
        axes,
        replicates,
        seed,
        w_of,
        g_of,
        s_of,
        p_of,
        r_of,
        main_runs=len(w_of),
    )
    if baselines:
        plan.baseline_of = np.stack([_add_baseline(plan, b) for b in baselines])
        plan.baselines = baselines
    plan.overrides = _overrides(plan)
    return plan


def _add_baseline(plan: Plan, baseline: Scheme) -> np.ndarray:
    """Adds the runs of one baseline scheme: one per distinct (workload, GPU,
    GPU/cost axis values, replicate); returns, per main run, the run giving its
    baseline makespan."""
    axes = plan.axes
    cols = axes.columns("gpu") + axes.columns("cost")
    main = plan.main_runs
    identity = (
        np.column_stack(
            [
                plan.workload_of[:main],
                plan.gpu_of[:main],
                plan.replicate_of[:main],
                axes.points[plan.point_of[:main]][:, cols],
            ]
        )
        if main
        else np.zeros((0, 3 + len(cols)), dtype=np.int64)
    )
    uniq, first, inverse = np.unique(identity, axis=0, return_index=True, return_inverse=True)
    inverse = inverse.reshape(-1)
    # A main run of the baseline scheme with no swept scheme parameter is itself the baseline.
    try:
        b_index = plan.schemes.index(baseline)
    except ValueError:
        b_index = -1
    swept = {axes.keys[j].name for j in axes.columns("scheme")}
    reuse = b_index >= 0 and not (swept & set(baseline.params))
    source = np.full(len(uniq), -1, dtype=np.int64)
    if reuse:
        mine = np.nonzero(plan.scheme_of[:main] == b_index)[0]
        source[inverse[mine]] = mine
    missing = np.nonzero(source < 0)[0]
    if len(missing):
        if b_index < 0:
            plan.schemes.append(baseline)
            b_index = len(plan.schemes) - 1
        rep = first[missing]
        start = plan.runs
        plan.workload_of = np.concatenate([plan.workload_of, plan.workload_of[rep]])
        plan.gpu_of = np.concatenate([plan.gpu_of, plan.gpu_of[rep]])
        plan.scheme_of = np.concatenate([plan.scheme_of, np.full(len(rep), b_index)])
        plan.point_of = np.concatenate([plan.point_of, plan.point_of[rep]])
        plan.replicate_of = np.concatenate([plan.replicate_of, plan.replicate_of[rep]])
        source[missing] = np.arange(start, start + len(rep))
    return source[inverse]


def _overrides(plan: Plan) -> list[tuple[AxisKey, np.ndarray]]:
    """Per-run encoded values of each scheme, GPU and cost axis (NaN = not applicable)."""
    axes = plan.axes
    out = []
    gpu_infos = {f["name"]: f for f in field_info()}
    is_main = np.arange(plan.runs) < plan.main_runs
    for j, key in enumerate(axes.keys):
        if key.target == "workload":
            continue
        column = np.full(plan.runs, np.nan)
        value_index = axes.points[plan.point_of, j]
        if key.target == "gpu":
            enc = np.array([encode(gpu_infos[key.name], v, "GPU") for v in axes.values[j]])
            column = enc[value_index]
        elif key.target == "cost":
            enc = np.array([_cost_value(key, v) for v in axes.values[j]])
            column = enc[value_index]
        else:
            for si, s in enumerate(plan.schemes):
                infos = {p["name"]: p for p in scheme_info(s.name)["params"]}
                if key.name not in s.params or s.core_param(key.name) not in infos:
                    continue
                owner = f"scheme '{s.name}'"
                info = infos[s.core_param(key.name)]
                enc = np.array([encode(info, v, owner) for v in axes.values[j]])
                mask = (plan.scheme_of == si) & is_main
                column[mask] = enc[value_index[mask]]
        out.append((key, column))
    return out


def _cost_value(key: AxisKey, value: Any) -> float:
    return real(value, f"sweep axis '{key.column}'")
