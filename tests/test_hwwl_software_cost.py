"""The software worklist's cost per pull and push, counted from what
LonestarGPU's worklist code executes (issue 29; docs/models/hwwl.md, "The
software worklist's cost"): 7 instructions per id pulled (Worklist2::pop_id),
17 per thread for a warp's push sequence, which every thread runs each
iteration whenever the operator can push (Worklist::setup_push_warp), one
atomic per warp iteration, and 4 per id stored (Worklist::do_push)."""

from __future__ import annotations

import pytest

import tbdse as td


@pytest.fixture(scope="module")
def gpu() -> td.Gpu:
    return td.gpus.gpgpusim_hwwl()


def test_defaults_are_the_derived_counts() -> None:
    p = td.schemes.Data().params
    assert (p["pull_instructions"], p["push_instructions"], p["store_instructions"]) == (7, 17, 4)


def test_data_overhead_is_the_sum_of_its_operations(gpu: td.Gpu) -> None:
    # BFS on a road graph pushes each reached node once (level-synchronous
    # kernels: no node improves twice), so pushed ids = items - the source.
    # Before: 2 per pull, 12 per pushing thread only in warps that pushed, and
    # a warp's busiest thread's store count (warp, not thread, units).
    wl = td.workloads.bfs(graph="road", nodes=32768)
    m = td.simulate(wl, gpu, "data").metrics
    items, amos = m["items"], m["amos"]
    assert m["overhead_instructions"] == 7 * items + 17 * items + amos + 4 * (items - 1)


def test_a_warp_that_pushes_nothing_still_runs_the_push(gpu: td.Gpu) -> None:
    # The push sequence is warp-uniform code in the kernel: a warp whose
    # items activate nothing still scans and issues its atomic (of 0).  MST's
    # stand-in activates 0.55 ids per item, so many warp iterations push none;
    # its atomics must count every warp iteration, not only pushing ones.
    wl = td.workloads.lonestar("MST", nodes=4096)
    m = td.simulate(wl, gpu, "data").metrics
    iterations_lower = m["items"] / 32  # each warp iteration holds <= 32 items
    assert m["amos"] >= iterations_lower
    pulls_and_scans = (7 + 17) * m["items"] + m["amos"]
    assert m["overhead_instructions"] >= pulls_and_scans


def test_survey_propagation_runs_the_push_sequence(gpu: td.Gpu) -> None:
    # SP's operator decides its activations from the surveys (no arc
    # probability): its kernel still has the push, so every item pays the
    # scan, every warp iteration an atomic, every pushed id its store.
    wl = td.workloads.lonestar("SP", nodes=4096)
    r = td.simulate(wl, gpu, "data")
    m = r.metrics
    pushed = m["items"] - len(wl.model_input.initial_items())
    assert pushed > 0 and m["amos"] >= m["items"] / 32
    assert m["overhead_instructions"] == (7 + 17) * m["items"] + m["amos"] + 4 * pushed


def test_an_operator_that_never_pushes_pays_no_push(gpu: td.Gpu) -> None:
    # BH's bodies activate nothing: its kernel has no push (and no atomic).
    wl = td.workloads.lonestar("BH", nodes=4096)
    m = td.simulate(wl, gpu, "data").metrics
    assert m["amos"] == 0
    assert m["overhead_instructions"] == 7 * m["items"]
