"""The Kernel: a kernel's name and the resources one of its thread blocks holds."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields

from tbdse._util.checks import real, text, whole
from tbdse.errors import ConfigError

__all__ = ["KERNEL_RESOURCES", "Kernel", "make_kernels"]


@dataclass(frozen=True)
class Kernel:
    """A kernel's name and the resources one of its thread blocks holds on an SM.

    Zero means no demand: by default a kernel is limited by TB slots alone.
    ``mem_requests`` are the 128-byte global-memory requests one TB makes;
    ``mem_fraction`` the share of its cost that is memory time — under
    ``gpu.sm_model = 'shared'`` SM sharing does not slow that share and the
    TBs' bytes meet ``gpu.mem_bandwidth`` (docs/simulation.md).
    ``issue_interval`` (cycles, 0 = not stated) is the kernel's throughput
    trait under ``sm_model = 'shared'``: a warp issues once per that many
    cycles while it computes (its instruction mix's dependent-issue latency
    over its ILP), so a TB of ``ceil(threads / 32)`` warps demands ``warps /
    (issue_interval x min(issue_width, lanes / 32))`` (at most 1) of its SM's issue slots
    instead of ``1 / sm_saturation`` (docs/simulation.md "Per-kernel
    throughput").  It needs ``threads``.
    ``reuse`` (passes, default 1) is how many times a TB's warps sweep its
    data footprint's reads: with ``reuse`` > 1 the TB's compute is split in
    ``reuse`` chunks, one per pass; the first pass goes through the memory
    hierarchy at issue, each next one when the previous pass ends, meeting the
    caches as co-resident TBs left them (docs/simulation.md "Reuse"); it
    needs data footprints.
    """

    name: str = "kernel"
    threads: int = 0
    regs_per_thread: int = 0
    smem_bytes: int = 0
    mem_requests: int = 0
    mem_fraction: float = 0.0
    issue_interval: float = 0.0
    reuse: int = 1

    def __post_init__(self) -> None:
        text(self.name, "a kernel's name")
        for field in ("threads", "regs_per_thread", "smem_bytes", "mem_requests"):
            value = whole(getattr(self, field), f"kernel '{self.name}': '{field}'", 0, 2**31 - 1)
            object.__setattr__(self, field, value)
        fraction = real(self.mem_fraction, f"kernel '{self.name}': 'mem_fraction'", 0, 1)
        object.__setattr__(self, "mem_fraction", fraction)
        interval = real(self.issue_interval, f"kernel '{self.name}': 'issue_interval'", 0, 1e6)
        if interval != 0 and interval < 1:
            raise ConfigError(
                f"kernel '{self.name}': 'issue_interval' must be 0 (not stated) or at least 1 "
                f"cycle (a warp issues at most once per cycle); got {interval:g}"
            )
        if interval != 0 and self.threads == 0:
            raise ConfigError(
                f"kernel '{self.name}': 'issue_interval' needs 'threads' (the TB's warps are "
                "what issue); threads is 0"
            )
        object.__setattr__(self, "issue_interval", interval)
        passes = whole(
            self.reuse, f"kernel '{self.name}': 'reuse' (passes over its footprint)", 1, 1024
        )
        object.__setattr__(self, "reuse", passes)

    def as_tuple(self) -> tuple[str, int, int, int, int, float, float, int]:
        return (
            self.name,
            self.threads,
            self.regs_per_thread,
            self.smem_bytes,
            self.mem_requests,
            self.mem_fraction,
            self.issue_interval,
            self.reuse,
        )


# The per-TB fields a kernel declares besides its name, in declaration
# order: the keys task files, application files and experiment files accept
# for a kernel (one list, derived from the dataclass).
KERNEL_RESOURCES: tuple[str, ...] = tuple(f.name for f in fields(Kernel) if f.name != "name")


def make_kernels(kernel: Kernel | None, kernels: Sequence[Kernel] | None) -> tuple[Kernel, ...]:
    if kernel is not None and kernels is not None:
        raise ConfigError("give either 'kernel' or 'kernels', not both")
    if kernels is not None:
        return tuple(kernels)
    return (kernel,) if kernel is not None else (Kernel(),)
