"""DepLinks (Wireframe §3.1): dependencies declared per thread block as
relative links, as the paper's ``WF::AddDependency(dim3(...))`` does.

>>> wave = DepLinks((64, 64)).add_dependency(-1, 0).add_dependency(0, -1)
>>> wl = wave.build(name="wavefront", cost=td.cost.lognormal(2000, 0.2))

Every block (x, y, z) of the grid gets a parent (x+dx, y+dy, z+dz) per link.
Links that leave the grid are ignored, as the paper's API does with boundary
checks (block (0, 0) has no parents).  ``when`` restricts a link to some blocks,
the paper's "conditional statements ... to differentiate dependencies related
to different groups of blocks".  Blocks are numbered as CUDA numbers them:
id = x + X * (y + Y * z).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from tbdse._util.checks import whole
from tbdse._util.excerpts import excerpt
from tbdse.errors import ConfigError
from tbdse.io.edge_list import from_edges
from tbdse.workloads.base import Kernel, Workload, make_kernels
from tbdse.workloads.cost import CostModel

__all__ = ["DepLinks"]

Condition = Callable[[np.ndarray, np.ndarray, np.ndarray], Any]


class DepLinks:
    """A grid of thread blocks and the relative dependencies between them."""

    def __init__(self, grid: int | Sequence[int]) -> None:
        if isinstance(grid, (int, np.integer)):
            dims = [grid]
        elif isinstance(grid, Sequence) and not isinstance(grid, (str, bytes)):
            dims = list(grid)
        else:
            dims = []  # refused below with the value
        if not 1 <= len(dims) <= 3:
            raise ConfigError(
                f"a DepLinks grid has 1 to 3 dimensions (x, y, z); got {excerpt(grid)}"
            )
        dims = [whole(d, "a DepLinks grid dimension", 1, 2**31 - 1) for d in dims]
        self.grid: tuple[int, int, int] = (*dims, *([1] * (3 - len(dims))))  # type: ignore[assignment]
        if self.grid[0] * self.grid[1] * self.grid[2] > 2**31 - 1:
            raise ConfigError(f"a DepLinks grid of {self.grid} blocks is too large")
        self.links: list[tuple[int, int, int, Condition | None]] = []

    def add_dependency(
        self, dx: int = 0, dy: int = 0, dz: int = 0, *, when: Condition | None = None
    ) -> DepLinks:
        """Each block (x, y, z) depends on block (x+dx, y+dy, z+dz).

        ``when(x, y, z)`` gets NumPy arrays of block coordinates and returns a
        boolean array: the link applies to the blocks where it is true.
        """
        offsets = tuple(
            whole(v, f"DepLinks offset {axis}") for axis, v in zip("xyz", (dx, dy, dz), strict=True)
        )
        if offsets == (0, 0, 0):
            raise ConfigError("a DepLinks link (0, 0, 0) would make a block depend on itself")
        if when is not None and not callable(when):
            raise ConfigError(f"'when' must be a function of (x, y, z) arrays; got {excerpt(when)}")
        self.links.append((*offsets, when))  # type: ignore[arg-type]
        return self

    def edges(self) -> np.ndarray:
        """All (parent, child) block-id pairs the links describe."""
        nx, ny, nz = self.grid
        grid_z, grid_y, grid_x = np.meshgrid(
            np.arange(nz), np.arange(ny), np.arange(nx), indexing="ij"
        )
        x, y, z = grid_x.ravel(), grid_y.ravel(), grid_z.ravel()
        child = x + nx * (y + ny * z)
        parts = []
        for dx, dy, dz, when in self.links:
            px, py, pz = x + dx, y + dy, z + dz
            keep = (px >= 0) & (px < nx) & (py >= 0) & (py < ny) & (pz >= 0) & (pz < nz)
            if when is not None:
                chosen = np.asarray(when(x, y, z))
                if chosen.shape != x.shape or chosen.dtype != bool:
                    raise ConfigError(
                        "a DepLinks 'when' must return one boolean per block "
                        f"({x.shape[0]} values); got {chosen.dtype} of shape {chosen.shape}"
                    )
                keep &= chosen
            parts.append(np.column_stack([(px + nx * (py + ny * pz))[keep], child[keep]]))
        return np.concatenate(parts) if parts else np.zeros((0, 2), dtype=np.int64)

    def build(
        self,
        *,
        name: str = "deplinks",
        cost: CostModel | Mapping[str, Any] | float | None = None,
        kernel: Kernel | None = None,
        kernels: Sequence[Kernel] | None = None,
    ) -> Workload:
        """The workload: one task per block, edges from the links."""
        nx, ny, nz = self.grid
        return from_edges(
            self.edges(), nx * ny * nz, name=name, cost=cost, kernels=make_kernels(kernel, kernels)
        )

    # -- the barrier primitives of Wireframe Fig. 2 ------------------------------------
    @classmethod
    def barrier(cls, width: int, stages: int, group: int) -> DepLinks:
        """``stages`` rows of ``width`` blocks; each block depends on every block of
        its group of ``group`` in the row before (Fig. 2: group = width is the
        global barrier, group = 2 the pairwise inter-block barrier)."""
        width = whole(width, "barrier width", 1)
        group = whole(group, "barrier group", 1, width)
        links = cls((width, whole(stages, "barrier stages", 1)))

        def same_group(dx: int) -> Condition:
            return lambda x, y, z: (x + dx) // group == x // group

        for dx in range(-(group - 1), group):
            links.add_dependency(dx, -1, when=same_group(dx))
        return links

    @classmethod
    def global_barrier(cls, width: int, stages: int) -> DepLinks:
        """Fig. 2 (middle): every block after the barrier depends on every block before it."""
        return cls.barrier(width, stages, width)

    @classmethod
    def pairwise_barrier(cls, width: int, stages: int) -> DepLinks:
        """Fig. 2 (right): blocks synchronise in pairs."""
        return cls.barrier(width, stages, min(2, whole(width, "barrier width", 1)))
