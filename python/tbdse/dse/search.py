"""Searching a design space with Optuna instead of sweeping all of it.

>>> df = td.search(
...     td.workloads.wavefront(32, 32), "gtx480", "wireframe",
...     space={"node_buffer": td.space.Int(16, 1024, log=True), "policy": ["lrr", "lvl"]},
...     objectives={"speedup": "max", "storage_bytes": "min"},
...     baseline="global_barrier", trials=64, batch=16, sampler="nsga2", seed=1,
... )
>>> front = td.pareto(df, {"speedup": "max", "storage_bytes": "min"})

Optuna proposes ``batch`` trials at a time (ask); tbdse evaluates the batch
as one sweep through the same path as :func:`tbdse.sweep` — in parallel with
TBB, or on a Dask cluster with ``executor``, written to a results store with
``store`` — and reports each trial's objectives back (tell).  A point proposed
again costs nothing: it is taken from the runs this search already made (and,
with ``store``, from any earlier sweep or search that ran it).  Objectives are
result columns (``makespan_us``, ``speedup`` with a ``baseline``,
``storage_bytes``, any scheme statistic), averaged over ``replicates``.  A
trial whose runs fail (an infeasible buffer size, a deadlock) is told to
Optuna as failed and kept in the table with its status.

Samplers: ``"tpe"`` (single- or multi-objective TPE), ``"nsga2"`` (NSGA-II,
population = ``batch``), ``"random"``, or any ``optuna.samplers`` object.
Seeded samplers make a search reproducible: the same arguments give the same
trials and rows.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from tbdse._util.checks import whole
from tbdse._util.params import suggest
from tbdse.errors import ConfigError, SweepInterrupted
from tbdse.schemes import Scheme, as_scheme, info
from tbdse.simulation.arguments import GpuArg, SchemeArg, listify, normalise
from tbdse.simulation.axes import Axes, _value_identity, namespaces
from tbdse.simulation.plan import build_plan
from tbdse.simulation.runner import Runner
from tbdse.simulation.store import ResultsStore
from tbdse.workloads.base import Workload

__all__ = ["DIRECTIONS", "SAMPLERS", "check_objectives", "search"]

SAMPLERS = ("tpe", "nsga2", "random")
DIRECTIONS = {"min": "minimize", "max": "maximize", "minimize": "minimize", "maximize": "maximize"}
MAX_TRIALS = 1_000_000


def _optuna() -> Any:
    try:
        with warnings.catch_warnings():
            # Optuna imports tqdm.auto, which warns in a notebook without ipywidgets.
            warnings.filterwarnings("ignore", message="IProgress not found")
            import optuna
    except ImportError:
        raise ConfigError("search needs Optuna: pip install optuna") from None
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    return optuna


def check_objectives(objectives: Any) -> dict[str, str]:
    """``{"speedup": "max", ...}`` (a name or list: minimised) as column -> Optuna direction."""
    if isinstance(objectives, str):
        objectives = [objectives]
    if isinstance(objectives, Sequence):
        objectives = dict.fromkeys(objectives, "min")
    if not isinstance(objectives, Mapping) or not objectives:
        raise ConfigError(
            "objectives must name result columns with 'min' or 'max', e.g. "
            "{'speedup': 'max', 'storage_bytes': 'min'}"
        )
    out = {}
    for column, direction in objectives.items():
        if not isinstance(column, str) or not column:
            raise ConfigError(f"an objective must be a result column name; got {column!r}")
        if direction not in DIRECTIONS:
            raise ConfigError(
                f"objective '{column}': direction must be 'min' or 'max'; got {direction!r}"
            )
        out[column] = DIRECTIONS[direction]
    return out


def _sampler(optuna: Any, sampler: Any, seed: int, batch: int, objectives: int) -> Any:
    if not isinstance(sampler, str):
        if isinstance(sampler, optuna.samplers.BaseSampler):
            return sampler
        raise ConfigError(
            f"sampler must be one of {', '.join(SAMPLERS)} or an optuna sampler; got {sampler!r}"
        )
    if sampler == "tpe":
        return optuna.samplers.TPESampler(seed=seed)
    if sampler == "nsga2":
        return optuna.samplers.NSGAIISampler(seed=seed, population_size=max(batch, 2))
    if sampler == "random":
        return optuna.samplers.RandomSampler(seed=seed)
    raise ConfigError(
        f"sampler must be one of {', '.join(SAMPLERS)}{suggest(sampler, SAMPLERS)}; got {sampler!r}"
    )


def _distributions(optuna: Any, space: Mapping[str, Any]) -> dict[str, Any]:
    """Each parameter of a tbdse design space as an Optuna distribution."""
    from tbdse.dse import space as spaces

    dists = optuna.distributions
    out = {}
    for name, param in spaces.checked(space).items():
        if isinstance(param, spaces.Int):
            out[name] = dists.IntDistribution(param.low, param.high, log=param.log, step=param.step)
        elif isinstance(param, spaces.Float):
            out[name] = dists.FloatDistribution(param.low, param.high, log=param.log)
        else:
            out[name] = dists.CategoricalDistribution(list(param.options))
    return out


def representatives(space: Mapping[str, Any]) -> dict[str, list[Any]]:
    """Values standing for each parameter of a checked design space: a
    choice's options, a range's ends."""
    from tbdse.dse import space as spaces

    return {
        n: list(p.options) if isinstance(p, spaces.Choice) else [p.low, p.high]
        for n, p in spaces.checked(space).items()
    }


def check_space_reads(
    schemes: Sequence[Scheme],
    space: Mapping[str, Any],
    gpus: Sequence[Any] = (),
    workloads: Sequence[Workload] = (),
) -> None:
    """A space over a parameter together with one that decides whether it is
    read (policy x level_bound), or over one that no GPU of the search reads
    (Juggler's spin_weight with every GPU's sm_model 'fixed'), would search
    runs that repeat each other: refused before any trial, at a representative
    of each choice and range (its ends and any value a read condition names)."""
    import itertools

    from tbdse.dse import space as spaces
    from tbdse.schemes.reads import gpu_values, scheme_controls, terms
    from tbdse.simulation.axes import gpu_axes
    from tbdse.simulation.plan_checks import refuse_unread, watched_params

    params = spaces.checked(space)
    swept = gpu_axes(representatives(space), namespaces(schemes, workloads))
    gpu = gpu_values(gpus, swept) if gpus else None
    for s in schemes:
        mine = {n.removeprefix("scheme."): p for n, p in params.items()}
        mine = {n: p for n, p in mine.items() if n in s.params}
        watched = watched_params(s, set(mine))
        infos = {p["name"]: p for p in info(s.name)["params"]}
        involved = set(watched).union(*(scheme_controls(infos[w]) for w in watched))
        options: dict[str, list[Any]] = {}
        for name in sorted(involved & set(mine)):
            param = mine[name]
            if isinstance(param, spaces.Choice):
                options[name] = list(param.options)
                continue
            named = {
                t
                for w in watched
                for term in terms(infos[w])
                if term["param"] == name
                for t in term["values"]
            }
            inside = [
                float(t)
                for t in named
                if t not in ("unbounded", "auto", "true", "false")
                and param.low <= float(t) <= param.high
            ]
            options[name] = [param.low, param.high, *inside]
        for combo in itertools.product(*options.values()):
            refuse_unread(s, dict(zip(options, combo, strict=True)), "a design space", gpu)


class _Evaluator:
    """Runs batches of points through the sweep path and remembers every row,
    so that a point asked for again is answered without simulating."""

    def __init__(
        self,
        workloads: list[Workload],
        gpus: list[Any],
        schemes: list[Scheme],
        baseline: list[Scheme] | None,
        replicates: int,
        seed: int,
        options: dict[str, Any],
    ) -> None:
        self.workloads, self.gpus, self.schemes = workloads, gpus, schemes
        self.baseline, self.replicates, self.seed = baseline, replicates, seed
        self.options = options
        self.simulated = self.reused = 0  # runs, over all batches
        self.rows: dict[Any, pd.DataFrame] = {}  # point identity -> its rows (one per replicate)

    def evaluate(self, points: list[dict[str, Any]]) -> list[pd.DataFrame]:
        keys = [tuple(_value_identity(v) for v in p.values()) for p in points]
        new: dict[Any, dict[str, Any]] = {}
        for key, point in zip(keys, points, strict=True):
            if key not in self.rows:
                new.setdefault(key, point)
        if new:
            zipped = {name: [p[name] for p in new.values()] for name in points[0]}
            frame, point_of = self._sweep(zipped)
            for i, key in enumerate(new):
                self.rows[key] = frame[point_of == i]
        return [self.rows[k] for k in keys]

    def _sweep(self, zipped: dict[str, list[Any]]) -> tuple[pd.DataFrame, np.ndarray]:
        axes = Axes.build(None, zipped, namespaces(self.schemes, self.workloads))
        plan = build_plan(
            self.workloads,
            self.gpus,
            self.schemes,
            axes,
            self.replicates,
            self.seed,
            self.baseline,
        )
        o = self.options
        runner = Runner(plan, o["threads"], o["progress"], "record", o["store"], o["timeout_s"])
        self.simulated += plan.runs - int(runner.done.sum())  # infeasible runs are neither
        self.reused += runner.restored
        try:
            runner.run(o["executor"])
        finally:
            runner.close()
        rows = np.nonzero(runner.done[: plan.main_runs])[0]
        return runner.frame(), plan.point_of[rows]


def search(
    workload: Workload,
    gpu: GpuArg,
    scheme: SchemeArg,
    *,
    space: Mapping[str, Any],
    objectives: Mapping[str, str] | Sequence[str] | str,
    trials: int = 64,
    batch: int = 16,
    sampler: Any = "tpe",
    seed: int = 0,
    baseline: SchemeArg | None = None,
    replicates: int = 1,
    threads: int | None = None,
    progress: bool | None = False,
    store: str | Path | ResultsStore | None = None,
    executor: Any = None,
    timeout_s: float | None = None,
    study: Any = None,
) -> pd.DataFrame:
    """Search ``space`` for the best values of ``objectives`` (see the module docs).

    Args:
        workload, gpu, scheme: one of each, as for :func:`tbdse.sweep`.
        space: parameter -> :mod:`tbdse.dse.space` range or choice (a list is a
            choice); the parameters a sweep axis may name.
        objectives: result column -> 'min' or 'max' (a name or list: minimised).
        trials: how many points to evaluate; batch: how many Optuna proposes
            before hearing back (they run as one parallel sweep).
        sampler: 'tpe', 'nsga2', 'random' or an optuna sampler; seed seeds it
            and the runs.
        study: an optuna study to continue (its directions must match).
        baseline, replicates, threads, progress, store, executor, timeout_s:
            as for :func:`tbdse.sweep`.

    Returns:
        One row per run (``replicates`` per trial), as a sweep returns them,
        with ``trial`` (Optuna's trial number) and ``trial_state`` columns.
    """
    optuna = _optuna()
    goals = check_objectives(objectives)
    trials = whole(trials, "trials", 1, MAX_TRIALS)
    batch = whole(batch, "batch", 1, MAX_TRIALS)
    seed = whole(seed, "seed", 0, 2**63 - 1)
    if not isinstance(workload, Workload):
        raise ConfigError(f"search takes one workload; got {type(workload).__name__}")
    for what, value in (("gpu", gpu), ("scheme", scheme)):
        if isinstance(value, (list, tuple)):
            raise ConfigError(f"search takes one {what}; got a list (search each in turn)")
    workloads, gpus, schemes = normalise(workload, gpu, scheme)
    base = None if baseline is None else [as_scheme(b) for b in listify(baseline, (Scheme,))]
    dists = _distributions(optuna, space)
    check_space_reads(schemes, space, gpus, workloads)
    if study is None:
        study = optuna.create_study(
            directions=list(goals.values()),
            sampler=_sampler(optuna, sampler, seed, batch, len(goals)),
        )
    elif [d.name.lower() for d in study.directions] != list(goals.values()):
        raise ConfigError(
            f"the study's directions ({[d.name.lower() for d in study.directions]}) differ from "
            f"the objectives' ({list(goals.values())})"
        )
    from tbdse.simulation.arguments import serial_policies

    threads = serial_policies([*schemes, *(base or [])], threads, executor)
    if executor is not None:  # before the store is claimed
        from tbdse.simulation.executors import check_executor

        check_executor(executor)
    if store is not None and not isinstance(store, ResultsStore):
        store = ResultsStore(store)
    took_store = store is not None and not store.locked
    if store is not None:
        store.lock()  # held for the whole search, not batch by batch
    evaluator = _Evaluator(
        workloads,
        gpus,
        schemes,
        base,
        replicates,
        seed,
        {
            "threads": threads,
            "progress": progress,
            "store": store,
            "executor": executor,
            "timeout_s": timeout_s,
        },
    )
    frames: list[pd.DataFrame] = []
    done = 0
    try:
        while done < trials:
            asked = [study.ask(dists) for _ in range(min(batch, trials - done))]
            results = evaluator.evaluate([t.params for t in asked])
            for trial, rows in zip(asked, results, strict=True):
                frames.append(_tell(optuna, study, trial, rows, goals))
            done += len(asked)
    except KeyboardInterrupt:
        raise SweepInterrupted(
            _table(frames), f"search interrupted after {done} of {trials} trials (see .results)"
        ) from None
    finally:
        if took_store:
            store.unlock()  # type: ignore[union-attr]
    table = _table(frames)
    table.attrs["runs_simulated"] = evaluator.simulated
    table.attrs["runs_reused"] = evaluator.reused
    return table


def _tell(optuna: Any, study: Any, trial: Any, rows: pd.DataFrame, goals: dict[str, str]) -> Any:
    from tbdse.simulation.results import column

    values = []
    for name in goals:
        found = column(rows, name)
        if not pd.api.types.is_numeric_dtype(rows[found].dtype):  # a text column: not a goal
            raise ConfigError(f"objective '{name}' is a text column; an objective must be numeric")
        values.append(float(rows[found].astype(float).mean()))
    ok = bool(len(rows) and (rows["status"] == "ok").all() and np.isfinite(values).all())
    state = optuna.trial.TrialState.COMPLETE if ok else optuna.trial.TrialState.FAIL
    study.tell(trial, values if ok else None, state=state)
    out = rows.copy()
    out.insert(0, "trial", trial.number)
    out.insert(1, "trial_state", "complete" if ok else "failed")
    return out


def _table(frames: list[pd.DataFrame]) -> pd.DataFrame:
    if not frames:
        return pd.DataFrame()
    return pd.concat(frames, ignore_index=True)
