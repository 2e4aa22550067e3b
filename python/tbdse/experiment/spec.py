"""The Experiment: a parsed experiment file, its plan, its run and its outputs
(tbdse.experiment.file builds one from YAML)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd
import yaml

from tbdse.errors import ConfigError, SweepInterrupted
from tbdse.experiment.dse_sections import SearchSpec
from tbdse.experiment.outdir import MANIFEST, STORE, OutputFolder
from tbdse.experiment.trace_pick import check_selector, pick_run
from tbdse.io import inputs as _inputs
from tbdse.io.files import write_text
from tbdse.machine.gpus import Gpu
from tbdse.schemes import Scheme
from tbdse.schemes.reads import GpuValues, gpu_values
from tbdse.simulation.axes import Axes, gpu_axes, namespaces
from tbdse.simulation.plan import Plan, build_plan
from tbdse.simulation.result import Result
from tbdse.simulation.runner import Runner
from tbdse.workloads import Workload

__all__ = ["TABLE_FORMATS", "TRACE", "Experiment", "PlotSpec"]

TABLE_FORMATS = ("parquet", "csv")
TRACE = "trace.json"  # tbdse run --trace [RUN]: one run's timeline (Perfetto)


@dataclass
class PlotSpec:
    kind: str
    options: dict[str, Any]
    file: str
    where: dict[str, Any] = field(default_factory=dict)  # column -> value or list: rows to plot

    def rows(self, frame: pd.DataFrame) -> pd.DataFrame:
        from tbdse.simulation.results import column

        for name, wanted in self.where.items():
            values = wanted if isinstance(wanted, list) else [wanted]
            frame = frame[frame[column(frame, name)].isin(values)]
        return frame


@dataclass
class Experiment:
    """A validated experiment: what to sweep and what to write."""

    name: str
    workloads: list[Workload]
    gpus: list[Gpu]
    schemes: list[Scheme]
    baseline: Scheme | list[Scheme] | None = None
    grid: dict[str, list[Any]] = field(default_factory=dict)
    zip: dict[str, list[Any]] = field(default_factory=dict)
    replicates: int = 1
    seed: int = 0
    threads: int | None = None
    on_error: str = "raise"
    expect_failures: bool = False  # with on_error 'record': failed runs do not fail `tbdse run`
    timeout_s: float | None = None  # per run; a run past it is a timed_out row
    tables: list[str] = field(default_factory=lambda: list(TABLE_FORMATS))
    plots: list[PlotSpec] = field(default_factory=list)
    description: str = ""
    source: str | None = None
    input_root: Path | None = None  # files the sweep reads must lie below it (tbdse.io.inputs)
    search: SearchSpec | None = None  # an Optuna search instead of grid/zip (_dse_sections)
    # The last plan and what it was built from (the objects themselves, held,
    # so that a new object cannot pass for a freed one): loading a file builds
    # the plan to validate it, and running it would build the same again
    # (every workload generated a second time).
    _planned: tuple[tuple[Any, ...], tuple[Any, ...], Plan] | None = field(
        default=None, init=False, repr=False, compare=False
    )

    def plan(self) -> Plan:
        """The sweep's runs (for a search: one point of its space, which is how
        the file is validated and its plots checked); built once for the same
        workloads, GPUs, schemes, baseline, search, axes, replicates and seed."""
        base = self.baseline if isinstance(self.baseline, list) else [self.baseline]
        objects = (*self.workloads, None, *self.gpus, None, *self.schemes, None, *base, self.search)
        values = (repr(self.grid), repr(self.zip), self.replicates, self.seed, self.input_root)
        cached = self._planned
        if (
            cached is None
            or cached[1] != values
            or len(cached[0]) != len(objects)
            or any(a is not b for a, b in zip(cached[0], objects, strict=True))
        ):
            self._planned = cached = (objects, values, self._build_plan())
        return cached[2]

    def _build_plan(self) -> Plan:
        zipped = self.zip
        if self.search is not None:
            from tbdse.dse import space
            from tbdse.dse.search import check_space_reads

            check_space_reads(self.schemes, self.search.space, self.gpus, self.workloads)
            zipped = space.sample(self.search.space, 1, "random", seed=self.seed)
        # A swept workload parameter runs its generator again, which may read a file.
        with _inputs.input_root(self.input_root):
            axes = Axes.build(self.grid, zipped, namespaces(self.schemes, self.workloads))
            return build_plan(
                self.workloads,
                self.gpus,
                self.schemes,
                axes,
                self.replicates,
                self.seed,
                self.baseline,
            )

    def resolved(self) -> dict[str, Any]:
        """The whole configuration with every default filled in (written as
        resolved.yaml); a GPU as its preset and the fields set on it.

        It is itself an experiment file: loading it gives the same runs, as long
        as every workload comes from a generator or a file (a workload built in
        Python from an edge list or networkx has no description to write).
        """
        gpu = self._gpu_values()
        out: dict[str, Any] = {
            "name": self.name,
            "description": self.description,
            "seed": self.seed,
            "replicates": self.replicates,
            "on_error": self.on_error,
            "expect_failures": self.expect_failures,
            "gpus": [g.to_entry() for g in self.gpus],
            "workloads": [_workload_entry(w) for w in self.workloads],
            "schemes": [_scheme_entry(s, gpu) for s in self.schemes],
        }
        if self.threads is not None:
            out["threads"] = self.threads
        if self.timeout_s is not None:
            out["timeout_s"] = self.timeout_s
        if isinstance(self.baseline, Scheme):
            out["baseline"] = _scheme_entry(self.baseline, gpu)
        elif self.baseline:
            out["baseline"] = [_scheme_entry(b, gpu) for b in self.baseline]
        if self.grid:
            out["grid"] = self.grid
        if self.zip:
            out["zip"] = self.zip
        if self.search is not None:
            out["search"] = self.search.given
        out["outputs"] = {
            "tables": self.tables,
            "plots": [
                {
                    "kind": p.kind,
                    **p.options,
                    "file": p.file,
                    **({"where": p.where} if p.where else {}),
                }
                for p in self.plots
            ],
        }
        return out

    def _gpu_values(self) -> GpuValues:
        """The values each GPU field takes over the GPUs and GPU axes (grid,
        zip, search space): a default read on none of them is not written."""
        entries: dict[str, Any] = {**self.grid, **self.zip}
        if self.search is not None:
            from tbdse.dse.search import representatives

            entries.update(representatives(self.search.space))
        return gpu_values(self.gpus, gpu_axes(entries, namespaces(self.schemes, self.workloads)))

    def outputs(self) -> list[str]:
        """The files a complete run writes into its output folder."""
        return ["resolved.yaml", *(f"results.{fmt}" for fmt in self.tables)] + [
            p.file for p in self.plots
        ]

    def run(
        self,
        out_dir: str | Path,
        *,
        resume: bool = True,
        overwrite: bool = False,
        threads: int | None = None,
        progress: bool | None = None,
        echo: Callable[[str], None] = print,
        executor: Any = None,
        provenance: dict[str, Any] | None = None,
        trace: bool | int | str = False,
    ) -> pd.DataFrame:
        """Runs the sweep and writes tables, figures and resolved.yaml into ``out_dir``.

        ``provenance`` (command line, overrides, version, git commit, host,
        start: what ``tbdse run`` passes) is recorded in the folder's manifest
        with the run's end time.  ``trace`` also writes ``trace.json``, a run's
        timeline for ui.perfetto.dev (:meth:`Result.to_perfetto`): True the
        first run's, a number that row's of the results, a text a
        configuration hash's (``config_hash``, or a unique prefix of 4+ digits).

        The frame's ``attrs`` say what this call did: ``runs_simulated`` and
        ``runs_reused`` (from the results store).

        ``executor`` (a ``distributed.Client`` or a scheduler address) runs the
        chunks on a Dask cluster (:mod:`tbdse.simulation.executors`).

        Every finished chunk goes to the results store ``out_dir/store``
        (:mod:`tbdse.simulation.store`), which stays after the run: a rerun, an extended
        grid or an interrupted run simulates only what the store lacks
        (``resume`` is accepted for compatibility; stored runs are always
        reused).  A folder holding another experiment's results is refused
        unless ``overwrite``; tbdse never replaces or deletes a file it cannot
        prove it wrote (``tbdse-run.json`` lists them with their content's
        hash), and holds the folder's lock for the whole run.
        """
        del resume
        trace = check_selector(trace)
        first = trace is True or trace in (0, "0")
        if trace is not False and not first and self.search is not None:
            raise ConfigError(
                f"search experiment '{self.name}': --trace records its first trial only "
                "(its trials are chosen as it runs, so they have no row numbers beforehand)"
            )
        if executor is not None:  # a bad address is refused before the folder is claimed
            from tbdse.simulation.executors import check_executor

            check_executor(executor)
        out = OutputFolder(
            out_dir,
            self.name,
            self.source,
            self.outputs() + ([TRACE] if trace is not False else []),
            overwrite=overwrite,
            provenance=provenance,
        )
        try:
            return self._run_in(out, threads, progress, echo, executor, trace)
        finally:
            out.close()

    def _run_in(
        self,
        out: OutputFolder,
        threads: int | None,
        progress: bool | None,
        echo: Callable[[str], None],
        executor: Any,
        trace: bool | int | str = False,
    ) -> pd.DataFrame:
        resolved = yaml.safe_dump(self.resolved(), sort_keys=False)
        out.write("resolved.yaml", lambda p: write_text(p, resolved))
        try:
            if self.search is not None:
                frame = self._search_rows(out, threads, progress, executor)
            else:
                frame = self._sweep_rows(out, threads, progress, echo, executor)
        except SweepInterrupted as exc:
            rows: pd.DataFrame = exc.results  # type: ignore[assignment]
            partial = out.write("results.partial.csv", lambda p: rows.to_csv(p, index=False))
            raise SweepInterrupted(
                rows,
                f"{exc}; finished runs are in the results store {out.store.path} (rerun to "
                f"continue) and {partial}",
            ) from None
        if trace is not False:  # a RUN naming none is refused before any table is written
            plan = self.plan()
            traced = plan.single(pick_run(trace, frame, plan.main_runs))
        written = self._write(frame, out)
        if trace is not False:
            from tbdse.plot.perfetto import perfetto_writer

            timeline = traced.core().run_single(0, True)  # the run again, with its timeline
            out.write(TRACE, perfetto_writer(Result(traced, timeline)))
            written.append(TRACE)
        out.finish(written)
        for rel in written:
            echo(f"wrote {out.path / rel}")
        return frame

    def _sweep_rows(
        self,
        out: OutputFolder,
        threads: int | None,
        progress: bool | None,
        echo: Callable[[str], None],
        executor: Any,
    ) -> pd.DataFrame:
        from tbdse.simulation.arguments import serial_policies

        plan = self.plan()
        threads = serial_policies(plan.schemes, threads or self.threads, executor)
        runner = Runner(plan, threads, progress, self.on_error, out.store, self.timeout_s)
        restored = runner.restored
        to_run = plan.runs - int(runner.done.sum())  # infeasible runs are neither
        if restored:
            echo(f"reusing {restored} of {plan.runs} runs from the results store {out.store.path}")
        try:
            runner.run(executor)
        except KeyboardInterrupt:
            frame = runner.frame()
            raise SweepInterrupted(
                frame, f"interrupted after {len(frame)} of {plan.main_runs} runs"
            ) from None
        frame = runner.frame()
        frame.attrs["runs_simulated"] = to_run
        frame.attrs["runs_reused"] = restored
        return frame

    def _search_rows(
        self, out: OutputFolder, threads: int | None, progress: bool | None, executor: Any
    ) -> pd.DataFrame:
        from tbdse.dse.search import search

        spec = self.search
        assert spec is not None
        return search(
            self.workloads[0],
            self.gpus[0],
            self.schemes[0],
            space=spec.space,
            objectives=spec.objectives,
            trials=spec.trials,
            batch=spec.batch,
            sampler=spec.sampler,
            seed=self.seed if spec.seed is None else spec.seed,
            baseline=self.baseline,
            replicates=self.replicates,
            threads=threads or self.threads,
            progress=progress,
            store=out.store,
            executor=executor,
            timeout_s=self.timeout_s,
        )

    def plot(self, out_dir: str | Path, *, echo: Callable[[str], None] = print) -> pd.DataFrame:
        """Redraws the figures into ``out_dir`` from its results store, without
        simulating: the rows of this experiment's runs that the store holds
        (a run the store lacks is left out, and said so).  Returns those rows.

        The folder must hold this experiment's results (same name); its tables
        are left as they are.
        """
        if not (Path(out_dir) / MANIFEST).is_file():
            raise ConfigError(
                f"{out_dir} holds no results of experiment '{self.name}' (no {MANIFEST}); "
                "run it first: tbdse run FILE -o FOLDER"
            )
        if self.search is not None:
            # its trials are not the plan's runs: only running it again draws them
            raise ConfigError(
                f"tbdse plot cannot redraw the figures of search experiment '{self.name}' (its "
                f"trials are chosen as it runs); run it again instead, which reuses the stored "
                f"runs: tbdse run FILE -o {out_dir}"
            )
        if not (Path(out_dir) / STORE / "tbdse-store.json").is_file():
            raise ConfigError(f"{out_dir} has no results store ({STORE}/): no rows to plot")
        out = OutputFolder(out_dir, self.name, self.source, [], overwrite=False, any_source=True)
        try:
            runner = Runner(self.plan(), 1, False, "record", out.store)
            frame = runner.frame()
            if frame.empty:  # a figure is never replaced by an empty one
                out.finish(list(out.files), prune=False)
                raise ConfigError(
                    f"the results store {out.store.path} holds no rows of this experiment's "
                    "runs (or of this build of tbdse): no rows to plot, figures left as they "
                    "are; run it again: tbdse run FILE -o " + str(out_dir)
                )
            missing = runner.plan.main_runs - len(frame)
            if missing:
                echo(f"{missing} of {runner.plan.main_runs} runs are not in the store; not drawn")
            written = self._write_plots(frame, out)
            out.finish([*out.files, *written], prune=False)
        finally:
            out.close()
        for rel in written:
            echo(f"wrote {out.path / rel}")
        return frame

    def _write(self, frame: pd.DataFrame, out: OutputFolder) -> list[str]:
        written = ["resolved.yaml"]
        for fmt in self.tables:
            rel = f"results.{fmt}"
            if fmt == "parquet":
                out.write(rel, lambda p: frame.to_parquet(p, index=False))
            else:
                out.write(rel, lambda p: frame.to_csv(p, index=False))
            written.append(rel)
        return written + self._write_plots(frame, out)

    def _write_plots(self, frame: pd.DataFrame, out: OutputFolder) -> list[str]:
        written: list[str] = []
        if self.plots:
            import matplotlib.pyplot as plt

            from tbdse import plot

            for spec in self.plots:
                figure = plot.draw(spec.kind, frame, where=spec.where or None, **spec.options)
                fmt = Path(spec.file).suffix[1:]
                out.write(spec.file, _save_figure(figure, fmt))
                plt.close(figure)  # a faceted grid's figure is pyplot's
                written.append(spec.file)
        return written


def _save_figure(figure: Any, fmt: str) -> Callable[[Path], None]:
    def save(path: Path) -> None:
        figure.savefig(path, dpi=120, bbox_inches="tight", format=fmt)

    return save


def _workload_entry(w: Workload) -> dict[str, Any]:
    entry: dict[str, Any] = {"name": w.name, "generator": w.generator, **w.params}
    if w.cost is not None:  # a task graph's; a model input has neither
        entry["cost"] = w.cost.to_dict()
        entry["kernels"] = [vars(k).copy() for k in w.kernels]
    return entry


def _scheme_entry(s: Scheme, gpu: GpuValues) -> dict[str, Any]:
    spec = getattr(s, "spec", None)
    if spec is not None:  # a user policy from an experiment file: its entry as written
        return dict(spec)
    entry: dict[str, Any] = {"name": s.name, **s.read_params(gpu)}
    if s.custom_label is not None:
        entry["label"] = s.custom_label
    return entry
