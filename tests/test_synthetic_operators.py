"""The synthetic (LonestarGPU stand-in) operator: its useful work is a function
of the activation structure only, so schemes and configurations that do not
merge duplicate activations process exactly the same items and instructions;
BH's work is a smooth field over ids with the preset's mean
(cpp/models/hwwl/operator_state_test.cpp checks the orders and the field's
correlation directly)."""

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


@pytest.mark.parametrize("benchmark", ["dmr", "mst", "sp"])
def test_useful_work_is_the_same_in_every_order(benchmark: str) -> None:
    wl = td.workloads.lonestar(benchmark, 4096)
    seen = set()
    for sms in (2, 4):
        for scheme, params in ORDERS:
            m = run(wl, scheme, params, sms)
            seen.add((m["items"], m["useful_instructions"]))
    assert len(seen) == 1, seen
    items, _ = seen.pop()
    assert items > 4096 * LONESTAR[benchmark]["initial"]  # activations happened


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
