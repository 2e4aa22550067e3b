"""The synthetic (LonestarGPU stand-in) operator: its useful work is a function
of the activation structure only, so schemes and configurations that do not
merge duplicate activations process exactly the same items and instructions;
BH's work is a smooth field over ids with the preset's mean
(cpp/models/hwwl/operator_state_test.cpp checks the orders and the field's
correlation directly).  SP is not synthetic: its operator is survey
propagation, whose work depends on the order (below)."""

from __future__ import annotations

import pytest

import tbdse as td
from tbdse.models.hwwl.lonestar import LONESTAR

# Different processing orders: the hardware worklist under several bank sizes,
# redistribution schemes and buffering, and the data-driven software worklist.
ORDERS = [
    ("hwwl", {}),
    ("hwwl", {"bank_entries": 8, "redistribution": "none"}),
    ("hwwl", {"redistribution": "gsorting", "buffering": "single"}),
    ("hwwl", {"bank_entries": "unbounded", "redistribution": "magic", "interval": 1}),
    ("data", {}),
]


def run(workload: td.Workload, scheme: str, params: dict, sms: int = 4) -> dict:
    gpu = td.gpus.gpgpusim_hwwl(sms=sms)
    return td.simulate(workload, gpu, td.Scheme(scheme, **params)).metrics


def orders_work(wl: td.Workload) -> set[tuple[float, float]]:
    """(items, useful instructions) of every order in ORDERS on 2 and 4 SMs."""
    seen = set()
    for sms in (2, 4):
        for scheme, params in ORDERS:
            m = run(wl, scheme, params, sms)
            seen.add((m["items"], m["useful_instructions"]))
    return seen


@pytest.mark.parametrize("benchmark", ["dmr", "mst"])
def test_useful_work_is_the_same_in_every_order(benchmark: str) -> None:
    seen = orders_work(td.workloads.lonestar(benchmark, 4096))
    assert len(seen) == 1, seen
    items, _ = seen.pop()
    assert items > 4096 * LONESTAR[benchmark]["initial"]  # activations happened


def test_survey_propagation_work_depends_on_the_order() -> None:
    """A clause's update reads the surveys its neighbours hold when it runs, and
    activates a neighbour only if a survey moved by more than epsilon, so which
    updates cascade depends on what ran before: data-driven SP is an asynchronous
    fixed-point iteration (HWWL §II-B), not a fixed activation structure.  Every
    order still converges from the same decimation, with similar work (on this
    input 770-810 items from 131 seeds; a 15% band)."""
    wl = td.workloads.lonestar("sp", 4096)
    seeds = len(wl.model_input.initial_items())
    seen = orders_work(wl)
    items = [i for i, _ in seen]
    assert len(seen) > 1, seen  # the order changes the work
    assert min(items) > 3 * seeds  # every order cascades beyond the decimated clauses
    assert max(items) < 1.15 * min(items), seen


def test_bh_work_keeps_the_preset_mean() -> None:
    wl = td.workloads.lonestar("bh", 2**17)
    m = run(wl, "topology", {})
    assert m["items"] == 2**17
    # 512 correlation lengths of 256 ids: the sample mean is within a few percent.
    assert m["useful_instructions"] / m["items"] == pytest.approx(160, rel=0.06)


def test_smooth_work_field_is_validated() -> None:
    fields = {**LONESTAR["bh"], "nodes": 1024.0}
    with pytest.raises(td.ConfigError, match="work_smooth must be in"):
        td._core.WorklistProblem(None, "synthetic", {**fields, "work_smooth": 1.5})
    with pytest.raises(td.ConfigError, match="work_corr >= 1"):
        td._core.WorklistProblem(None, "synthetic", {**fields, "work_corr": 0.0})
