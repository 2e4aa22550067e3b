"""YAML experiment files: a sweep written down.

    name: quickstart
    gpu: gtx480                       # a preset, or {preset: gtx480, sms: 30}
    workload:                         # or workloads: [...]
      generator: wavefront            # or file: graph.stg
      rows: 32
      cols: 32
      cost: {model: lognormal, mean: 2000, sigma: 0.2}
    schemes: [global_barrier, cdp, deplinks, dataflow_ideal]
    grid: {gpu.sms: [4, 8, 15, 30]}
    baseline: global_barrier
    replicates: 3
    seed: 7
    outputs:
      tables: [parquet, csv]
      plots:
        - {kind: line, x: gpu.sms, y: speedup, file: speedup_vs_sms.png}

Validation reports every problem at once with file, line and key path, and
suggests the closest valid key for a misspelling.  See docs/experiments.md.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd
import yaml

from tbdse import cost as cost_mod
from tbdse._params import suggest
from tbdse._plan import Axes, Plan, build_plan, namespaces, resolve_key
from tbdse.errors import ConfigError, SweepInterrupted
from tbdse.gpus import Gpu, as_gpu
from tbdse.runner import _Runner
from tbdse.schemes import Scheme, as_scheme
from tbdse.workloads import GENERATORS, Kernel, Workload, make
from tbdse.yamlio import Located, Problems, load_yaml

__all__ = ["Experiment", "PlotSpec", "load"]

TOP_KEYS = (
    "name",
    "description",
    "seed",
    "replicates",
    "threads",
    "on_error",
    "gpu",
    "gpus",
    "workload",
    "workloads",
    "scheme",
    "schemes",
    "grid",
    "zip",
    "baseline",
    "outputs",
)
TABLE_FORMATS = ("parquet", "csv")
PLOT_KEYS: dict[str, tuple[str, ...]] = {
    "line": ("kind", "x", "y", "hue", "spread", "logx", "logy", "title", "file", "where"),
    "heatmap": ("kind", "x", "y", "value", "agg", "title", "file", "cmap", "where"),
    "bar": ("kind", "x", "y", "hue", "title", "file", "logy", "where"),
}
WORKLOAD_COMMON = ("generator", "file", "format", "name", "cost", "kernel")
KERNEL_KEYS = ("name", "threads", "regs_per_thread", "smem_bytes")


@dataclass
class PlotSpec:
    kind: str
    options: dict[str, Any]
    file: str
    where: dict[str, Any] = field(default_factory=dict)  # column -> value or list: rows to plot

    def rows(self, frame: pd.DataFrame) -> pd.DataFrame:
        from tbdse.results import column

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
    baseline: Scheme | None = None
    grid: dict[str, list[Any]] = field(default_factory=dict)
    zip: dict[str, list[Any]] = field(default_factory=dict)
    replicates: int = 1
    seed: int = 0
    threads: int | None = None
    on_error: str = "raise"
    tables: list[str] = field(default_factory=lambda: list(TABLE_FORMATS))
    plots: list[PlotSpec] = field(default_factory=list)
    description: str = ""
    source: str | None = None

    def plan(self) -> Plan:
        axes = Axes.build(self.grid, self.zip, namespaces(self.schemes, self.workloads))
        return build_plan(
            self.workloads, self.gpus, self.schemes, axes, self.replicates, self.seed, self.baseline
        )

    def resolved(self) -> dict[str, Any]:
        """The whole configuration with every default filled in (written as resolved.yaml)."""
        return {
            "name": self.name,
            "description": self.description,
            "seed": self.seed,
            "replicates": self.replicates,
            "on_error": self.on_error,
            "gpus": [{"name": g.name, **g.to_dict()} for g in self.gpus],
            "workloads": [
                {
                    "name": w.name,
                    "generator": w.generator,
                    **w.params,
                    "tasks": w.tasks,
                    "edges": w.edges,
                    "levels": w.levels,
                    "cost": w.cost.to_dict(),
                    "kernels": [vars(k) for k in w.kernels],
                }
                for w in self.workloads
            ],
            "schemes": [{"name": s.name, **s.params} for s in self.schemes],
            "baseline": {"name": self.baseline.name, **self.baseline.params}
            if self.baseline
            else None,
            "grid": self.grid,
            "zip": self.zip,
            "outputs": {
                "tables": self.tables,
                "plots": [
                    {"kind": p.kind, **p.options, "file": p.file, "where": p.where}
                    for p in self.plots
                ],
            },
        }

    def run(
        self,
        out_dir: str | Path,
        *,
        resume: bool = False,
        threads: int | None = None,
        progress: bool | None = None,
        echo: Callable[[str], None] = print,
    ) -> pd.DataFrame:
        """Runs the sweep and writes tables, figures and resolved.yaml into ``out_dir``.

        Finished chunks are checkpointed in ``out_dir/checkpoint``; with
        ``resume`` an interrupted run continues from there.
        """
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        checkpoint = out / "checkpoint"
        if checkpoint.exists() and not resume:
            shutil.rmtree(checkpoint)
        (out / "resolved.yaml").write_text(yaml.safe_dump(self.resolved(), sort_keys=False))
        plan = self.plan()
        runner = _Runner(plan, threads or self.threads, progress, self.on_error, checkpoint)
        restored = int(runner.done.sum())
        if restored:
            echo(f"resuming: {restored} of {plan.runs} runs already finished")
        try:
            runner.run()
        except KeyboardInterrupt:
            frame = runner.frame()
            frame.to_csv(out / "results.partial.csv", index=False)
            raise SweepInterrupted(
                frame,
                f"interrupted after {len(frame)} of {plan.main_runs} runs; finished runs are in "
                f"{checkpoint} (rerun with --resume to continue) and {out / 'results.partial.csv'}",
            ) from None
        frame = runner.frame()
        written = self._write(frame, out)
        shutil.rmtree(checkpoint, ignore_errors=True)
        (out / "results.partial.csv").unlink(missing_ok=True)
        for path in written:
            echo(f"wrote {path}")
        return frame

    def _write(self, frame: pd.DataFrame, out: Path) -> list[Path]:
        written = [out / "resolved.yaml"]
        for fmt in self.tables:
            path = out / f"results.{fmt}"
            if fmt == "parquet":
                frame.to_parquet(path, index=False)
            else:
                frame.to_csv(path, index=False)
            written.append(path)
        if self.plots:
            import matplotlib

            matplotlib.use("Agg", force=False)
            import matplotlib.pyplot as plt

            from tbdse import plot

            for spec in self.plots:
                draw: Callable[..., Any] = getattr(plot, spec.kind)
                ax = draw(spec.rows(frame), **spec.options)
                path = out / spec.file
                ax.figure.savefig(path, dpi=120, bbox_inches="tight")
                plt.close(ax.figure)
                written.append(path)
        return written


# ---------------------------------------------------------------------------- loading
def load(path: str | Path) -> Experiment:
    """Reads and validates an experiment file; ConfigError lists every problem."""
    doc = load_yaml(path)
    return from_document(doc, base_dir=Path(path).resolve().parent, default_name=Path(path).stem)


def from_dict(
    data: Mapping[str, Any], *, name: str = "experiment", base_dir: str | Path = "."
) -> Experiment:
    """An experiment from an already-parsed mapping (locations are unknown)."""
    return from_document(Located(dict(data), name), base_dir=Path(base_dir), default_name=name)


def from_document(doc: Located, *, base_dir: Path, default_name: str) -> Experiment:
    problems = Problems(doc)
    data = doc.data
    if not isinstance(data, Mapping):
        problems.add((), "an experiment file must be a mapping of keys to values")
        problems.raise_if_any()
    _unknown_keys(problems, (), data, TOP_KEYS)
    for one, many in (("gpu", "gpus"), ("workload", "workloads"), ("scheme", "schemes")):
        if one in data and many in data:
            problems.add((many,), f"give either '{one}' or '{many}', not both")
        elif one not in data and many not in data:
            problems.add((), f"missing '{many}' (or '{one}')")

    gpus = _each(problems, data, "gpu", "gpus", lambda v, p: _gpu(problems, v, p))
    workloads = _each(
        problems, data, "workload", "workloads", lambda v, p: _workload(problems, v, p, base_dir)
    )
    schemes = _each(problems, data, "scheme", "schemes", lambda v, p: _scheme(problems, v, p))
    baseline = (
        _scheme(problems, data["baseline"], ("baseline",))
        if data.get("baseline") is not None
        else None
    )
    seed = _number(problems, data, "seed", 0, minimum=0)
    replicates = _number(problems, data, "replicates", 1, minimum=1)
    threads = _number(problems, data, "threads", None, minimum=1)
    on_error = data.get("on_error", "raise")
    if on_error not in ("raise", "record"):
        problems.add(("on_error",), f"must be 'raise' or 'record'; got {on_error!r}")
    grid = _axes(problems, data, "grid", schemes, workloads)
    zipped = _axes(problems, data, "zip", schemes, workloads)
    if zipped and len({len(v) for v in zipped.values()}) > 1:
        problems.add(
            ("zip",),
            "zipped axes must all have the same number of values; got "
            + ", ".join(f"{k}: {len(v)}" for k, v in zipped.items()),
        )
    tables, plots = _outputs(problems, data.get("outputs"))
    problems.raise_if_any()

    exp = Experiment(
        name=str(data.get("name", default_name)),
        workloads=workloads,
        gpus=gpus,
        schemes=schemes,
        baseline=baseline,
        grid=grid,
        zip=zipped,
        replicates=replicates,
        seed=seed,
        threads=threads,
        on_error=on_error,
        tables=tables,
        plots=plots,
        description=str(data.get("description", "")),
        source=doc.file,
    )
    _check_sweep(problems, exp)
    problems.raise_if_any()
    return exp


def _unknown_keys(
    problems: Problems,
    path: tuple[Any, ...],
    data: Mapping[str, Any],
    valid: tuple[str, ...] | list[str],
) -> None:
    for key in data:
        if key not in valid:
            problems.add(
                (*path, key),
                f"unknown key '{key}'{suggest(str(key), valid)}; valid keys: {', '.join(valid)}",
            )


def _each(
    problems: Problems,
    data: Mapping[str, Any],
    one: str,
    many: str,
    build: Callable[[Any, tuple[Any, ...]], Any],
) -> list[Any]:
    if many in data:
        items = data[many]
        if not isinstance(items, list) or not items:
            problems.add((many,), "must be a non-empty list")
            return []
        built = [build(v, (many, i)) for i, v in enumerate(items)]
    elif one in data:
        built = [build(data[one], (one,))]
    else:
        return []
    return [b for b in built if b is not None]


def _guard(problems: Problems, path: tuple[Any, ...], make_it: Callable[[], Any]) -> Any:
    try:
        return make_it()
    except ConfigError as exc:
        problems.add(path, str(exc))
        return None


def _gpu(problems: Problems, value: Any, path: tuple[Any, ...]) -> Gpu | None:
    if isinstance(value, Mapping):
        from tbdse.gpus import field_names

        _unknown_keys(problems, path, value, ["preset", "name", *field_names()])
    return _guard(problems, path, lambda: as_gpu(value))


def _scheme(problems: Problems, value: Any, path: tuple[Any, ...]) -> Scheme | None:
    if isinstance(value, Mapping) and isinstance(value.get("name"), str):
        from tbdse.schemes import info, names

        if value["name"] in names():
            valid = ["name", "label", *[p["name"] for p in info(value["name"])["params"]]]
            _unknown_keys(problems, path, value, valid)
            bad = [k for k in value if k not in valid]
            if bad:
                return None
    return _guard(problems, path, lambda: as_scheme(value))


def _cost(problems: Problems, value: Any, path: tuple[Any, ...]) -> cost_mod.CostModel | None:
    if isinstance(value, Mapping) and value.get("model") in cost_mod.kinds():
        valid = ["model", *cost_mod.kinds()[value["model"]]]
        if value["model"] in ("per_kernel", "array"):
            valid.append("table")
        _unknown_keys(problems, path, value, valid)
        if any(k not in valid for k in value):
            return None
    return _guard(problems, path, lambda: cost_mod.as_cost(value))


def _kernel(problems: Problems, value: Any, path: tuple[Any, ...]) -> Kernel | None:
    if not isinstance(value, Mapping):
        problems.add(path, f"a kernel is a mapping with {', '.join(KERNEL_KEYS)}; got {value!r}")
        return None
    _unknown_keys(problems, path, value, KERNEL_KEYS)
    if any(k not in KERNEL_KEYS for k in value):
        return None
    return _guard(problems, path, lambda: Kernel(**value))


def _workload(
    problems: Problems, value: Any, path: tuple[Any, ...], base_dir: Path
) -> Workload | None:
    if not isinstance(value, Mapping):
        problems.add(path, f"a workload is a mapping with 'generator' (or 'file'); got {value!r}")
        return None
    spec = dict(value)
    if "file" in spec:
        file = Path(str(spec.pop("file")))
        file = file if file.is_absolute() else base_dir / file
        fmt = spec.pop("format", "stg" if file.suffix.lower() == ".stg" else "edge_list")
        if "generator" in spec:
            problems.add((*path, "generator"), "give either 'file' or 'generator', not both")
            return None
        spec["generator"], spec["path"] = fmt, str(file)
    gen_name = spec.pop("generator", None)
    if gen_name not in GENERATORS:
        where = (*path, "generator") if gen_name is not None else path
        problems.add(
            where,
            f"unknown workload generator {gen_name!r}"
            f"{suggest(str(gen_name), GENERATORS)}; valid: {', '.join(sorted(GENERATORS))}"
            if gen_name is not None
            else "a workload needs 'generator' (or 'file')",
        )
        return None
    gen = GENERATORS[gen_name]
    valid = [*WORKLOAD_COMMON, *gen.params]
    _unknown_keys(problems, path, spec, valid)
    if any(k not in valid and k != "path" for k in spec):
        return None
    kwargs: dict[str, Any] = {k: v for k, v in spec.items() if k in gen.params or k == "name"}
    if "cost" in spec:
        kwargs["cost"] = _cost(problems, spec["cost"], (*path, "cost"))
        if kwargs["cost"] is None:
            return None
    if "kernel" in spec:
        kwargs["kernel"] = _kernel(problems, spec["kernel"], (*path, "kernel"))
        if kwargs["kernel"] is None:
            return None
    return _guard(problems, path, lambda: make(gen_name, **kwargs))


def _number(
    problems: Problems, data: Mapping[str, Any], key: str, default: Any, minimum: int
) -> Any:
    value = data.get(key, default)
    if value is default:
        return value
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        problems.add((key,), f"must be a whole number >= {minimum}; got {value!r}")
        return default
    return value


def _axes(
    problems: Problems,
    data: Mapping[str, Any],
    key: str,
    schemes: list[Scheme],
    workloads: list[Workload],
) -> dict[str, list[Any]]:
    value = data.get(key)
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        problems.add((key,), "must be a mapping of parameter -> list of values")
        return {}
    spaces = namespaces(schemes, workloads)
    out = {}
    for name, values in value.items():
        if not isinstance(values, list) or not values:
            problems.add((key, name), f"needs a non-empty list of values; got {values!r}")
            continue
        if schemes and workloads:
            try:
                resolve_key(name, spaces)
            except ConfigError as exc:
                problems.add((key, name), str(exc))
                continue
        out[name] = values
    return out


def _outputs(problems: Problems, value: Any) -> tuple[list[str], list[PlotSpec]]:
    if value is None:
        return list(TABLE_FORMATS), []
    if not isinstance(value, Mapping):
        problems.add(("outputs",), "must be a mapping with 'tables' and/or 'plots'")
        return list(TABLE_FORMATS), []
    _unknown_keys(problems, ("outputs",), value, ("tables", "plots"))
    tables = value.get("tables", list(TABLE_FORMATS))
    if not isinstance(tables, list) or any(t not in TABLE_FORMATS for t in tables):
        problems.add(
            ("outputs", "tables"),
            f"must be a list drawn from {', '.join(TABLE_FORMATS)}; got {tables!r}",
        )
        tables = list(TABLE_FORMATS)
    plots = []
    for i, spec in enumerate(value.get("plots") or []):
        path = ("outputs", "plots", i)
        if not isinstance(spec, Mapping):
            problems.add(path, "a plot is a mapping with 'kind', axes and 'file'")
            continue
        kind = spec.get("kind")
        if kind not in PLOT_KEYS:
            problems.add(
                (*path, "kind"),
                f"must be one of {', '.join(PLOT_KEYS)}; got {kind!r}"
                f"{suggest(str(kind), PLOT_KEYS)}",
            )
            continue
        _unknown_keys(problems, path, spec, PLOT_KEYS[kind])
        required = ("x", "y") if kind != "heatmap" else ("x", "y", "value")
        for r in required:
            if r not in spec:
                problems.add(path, f"a {kind} plot needs '{r}'")
        file = spec.get("file", f"plot{i}_{kind}.png")
        if not isinstance(file, str) or not file.endswith((".png", ".pdf", ".svg")):
            problems.add((*path, "file"), f"must be a .png, .pdf or .svg file name; got {file!r}")
            continue
        where = spec.get("where") or {}
        if not isinstance(where, Mapping):
            problems.add((*path, "where"), "must map result columns to a value or a list of values")
            continue
        options = {k: v for k, v in spec.items() if k not in ("kind", "file", "where")}
        plots.append(PlotSpec(kind, options, file, dict(where)))
    return list(tables), plots


def _check_sweep(problems: Problems, exp: Experiment) -> None:
    """Builds the run table and validates every run; checks plot columns exist."""
    try:
        plan = exp.plan()
        runner = _Runner(plan, exp.threads, False, exp.on_error, None)
    except ConfigError as exc:
        problems.add(("grid",) if exp.grid else (), str(exc))
        return
    columns = set(runner.frame().columns)

    def check(path: tuple[Any, ...], name: Any) -> None:
        if name not in columns and not any(
            f"{t}.{name}" in columns for t in ("gpu", "workload", "cost")
        ):
            problems.add(path, f"no result column '{name}'{suggest(str(name), columns)}")

    for i, spec in enumerate(exp.plots):
        for axis in ("x", "y", "hue", "value"):
            if spec.options.get(axis) is not None:
                check(("outputs", "plots", i, axis), spec.options[axis])
        for name in spec.where:
            check(("outputs", "plots", i, "where", name), name)


def count_runs(exp: Experiment) -> int:
    return exp.plan().main_runs
