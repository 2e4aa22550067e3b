"""The bytes Juggler's wavefront kernels move, from their depend sections
(issue 28: footprints are what a TB reads, not what its task declares).

A wavefront task declares whole neighbour tiles (Juggler matches sections
exactly), but its recurrence reads only their edges: a DP cell, an integral
histogram or a summed-area value needs its west, north and north-west
neighbours, a five-point stencil its four neighbours.  So a read of a
neighbour tile in the array the task writes becomes the edge next to the
task's tile: the west tile's east column, the north tile's south row, the
north-west tile's corner, the east tile's west column, the south tile's
north row.  Tiles are 64 x 64 4-byte elements stored tile-major, row-major
inside (``TaskBuilder.data_footprints``' layout), so a row edge is one
256-byte range and a column edge 64 ranges of 4 bytes, 256 bytes apart (one
sector of 64 lines: the uncoalesced access a column of a row-major tile is).
Every other read (the task's own tile, the image, the sequences, the column
sums) and every write is kept.
"""

from __future__ import annotations

import numpy as np

from tbdse.workloads.footprints import DataFootprints
from tbdse.workloads.tasks import TaskBuilder

SIDE = 64
ELEMENT = 4
TILE_BYTES = SIDE * SIDE * ELEMENT


# The neighbours a wavefront kernel reads: north, south, west, east, north-west.
_DIRECTIONS = ((-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1))


def _edge(di: int, dj: int) -> list[tuple[int, int]]:
    """(offset, bytes) inside the neighbour tile at (di, dj) that the task reads."""
    row, last = SIDE * ELEMENT, SIDE - 1
    if (di, dj) == (-1, 0):  # north: its south row
        return [(last * row, row)]
    if (di, dj) == (1, 0):  # south: its north row
        return [(0, row)]
    if (di, dj) == (0, -1):  # west: its east column
        return [(r * row + last * ELEMENT, ELEMENT) for r in range(SIDE)]
    if (di, dj) == (0, 1):  # east: its west column
        return [(r * row, ELEMENT) for r in range(SIDE)]
    if (di, dj) == (-1, -1):  # north-west: its corner
        return [(last * row + last * ELEMENT, ELEMENT)]
    raise AssertionError(f"no wavefront kernel reads the neighbour at {(di, dj)}")


def edge_footprints(builder: TaskBuilder, side: int) -> DataFootprints:
    """``builder``'s depend sections with neighbour-tile reads cut to their edges
    (``side``: tiles per row of the written array)."""
    fp = builder.data_footprints(element_bytes=ELEMENT)
    task, base, size, write = fp.task, fp.base, fp.bytes, fp.write
    # each task writes one tile: where it is
    own = np.full(int(task.max()) + 1, -1, np.int64)
    own[task[write]] = base[write]
    mine = own[task]
    tiles = ~write & (size == TILE_BYTES) & (base != mine)
    # a neighbour in the same tiled array: within one tile row or column of the own tile
    delta = (base - mine) // TILE_BYTES
    same = (base - mine) % TILE_BYTES == 0
    di = np.round(delta / side).astype(np.int64)
    dj = delta - di * side
    cut = tiles & same & (np.abs(di) <= 1) & (np.abs(dj) <= 1)
    keep = ~cut
    k = np.flatnonzero(cut)
    # each cut read becomes its neighbour's edge: the parts of _edge, in order
    table = {d: np.array(_edge(*d), np.int64) for d in _DIRECTIONS}
    which = np.full(len(k), -1, np.int64)
    for d, (down, right) in enumerate(_DIRECTIONS):
        which[(di[k] == down) & (dj[k] == right)] = d
    if (which < 0).any():
        bad = int(np.flatnonzero(which < 0)[0])
        _edge(int(di[k[bad]]), int(dj[k[bad]]))  # raises, naming the neighbour
    lens = np.array([len(table[d]) for d in _DIRECTIONS], np.int64)[which]
    parts = np.concatenate([table[d] for d in _DIRECTIONS])
    first = np.concatenate([[0], np.cumsum([len(table[d]) for d in _DIRECTIONS])[:-1]])
    row = np.repeat(k, lens)
    part = np.arange(int(lens.sum())) - np.repeat(np.cumsum(lens) - lens, lens)
    picked = parts[np.repeat(first[which], lens) + part]
    t = np.concatenate([task[keep], task[row]])
    b = np.concatenate([base[keep], base[row] + picked[:, 0]])
    n = np.concatenate([size[keep], picked[:, 1]])
    w = np.concatenate([write[keep], np.zeros(len(row), bool)])
    order = np.lexsort((w, t))  # stable: each task's reads in section order, then its writes
    return DataFootprints(t[order], b[order], n[order], w[order])
