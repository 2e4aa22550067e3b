"""HWWL spin and WAIT accounting as the paper counts them (issue 29).

§III-A: a software data-driven benchmark becomes a HWWL one by linking
another worklist implementation, so the double-buffered kernel keeps the
software version's variable launch (one thread per pull-worklist id): no
threads beyond the frontier spin.  §III-C/§III-D: a pull to an empty bank
while work exists answers WAIT, also when the HVU turns it into a pending
refill load (Fig. 7's WAIT-pull counts)."""

from __future__ import annotations

import pytest

import tbdse as td


@pytest.fixture(scope="module")
def bfs() -> td.Workload:
    return td.workloads.bfs(graph="road", nodes=32768)


def test_lsorting_spins_about_as_the_paper_counts(bfs: td.Workload) -> None:
    # §IV-C/§IV-D: without redistribution BFS's dynamic instructions grow by an
    # order of magnitude over the software worklist, and lsorting removes
    # over 70% of them: lsorting sits within a few times the software count.
    # With every GPU thread launched each level, lsorting spun 147x the
    # software worklist's instructions (6,144 threads for frontiers of tens).
    g = td.gpus.gpgpusim_hwwl()
    hw = td.simulate(bfs, g, td.schemes.Hwwl(redistribution="lsorting", bank_entries="unbounded"))
    sw = td.simulate(bfs, g, "data")
    ratio = hw.metrics["dynamic_instructions"] / sw.metrics["dynamic_instructions"]
    assert ratio < 30, ratio
