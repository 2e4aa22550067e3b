"""Design spaces and sampling designs: bounds, types, log scales, seeds, Latin
hypercube strata, repeats dropped, the YAML form and its errors, and a sweep
over sampled points."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tbdse as td
from tbdse.dse.space import Choice, Float, Int

FAST = settings(max_examples=40, deadline=None, database=None)
METHODS = st.sampled_from(["random", "lhs", "sobol"])
SEEDS = st.integers(0, 2**32)


@st.composite
def int_params(draw: st.DrawFn) -> Int:
    log = draw(st.booleans())
    low = draw(st.integers(1, 5000) if log else st.integers(-5000, 5000))
    high = low + draw(st.integers(1, 5000))
    step = 1 if log else draw(st.integers(1, 7))
    high = low + max(1, (high - low) // step) * step
    return Int(low, high, log=log, step=step)


@st.composite
def float_params(draw: st.DrawFn) -> Float:
    log = draw(st.booleans())
    low = draw(st.floats(1e-6, 1e6) if log else st.floats(-1e6, 1e6))
    high = low + draw(st.floats(1e-3, 1e6))
    return Float(low, high, log=log)


CHOICES = st.lists(
    st.one_of(st.integers(-100, 100), st.sampled_from(["auto", "unbounded", "lrr", "lvl"])),
    min_size=1,
    max_size=6,
    unique=True,
)
PARAMS = st.one_of(int_params(), float_params(), CHOICES.map(Choice), CHOICES)
SPACES = st.dictionaries(st.sampled_from(list("abcdefg")), PARAMS, min_size=1, max_size=4)


@FAST
@given(space=SPACES, n=st.integers(1, 70), method=METHODS, seed=SEEDS)
def test_values_lie_within_bounds_with_their_types(
    space: dict[str, Any], n: int, method: str, seed: int
) -> None:
    points = td.space.sample(space, n, method, seed=seed)
    assert list(points) == list(space)
    lengths = {len(v) for v in points.values()}
    assert len(lengths) == 1 and 1 <= lengths.pop() <= n
    for name, param in space.items():
        values = points[name]
        if isinstance(param, Int):
            assert all(type(v) is int and param.low <= v <= param.high for v in values)
            assert all((v - param.low) % param.step == 0 for v in values)
        elif isinstance(param, Float):
            assert all(type(v) is float and param.low <= v <= param.high for v in values)
        else:
            options = param.options if isinstance(param, Choice) else param
            assert all(v in options and type(v) in (int, str) for v in values)
    # no point twice: the sweep's zip would refuse it
    rows = list(zip(*points.values(), strict=True))
    assert len(set(rows)) == len(rows)


@FAST
@given(space=SPACES, n=st.integers(1, 40), method=METHODS, seed=SEEDS)
def test_same_seed_same_points(space: dict[str, Any], n: int, method: str, seed: int) -> None:
    assert td.space.sample(space, n, method, seed) == td.space.sample(space, n, method, seed)


@FAST
@given(method=METHODS, seed=SEEDS)
def test_different_seed_different_points(method: str, seed: int) -> None:
    space = {"x": Float(0, 1), "y": Float(1, 1000, log=True)}
    assert td.space.sample(space, 8, method, seed) != td.space.sample(space, 8, method, seed + 1)


def test_points_do_not_depend_on_the_machine() -> None:
    # Fixed by NumPy's PCG64 and SciPy's designs: a change here changes every
    # published sample of an experiment file.
    space = {"n": Int(16, 1024, log=True), "p": ["lrr", "lvl"]}
    expected = {
        "random": {"n": [22, 448, 23, 117], "p": ["lrr", "lvl", "lrr", "lrr"]},
        "lhs": {"n": [25, 402, 99, 265], "p": ["lrr", "lrr", "lvl", "lvl"]},
        "sobol": {"n": [25, 650, 189, 97], "p": ["lvl", "lrr", "lvl", "lrr"]},
    }
    for method, points in expected.items():
        assert td.space.sample(space, 4, method, seed=3) == points


@FAST
@given(n=st.integers(1, 200), seed=SEEDS, low=st.floats(1e-3, 10), width=st.floats(0.5, 1e4))
def test_latin_hypercube_holds_one_point_per_bin(
    n: int, seed: int, low: float, width: float
) -> None:
    high = low + width
    space = {"lin": Float(low, high), "log": Float(low, high, log=True)}
    points = td.space.sample(space, n, "lhs", seed=seed)
    lin = (np.array(points["lin"]) - low) / (high - low)
    log = (np.log(points["log"]) - math.log(low)) / (math.log(high) - math.log(low))
    for u in (lin, log):
        bins = np.minimum(np.floor(u * n), n - 1).astype(int)
        assert sorted(bins) == list(range(n))


@FAST
@given(n=st.integers(1, 300), d=st.integers(1, 5), seed=SEEDS)
def test_unit_latin_hypercube_strata(n: int, d: int, seed: int) -> None:
    u = td.space.unit_points(n, d, "lhs", seed)
    assert u.shape == (n, d) and (u >= 0).all() and (u < 1).all()
    for j in range(d):
        assert sorted(np.floor(u[:, j] * n).astype(int)) == list(range(n))


def test_log_scale_spreads_evenly_in_log_space() -> None:
    u = (np.arange(1000) + 0.5) / 1000
    floats = np.array(Float(1, 1e4, log=True).values(u))
    # a quarter of the points per decade
    assert np.histogram(np.log10(floats), bins=4, range=(0, 4))[0].tolist() == [250] * 4
    ints = np.array(Int(1, 9999, log=True).values(u))
    decades = np.histogram(np.log10(ints), bins=4, range=(0, 4))[0]
    assert all(abs(c - 250) <= 2 for c in decades)


def test_integers_and_choices_get_equal_bins() -> None:
    u = (np.arange(600) + 0.5) / 600
    assert np.unique(Int(1, 6).values(u), return_counts=True)[1].tolist() == [100] * 6
    assert Int(0, 10, step=5).values(np.array([0.0, 0.34, 0.67, 0.999])) == [0, 5, 10, 10]
    counts = np.unique(Choice(["a", "b", "c"]).values(u), return_counts=True)[1]
    assert counts.tolist() == [200] * 3


def test_repeats_are_dropped_keeping_the_first() -> None:
    space = {"a": Int(1, 3), "b": ["x", "y"]}
    points = td.space.sample(space, 40, "random", seed=0)
    rows = list(zip(points["a"], points["b"], strict=True))
    assert sorted(rows) == [(a, b) for a in (1, 2, 3) for b in "xy"]  # exhausted: 6 of 40
    full = td.space.unit_points(40, 2, "random", 0)
    drawn = list(
        zip(Int(1, 3).values(full[:, 0]), Choice(["x", "y"]).values(full[:, 1]), strict=True)
    )
    assert rows == list(dict.fromkeys(drawn))  # first occurrences, in draw order


def test_sobol_accepts_any_n_and_is_balanced_for_powers_of_two() -> None:
    u = td.space.unit_points(8, 2, "sobol", seed=4)
    for j in range(2):
        assert sorted(np.floor(u[:, j] * 8).astype(int)) == list(range(8))
    first = td.space.unit_points(5, 2, "sobol", seed=4)
    assert np.array_equal(first, u[:5])


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: Int(1024, 16), r"low must be below high; got low=1024, high=16"),
        (lambda: Int(16, 16), r"low must be below high"),
        (lambda: Int(0, 16, log=True), r"log scale needs low > 0"),
        (lambda: Int(1.5, 16), r"low must be a whole number"),
        (lambda: Int(16, 1024, step=0), r"step must be a whole number in \[1, "),
        (lambda: Int(16, 1024, log=True, step=2), r"log and step cannot be combined"),
        (lambda: Int(16, 1000, step=32), r"multiple of step \(32\).*high=976 or high=1008"),
        (lambda: Float(0.9, 0.1), r"low must be below high"),
        (lambda: Float(-1, 1, log=True), r"log scale needs low > 0"),
        (lambda: Float(0, math.inf), r"high must be a finite number"),
        (lambda: Float(0, 1, log="yes"), r"log must be true or false"),
        (lambda: Choice([]), r"at least one value"),
        (lambda: Choice("lrr"), r"needs a list of values"),
        (lambda: Choice(["lrr", "lrr"]), r"'lrr' is given twice"),
        (lambda: Choice([64, 64.0]), r"64 is given twice"),
        (lambda: Choice([math.nan]), r"choice 0 must be a finite number"),
        (lambda: Choice([None]), r"choice 0 must be"),
    ],
)
def test_malformed_parameters_are_refused(make: Any, message: str) -> None:
    with pytest.raises(td.ConfigError, match=message):
        make()


@pytest.mark.parametrize(
    ("space", "n", "method", "message"),
    [
        ({}, 4, "lhs", r"at least one parameter"),
        ([1, 2], 4, "lhs", r"maps parameter names"),
        ({"a": 3}, 4, "lhs", r"space parameter 'a' needs td.space.Int"),
        ({"a": []}, 4, "lhs", r"space parameter 'a': a choice needs at least one value"),
        ({"a": [1, 2]}, 0, "lhs", r"'n' must be a whole number in \[1, "),
        ({"a": [1, 2]}, 4, "lhc", r"one of random, lhs, sobol; got 'lhc' \(did you mean 'lhs'"),
        ({"a": [1, 2]}, 4, "sobol", None),
    ],
)
def test_malformed_samples_are_refused(
    space: Any, n: int, method: str, message: str | None
) -> None:
    if message is None:
        assert td.space.sample(space, n, method) in ({"a": [1, 2]}, {"a": [2, 1]})
        return
    with pytest.raises(td.ConfigError, match=message):
        td.space.sample(space, n, method)


def test_yaml_form() -> None:
    space = td.space.from_yaml(
        {
            "node_buffer": {"int": [16, 1024], "log": True},
            "level_bound": {"int": [1, 9], "step": 2},
            "cost.sigma": {"float": [0.1, 0.9]},
            "gpu.clock_mhz": {"float": [100, 1000], "log": True},
            "policy": ["lrr", "lvl"],
            "spill": {"choice": [64, "unbounded"]},
        }
    )
    assert space == {
        "node_buffer": Int(16, 1024, log=True),
        "level_bound": Int(1, 9, step=2),
        "cost.sigma": Float(0.1, 0.9),
        "gpu.clock_mhz": Float(100.0, 1000.0, log=True),
        "policy": Choice(["lrr", "lvl"]),
        "spill": Choice([64, "unbounded"]),
    }


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({"int": [1024, 16]}, r"space: parameter 'p': low must be below high"),
        ({"int": [0, 16], "log": True}, r"parameter 'p': a log scale needs low > 0"),
        ({"int": [1.5, 16]}, r"parameter 'p': low must be a whole number"),
        ({"int": 16}, r"parameter 'p': int needs \[low, high\]; got 16"),
        ({"int": [1, 2, 3]}, r"parameter 'p': int needs \[low, high\]"),
        ({"float": [0.1, 0.9], "step": 0.1}, r"'step' does not apply to a float \(log for"),
        ({"choice": [1, 2], "log": True}, r"'log' does not apply to a choice"),
        ({"int": [1, 2], "lgo": True}, r"unknown key 'lgo' \(did you mean 'log'\?\); valid: int"),
        ({"int": [1, 2], "float": [1, 2]}, r"exactly one of int, float, choice; got int, float"),
        ({"log": True}, r"exactly one of int, float, choice; got none"),
        ([], r"parameter 'p': a choice needs at least one value"),
        ({"choice": []}, r"parameter 'p': a choice needs at least one value"),
        ("lrr", r"parameter 'p' needs a list of choices or one of \{int: \[low, high\]\}"),
        ({"float": ["a", 1]}, r"parameter 'p': low must be a finite number; got 'a'"),
    ],
)
def test_yaml_errors_name_the_parameter(entry: Any, message: str) -> None:
    with pytest.raises(td.ConfigError, match=message):
        td.space.from_yaml({"p": entry})


def test_yaml_section_errors() -> None:
    with pytest.raises(td.ConfigError, match=r"'sample.space' maps parameter names"):
        td.space.from_yaml([], where="sample.space")
    with pytest.raises(td.ConfigError, match=r"a parameter is named by text; got 3"):
        td.space.from_yaml({3: [1, 2]})


def test_a_sweep_runs_over_sampled_points() -> None:
    points = td.space.sample(
        {"node_buffer": Int(16, 256, log=True), "level_bound": Int(1, 6)}, 16, "lhs", seed=1
    )
    df = td.sweep(td.workloads.wavefront(8, 8), "gtx480", "wireframe", zip=points)
    assert len(df) == len(points["node_buffer"]) > 10
    assert df["node_buffer"].tolist() == points["node_buffer"]
    assert df["level_bound"].tolist() == points["level_bound"]
    assert (df["status"] == "ok").all() if "status" in df.columns else True
    assert df["makespan_us"].gt(0).all()
