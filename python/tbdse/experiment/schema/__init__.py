"""A JSON Schema for experiment files, for editors (completion, hover docs,
misspelt keys underlined) and other tools.

The schema is generated from the tables the validator itself uses: the top-level
keys (``TOP_KEYS``), the plot keys and choices, the workload, kernel and cost
keys of :mod:`tbdse.experiment.file`, and the GPU fields, scheme parameters,
cost models and workload generators of the registry.  The validator stays the
authority (it checks ranges, files and the sweep as a whole); the schema catches
what an editor can see: a misspelt key, a wrong type, an unknown name.

>>> import tbdse as td
>>> schema = td.schema.experiment_schema()
>>> schema["properties"]["replicates"]["minimum"]
1

The package ships the schema as ``tbdse/experiment/schema/experiment.schema.json``
(:func:`schema_path`); ``python -m tbdse.experiment.schema`` rewrites it.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

__all__ = ["experiment_schema", "schema_path", "schema_text"]

SCHEMA_ID = "https://tbdse.invalid/schema/experiment.schema.json"
_FILE = "experiment.schema.json"


def schema_path() -> Path:
    """The shipped schema file (inside the installed package)."""
    return Path(str(resources.files(__name__).joinpath(_FILE)))


def schema_text() -> str:
    """The schema as the shipped file holds it: sorted keys, two-space indents."""
    return json.dumps(experiment_schema(), indent=2, ensure_ascii=False) + "\n"


def _number(kind: str, lo: float | None = None, hi: float | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "integer" if kind == "int" else "number"}
    for key, bound in (("minimum", lo), ("maximum", hi)):
        if bound is not None and math.isfinite(bound):
            out[key] = int(bound) if kind == "int" and float(bound).is_integer() else bound
    return out


def _registry_param(p: Mapping[str, Any]) -> dict[str, Any]:
    """A scheme parameter or GPU field as the encoder accepts it."""
    kind = p["kind"]
    if kind == "choice":
        value: dict[str, Any] = {"enum": list(p["choices"])}
    elif kind == "bool":
        value = {"type": "boolean"}
    else:
        value = _number(kind, p.get("min"), p.get("max"))
    words = [
        w for w, ok in (("auto", p.get("auto_ok")), ("unbounded", p.get("unbounded_ok"))) if ok
    ]
    if words:
        alternatives = [value, {"enum": words}]
        if p.get("unbounded_ok"):
            alternatives.append({"type": "null"})
        value = {"anyOf": alternatives}
    doc = p.get("doc") or ""
    unit = p.get("unit") or ""
    ref = p.get("paper_ref") or ""
    default = p.get("default")
    text = doc + (f" [{unit}]" if unit else "") + (f" ({ref})" if ref else "")
    if p.get("read_when_text"):  # set where unread, it is refused (issue 29)
        text += f"; read only when {p['read_when_text']}"
    if default is not None and not (isinstance(default, float) and not math.isfinite(default)):
        text += f"; default {default}"
    value["description"] = text
    return value


def _annotation(annotation: Any) -> dict[str, Any]:
    """A generator parameter's type from its annotation ('int', 'str | None', ...)."""
    types = {"int": "integer", "float": "number", "bool": "boolean", "str": "string"}
    names = [t.strip() for t in str(annotation).split("|")]
    if not all(n in types or n == "None" for n in names):
        return {}
    out = [types.get(n, "null") for n in names]
    return {"type": out[0] if len(out) == 1 else out}


def _object(properties: Mapping[str, Any], required: list[str] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "type": "object",
        "properties": dict(properties),
        "additionalProperties": False,
    }
    if required:
        out["required"] = required
    return out


def _when(key: str, value: str, then: Mapping[str, Any]) -> dict[str, Any]:
    """``then`` applies to a mapping whose ``key`` is ``value``."""
    return {
        "if": {"properties": {key: {"const": value}}, "required": [key]},
        "then": dict(then),
    }


def _schemes() -> dict[str, Any]:
    from tbdse import schemes

    names = schemes.names()
    branches = []
    for name in names:
        meta = schemes.info(name)
        props: dict[str, Any] = {
            "name": {"const": name, "description": meta["summary"]},
            "label": {"type": "string", "minLength": 1, "description": "legend label"},
        }
        props.update({p["name"]: _registry_param(p) for p in meta["params"]})
        branches.append(_when("name", name, _object(props)))
    mapping = {
        "type": "object",
        "properties": {"name": {"enum": names, "description": "the scheme"}},
        "required": ["name"],
        "allOf": branches,
    }
    target = {"type": "string", "pattern": "^[A-Za-z_][\\w.]*:[A-Za-z_][\\w.]*$"}
    policy = (
        _object(  # a user policy to import (tbdse.schemes.policies.from_spec; opt-in on the CLI)
            {
                "policy": {**target, "description": "package.module:attribute of the policy"},
                "place": {**target, "description": "package.module:function choosing the SM"},
                "name": {"type": "string", "minLength": 1},
                "label": {"type": "string", "minLength": 1, "description": "legend label"},
                "max_tbs_per_sm": {"type": "integer", "minimum": 0},
                "params": {"type": "object", "maxProperties": 4},
                "jit": {"type": "boolean", "description": "compile with Numba"},
                "version": {"type": "string"},
            },
            required=["policy"],
        )
    )
    return {"anyOf": [{"enum": names}, mapping, policy]}


def _gpu() -> dict[str, Any]:
    from tbdse.machine import gpus

    props: dict[str, Any] = {
        "preset": {"enum": gpus.preset_names(), "description": "start from this preset"},
        "name": {"type": "string", "minLength": 1, "description": "the GPU's name in tables"},
    }
    props.update({f["name"]: _registry_param(f) for f in gpus.field_info()})
    return {"anyOf": [{"enum": gpus.preset_names()}, _object(props)]}


def _cost() -> dict[str, Any]:
    from tbdse.workloads import cost

    kinds = cost.kinds()
    branches = []
    for model, params in kinds.items():
        props: dict[str, Any] = {"model": {"const": model}}
        props.update(
            {k: {"type": "number", "description": f"default {v}"} for k, v in params.items()}
        )
        if model in ("per_kernel", "array"):
            props["table"] = {"description": "the per-kernel or per-task costs"}
        branches.append(_when("model", model, _object(props)))
    mapping = {
        "type": "object",
        "properties": {"model": {"enum": list(kinds)}},
        "required": ["model"],
        "allOf": branches,
    }
    return {"anyOf": [{"type": "number", "description": "constant cycles per task"}, mapping]}


def _kernel() -> dict[str, Any]:
    from tbdse.experiment.file import KERNEL_KEYS

    types = {"name": {"type": "string"}}
    return _object({k: types.get(k, {"type": "number"}) for k in KERNEL_KEYS})


def _workload() -> dict[str, Any]:
    from tbdse.experiment.file import FILE_GENERATORS, MODEL_GENERATORS, WORKLOAD_COMMON
    from tbdse.workloads import GENERATORS

    common: dict[str, Any] = {
        "generator": {"enum": sorted(GENERATORS), "description": "workload generator"},
        "file": {"type": "string", "description": "a workload file, beside the experiment"},
        "format": {"enum": list(FILE_GENERATORS), "description": "the file's format"},
        "name": {"type": "string", "description": "the workload's name in tables"},
        "cost": {"$ref": "#/definitions/cost"},
        "kernel": {"$ref": "#/definitions/kernel"},
        "kernels": {"type": "array", "items": {"$ref": "#/definitions/kernel"}, "minItems": 1},
    }
    assert set(common) == set(WORKLOAD_COMMON), "keep the schema's workload keys in step"

    def params(gen_name: str) -> dict[str, Any]:
        gen = GENERATORS[gen_name]
        out = {}
        for key, par in gen.params.items():
            value = _annotation(par.annotation)
            if par.default is not par.empty and par.default is not None:
                value["description"] = f"default {par.default}"
            out[key] = value
        return out

    branches = []
    for name in sorted(GENERATORS):
        props = {k: v for k, v in common.items() if k not in ("file", "format")}
        if name in MODEL_GENERATORS:
            props = {k: v for k, v in props.items() if k not in ("cost", "kernel", "kernels")}
        props.update(params(name))
        branches.append(_when("generator", name, _object(props)))
    file_props = {k: v for k, v in common.items() if k != "generator"}
    for gen_name in FILE_GENERATORS.values():
        file_props.update({k: v for k, v in params(gen_name).items() if k != "path"})
    return {
        "type": "object",
        "properties": {"generator": common["generator"], "file": common["file"]},
        "oneOf": [{"required": ["generator"]}, {"required": ["file"]}],
        "allOf": [
            *branches,
            {
                "if": {"required": ["file"]},
                "then": _object(file_props),
            },
        ],
    }


def _outputs() -> dict[str, Any]:
    from tbdse.experiment.outputs_section import PLOT_CHOICES, PLOT_KEYS
    from tbdse.experiment.spec import TABLE_FORMATS

    option: dict[str, Any] = {
        "x": {"type": "string"},
        "y": {"type": "string"},
        "value": {"type": "string"},
        "facet": {"type": "string", "description": "a column: one panel per value (= col)"},
        "row": {"type": "string", "description": "a column: one row of panels per value"},
        "col": {"type": "string", "description": "a column: one column of panels per value"},
        "sharex": {"type": "boolean", "description": "panels share the x axis (default true)"},
        "sharey": {"type": "boolean", "description": "panels share the y axis (default true)"},
        "directions": {
            "anyOf": [
                {"type": "array", "items": {"enum": ["min", "max"]}, "minItems": 2, "maxItems": 2},
                {"type": "object", "additionalProperties": {"enum": ["min", "max"]}},
            ],
            "description": "pareto: which way is better for x and y, e.g. [min, max]",
        },
        "hue": {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]},
        "logx": {"type": "boolean"},
        "logy": {"type": "boolean"},
        "title": {"type": "string"},
        "file": {"type": "string", "pattern": r"\.(png|pdf|svg)$"},
        "cmap": {"type": "string"},
        "where": {"type": "object", "description": "result column -> value or list of values"},
        "xlabel": {"type": "string"},
        "ylabel": {"type": "string"},
        "figsize": {
            "type": "array",
            "items": {"type": "number", "exclusiveMinimum": 0, "maximum": 100},
            "minItems": 2,
            "maxItems": 2,
            "description": "[width, height] in inches",
        },
        "style": {"type": "string", "description": "a matplotlib style (plt.style.available)"},
    }
    option.update({k: {"enum": list(v)} for k, v in PLOT_CHOICES.items()})
    branches = []
    for kind, keys in PLOT_KEYS.items():
        props = {k: ({"const": kind} if k == "kind" else option.get(k, {})) for k in keys}
        needs = ["x", "y", "value"] if kind == "heatmap" else ["x", "y"]
        branches.append(_when("kind", kind, _object(props, needs)))
    plot = {
        "type": "object",
        "properties": {"kind": {"enum": list(PLOT_KEYS)}},
        "required": ["kind"],
        "allOf": branches,
    }
    return _object(
        {
            "tables": {"type": "array", "items": {"enum": list(TABLE_FORMATS)}},
            "plots": {"type": "array", "items": plot},
        }
    )


def experiment_schema() -> dict[str, Any]:
    """The JSON Schema (draft 7) of an experiment file, from the validator's tables."""
    from tbdse.experiment.dse_sections import SAMPLE_KEYS, SEARCH_KEYS
    from tbdse.experiment.file import NAME_MAX, TOP_KEYS
    from tbdse.simulation.plan import MAX_REPLICATES

    axes = {
        "type": "object",
        "description": "parameter (scheme, workload.X, gpu.X, cost.X) -> list of values",
        "additionalProperties": {"type": "array", "minItems": 1},
    }

    def one_or_many(ref: str) -> dict[str, Any]:
        return {"type": "array", "items": {"$ref": ref}, "minItems": 1}

    top: dict[str, Any] = {
        "name": {
            "type": "string",
            "pattern": f"^[A-Za-z0-9_][A-Za-z0-9._-]{{0,{NAME_MAX - 1}}}$",
            "description": "the experiment's name: one folder name (results/<name>/...)",
        },
        "description": {"type": "string"},
        "seed": {"type": "integer", "minimum": 0, "maximum": 2**63 - 1},
        "replicates": {"type": "integer", "minimum": 1, "maximum": MAX_REPLICATES},
        "threads": {"type": "integer", "minimum": 1, "maximum": 4096},
        "on_error": {"enum": ["raise", "record"]},
        "expect_failures": {"type": "boolean"},
        "timeout_s": {"anyOf": [{"type": "number", "exclusiveMinimum": 0}, {"type": "null"}]},
        "gpu": {"$ref": "#/definitions/gpu"},
        "gpus": one_or_many("#/definitions/gpu"),
        "workload": {"$ref": "#/definitions/workload"},
        "workloads": one_or_many("#/definitions/workload"),
        "scheme": {"$ref": "#/definitions/scheme"},
        "schemes": one_or_many("#/definitions/scheme"),
        "grid": axes,
        "zip": axes,
        "sample": _object({k: {} for k in SAMPLE_KEYS}, ["space"]),
        "search": _object({k: {} for k in SEARCH_KEYS}, ["space"]),
        "baseline": {
            "anyOf": [{"$ref": "#/definitions/scheme"}, one_or_many("#/definitions/scheme")]
        },
        "outputs": _outputs(),
    }
    assert list(top) == list(TOP_KEYS), "keep the schema's top-level keys in step"
    return {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "$id": SCHEMA_ID,
        "title": "tbdse experiment file",
        "description": "A tbdse experiment (docs/experiments.md): GPU(s), workload(s), "
        "scheme(s), sweep axes, baseline and outputs.",
        "type": "object",
        "properties": top,
        "additionalProperties": False,
        "allOf": [
            {"oneOf": [{"required": ["gpu"]}, {"required": ["gpus"]}]},
            {"oneOf": [{"required": ["workload"]}, {"required": ["workloads"]}]},
            {"oneOf": [{"required": ["scheme"]}, {"required": ["schemes"]}]},
        ],
        "definitions": {
            "gpu": _gpu(),
            "scheme": _schemes(),
            "workload": _workload(),
            "cost": _cost(),
            "kernel": _kernel(),
        },
    }
