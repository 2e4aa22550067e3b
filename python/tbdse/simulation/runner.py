"""Running simulations: :func:`simulate` for one, :func:`sweep` for thousands.

A sweep is validated completely before anything runs, then simulated in
chunks by the compiled core (TBB on all cores, GIL released).  Chunks are
sized to take about a quarter of a second, so Ctrl-C stops a sweep promptly:
the finished rows come back on the :class:`~tbdse.errors.SweepInterrupted`
exception.  With ``store=DIR`` every finished chunk is also written to a
results store (:mod:`tbdse.simulation.store`), keyed by seed, configuration hash,
replicate and build, and a rerun with the same store simulates only what is
missing.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from tbdse import _core
from tbdse._util.checks import flag, real, text, whole
from tbdse.errors import ConfigError, SimulationError, SweepInterrupted
from tbdse.machine.gpus import Gpu
from tbdse.schemes import Scheme, as_scheme
from tbdse.simulation.arguments import (
    GpuArg,
    SchemeArg,
    WorkloadArg,
    listify,
    normalise,
    serial_policies,
)
from tbdse.simulation.axes import Axes, namespaces
from tbdse.simulation.plan import MAX_REPLICATES, Plan, build_plan
from tbdse.simulation.result import Result
from tbdse.simulation.results import build_frame
from tbdse.simulation.store import ResultsStore, build_id, key_frame
from tbdse.workloads.base import Workload

__all__ = ["simulate", "sweep"]

CHUNK_SECONDS = 0.25  # target duration of one chunk: bounds how late Ctrl-C is honoured
FIRST_CHUNK_WEIGHT = 2e5  # tasks simulated by the first chunk, before the rate is known
MIN_CHUNK_RUNS: int | None = None  # runs per chunk at least (None: one per worker thread)
VALIDATE_CHUNK_WEIGHT = 5e6  # tasks' worth of runs validated per call
PROGRESS_AFTER = 1.0  # show a progress bar for sweeps expected to take longer than this


def _cores() -> int:
    """Cores this process may run on (TBB's default thread count)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


MAX_TIMEOUT_S = 1e7  # about four months: a larger limit is no limit
TIMED_OUT = 4  # RunStatus::TIMED_OUT (cpp/core/sweep.hpp)
INFEASIBLE = 5  # RunStatus::INFEASIBLE: failed validation, recorded, never simulated


def check_timeout(value: Any) -> float | None:
    """``timeout_s``: None (no limit) or seconds, checked."""
    if value is None:
        return None
    seconds = real(value, "timeout_s", 0.0, MAX_TIMEOUT_S)
    if seconds <= 0:
        raise ConfigError(f"timeout_s must be a positive number of seconds; got {value!r}")
    return seconds


def _raise_run_error(core: _core.Sweep, run: int, message: str) -> None:
    """Re-runs a failed run alone so that it raises its own, complete exception."""
    core.run_single(run, False)
    raise SimulationError(message)  # not reached: a failed run fails again


class Runner:
    """Simulates a plan's runs in adaptive chunks and collects their rows
    (what :func:`sweep` and experiment files run through)."""

    def __init__(
        self,
        plan: Plan,
        threads: int | None,
        progress: bool | None,
        on_error: str,
        store: ResultsStore | str | Path | None,
        timeout_s: float | None = None,
    ) -> None:
        self.timeout_s = check_timeout(timeout_s)
        if on_error not in ("raise", "record"):
            raise ConfigError(f"on_error must be 'raise' or 'record'; got {on_error!r}")
        if threads is not None:
            threads = whole(threads, "threads", 1, 4096)
        if progress is not None:
            progress = flag(progress, "progress")
        if store is not None and not isinstance(store, ResultsStore):
            store = ResultsStore(text(store, "store", path_ok=True))
        self.plan = plan
        self.threads = threads or 0
        self.progress = progress
        self.on_error = on_error
        self.core = plan.core()
        # Every ConfigError before anything runs: raised, or (on_error='record')
        # kept as the message of each infeasible run, by run index.
        self.hashes, infeasible = self._validate()
        n = plan.runs
        self.columns: list[str] = list(self.core.columns)
        self.metrics = np.full((n, len(self.columns)), np.nan)
        self.status = np.zeros(n, dtype=np.int8)
        self.errors = [""] * n
        self.done = np.zeros(n, dtype=bool)
        self.store = store
        # Released by close(), unless the caller held it already (a search
        # holds its store across batches); a second writer is told who holds it.
        self._owns_lock = store is not None and not store.locked
        if store is not None:
            store.lock()
        try:
            if store is not None:
                self._restore(store.rows())
            self.restored = int(self.done.sum())  # runs the store held (infeasible ones aside)
            self._record_infeasible(infeasible)
        except BaseException:
            self.close()
            raise

    def _record_infeasible(self, infeasible: Mapping[int, str]) -> None:
        """Infeasible runs become rows, never simulated: status 'infeasible',
        NaN metrics, stored like other rows unless the run did not even
        resolve (hash 0 keys no configuration: kept in this table only)."""
        runs = np.array([i for i in infeasible if not self.done[i]], dtype=np.int64)
        for keyed in (True, False):
            part = runs[(self.hashes[runs] != 0) == keyed]
            if part.size:
                metrics = np.full((part.size, len(self.columns)), np.nan)
                status = np.full(part.size, INFEASIBLE, dtype=np.int8)
                errors = [infeasible[int(i)] for i in part]
                if keyed:
                    res = {"columns": self.columns, "metrics": metrics, "status": status}
                    self.finish_chunk(part, {**res, "errors": errors})
                else:
                    self._store(part, metrics, status, errors)

    def _validate(self) -> tuple[np.ndarray, dict[int, str]]:
        """Every run's configuration hash, validated in chunks so that Ctrl-C
        during a long validation is honoured within a chunk; and, with
        ``on_error='record'``, the message of each run that fails validation
        (infeasible) instead of raising the first."""
        n = self.plan.runs
        weights = np.cumsum(self.plan.weights())
        hashes = np.empty(n, dtype=np.uint64)
        infeasible: dict[int, str] = {}
        start = 0
        while start < n:
            limit = (weights[start - 1] if start else 0.0) + VALIDATE_CHUNK_WEIGHT
            stop = max(start + 1, int(np.searchsorted(weights, limit, side="right")))
            if self.on_error == "record":
                hashes[start:stop], errors = self.core.validate(
                    np.arange(start, stop), collect=True
                )
                infeasible.update((start + k, e) for k, e in enumerate(errors) if e)
            else:
                hashes[start:stop] = self.core.validate(np.arange(start, stop))
            start = stop
        return hashes, infeasible

    def _store(
        self,
        runs: np.ndarray,
        metrics: np.ndarray,
        status: np.ndarray,
        errors: Sequence[str],
    ) -> None:
        self.metrics[runs] = metrics
        self.status[runs] = status
        for i, e in zip(runs, errors, strict=True):
            self.errors[i] = e
        self.done[runs] = True

    def close(self) -> None:
        """Releases the results store for other sweeps (if this runner took it)."""
        if self.store is not None and self._owns_lock:
            self.store.unlock()

    def _restore(self, stored: pd.DataFrame) -> None:
        """Marks runs found in the results store as done, with their stored results.

        Identical configurations (same seed, hash, replicate and build) share
        one stored row; stored columns are matched by name (a store written by
        a sweep with other schemes may have other statistics).
        """
        stored = stored[
            (stored["_seed"] == np.array([self.plan.seed], dtype=np.uint64).view(np.int64)[0])
            & (stored["_build"] == build_id())
        ]
        # A run that timed out is done only if it would time out again: this
        # sweep's limit is no longer than the one it ran under.
        limit = np.inf if self.timeout_s is None else self.timeout_s
        retry = (stored["_status"] == TIMED_OUT) & ~(
            stored["_timeout_s"].to_numpy(np.float64) >= limit
        )
        stored = stored[~retry]
        if stored.empty:
            return
        runs_of: dict[tuple[int, int], list[int]] = {}
        keys = zip(self.hashes.view(np.int64), self.plan.replicate_of, strict=True)
        for i, (h, r) in enumerate(keys):
            runs_of.setdefault((int(h), int(r)), []).append(i)
        values = np.full((len(stored), len(self.columns)), np.nan)
        for c, name in enumerate(self.columns):
            if name in stored.columns:
                values[:, c] = stored[name].to_numpy(np.float64)
        status = stored["_status"].to_numpy(np.int8)
        errors = stored["_error"].tolist()
        rows, runs = [], []
        for row, (h, r) in enumerate(zip(stored["_hash"], stored["_replicate"], strict=True)):
            for run in runs_of.get((int(h), int(r)), ()):
                rows.append(row)
                runs.append(run)
        if runs:
            self._store(np.array(runs), values[rows], status[rows], [errors[k] for k in rows])

    def finish_chunk(self, chunk: np.ndarray, res: Mapping[str, Any]) -> None:
        """Takes a simulated chunk's columns: its rows, the store, its errors."""
        if list(res["columns"]) != self.columns:
            raise SimulationError("internal: result columns differ from the plan's")
        self._store(chunk, res["metrics"], res["status"], res["errors"])
        if self.store is not None:
            self.store.write(
                key_frame(
                    self.plan.seed,
                    self.hashes[chunk],
                    self.plan.replicate_of[chunk],
                    res,
                    self.timeout_s,
                )
            )
        self._check_errors(chunk, res["status"])

    def run(self, executor: Any = None) -> None:
        """Simulates every run not yet done: here, in chunks timed to honour
        Ctrl-C promptly, or on a Dask cluster (``executor``, see
        :mod:`tbdse.simulation.executors`)."""
        if self.done.any():  # a run that failed before, restored from a store, fails now
            self._check_errors(np.nonzero(self.done)[0], self.status[self.done])
        if executor is not None:
            from tbdse.simulation.executors import run_distributed

            run_distributed(self, executor)
            return
        todo = np.nonzero(~self.done)[0]
        weights = self.plan.weights()[todo]
        budget = FIRST_CHUNK_WEIGHT  # adapted to CHUNK_SECONDS after each chunk
        # A chunk keeps every worker busy even when one run outlasts
        # CHUNK_SECONDS (footprint-driven runs take seconds): a chunk of one
        # run would leave the other cores idle.
        workers = MIN_CHUNK_RUNS or self.threads or _cores()
        start = time.perf_counter()
        bar = None
        pos = 0
        try:
            while pos < len(todo):
                cum = np.cumsum(weights[pos:])
                take = min(len(cum), max(workers, int(np.searchsorted(cum, budget, side="right"))))
                chunk = todo[pos : pos + take]
                t0 = time.perf_counter()
                res = self.core.run(chunk, self.threads, self.timeout_s or 0.0)
                pos += take
                elapsed = max(time.perf_counter() - t0, 1e-4)
                budget = max(1.0, float(cum[take - 1]) / elapsed * CHUNK_SECONDS)
                self.finish_chunk(chunk, res)
                bar = self._update_progress(bar, pos, len(todo), start, cum, take)
        finally:
            if bar is not None:
                bar.close()

    def _check_errors(self, chunk: np.ndarray, status: np.ndarray) -> None:
        # A run past timeout_s is what the user asked for, not a model error:
        # recorded as timed_out, never raised.
        failed = np.nonzero((status != 0) & (status != TIMED_OUT))[0]
        if self.on_error == "raise" and failed.size:
            first = int(chunk[failed[0]])
            _raise_run_error(self.core, first, self.errors[first])

    def _update_progress(
        self, bar: Any, pos: int, total: int, start: float, cum: np.ndarray, take: int
    ) -> Any:
        if self.progress is False:
            return None
        elapsed = time.perf_counter() - start
        if bar is None:
            rate = float(cum[take - 1]) / max(elapsed, 1e-6)
            remaining = float(self.plan.weights()[~self.done].sum()) / max(rate, 1e-9)
            if not self.progress and elapsed + remaining < PROGRESS_AFTER:
                return None
            import warnings

            with warnings.catch_warnings():
                # tqdm.auto gives notebooks a widget; without ipywidgets it warns
                # and falls back to text, which is fine.
                warnings.filterwarnings("ignore", message="IProgress not found")
                from tqdm.auto import tqdm

            # Unasked (None), tqdm shows the bar only on a terminal (disable=None):
            # a log file gets no carriage-return lines.
            bar = tqdm(
                total=total,
                unit="run",
                desc="tbdse sweep",
                initial=0,
                leave=False,
                disable=None if self.progress is None else False,
            )
        bar.update(pos - bar.n)
        return bar

    def preview(self) -> pd.DataFrame:
        """The result table's rows before anything ran: every parameter column
        filled in, every metric NaN (what a file's plots are checked against)."""
        return self.frame(np.ones(self.plan.runs, dtype=bool))

    def frame(self, rows: np.ndarray | None = None) -> pd.DataFrame:
        """The result table of the finished runs (or of those ``rows`` marks)."""
        return build_frame(
            self.plan,
            self.columns,
            self.metrics,
            self.hashes,
            self.status,
            self.errors,
            self.done if rows is None else rows,
            self.on_error == "record",
        )


def sweep(
    workload: WorkloadArg,
    gpu: GpuArg,
    scheme: SchemeArg,
    *,
    grid: Mapping[str, Sequence[Any]] | None = None,
    zip: Mapping[str, Sequence[Any]] | None = None,
    baseline: SchemeArg | None = None,
    replicates: int = 1,
    seed: int = 0,
    threads: int | None = None,
    progress: bool | None = None,
    on_error: str = "raise",
    checkpoint: str | Path | ResultsStore | None = None,
    store: str | Path | ResultsStore | None = None,
    timeout_s: float | None = None,
    executor: Any = None,
) -> pd.DataFrame:
    """Simulate every combination and return one tidy row per run.

    Args:
        workload: one workload or a list.
        gpu: a GPU (``td.gpus.gtx480()``), a preset name, or a list of them.
        scheme: a scheme (``td.schemes.Scheme("cdp")``), a name, or a list.
        grid: parameter -> values, combined as a product.  Keys name scheme
            parameters (``level_bound``), GPU fields (``gpu.sms`` or ``sms``),
            workload-generator parameters (``workload.rows``) or cost-model
            parameters (``cost.mean``); bare names are accepted when unique.
        zip: parameter -> values of equal length, varied together.
        baseline: a scheme run in the same configuration (same workload, GPU,
            GPU/cost axis values and replicate) to add ``speedup`` =
            baseline makespan / makespan; or a list of schemes, of which the
            best (shortest makespan) serves, named in column ``baseline``.
        replicates: runs per configuration with different random draws.
        seed: sweep seed; with the configuration and replicate it keys every draw.
        threads: worker threads (default: all cores).
        progress: show a progress bar (default: when the sweep takes over a second and
            stderr is a terminal or a notebook; True: always, False: never).
        on_error: 'raise' (default) or 'record' failed runs in ``status``/``error`` columns.
        store: a results store (:class:`~tbdse.simulation.store.ResultsStore` or its
            folder): finished chunks are written to it as they finish, and runs
            it already holds are not simulated again.  Held exclusively for
            the sweep (a second sweep on it is refused, naming the first).
        checkpoint: the same as ``store`` (its former name).
        timeout_s: the longest one run may take, in seconds (default: no
            limit).  A run past it is stopped and kept as a row with status
            ``timed_out`` (NaN metrics); the sweep goes on, also with
            ``on_error='raise'``.  Runs that finish are unaffected.
        executor: run the chunks on a Dask cluster: a ``distributed.Client``
            or a scheduler address (:mod:`tbdse.simulation.executors`); default: here,
            with TBB on ``threads`` cores.  The rows are the same either way.

    Raises:
        ConfigError: bad input, before anything runs.
        DeadlockError: a run cannot finish (with ``on_error='raise'``).
        SweepInterrupted: Ctrl-C; ``.results`` holds the finished rows.
    """
    if store is not None and checkpoint is not None:
        raise ConfigError(
            "give the results store as store= or as checkpoint= (its former name), not both"
        )
    workloads, gpus, schemes = normalise(workload, gpu, scheme)
    base = None if baseline is None else [as_scheme(b) for b in listify(baseline, (Scheme,))]
    threads = serial_policies([*schemes, *(base or [])], threads, executor)
    axes = Axes.build(grid, zip, namespaces(schemes, workloads))
    plan = build_plan(workloads, gpus, schemes, axes, replicates, seed, base)
    if executor is not None:  # before the store is claimed
        from tbdse.simulation.executors import check_executor

        check_executor(executor)
    runner = Runner(
        plan, threads, progress, on_error, store if store is not None else checkpoint, timeout_s
    )
    try:
        runner.run(executor)
    except KeyboardInterrupt:
        raise SweepInterrupted(
            runner.frame(),
            f"sweep interrupted: {int(runner.done[: plan.main_runs].sum())} of "
            f"{plan.main_runs} runs finished (see .results)",
        ) from None
    finally:
        runner.close()
    return runner.frame()


def simulate(
    workload: Workload,
    gpu: Gpu | str | Mapping[str, Any],
    scheme: Scheme | str | Mapping[str, Any],
    *,
    seed: int = 0,
    replicate: int = 0,
    timeline: bool = False,
) -> Result:
    """Simulate one configuration.

    ``timeline=True`` records, per task, its SM, slot and ready/start/end cycles
    (:meth:`Result.timeline`), or for a simulator of another kind what it
    samples over time (:meth:`Result.trace`).  The same workload, GPU, scheme, seed and
    replicate give the same result as the matching row of a sweep.
    """
    for what, value in (("workload", workload), ("gpu", gpu), ("scheme", scheme)):
        if isinstance(value, (list, tuple)):
            raise ConfigError(f"simulate runs one configuration: give one {what}, or use sweep()")
    workloads, gpus, schemes = normalise(workload, gpu, scheme)
    replicate = whole(replicate, "replicate", 0, MAX_REPLICATES)
    axes = Axes.build(None, None, namespaces(schemes, workloads))
    plan = build_plan(workloads, gpus, schemes, axes, 1, seed, None)
    plan.replicate_of[:] = replicate
    out = plan.core().run_single(0, flag(timeline, "timeline"))
    return Result(plan, out)
