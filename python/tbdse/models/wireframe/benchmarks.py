"""The six benchmarks of Wireframe §5.2 as task graphs (generator
``wireframe_benchmark``): DTW, HEAT2D, HIST, INT_IMG, SOR and SW, each a
wavefront-family graph of about 1K, 4K or 9K thread blocks.

The paper gives the algorithms, the input sizes, the speed-ups (Fig. 9, 12)
and, in Fig. 12 (right), how the ratio of computation to kernel-launch time
falls with the graph size (about 8x, 5x, 3x for 1K, 4K, 9K); it gives no
per-block run times and no memory traffic.  tbdse's assumptions, in one place
(docs/models/wireframe.md has the reasoning):

* **Graphs.**  An S x S wavefront of tiles, S = 32, 64, 96 (1,024 / 4,096 /
  9,216 blocks; the paper's 9K HEAT2D graph has 9,216 nodes and 191 levels: a
  96 x 96 wavefront), each tile depending on its west and north neighbours as
  in the paper's DepLinks examples (Code Blocks 4, 5).  The dynamic-programming
  kernels (DTW, SW) also read their north-west neighbour, but that dependency
  is implied by the other two, so it is not declared.
* **Block run times**, lognormal, the same for all six: the paper gives no
  per-benchmark run times.  At 4K the mean (83,000 cycles) and the spread
  (sigma 0.02) are *calibrated* on one figure, Fig. 9's DepLinks, LRR and LVL
  averages, the spread jointly with Fig. 10's level ranges at 9K
  (experiments/wireframe_calibration*.yaml, docs/models/wireframe.md).  1K
  and 9K scale the mean by the proportions of Fig. 12 (right)'s
  computation-to-launch ratios (x 8/5 and x 3/5), an input like the data
  sizes.  Everything else the reproduction reports is a prediction.
* **Data footprints** (``footprints=True``, the default): each tile's TB
  reads its west producer's east column and its north producer's south row
  (and, for DTW and SW, its segments of the two sequences) and writes its
  own boundaries, through the GPU's memory hierarchy (docs/simulation.md
  "Data footprints"): the producer data is where level order can pay, by L2
  hits, with no per-policy term.  The kernel's ``mem_fraction`` is the share
  of the block's time spent reading it (the benchmark's memory share times
  those bytes' share of its traffic), the part the hierarchy replaces.
  ``streamed=True`` adds the tile's rows of the row-major input and output
  matrices, so every byte goes through the hierarchy and ``mem_fraction`` is
  the whole memory share (off by default: 58 times the CPU time of Fig. 9's
  experiment on the 2026-11-28 engine, and Fig. 9 could not be fitted;
  docs/models/wireframe.md "Streamed tiles").
* **Memory description** (:meth:`Benchmark.memory`, a
  :class:`~tbdse.workloads.KernelMemory`): an interior tile's TB reads
  ``th x tw x in_bytes`` of its input tile, ``(th + tw) x halo_bytes`` its
  producers wrote (shared) and ``(th + tw) x seq_bytes`` of the sequences,
  and writes ``th x tw x out_bytes`` plus its own ``(th + tw) x
  halo_bytes`` boundaries; ``reuse`` 1 (each cell is loaded once into
  shared memory or registers: the paper gives no kernel code, this is
  tbdse's reading), coalesced rows (``line_bytes`` 128: a tile row is
  ``tw`` consecutive 4-byte cells), ``memory_share`` the benchmark's memory
  share.  With ``streamed`` the kernel's ``mem_requests``, ``reuse`` and
  ``mem_fraction`` come from it and the footprints carry exactly its bytes
  (edge tiles clipped to the matrix).
* **Memory requests per block**: all the bytes a tile moves (input tile,
  producer data, output tile and boundaries) in 128-byte requests; they meet
  the GPU's ``mem_bandwidth`` under the shared SM model and are the
  denominator of the scheduler's memory-request overhead (Fig. 10, left).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from tbdse._util.params import unknown_name
from tbdse.errors import ConfigError
from tbdse.models.wireframe.deplinks import DepLinks
from tbdse.workloads import cost as cost_mod
from tbdse.workloads.base import Kernel, Workload, generator
from tbdse.workloads.cost import CostModel
from tbdse.workloads.footprints import DataFootprints
from tbdse.workloads.memdesc import KernelMemory

__all__ = ["BENCHMARKS", "SIZES", "wireframe_benchmark"]

# Side of the tile grid, and the mean block run time in cycles: calibrated at 4K,
# scaled in proportion to Fig. 12 (right)'s computation-to-launch ratios
# (8 : 5 : 3) elsewhere.
MEAN_4K = 83_000.0  # cycles (calibrated, see above; 80,000 under sm_share even)
SIZES: dict[str, tuple[int, float]] = {
    "1K": (32, MEAN_4K * 8 / 5),
    "4K": (64, MEAN_4K),
    "9K": (96, MEAN_4K * 3 / 5),
}
SIGMA = 0.02  # lognormal spread of block run times (calibrated, see above; 0.04 under even)


@dataclass(frozen=True)
class Benchmark:
    """A benchmark's problem (§5.2) and what one tile's TB reads and writes.

    The problem is a ``rows`` x ``cols`` matrix of cells (a DP matrix, a grid,
    an image), cut into an S x S grid of tiles, one per TB.  A TB reads its
    own input tile (``in_bytes`` per cell; 0: none), the boundary its west
    and north producers wrote (``halo_bytes`` per boundary cell) and, for the
    sequence kernels, its segment of each sequence (``seq_bytes`` per
    element); it writes its output tile (``out_bytes`` per cell; in place
    over the input for the stencils) and its own east column and south row
    (``halo_bytes`` per cell) into contiguous boundary arrays.  ``mem_share``
    is the share of a block's run time spent in global memory, from the
    kernel's bytes per operation (tbdse's estimate, docs/models/wireframe.md);
    its reads' part of it (by bytes) is what the memory hierarchy replaces."""

    name: str
    algorithm: str
    rows: int
    cols: int
    in_bytes: int
    out_bytes: int
    halo_bytes: int
    seq_bytes: int
    in_place: bool
    mem_share: float

    @property
    def data_bytes(self) -> int:
        return self.rows * self.cols * max(self.in_bytes, self.out_bytes)

    def tile(self, side: int) -> tuple[int, int]:
        return -(-self.rows // side), -(-self.cols // side)

    def traffic(self, side: int) -> tuple[int, int, int]:
        """Bytes one TB moves: its input tile (streamed, read by no other
        TB), the producer data it reads (halos, sequence segments) and what it
        writes (output tile and boundaries)."""
        th, tw = self.tile(side)
        shared = (th + tw) * (self.halo_bytes + self.seq_bytes)
        return (
            th * tw * self.in_bytes,
            shared,
            th * tw * self.out_bytes + (th + tw) * self.halo_bytes,
        )

    def memory(self, side: int, streamed: bool = True) -> KernelMemory:
        """An interior tile's TB in the terms of :class:`KernelMemory`: it
        reads its input tile (``in_bytes`` per cell; with ``streamed``), its
        producers' boundaries (shared: each producer wrote them) and its
        sequence segments, and writes its output tile and its own
        boundaries, each byte once (``reuse`` 1: a tile's cells are loaded
        once into shared memory or registers, tbdse's reading of the
        kernels); rows of 4-byte cells are coalesced (``line_bytes`` 128).
        ``memory_share`` is the kernel's memory share when every byte goes
        through the hierarchy (``streamed``), else the producer data's part
        of it (:meth:`read_fraction`)."""
        streamed_in, shared, written = self.traffic(side)
        th, tw = self.tile(side)
        return KernelMemory(
            read_bytes=(streamed_in if streamed else 0) + shared,
            write_bytes=written,
            shared_bytes=(th + tw) * self.halo_bytes,
            memory_share=round(self.read_fraction(side, streamed), 4),
        )

    def requests_per_block(self, side: int) -> int:
        """128-byte requests one TB makes: all the bytes it moves."""
        return max(1, -(-sum(self.traffic(side)) // 128))

    def read_fraction(self, side: int, streamed: bool = False) -> float:
        """The share of a TB's nominal run time that the memory hierarchy's
        reads replace (the kernel's mem_fraction).  ``streamed``: every byte
        the tile moves goes through the hierarchy, so the whole memory share
        is replaced and the nominal time keeps only the compute part;
        otherwise only the producer data does (its share of the traffic)."""
        if streamed:
            return self.mem_share
        streamed_in, shared, written = self.traffic(side)
        return self.mem_share * shared / (streamed_in + shared + written)

    def footprints(self, side: int, streamed: bool = False) -> DataFootprints:
        """Every tile's ranges; tile (x, y) is task x + side * y (DepLinks' ids).

        Producer data first (west producer's east column, north producer's
        south row, the sequence segments), then, with ``streamed``, the
        tile's rows of the row-major input matrix (``in_bytes`` per cell);
        written at the end: the tile's rows of the row-major output matrix
        (``out_bytes`` per cell; the input's addresses when ``in_place``) and
        its own east column and south row.  Edge tiles are clipped to the
        matrix, and rows of neighbouring tiles may share a 128-byte line."""
        th, tw = self.tile(side)
        task = np.arange(side * side, dtype=np.int64)
        x, y = task % side, task // side
        region = 1 << 36  # arrays far apart: no two share a line
        col, row = th * self.halo_bytes, tw * self.halo_bytes
        source, target = 0, (0 if self.in_place else region)
        east, south, seq_a, seq_b = 2 * region, 3 * region, 4 * region, 5 * region
        rows: list[tuple[np.ndarray, np.ndarray, np.ndarray, bool]] = []

        def add(keep: np.ndarray, base: np.ndarray, size: Any, write: bool) -> None:
            size = np.broadcast_to(size, task.shape)
            keep = keep & (size > 0)
            if keep.any():
                rows.append((task[keep], base[keep], size[keep], write))

        def tile_rows(start: int, cell: int, write: bool) -> None:
            # row r of every tile: matrix row y * th + r, columns [x * tw, x * tw + width)
            width = np.clip(self.cols - x * tw, 0, tw) * cell
            for r in range(th):
                line = y * th + r
                add(line < self.rows, start + (line * self.cols + x * tw) * cell, width, write)

        every = np.ones_like(task, dtype=bool)
        add(x > 0, east + (task - 1) * col, col, False)  # west producer's east column
        add(y > 0, south + (task - side) * row, row, False)  # north producer's south row
        add(every, seq_a + y * th * self.seq_bytes, th * self.seq_bytes, False)
        add(every, seq_b + x * tw * self.seq_bytes, tw * self.seq_bytes, False)
        if streamed and self.in_bytes:
            tile_rows(source, self.in_bytes, False)
        if streamed and self.out_bytes:
            tile_rows(target, self.out_bytes, True)
        add(every, east + task * col, col, True)
        add(every, south + task * row, row, True)
        return DataFootprints(
            np.concatenate([r[0] for r in rows]),
            np.concatenate([r[1] for r in rows]),
            np.concatenate([r[2] for r in rows]),
            np.concatenate([np.full(len(r[0]), r[3]) for r in rows]),
        )


# 13 MP: a 4160 x 3120 image.  Cells are 4-byte values unless said.
BENCHMARKS: dict[str, Benchmark] = {
    b.name: b
    for b in (
        # DP over two series (floats); the whole cost matrix is stored.  ~6
        # operations per 4 bytes stored: compute-bound.
        Benchmark(
            "DTW",
            "dynamic time warping of series of 12K and 8K",
            12_288,
            8_192,
            0,
            4,
            4,
            4,
            False,
            0.2,
        ),
        # a 5-point stencil in place (Gauss-Seidel order): ~6 flops per 8 bytes.
        Benchmark(
            "HEAT2D", "2-D heat equation on a 12K x 12K grid", 12_288, 12_288, 4, 4, 4, 0, True, 0.6
        ),
        # 16 bins per pixel: 4 bytes in, 64 bytes out, 2 adds per bin: memory-bound.
        Benchmark(
            "HIST",
            "integral histogram of a 13 MP image (16 bins)",
            4_160,
            3_120,
            4,
            64,
            64,
            0,
            False,
            0.8,
        ),
        # two adds per pixel, 4 bytes in and out: memory-bound.
        Benchmark(
            "INT_IMG", "integral image of a 13 MP image", 4_160, 3_120, 4, 4, 4, 0, False, 0.7
        ),
        # 5-point stencil with relaxation, in place: ~7 flops per 8 bytes.
        Benchmark(
            "SOR",
            "successive over-relaxation, 5-point stencil, 144M entries",
            12_000,
            12_000,
            4,
            4,
            4,
            0,
            True,
            0.6,
        ),
        # affine-gap DP over two 1-byte strings: ~10 operations per 4 bytes stored.
        Benchmark(
            "SW", "Smith-Waterman alignment of two 8K strings", 8_192, 8_192, 0, 4, 4, 1, False, 0.1
        ),
    )
}


@generator("wireframe_benchmark", naming=lambda p: f"{p['benchmark']}-{p['size']}")
def wireframe_benchmark(
    benchmark: str,
    size: str = "4K",
    *,
    name: str | None = None,
    cost: CostModel | Mapping[str, Any] | float | None = None,
    kernel: Kernel | None = None,
    kernels: Sequence[Kernel] | None = None,
    footprints: bool = True,
    streamed: bool = False,
) -> Workload:
    """One of Wireframe's six benchmarks (DTW, HEAT2D, HIST, INT_IMG, SOR, SW) at 1K, 4K or 9K.

    ``footprints``: the tiles' producer data goes through the GPU's memory
    hierarchy; ``streamed`` (with ``footprints``): their streamed input and
    output tiles too, the nominal time keeping only the compute part."""
    if benchmark not in BENCHMARKS:
        raise unknown_name("Wireframe benchmark", benchmark, BENCHMARKS)
    if size not in SIZES:
        raise unknown_name("Wireframe benchmark size", size, SIZES)
    if streamed and not footprints:
        raise ConfigError(
            "wireframe_benchmark: 'streamed' puts the streamed tiles into the data "
            "footprints, so it needs 'footprints' true"
        )
    spec = BENCHMARKS[benchmark]
    side, mean = SIZES[size]
    chosen, chosen_kernels = cost, (kernel, kernels) if (kernel or kernels) else None
    links = DepLinks((side, side)).add_dependency(-1, 0).add_dependency(0, -1)
    if cost is None:
        cost = cost_mod.lognormal(mean, SIGMA)
    if kernel is None and kernels is None:
        if streamed:  # every byte through the hierarchy: the description's fields
            kernel = spec.memory(side).kernel(benchmark.lower())
        else:
            kernel = Kernel(
                benchmark.lower(),
                mem_requests=spec.requests_per_block(side),
                mem_fraction=round(spec.read_fraction(side, streamed), 4),
            )
    made = links.build(
        name=name or f"{benchmark}-{size}", cost=cost, kernel=kernel, kernels=kernels
    ).with_data(spec.footprints(side, streamed) if footprints else None)
    made.generator, made.params = "wireframe_benchmark", {"benchmark": benchmark, "size": size}
    if not footprints:
        made.params["footprints"] = False
    if streamed:
        made.params["streamed"] = True
    # The defaults follow the size: a regenerated workload derives them again.
    made.chosen_cost = None if chosen is None else made.cost
    made.chosen_kernels = None if chosen_kernels is None else made.kernels
    return made
