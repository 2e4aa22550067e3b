"""Reading an experiment file: every key checked, every problem reported with
its file, line and key path (see docs/experiments.md for the format)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tbdse._util.checks import whole
from tbdse._util.excerpts import excerpt
from tbdse._util.params import suggest
from tbdse.errors import ConfigError
from tbdse.experiment.dse_sections import parse_sample, parse_search
from tbdse.experiment.keys import each, guard, one_of, unknown_keys
from tbdse.experiment.outdir import LOCK, MANIFEST, STORE
from tbdse.experiment.outputs_section import (
    check_objectives,
    check_plot_columns,
    check_plot_rows,
    outputs,
)
from tbdse.experiment.spec import Experiment
from tbdse.io.yamlio import Located, Problems
from tbdse.machine.gpus import Gpu, as_gpu
from tbdse.schemes import Scheme, as_scheme
from tbdse.simulation.axes import axis_values, namespaces, resolve_key
from tbdse.simulation.plan import MAX_REPLICATES
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
    unknown_keys(problems, (), data, TOP_KEYS)
    for one, many in (("gpu", "gpus"), ("workload", "workloads"), ("scheme", "schemes")):
        if one in data and many in data:
            problems.add((many,), f"give either '{one}' or '{many}', not both")
        elif one not in data and many not in data:
            problems.add((), f"missing '{many}' (or '{one}')")

    gpus = each(problems, data, "gpu", "gpus", lambda v, p: _gpu(problems, v, p))
    workloads = each(
        problems, data, "workload", "workloads", lambda v, p: _workload(problems, v, p, base_dir)
    )
    schemes = each(problems, data, "scheme", "schemes", lambda v, p: _scheme(problems, v, p))
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
    tables, plots = outputs(problems, data.get("outputs"))
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


def _gpu(problems: Problems, value: Any, path: tuple[Any, ...]) -> Gpu | None:
    if isinstance(value, Mapping):
        from tbdse.machine.gpus import field_names

        unknown_keys(problems, path, value, ["preset", "name", *field_names()])
    return guard(problems, path, lambda: as_gpu(value))


def _scheme(problems: Problems, value: Any, path: tuple[Any, ...]) -> Scheme | None:
    if isinstance(value, Mapping) and "policy" in value and "name" not in value:
        from tbdse.schemes.policies import from_spec  # a user policy: imported only when allowed

        return guard(problems, path, lambda: from_spec(value))
    if isinstance(value, Mapping) and isinstance(value.get("name"), str):
        from tbdse.schemes import REPLACED_PARAMS, info, names

        if value["name"] in names():
            valid = ["name", "label", *[p["name"] for p in info(value["name"])["params"]]]
            unknown_keys(problems, path, value, valid, REPLACED_PARAMS)
            bad = [k for k in value if k not in valid]
            if bad:
                return None
    return guard(problems, path, lambda: as_scheme(value))


def _cost(problems: Problems, value: Any, path: tuple[Any, ...]) -> cost_mod.CostModel | None:
    if isinstance(value, Mapping) and one_of(value.get("model"), cost_mod.kinds()):
        valid = ["model", *cost_mod.kinds()[value["model"]]]
        if value["model"] in ("per_kernel", "array"):
            valid.append("table")
        unknown_keys(problems, path, value, valid)
        if any(k not in valid for k in value):
            return None
    return guard(problems, path, lambda: cost_mod.as_cost(value))


def _kernel(problems: Problems, value: Any, path: tuple[Any, ...]) -> Kernel | None:
    if not isinstance(value, Mapping):
        problems.add(
            path, f"a kernel is a mapping with {', '.join(KERNEL_KEYS)}; got {excerpt(value)}"
        )
        return None
    unknown_keys(problems, path, value, KERNEL_KEYS)
    if any(k not in KERNEL_KEYS for k in value):
        return None
    return guard(problems, path, lambda: Kernel(**value))


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
        if not one_of(fmt, FILE_GENERATORS):
            formats = ", ".join(f"'{f}'" for f in FILE_GENERATORS)
            problems.add((*path, "format"), f"must be one of {formats}; got {excerpt(fmt)}")
            return None
        spec["generator"], spec["path"] = FILE_GENERATORS[fmt], str(file)
    elif "format" in spec:
        problems.add((*path, "format"), "'format' goes with 'file', not with 'generator'")
        return None
    gen_name = spec.pop("generator", None)
    if not one_of(gen_name, GENERATORS):
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
    unknown_keys(problems, path, spec, valid)
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
    return guard(problems, path, lambda: make(gen_name, **kwargs))


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
        check_objectives(problems, exp.search.objectives, preview)
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
        if check_plot_columns(problems, path, spec, preview):
            check_plot_rows(problems, path, spec, preview)
