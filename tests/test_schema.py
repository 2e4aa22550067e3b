"""The experiment files' JSON Schema: shipped, current, accepts every example
experiment and refuses a misspelt key (jsonschema is a test dependency only)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
import yaml

import tbdse as td

jsonschema = pytest.importorskip("jsonschema")

ROOT = Path(__file__).resolve().parents[1]
EXPERIMENTS = sorted((ROOT / "experiments").glob("*.yaml"))


@pytest.fixture(scope="module")
def validator() -> Any:
    schema = json.loads(td.schema.schema_path().read_text(encoding="utf-8"))
    jsonschema.Draft7Validator.check_schema(schema)
    return jsonschema.Draft7Validator(schema)


def test_the_shipped_schema_is_the_generated_one() -> None:
    shipped = td.schema.schema_path().read_text(encoding="utf-8")
    assert shipped == td.schema.schema_text(), (
        "python/tbdse/experiment/schema/experiment.schema.json is stale: "
        "run python -m tbdse.experiment.schema"
    )


@pytest.mark.parametrize("file", EXPERIMENTS, ids=lambda p: p.stem)
def test_every_example_experiment_validates(validator: Any, file: Path) -> None:
    data = yaml.safe_load(file.read_text(encoding="utf-8"))
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(data)]
    assert not errors, errors


def _quickstart() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((ROOT / "experiments" / "quickstart.yaml").read_text())
    return data


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d.update(replicate=3),  # top-level key
        lambda d: d["workload"].update(colls=8),  # generator parameter
        lambda d: d.update(scheme={"name": "wireframe", "levl_bound": 2}, schemes=None),
        lambda d: d.update(gpu={"preset": "gtx480", "smss": 4}),  # GPU field
        lambda d: d["workload"]["cost"].update(sigmaa=0.1),  # cost parameter
        lambda d: d["outputs"]["plots"][0].update(xx="label"),  # plot key
        lambda d: d.update(schemes=["wirefrme"]),  # scheme name
        lambda d: d.update(replicates=0),
        lambda d: d.update(name="../../elsewhere"),  # one folder name only (issue 33)
        lambda d: d.update(name=".hidden"),
    ],
)
def test_a_misspelt_key_or_bad_value_fails(validator: Any, change: Any) -> None:
    data = copy.deepcopy(_quickstart())
    assert not list(validator.iter_errors(data))
    change(data)
    data = {k: v for k, v in data.items() if v is not None}
    assert list(validator.iter_errors(data))


def test_the_schema_follows_the_validators_tables() -> None:
    from tbdse.experiment.file import TOP_KEYS
    from tbdse.experiment.outputs_section import PLOT_KEYS

    schema = td.schema.experiment_schema()
    assert list(schema["properties"]) == list(TOP_KEYS)
    plots = schema["properties"]["outputs"]["properties"]["plots"]["items"]
    assert plots["properties"]["kind"]["enum"] == list(PLOT_KEYS)
    schemes = schema["definitions"]["scheme"]["anyOf"][0]["enum"]
    assert schemes == td.schemes.names()
    wireframe = next(
        b["then"]["properties"]
        for b in schema["definitions"]["scheme"]["anyOf"][1]["allOf"]
        if b["if"]["properties"]["name"]["const"] == "wireframe"
    )
    assert set(wireframe) == {
        "name",
        "label",
        *(p["name"] for p in td.schemes.info("wireframe")["params"]),
    }
