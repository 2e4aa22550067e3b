"""Scheme parameters a run cannot read are refused (issue 29): a value set
where another parameter's value leaves it unread would change nothing, in
Python, experiment files, overrides, sweep axes and search spaces alike."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest

import tbdse as td
from tbdse.experiment import cli


def conditional() -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    """(scheme, its parameter, its controllers' infos) for every parameter of
    every scheme whose first read condition is on the scheme's own parameters
    (a condition is a list of terms of which any must hold; one on a GPU field
    is decided by the run's GPUs: tests/test_unread_conditions.py)."""
    out = []
    for name in td.schemes.names():
        infos = {p["name"]: p for p in td.schemes.info(name)["params"]}
        for p in infos.values():
            if p["read_when"] and not any(t["param"].startswith("gpu.") for t in p["read_when"][0]):
                out.append((name, p, {t["param"]: infos[t["param"]] for t in p["read_when"][0]}))
    return out


def breaking_value(controller: dict[str, Any], cond: dict[str, Any]) -> Any:
    """A value of the controlling parameter that fails the term ``cond``."""
    if not cond["among"]:
        text = cond["values"][0]
        if controller["kind"] == "bool":
            return text == "true"
        return text if controller["kind"] == "choice" or text == "unbounded" else float(text)
    if controller["kind"] == "bool":
        return cond["values"] != ["true"]
    return next(c for c in controller["choices"] if c not in cond["values"])


def test_every_model_states_its_conditions() -> None:
    # The models whose code reads a parameter only under another's value
    # (found by reading each *_params.cpp against the code that reads the field).
    found = {
        (s, p["name"])
        for s in td.schemes.names()
        for p in td.schemes.info(s)["params"]
        if p["read_when"]
    }
    assert {
        ("dataflow_ideal", "level_bound"),
        ("wireframe", "level_bound"),
        ("wireframe", "when_pub_full"),
        ("wireframe", "prefetch"),
        ("juggler", "lrr_start"),
        ("juggler", "global_atomic_cycles"),
        ("juggler", "spin_weight"),
        ("blockmaestro", "when_full"),
        ("hwwl", "threshold"),
        ("hwwl", "redistribution_trigger"),
        ("hwwl", "refill"),
        ("hwwl", "virt_load_limit"),
        ("data", "donate_instructions"),
        ("vgiw", "reconfig_cycles"),
    } <= found


@pytest.mark.parametrize(
    ("scheme", "param", "controllers"),
    [pytest.param(*c, id=f"{c[0]}.{c[1]['name']}") for c in conditional()],
)
def test_a_parameter_set_where_it_is_unread_is_refused(
    scheme: str, param: dict[str, Any], controllers: dict[str, Any]
) -> None:
    terms = param["read_when"][0]  # every term fails: the condition fails
    unread = {t["param"]: breaking_value(controllers[t["param"]], t) for t in terms}
    td.Scheme(scheme, **unread)  # the controllers alone are fine: a default is never refused
    with pytest.raises(td.ConfigError) as err:
        td.Scheme(scheme, **unread, **{param["name"]: param["default"]})
    text = str(err.value)
    assert f"'{param['name']}' is read only when {param['read_when_text']}" in text
    assert all(f"{t['param']} = " in text for t in terms) and "this run reads: " in text


def test_the_message_names_the_value_and_what_the_run_reads() -> None:
    with pytest.raises(td.ConfigError) as err:
        td.Scheme("dataflow_ideal", policy="fifo", level_bound=4)
    assert str(err.value) == (
        "scheme 'dataflow_ideal' parameter 'level_bound' is read only when policy is 'lvl'; "
        "policy = 'fifo' leaves it unread, so setting it would change nothing (drop it, or "
        "change policy); this run reads: policy"
    )
    td.Scheme("dataflow_ideal", policy="lvl", level_bound=4)  # read there


WL = td.workloads.wavefront(4, 4, cost=td.cost.constant(100))


@pytest.mark.parametrize(
    ("scheme", "grid", "point"),
    [
        ("wireframe", {"policy": ["lrr", "lvl"], "level_bound": [1, 2]}, "policy is 'lrr'"),
        (td.Scheme("wireframe", policy="lrr"), {"level_bound": [1, 2]}, "policy is 'lrr'"),
        (
            "wireframe",
            {"pending_updates": [4, "unbounded"], "when_pub_full": ["spill", "stall"]},
            "pending_updates is 'unbounded'",
        ),
        (
            ["wireframe", "dataflow_ideal"],  # dataflow_ideal's default policy is lrr
            {"level_bound": [1, 2]},
            "policy is 'lrr'",
        ),
    ],
)
def test_a_sweep_axis_unread_at_some_point_is_refused(scheme: Any, grid: Any, point: str) -> None:
    with pytest.raises(td.ConfigError, match=r"a sweep sets '.*' where it is not read") as err:
        td.sweep(WL, "gtx480", scheme, grid=grid, progress=False)
    assert point in str(err.value) and "would repeat each other" in str(err.value)


def test_a_given_parameter_an_axis_leaves_unread_at_some_points_runs() -> None:
    # Read at the lvl points and repeating no run at the lrr ones.
    df = td.sweep(
        WL,
        "gtx480",
        td.Scheme("wireframe", level_bound=2),
        grid={"policy": ["lrr", "lvl"]},
        progress=False,
    )
    assert sorted(df["policy"]) == ["lrr", "lvl"]
    assert len(td.sweep(WL, "gtx480", "wireframe", grid={"level_bound": [1, 2]})) == 2


def test_a_given_parameter_no_point_of_the_sweep_reads_is_refused() -> None:
    level = td.Scheme("dataflow_ideal", policy="lvl", level_bound=2)
    with pytest.raises(td.ConfigError) as err:
        td.sweep(WL, "gtx480", level, grid={"policy": ["lrr", "fifo"]}, progress=False)
    assert (
        "scheme 'dataflow_ideal' sets 'level_bound', which is read only when policy is 'lvl', "
        "and at the point (policy='lrr') policy is 'lrr', and no other point of the sweep reads "
        "it, so it would change nothing; drop 'level_bound', or set (or sweep) policy so that it "
        "is read; scheme 'dataflow_ideal' reads there: policy"
    ) in str(err.value)


def test_a_search_space_is_refused_before_any_trial() -> None:
    pytest.importorskip("optuna")
    space = {"policy": ["lrr", "lvl"], "level_bound": td.space.Int(1, 4)}
    with pytest.raises(td.ConfigError, match="a design space sets 'level_bound'"):
        td.search(WL, "gtx480", "wireframe", space=space, objectives="makespan_us", trials=2)
    space = {"pending_updates": td.space.Choice([0, "unbounded"]), "when_pub_full": ["stall"]}
    with pytest.raises(td.ConfigError, match=r"'when_pub_full'.*pending_updates is 'unbounded'"):
        td.search(WL, "gtx480", "wireframe", space=space, objectives="makespan_us", trials=2)


FILE = textwrap.dedent(
    """\
    name: reads
    gpu: gtx480
    workload: {generator: wavefront, rows: 4, cols: 4, cost: 100}
    scheme: {name: dataflow_ideal, policy: fifo}
    outputs: {tables: [csv]}
    """
)


@pytest.mark.parametrize(
    ("extra", "overrides", "message"),
    [
        ("", ["scheme.level_bound=3"], "parameter 'level_bound' is read only when policy"),
        ("grid: {level_bound: [1, 2]}\n", [], "a sweep sets 'level_bound'"),
        (
            "search:\n  space: {level_bound: {int: [1, 4]}}\n  objectives: makespan_us\n",
            [],
            "a design space sets 'level_bound'",
        ),
    ],
)
def test_experiment_files_and_overrides_are_refused(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    extra: str,
    overrides: list[str],
    message: str,
) -> None:
    path = tmp_path / "reads.yaml"
    path.write_text(FILE + extra)
    assert cli.main(["validate", str(path), *overrides]) != 0
    assert message in capsys.readouterr().err
