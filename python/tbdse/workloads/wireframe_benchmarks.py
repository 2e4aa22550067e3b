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
  per-benchmark run times, so the six presets differ only in their memory
  traffic, and tbdse reproduces the averages of Fig. 9, not its spread.  At 4K
  the mean (77,000 cycles) and the spread (sigma 0.03) are *calibrated*, with
  the GTX480 preset's shared SM timing (4 TBs at full speed, shared evenly)
  and device-launch latency, on one figure: Fig. 9's CDP, DepLinks, LRR and
  LVL averages (experiments/wireframe_calibration*.yaml,
  docs/models/wireframe.md).  1K and 9K scale the mean by the proportions of
  Fig. 12 (right)'s computation-to-launch ratios (x 8/5 and x 3/5), an input
  like the data sizes.  Everything else the reproduction reports (per-size
  speed-ups, level ranges, buffer use) is a prediction.
* **Memory requests per block.**  The paper's data sizes (§5.2) read and
  written once, in 128-byte requests, spread over the blocks: 2 x bytes / 128 /
  blocks.  Used for the scheduler's memory-request overhead (Fig. 10, left).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tbdse import cost as cost_mod
from tbdse._params import unknown_name
from tbdse.cost import CostModel
from tbdse.workloads.base import Kernel, Workload, generator
from tbdse.workloads.deplinks import DepLinks

__all__ = ["BENCHMARKS", "SIZES", "wireframe_benchmark"]

# Side of the tile grid, and the mean block run time in cycles: calibrated at 4K,
# scaled in proportion to Fig. 12 (right)'s computation-to-launch ratios
# (8 : 5 : 3) elsewhere.
MEAN_4K = 77_000.0  # cycles (calibrated, see above)
SIZES: dict[str, tuple[int, float]] = {
    "1K": (32, MEAN_4K * 8 / 5),
    "4K": (64, MEAN_4K),
    "9K": (96, MEAN_4K * 3 / 5),
}
SIGMA = 0.03  # lognormal spread of block run times (calibrated, see above)


@dataclass(frozen=True)
class Benchmark:
    name: str
    algorithm: str
    data_bytes: int  # §5.2 input, as an array of 4-byte values

    def requests_per_block(self, blocks: int) -> int:
        return max(1, round(2 * self.data_bytes / 128 / blocks))


BENCHMARKS: dict[str, Benchmark] = {
    b.name: b
    for b in (
        Benchmark("DTW", "dynamic time warping of series of 12K and 8K", 12_288 * 8_192 * 4),
        Benchmark("HEAT2D", "2-D heat equation on a 12K x 12K grid", 12_288 * 12_288 * 4),
        Benchmark(
            "HIST",
            "integral histogram of a 13 MP image (16 bins)",
            13_000_000 * 16 * 4,
        ),
        Benchmark("INT_IMG", "integral image of a 13 MP image", 13_000_000 * 4),
        Benchmark(
            "SOR",
            "successive over-relaxation, 5-point stencil, 144M entries",
            144_000_000 * 4,
        ),
        Benchmark("SW", "Smith-Waterman alignment of two 8K strings", 8_192 * 8_192 * 4),
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
) -> Workload:
    """One of Wireframe's six benchmarks (DTW, HEAT2D, HIST, INT_IMG, SOR, SW) at 1K, 4K or 9K."""
    if benchmark not in BENCHMARKS:
        raise unknown_name("Wireframe benchmark", benchmark, BENCHMARKS)
    if size not in SIZES:
        raise unknown_name("Wireframe benchmark size", size, SIZES)
    spec = BENCHMARKS[benchmark]
    side, mean = SIZES[size]
    chosen, chosen_kernels = cost, (kernel, kernels) if (kernel or kernels) else None
    links = DepLinks((side, side)).add_dependency(-1, 0).add_dependency(0, -1)
    if cost is None:
        cost = cost_mod.lognormal(mean, SIGMA)
    if kernel is None and kernels is None:
        kernel = Kernel(benchmark.lower(), mem_requests=spec.requests_per_block(side * side))
    made = links.build(
        name=name or f"{benchmark}-{size}", cost=cost, kernel=kernel, kernels=kernels
    )
    made.generator, made.params = "wireframe_benchmark", {"benchmark": benchmark, "size": size}
    # The defaults follow the size: a regenerated workload derives them again.
    made.chosen_cost = None if chosen is None else made.cost
    made.chosen_kernels = None if chosen_kernels is None else made.kernels
    return made
