"""Reading an experiment file: every key checked, every problem reported with
its file, line and key path (see docs/experiments.md for the format)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from tbdse._util.checks import whole
from tbdse._util.excerpts import excerpt, quoted
from tbdse._util.params import suggest
from tbdse.errors import ConfigError
from tbdse.experiment.dse_sections import parse_sample, parse_search
from tbdse.experiment.outdir import LOCK, MANIFEST, STORE
from tbdse.experiment.spec import TABLE_FORMATS, Experiment, PlotSpec
from tbdse.io.yamlio import Located, Problems
from tbdse.machine.gpus import Gpu, as_gpu
from tbdse.schemes import Scheme, as_scheme
from tbdse.simulation.plan import MAX_REPLICATES, axis_values, namespaces, resolve_key
from tbdse.simulation.runner import Runner, check_timeout
from tbdse.workloads import GENERATORS, Kernel, Workload, make
from tbdse.workloads import cost as cost_mod
from tbdse.workloads.base import KERNEL_RESOURCES

TOP_KEYS = (
    "name",
    "description",
    "seed",
    "replicates",
    "threads",
    "on_error",
    "expect_failures",
    "timeout_s",
    "gpu",
    "gpus",
    "workload",
    "workloads",
    "scheme",
    "schemes",
    "grid",
    "zip",
    "sample",
    "search",
    "baseline",
    "outputs",
)
# Every kind: axis labels, the figure's size in inches and a matplotlib style.
_FIGURE_KEYS = ("xlabel", "ylabel", "figsize", "style")
_FACETS = ("facet", "row", "col", "sharex", "sharey")
PLOT_KEYS: dict[str, tuple[str, ...]] = {
    "line": ("kind", "x", "y", "hue", *_FACETS, "spread", "logx", "logy", "title", "file", "where"),
    "heatmap": (
        *("kind", "x", "y", "value", "facet", "row", "col", "agg", "title", "file", "cmap"),
        "where",
    ),
    "bar": ("kind", "x", "y", "hue", *_FACETS, "title", "file", "logy", "summary", "where"),
    "scatter": ("kind", "x", "y", "hue", *_FACETS, "logx", "logy", "title", "file", "where"),
    "pareto": ("kind", "x", "y", "directions", "hue", "logx", "logy", "title", "file", "where"),
}
PLOT_CHOICES = {
    "spread": ("minmax", "std", "none"),
    "agg": ("mean", "median", "min", "max"),
    "summary": ("none", "gmean"),
}
PLOT_KEYS = {kind: (*keys, *_FIGURE_KEYS) for kind, keys in PLOT_KEYS.items()}
# A workload read from a file: its format, and the generator that reads it.
FILE_GENERATORS = {
    "stg": "stg",
    "edge_list": "edge_list",
    "application": "application_file",
    "tasks": "tasks_file",
    "cfg": "cfg_file",
    "dot": "dot",
    "wfcommons": "wfcommons",
    "matrix_market": "matrix_market",
}
# Matched after a ".gz" (read decompressed) is set aside.
FILE_FORMAT_BY_SUFFIX = {
    ".tasks.yaml": "tasks",
    ".tasks.yml": "tasks",
    ".stg": "stg",
    ".dot": "dot",
    ".gv": "dot",
    ".json": "wfcommons",
    ".mtx": "matrix_market",
    ".yaml": "application",
    ".yml": "application",
}
WORKLOAD_COMMON = ("generator", "file", "format", "name", "cost", "kernel", "kernels")
KERNEL_KEYS = ("name", *KERNEL_RESOURCES)
# Generators of workloads that are not task graphs (no cost model, no kernels).
MODEL_GENERATORS = (
    "bfs",
    "sssp",
    "lonestar",
    "rodinia",
    "divergent_cfg",
    "cfg_file",
    "vgiw_example",
)


def parse(doc: Located, *, base_dir: Path, default_name: str) -> Experiment:
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
    baseline: Scheme | list[Scheme] | None = None
    if isinstance(data.get("baseline"), list):  # several: the best of them serves
        made = [_scheme(problems, b, ("baseline", i)) for i, b in enumerate(data["baseline"])]
        if not made:
            problems.add(("baseline",), "must name a scheme or a non-empty list of schemes")
        baseline = [b for b in made if b is not None]
    elif data.get("baseline") is not None:
        baseline = _scheme(problems, data["baseline"], ("baseline",))
    seed = _number(problems, data, "seed", 0, 0, 2**63 - 1)
    replicates = _number(problems, data, "replicates", 1, 1, MAX_REPLICATES)
    threads = _number(problems, data, "threads", None, 1, 4096)
    on_error = data.get("on_error", "raise")
    if on_error not in ("raise", "record"):
        problems.add(("on_error",), f"must be 'raise' or 'record'; got {excerpt(on_error)}")
    expect_failures = data.get("expect_failures", False)
    if not isinstance(expect_failures, bool):
        problems.add(("expect_failures",), f"must be true or false; got {excerpt(expect_failures)}")
    elif expect_failures and on_error != "record":
        problems.add(
            ("expect_failures",), "goes with 'on_error: record' (failed runs are kept as rows)"
        )
    timeout_s = None
    try:
        timeout_s = check_timeout(data.get("timeout_s"))
    except ConfigError as exc:
        problems.add(("timeout_s",), str(exc))
    grid = _axes(problems, data, "grid", schemes, workloads)
    zipped = _axes(problems, data, "zip", schemes, workloads)
    if zipped and len({len(v) for v in zipped.values()}) > 1:
        problems.add(
            ("zip",),
            "zipped axes must all have the same number of values; got "
            + ", ".join(f"{k}: {len(v)}" for k, v in zipped.items()),
        )
    if "sample" in data:
        if zipped:
            problems.add(("sample",), "give either 'zip' or 'sample' (its points are zipped axes)")
        else:
            zipped = parse_sample(problems, data["sample"], seed or 0)
    search = parse_search(problems, data["search"]) if "search" in data else None
    if "search" in data:
        for key in ("grid", "zip", "sample"):
            if key in data:
                problems.add(
                    (key,),
                    f"'{key}' and 'search' exclude each other: a search chooses the points itself",
                )
        for one, many, got in (
            ("gpu", "gpus", gpus),
            ("workload", "workloads", workloads),
            ("scheme", "schemes", schemes),
        ):
            if len(got) > 1:
                problems.add((many,), f"a search runs one {one}; got {len(got)}")
    tables, plots = _outputs(problems, data.get("outputs"))
    # str() of a list or mapping would pass silently into tables and file names.
    if "description" in data and not isinstance(data["description"], str):
        problems.add(("description",), f"must be text; got {excerpt(data['description'])}")
    name = data.get("name", default_name)
    why = name_problem(name)
    if why is not None:
        # The name picks the default output folder (results/<name>/...): a
        # shared file must not choose where a run writes.
        said = "got" if "name" in data else "the default name given is"
        problems.add(("name",), f"{why}; {said} {excerpt(name)}")
    problems.raise_if_any()

    exp = Experiment(
        name=str(name),
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
        expect_failures=expect_failures is True,
        timeout_s=timeout_s,
        search=search,
        tables=tables,
        plots=plots,
        description=str(data.get("description", "")),
        source=doc.file,
    )
    _check_sweep(problems, exp)
    problems.raise_if_any()
    return exp


NAME_MAX = 100
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
NAME_RULE = (
    f"must be one folder name of 1 to {NAME_MAX} letters, digits, '.', '_' or '-' "
    "(no '/', not starting with '.' or '-')"
)


def name_problem(name: Any) -> str | None:
    """Why ``name`` cannot be an experiment's name, or None: it names the
    folder results/<name>/ of a run without -o, so it is one path component."""
    if (
        not isinstance(name, str)
        or not 1 <= len(name) <= NAME_MAX
        or not set(name) <= _NAME_CHARS
        or name[0] in ".-"
    ):
        return NAME_RULE
    return None


def default_name(stem: str) -> str:
    """An experiment's name from its file's name: the characters a name may
    not hold become '_' (``my exp.yaml`` -> ``my_exp``)."""
    name = "".join(c if c in _NAME_CHARS else "_" for c in stem)[:NAME_MAX].lstrip(".-")
    return name or "experiment"


def _one_of(value: Any, names: Any) -> bool:
    """``value`` is one of the names (a list or mapping in the file is not, and
    must not reach a dict lookup, where it is unhashable)."""
    return isinstance(value, str) and value in names


def _unknown_keys(
    problems: Problems,
    path: tuple[Any, ...],
    data: Mapping[str, Any],
    valid: tuple[str, ...] | list[str],
    replaced: Mapping[str, str] | None = None,
) -> None:
    """A problem per key not in ``valid``; ``replaced``: removed keys -> what replaced them."""
    replaced = replaced or {}
    for key in data:
        if key not in valid:
            hint = f"; '{key}' was replaced {replaced[key]}" if key in replaced else ""
            problems.add(
                (*path, key),
                f"unknown key {quoted(key)}{suggest(str(key), valid)}; "
                f"valid keys: {', '.join(valid)}" + hint,
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
        from tbdse.machine.gpus import field_names

        _unknown_keys(problems, path, value, ["preset", "name", *field_names()])
    return _guard(problems, path, lambda: as_gpu(value))


def _scheme(problems: Problems, value: Any, path: tuple[Any, ...]) -> Scheme | None:
    if isinstance(value, Mapping) and "policy" in value and "name" not in value:
        from tbdse.schemes.policies import from_spec  # a user policy: imported only when allowed

        return _guard(problems, path, lambda: from_spec(value))
    if isinstance(value, Mapping) and isinstance(value.get("name"), str):
        from tbdse.schemes import REPLACED_PARAMS, info, names

        if value["name"] in names():
            valid = ["name", "label", *[p["name"] for p in info(value["name"])["params"]]]
            _unknown_keys(problems, path, value, valid, REPLACED_PARAMS)
            bad = [k for k in value if k not in valid]
            if bad:
                return None
    return _guard(problems, path, lambda: as_scheme(value))


def _cost(problems: Problems, value: Any, path: tuple[Any, ...]) -> cost_mod.CostModel | None:
    if isinstance(value, Mapping) and _one_of(value.get("model"), cost_mod.kinds()):
        valid = ["model", *cost_mod.kinds()[value["model"]]]
        if value["model"] in ("per_kernel", "array"):
            valid.append("table")
        _unknown_keys(problems, path, value, valid)
        if any(k not in valid for k in value):
            return None
    return _guard(problems, path, lambda: cost_mod.as_cost(value))


def _kernel(problems: Problems, value: Any, path: tuple[Any, ...]) -> Kernel | None:
    if not isinstance(value, Mapping):
        problems.add(
            path, f"a kernel is a mapping with {', '.join(KERNEL_KEYS)}; got {excerpt(value)}"
        )
        return None
    _unknown_keys(problems, path, value, KERNEL_KEYS)
    if any(k not in KERNEL_KEYS for k in value):
        return None
    return _guard(problems, path, lambda: Kernel(**value))


def _workload(
    problems: Problems, value: Any, path: tuple[Any, ...], base_dir: Path
) -> Workload | None:
    if not isinstance(value, Mapping):
        problems.add(
            path, f"a workload is a mapping with 'generator' (or 'file'); got {excerpt(value)}"
        )
        return None
    spec = dict(value)
    if "file" in spec:
        if "generator" in spec:
            problems.add((*path, "generator"), "give either 'file' or 'generator', not both")
            return None
        if not isinstance(spec["file"], str):
            problems.add((*path, "file"), f"must be a file name; got {excerpt(spec['file'])}")
            return None
        file = Path(spec.pop("file"))
        file = file if file.is_absolute() else base_dir / file
        fmt = spec.pop("format", _format_by_suffix(file))
        if not _one_of(fmt, FILE_GENERATORS):
            formats = ", ".join(f"'{f}'" for f in FILE_GENERATORS)
            problems.add((*path, "format"), f"must be one of {formats}; got {excerpt(fmt)}")
            return None
        spec["generator"], spec["path"] = FILE_GENERATORS[fmt], str(file)
    elif "format" in spec:
        problems.add((*path, "format"), "'format' goes with 'file', not with 'generator'")
        return None
    gen_name = spec.pop("generator", None)
    if not _one_of(gen_name, GENERATORS):
        where = (*path, "generator") if gen_name is not None else path
        problems.add(
            where,
            f"unknown workload generator {excerpt(gen_name)}"
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
    if "path" in gen.params and isinstance(kwargs.get("path"), str) and kwargs["path"]:
        # A file a generator reads (a graph, say) lies beside the experiment file.
        given = Path(kwargs["path"])
        kwargs["path"] = str(given if given.is_absolute() else base_dir / given)
    if gen_name in MODEL_GENERATORS:
        for key in ("cost", "kernel", "kernels"):
            if key in spec:
                problems.add(
                    (*path, key),
                    f"a {gen_name} workload has no {key}: its operator describes its own work",
                )
                return None
    if "cost" in spec:
        kwargs["cost"] = _cost(problems, spec["cost"], (*path, "cost"))
        if kwargs["cost"] is None:
            return None
    if "kernel" in spec:
        kwargs["kernel"] = _kernel(problems, spec["kernel"], (*path, "kernel"))
        if kwargs["kernel"] is None:
            return None
    if "kernels" in spec:
        kernels = spec["kernels"]
        if not isinstance(kernels, list) or not kernels:
            problems.add((*path, "kernels"), "must be a non-empty list of kernels")
            return None
        made = [_kernel(problems, k, (*path, "kernels", i)) for i, k in enumerate(kernels)]
        if any(k is None for k in made):
            return None
        kwargs["kernels"] = made
    return _guard(problems, path, lambda: make(gen_name, **kwargs))


def _format_by_suffix(file: Path) -> str:
    """The format a file's name implies (the longest matching suffix, a ``.gz``
    set aside: compressed inputs are read decompressed), else edge_list."""
    name = file.name.lower().removesuffix(".gz")
    return next((f for s, f in FILE_FORMAT_BY_SUFFIX.items() if name.endswith(s)), "edge_list")


def _number(
    problems: Problems, data: Mapping[str, Any], key: str, default: Any, lo: int, hi: int
) -> Any:
    if key not in data:
        return default
    try:
        return whole(data[key], "the value", lo, hi)
    except ConfigError as exc:
        problems.add((key,), str(exc))
        return default


def _axes(
    problems: Problems,
    data: Mapping[str, Any],
    key: str,
    schemes: list[Scheme],
    workloads: list[Workload],
) -> dict[str, list[Any]]:
    """Each axis's name and values, checked where they stand in the file."""
    value = data.get(key)
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        problems.add((key,), "must be a mapping of parameter -> list of values")
        return {}
    spaces = namespaces(schemes, workloads)
    out = {}
    for name, values in value.items():
        try:
            if schemes and workloads:
                resolve_key(name, spaces)
            out[name] = axis_values(name, values, distinct=key == "grid")  # zip: combinations
        except ConfigError as exc:
            problems.add((key, name), str(exc))
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
            f"must be a list drawn from {', '.join(TABLE_FORMATS)}; got {excerpt(tables)}",
        )
        tables = list(TABLE_FORMATS)
    plots: list[PlotSpec] = []
    plot_specs = value.get("plots") or []
    if not isinstance(plot_specs, list):
        problems.add(("outputs", "plots"), "must be a list of plots")
        plot_specs = []
    for i, spec in enumerate(plot_specs):
        path = ("outputs", "plots", i)
        if not isinstance(spec, Mapping):
            problems.add(path, "a plot is a mapping with 'kind', axes and 'file'")
            continue
        kind = spec.get("kind")
        if not _one_of(kind, PLOT_KEYS):
            problems.add(
                (*path, "kind"),
                f"must be one of {', '.join(PLOT_KEYS)}; got {excerpt(kind)}"
                f"{suggest(str(kind), PLOT_KEYS)}",
            )
            continue
        kind = str(kind)
        _unknown_keys(problems, path, spec, PLOT_KEYS[kind])
        required = ("x", "y") if kind != "heatmap" else ("x", "y", "value")
        for r in required:
            if r not in spec:
                problems.add(path, f"a {kind} plot needs '{r}'")
        file = spec.get("file", f"plot{i}_{kind}.png")
        problem = _plot_file_problem(file)
        bad_file = problem is not None
        if problem is not None:
            problems.add(
                (*path, "file"),
                "must be a .png, .pdf or .svg file name inside the output folder "
                f"({problem}); got {excerpt(file)}",
            )
        for option, choices in PLOT_CHOICES.items():
            if option in spec and spec[option] not in choices:
                problems.add(
                    (*path, option),
                    f"must be one of {', '.join(choices)}; got {excerpt(spec[option])}",
                )
        for option in ("logx", "logy", "sharex", "sharey"):
            if option in spec and not isinstance(spec[option], bool):
                problems.add((*path, option), f"must be true or false; got {excerpt(spec[option])}")
        for option in ("title", "xlabel", "ylabel"):
            if option in spec and not isinstance(spec[option], str):
                problems.add((*path, option), f"must be text; got {excerpt(spec[option])}")
        _check_figure_options(problems, path, spec)
        if "cmap" in spec:
            import matplotlib

            if not _one_of(spec["cmap"], matplotlib.colormaps):
                problems.add(
                    (*path, "cmap"),
                    f"unknown colour map {spec['cmap']!r}"
                    f"{suggest(str(spec['cmap']), list(matplotlib.colormaps))}",
                )
        where = spec.get("where") or {}
        if not isinstance(where, Mapping):
            problems.add((*path, "where"), "must map result columns to a value or a list of values")
            continue
        if bad_file:
            continue
        options = {k: v for k, v in spec.items() if k not in ("kind", "file", "where")}
        plots.append(PlotSpec(kind, options, file, dict(where)))
    return list(tables), plots


def _check_figure_options(problems: Problems, path: tuple[Any, ...], spec: Mapping) -> None:
    """A plot's figsize ([width, height] in inches) and style (a matplotlib style)."""
    size = spec.get("figsize")
    if "figsize" in spec and not (
        isinstance(size, list)
        and len(size) == 2
        and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in size)
        and all(0 < v <= 100 for v in size)
    ):
        problems.add(
            (*path, "figsize"),
            f"must be [width, height] in inches, each above 0 and at most 100; got {excerpt(size)}",
        )
    if "style" in spec:
        import matplotlib.pyplot as plt

        if not _one_of(spec["style"], plt.style.available):
            problems.add(
                (*path, "style"),
                f"must name a matplotlib style (plt.style.available: ggplot, seaborn-v0_8, ...); "
                f"got {excerpt(spec['style'])}"
                f"{suggest(str(spec['style']), plt.style.available)}",
            )


def _plot_file_problem(file: Any) -> str | None:
    """Why ``file`` cannot name a figure in the output folder, or None.  Checked
    when the file is validated: a NUL or a '..' found only when the figure is
    saved would fail after the tables were written."""
    if not isinstance(file, str) or not file:
        return "it is not a non-empty name"
    if not file.isprintable():
        return "it contains a control character or NUL"
    if "\\" in file:
        return "it contains a backslash; separate folders with '/'"
    if not file.endswith((".png", ".pdf", ".svg")):
        return "it has another suffix"
    if file.startswith("/"):
        return "it is an absolute path"
    parts = file.split("/")
    if any(part in ("", ".", "..") for part in parts):
        return "it has an empty, '.' or '..' folder part"
    if any(part.startswith(".") and part.endswith((".png", ".pdf", ".svg")) for part in parts):
        return "it has no name before the suffix"
    return None


def _check_sweep(problems: Problems, exp: Experiment) -> None:
    """Builds the run table and validates every run; then checks each plot
    against the table's columns and parameter values, as it will be drawn."""
    try:
        plan = exp.plan()
        runner = Runner(plan, exp.threads, False, exp.on_error, None)
    except ConfigError as exc:
        problems.add(("grid",) if exp.grid else (), str(exc))
        return
    preview = runner.preview()
    if exp.search is not None:  # a search's table leads with its trial columns
        _check_objectives(problems, exp.search.objectives, preview)
        preview.insert(0, "trial", 0)
        preview.insert(1, "trial_state", "complete")
    outputs = set(exp.outputs()) | {"results.partial.csv", MANIFEST, LOCK, STORE, "trace.json"}
    files: dict[str, int] = {}
    for i, spec in enumerate(exp.plots):
        path = ("outputs", "plots", i)
        if spec.file in files:
            problems.add(
                (*path, "file"), f"plots {files[spec.file]} and {i} both write {spec.file}"
            )
        files.setdefault(spec.file, i)
        parts = Path(spec.file).parts
        for k in range(1, len(parts)):
            if "/".join(parts[:k]) in outputs:
                problems.add(
                    (*path, "file"),
                    f"{spec.file} would lie inside {'/'.join(parts[:k])}, another output",
                )
        if _check_plot_columns(problems, path, spec, preview):
            _check_plot_rows(problems, path, spec, preview)


def _check_objectives(problems: Problems, goals: dict[str, str], frame: pd.DataFrame) -> None:
    """Each objective is a numeric result column: known now, not after the
    first batch of trials has run."""
    from tbdse.simulation.results import column, metric_info

    def numeric(name: str) -> bool:
        dtype = frame[name].dtype
        return pd.api.types.is_numeric_dtype(dtype) and not pd.api.types.is_bool_dtype(dtype)

    metrics = [c for c in frame.columns if c in metric_info() and numeric(c)]
    for name in goals:
        where = ("search", "objectives", name)
        try:
            found = column(frame, name)
        except ConfigError:
            problems.add(where, _missing_column(name, frame))
            continue
        if not numeric(found):
            problems.add(
                where,
                f"objective '{name}' is a text column; an objective must be numeric, e.g. "
                + ", ".join(metrics),
            )


def _missing_column(name: str, frame: pd.DataFrame) -> str:
    if name in ("speedup", "baseline_makespan_cycles"):
        return f"no result column '{name}': it needs a baseline (add 'baseline: <scheme>')"
    if name in ("status", "error"):
        return f"no result column '{name}': failed runs are kept only with 'on_error: record'"
    return f"no result column '{name}'{suggest(name, map(str, frame.columns))}"


def _check_plot_columns(
    problems: Problems, path: tuple[Any, ...], spec: PlotSpec, frame: pd.DataFrame
) -> bool:
    from tbdse.simulation.results import column

    ok = True
    named: list[tuple[tuple[Any, ...], Any]] = []
    for axis in ("x", "y", "value", "facet", "row", "col", "hue"):
        value = spec.options.get(axis)
        if axis == "hue" and value == "auto":
            continue
        if isinstance(value, list) and axis == "hue":
            named += [((*path, axis, k), v) for k, v in enumerate(value)]
        elif value is not None:
            named.append(((*path, axis), value))
    named += [((*path, "where", name), name) for name in spec.where]
    for where, name in named:
        try:
            column(frame, str(name))
        except ConfigError:
            problems.add(where, _missing_column(str(name), frame))
            ok = False
    return ok


def _check_plot_rows(
    problems: Problems, path: tuple[Any, ...], spec: PlotSpec, frame: pd.DataFrame
) -> None:
    """The plot's rows exist and draw without averaging configurations (known
    before running: the parameter columns are)."""
    from tbdse import plot
    from tbdse.simulation.results import column

    known = set(plot.parameter_columns(frame)) | {"scheme", "variant", "replicate", "seed"}
    if all(column(frame, name) in known for name in spec.where):
        rows = spec.rows(frame)
        if rows.empty:
            values = {n: list(dict.fromkeys(frame[column(frame, n)]))[:6] for n in spec.where}
            shown = "; ".join(f"{n}: {', '.join(map(str, v))}" for n, v in values.items())
            problems.add((*path, "where"), f"matches none of the {len(frame)} runs ({shown})")
            return
    else:
        rows = frame
    try:
        plot.check(spec.kind, rows, **spec.options)
    except ConfigError as exc:
        problems.add(path, str(exc))
