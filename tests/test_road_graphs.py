"""The road-like graph generator (graphs.road, cpp/core/digraph_road.cpp): the
facts docs/models/hwwl.md states about it — deterministic, symmetric, degree
1-4, positive lengths, connected, high diameter, BFS frontiers wider than the
gpgpusim_hwwl machine's 6,144 threads — and its wiring into bfs/sssp specs."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest

import tbdse as td
from tbdse.workloads import graphs

THREADS_4_CORES = 4 * 48 * 32  # gpgpusim_hwwl: cores x warps x 32


def bfs_levels(g: td._core.Digraph, source: int) -> np.ndarray:
    """Nodes per BFS level from ``source`` (vectorised over each frontier)."""
    offsets, targets = g.offsets(), g.targets()
    dist = np.full(g.nodes, -1, dtype=np.int64)
    dist[source] = 0
    front, sizes = np.array([source]), [1]
    while True:
        starts, counts = offsets[front], offsets[front + 1] - offsets[front]
        first = np.cumsum(counts) - counts
        idx = np.repeat(starts - first, counts) + np.arange(counts.sum())
        nxt = targets[idx]
        front = np.unique(nxt[dist[nxt] < 0])
        if front.size == 0:
            return np.array(sizes)
        dist[front] = len(sizes)
        sizes.append(front.size)


def undirected_pairs(g: td._core.Digraph) -> np.ndarray:
    src = np.repeat(np.arange(g.nodes), np.diff(g.offsets()))
    return np.stack([src, g.targets(), g.weights()], axis=1)


def test_same_seed_same_graph_other_seed_other_graph() -> None:
    a, b = graphs.road(20_000, seed=3), graphs.road(20_000, seed=3)
    assert a.content_hash == b.content_hash
    assert graphs.road(20_000, seed=4).content_hash != a.content_hash


def test_exact_size_degree_symmetry_weights() -> None:
    g = graphs.road(50_000, seed=1)
    assert g.nodes == 50_000 and g.weighted
    degree = np.diff(g.offsets())
    assert degree.min() >= 1 and degree.max() == g.max_out_degree == 4
    assert 2.4 <= degree.mean() <= 2.8  # DIMACS road graphs: ~2.4-2.8; rome99 2.65
    arcs = undirected_pairs(g)
    assert (arcs[:, 2] >= 1).all()
    assert not (arcs[:, 0] == arcs[:, 1]).any()  # no self loops
    # Every arc's reverse exists with the same length.
    forward = {(int(u), int(v)): int(w) for u, v, w in arcs}
    assert all(forward.get((v, u)) == w for (u, v), w in forward.items())


@pytest.mark.parametrize("nodes", [1, 2, 7, 8, 100, 1000, 3000])
def test_small_graphs_are_connected(nodes: int) -> None:
    for highway_every in (0, 1, 4):
        g = graphs.road(nodes, town_size=8, highway_every=highway_every, seed=nodes)
        assert g.nodes == nodes
        assert bfs_levels(g, 0).sum() == nodes
        assert np.diff(g.offsets()).max(initial=0) <= 4


def test_one_million_nodes_fast_wide_and_deep() -> None:
    """Highways reach many towns at once (frontier > 6,144 threads) while the
    search stays deep (hundreds of levels); docs/models/hwwl.md quotes these."""
    start = time.perf_counter()
    g = graphs.road(1_000_000, seed=1)
    assert time.perf_counter() - start < 5.0
    assert 2.4 <= g.arcs / g.nodes <= 2.8 and g.max_out_degree == 4
    for source in (0, g.nodes // 2):
        levels = bfs_levels(g, source)
        assert levels.sum() == g.nodes  # connected
        assert levels.max() > THREADS_4_CORES
        assert len(levels) > 250
    # Without highways the same towns give a deep, narrow search, like a grid.
    plain = bfs_levels(graphs.road(1_000_000, highway_every=0, seed=1), 0)
    assert len(plain) > 1000 and plain.max() < THREADS_4_CORES


@pytest.mark.slow
def test_the_largest_size_the_banks_allow() -> None:
    g = graphs.road(2**24, seed=1)  # 24-bit work ids (HWWL §III-B)
    assert g.nodes == 2**24 and g.max_out_degree == 4


def test_bad_sizes_name_the_parameter() -> None:
    with pytest.raises(td.ConfigError, match="road: 'nodes'"):
        graphs.road(0)
    with pytest.raises(td.ConfigError, match="road: 'town_size'"):
        graphs.road(100, town_size=4)
    with pytest.raises(td.ConfigError, match="road: 'highway_every'"):
        graphs.road(100, highway_every=-1)
    with pytest.raises(td.ConfigError, match="road: 'nodes'"):
        graphs.road(2**31)
    with pytest.raises(td.ConfigError, match="road: 'seed'"):
        graphs.road(100, seed=-1)


def test_road_in_worklist_workloads_and_yaml(tmp_path: Path) -> None:
    wl = td.workloads.bfs(graph="road", nodes=5000, town_size=256, highway_every=2)
    assert wl.sizes()["nodes"] == 5000 and "road 5000" in wl.name
    assert wl.params["town_size"] == 256 and wl.params["highway_every"] == 2
    r = td.simulate(wl, td.gpus.gpgpusim_hwwl(), "hwwl")
    assert r.metrics["items"] >= 5000
    # Other graph kinds neither take nor report the road's parameters.
    grid = td.workloads.bfs(graph="grid", rows=8, cols=8)
    assert "town_size" not in grid.params
    with pytest.raises(td.ConfigError, match="'town_size' shapes graph 'road'"):
        td.workloads.sssp(graph="grid", town_size=64)
    with pytest.raises(td.ConfigError, match="road"):
        td.workloads.sssp(graph="road", nodes=100, max_weight=5)
    path = tmp_path / "road.yaml"
    spec = "workload: {{generator: sssp, graph: road, nodes: 3000, town_size: {}}}\n"
    path.write_text("gpu: gpgpusim_hwwl\n" + spec.format(128) + "scheme: data\n")
    assert td.experiment.load(path).workloads[0].sizes()["nodes"] == 3000
    path.write_text("gpu: gpgpusim_hwwl\n" + spec.format(2) + "scheme: data\n")
    with pytest.raises(td.ConfigError, match="town_size"):
        td.experiment.load(path)
