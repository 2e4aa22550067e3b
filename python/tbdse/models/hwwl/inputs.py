"""The LonestarGPU benchmarks' input kinds, generated with their structure, for
the worklist machine's synthetic operator (docs/models/hwwl.md, "Inputs").

Each function returns what :func:`tbdse.workloads.lonestar` hands the machine:
an optional graph (which ids processing an item may activate, and whose
records its later loads read), one work factor per id (mean 1, multiplying
the preset's ``work_mean``) and the ids active at the start.

* :func:`plummer_bh` — BH: a Plummer-model body set (Aarseth, Hénon & Wielen
  1974, mass cut at 0.999 as SPLASH-2's and Burtscher's BH generators do),
  ids in Morton (space-filling curve) order as LonestarGPU's sort kernel
  leaves them; a body's work is its Barnes-Hut interaction count estimated
  from the octree (occupied cells near it at every level down to its leaf),
  so bodies in the dense core, deeper in the tree, do more.
* :func:`clustered_dmr` — DMR: the Delaunay mesh of clustered points (a
  refined mesh: dense clusters of small triangles in a coarse field), ids in
  Morton order of the centroids; the bad triangles (minimum angle < 30°,
  LonestarGPU's criterion) are the initial items, and refining one may
  re-activate the bad triangles within two edge hops (its cavity's ring).
* :func:`rmat_mst` — MST: an R-MAT power-law graph (symmetric); every node
  a component at first; a component's operator scans its edges (work grows
  with its degree) and a merge activates neighbouring components: hubs
  activate many, all into the pushing thread's bank.
* :func:`random_sat_sp` — SP: random 3-SAT with 4.2 clauses per variable
  (the hard region survey propagation is for; LonestarGPU's SP input
  ``random-42000-10000-3.cnf`` has this ratio), each literal negated with
  probability 1/2; the items are the clauses, a clause's update costs the
  occurrences of its literals, and the formula goes to the machine, whose
  operator runs survey propagation on it (cpp/models/hwwl/survey.hpp): which
  clauses an update activates depends on how far its surveys moved.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tbdse import _core
from tbdse.workloads import graphs

__all__ = [
    "LonestarInput",
    "clustered_dmr",
    "degree_work",
    "plummer_bh",
    "random_sat_sp",
    "rmat_mst",
]

# Clause-to-variable ratio of SP's random 3-SAT (Mézard, Parisi & Zecchina
# 2002: survey propagation works in 3.92 < alpha < 4.27).
SAT_RATIO = 4.2
# DMR's quality bound (LonestarGPU dmr: MINANGLE 30 degrees).
MIN_ANGLE = 30.0


@dataclass
class LonestarInput:
    """What the synthetic operator reads from a generated input."""

    graph: _core.Digraph | None
    work_scale: np.ndarray  # float32, one per id, mean 1
    initial: np.ndarray  # int32 ids active at the start (empty: the operator decides, SP)
    stats: dict[str, float]
    # SP: the K-SAT formula, K signed 1-based literals per clause (DIMACS), or None
    literals: np.ndarray | None = None


def _morton(points: np.ndarray, bits: int) -> np.ndarray:
    """Morton codes of points in [0, 1)^d, ``bits`` bits per axis."""
    q = np.minimum((points * (1 << bits)).astype(np.uint64), (1 << bits) - 1)
    d = points.shape[1]
    code = np.zeros(len(points), dtype=np.uint64)
    for b in range(bits):
        for a in range(d):
            bit = (q[:, a] >> np.uint64(b)) & np.uint64(1)
            code |= bit << np.uint64(b * d + a)
    return code


def _unit_cube(points: np.ndarray) -> np.ndarray:
    lo, hi = points.min(axis=0), points.max(axis=0)
    return (points - lo) / (float((hi - lo).max()) * (1 + 1e-9))


def _graph(nodes: int, src: np.ndarray, dst: np.ndarray) -> _core.Digraph:
    order = np.lexsort((dst, src))
    return graphs.from_edges(np.column_stack([src[order], dst[order]]), nodes=nodes)


def plummer_bh(nodes: int, seed: int = 0) -> LonestarInput:
    rng = np.random.default_rng(seed)
    # Plummer radii by inverting the cumulative mass (mass cut at 0.999).
    m = rng.uniform(0, 0.999, nodes)
    r = 1.0 / np.sqrt(m ** (-2.0 / 3.0) - 1.0)
    v = rng.normal(size=(nodes, 3))
    pos = v / np.linalg.norm(v, axis=1, keepdims=True) * r[:, None]
    unit = _unit_cube(pos)
    bits = 16
    code = _morton(unit, bits)
    order = np.argsort(code, kind="stable")
    code = code[order]
    # A leaf holds one body: its depth is one more than the longest prefix
    # (in octal digits) it shares with a neighbour along the curve.
    shared = np.zeros(nodes, dtype=np.int64)
    for level in range(1, bits + 1):
        prefix = code >> np.uint64(3 * (bits - level))
        same = np.zeros(nodes, dtype=bool)
        same[1:] |= prefix[1:] == prefix[:-1]
        same[:-1] |= prefix[:-1] == prefix[1:]
        shared[same] = level
    depth = np.minimum(shared + 1, bits)
    # Interactions: at every level down to its leaf, the occupied cells in
    # the 3x3x3 block around the body's cell (opened by theta ~ 0.5).
    cells = (unit[order] * (1 << bits)).astype(np.int64)
    work = np.zeros(nodes)
    for level in range(1, bits + 1):
        c = cells >> (bits - level)
        side = 1 << level
        keys = np.unique((c[:, 0] * side + c[:, 1]) * side + c[:, 2])
        near = np.zeros(nodes)
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                for dz in (-1, 0, 1):
                    n = c + np.array([dx, dy, dz])
                    ok = ((n >= 0) & (n < side)).all(axis=1)
                    k = (n[:, 0] * side + n[:, 1]) * side + n[:, 2]
                    hit = np.searchsorted(keys, k)
                    hit = np.minimum(hit, len(keys) - 1)
                    near += ok & (keys[hit] == k)
        work += np.where(depth >= level, near, 0)
    scale = (work / work.mean()).astype(np.float32)
    return LonestarInput(
        None,
        scale,
        np.arange(nodes, dtype=np.int32),
        {"depth_mean": float(depth.mean()), "work_cv": float(scale.std())},
    )


def _angles(p: np.ndarray, tri: np.ndarray) -> np.ndarray:
    a, b, c = p[tri[:, 0]], p[tri[:, 1]], p[tri[:, 2]]
    out = []
    for u, v, w in ((a, b, c), (b, c, a), (c, a, b)):
        e1, e2 = v - u, w - u
        cos = (e1 * e2).sum(1) / (np.linalg.norm(e1, axis=1) * np.linalg.norm(e2, axis=1))
        out.append(np.degrees(np.arccos(np.clip(cos, -1, 1))))
    return np.min(out, axis=0)


def clustered_dmr(nodes: int, seed: int = 0, clusters: int = 24) -> LonestarInput:
    from scipy.spatial import Delaunay

    rng = np.random.default_rng(seed)
    points = max(8, nodes // 2 + 1)  # a planar mesh has about 2 triangles per point
    coarse = points // 4
    centres = rng.uniform(0.1, 0.9, (clusters, 2))
    widths = np.exp(rng.uniform(np.log(0.005), np.log(0.05), clusters))
    pick = rng.integers(0, clusters, points - coarse)
    fine = centres[pick] + rng.normal(size=(points - coarse, 2)) * widths[pick, None]
    pts = np.vstack([rng.uniform(0, 1, (coarse, 2)), fine])
    mesh = Delaunay(pts)
    tri = mesh.simplices
    centroid = _unit_cube(pts[tri].mean(axis=1))
    order = np.argsort(_morton(centroid, 16), kind="stable")
    tri, nbr = tri[order], mesh.neighbors[order]
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    nbr = np.where(nbr >= 0, rank[np.maximum(nbr, 0)], -1)
    n = len(tri)
    bad = _angles(pts, tri) < MIN_ANGLE
    # The cavity's ring: triangles within two edge hops, kept when bad.
    first = np.column_stack([np.repeat(np.arange(n), 3), nbr.ravel()])
    first = first[first[:, 1] >= 0]
    hop2 = np.column_stack([np.repeat(first[:, 0], 3), nbr[first[:, 1]].ravel()])
    arcs = np.vstack([first, hop2])
    arcs = arcs[(arcs[:, 1] >= 0) & (arcs[:, 0] != arcs[:, 1])]
    arcs = np.unique(arcs, axis=0)
    arcs = arcs[bad[arcs[:, 1]]]
    src, dst = arcs[:, 0], arcs[:, 1]
    g = _graph(n, src, dst)
    return LonestarInput(
        g,
        np.ones(n, dtype=np.float32),
        np.flatnonzero(bad).astype(np.int32),
        {"triangles": float(n), "bad_share": float(bad.mean())},
    )


def degree_work(g: _core.Digraph) -> np.ndarray:
    """MST's per-component work factor: the square root of 1 + its degree
    (tbdse's damping of the edge scan, so that one hub does not make the
    critical path alone), mean 1."""
    deg = np.diff(np.asarray(g.offsets())).astype(np.float64)
    w = np.sqrt(1 + deg)
    return (w / w.mean()).astype(np.float32)


def rmat_mst(nodes: int, seed: int = 0, degree: float = 2.0) -> LonestarInput:
    g = graphs.rmat(nodes, degree, symmetric=True, max_weight=1, seed=seed)
    deg = np.diff(np.asarray(g.offsets())).astype(np.float64)
    scale = degree_work(g)
    return LonestarInput(
        g,
        scale,
        np.arange(nodes, dtype=np.int32),
        {"max_degree": float(deg.max()), "mean_degree": float(deg.mean())},
    )


def random_sat_sp(nodes: int, seed: int = 0, k: int = 3) -> LonestarInput:
    rng = np.random.default_rng(seed)
    clauses = nodes
    variables = max(k, round(clauses / SAT_RATIO))
    lits = np.stack([rng.choice(variables, k, replace=False) for _ in range(clauses)])
    # Random K-SAT: each literal negated with probability 1/2 (drawn after the
    # variables, so the clause graph is the same as before signs were drawn).
    signs = np.where(rng.integers(0, 2, size=lits.shape) == 1, -1, 1)
    var_clause = np.column_stack([lits.ravel(), np.repeat(np.arange(clauses), k)])
    var_clause = var_clause[np.argsort(var_clause[:, 0], kind="stable")]
    starts = np.searchsorted(var_clause[:, 0], np.arange(variables + 1))
    occurrences = np.diff(starts)
    src, dst = [], []
    for v in range(variables):
        cs = var_clause[starts[v] : starts[v + 1], 1]
        if len(cs) > 1:
            a, b = np.meshgrid(cs, cs)
            keep = a != b
            src.append(a[keep])
            dst.append(b[keep])
    # distinct (src, dst) pairs in (src, dst) order: one int64 key each sorts
    # much faster than unique rows
    pairs = np.sort(np.concatenate(src).astype(np.int64) * clauses + np.concatenate(dst))
    pairs = pairs[np.concatenate([[True], pairs[1:] != pairs[:-1]])]
    g = _graph(clauses, pairs % clauses, pairs // clauses)
    cost = occurrences[lits].sum(axis=1).astype(np.float64)
    return LonestarInput(
        g,
        (cost / cost.mean()).astype(np.float32),
        np.zeros(0, dtype=np.int32),  # the decimation picks them (survey.hpp)
        {"variables": float(variables), "ratio": clauses / variables},
        ((lits + 1) * signs).astype(np.int32).ravel(),
    )
