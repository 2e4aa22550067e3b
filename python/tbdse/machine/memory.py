"""The GPU memory hierarchy, trace-driven (docs/memory.md).

Per SM a sectored set-associative L1 (LRU, 128-byte lines of 32-byte sectors,
MSHRs), a shared banked L2 and DRAM channels, with the GPU's ``l1_*``,
``l2_*`` and ``dram_*`` fields.  :class:`Hierarchy` replays an address trace and
returns when each access completes, plus hit rates, DRAM bytes, average
latency and samples of the DRAM queue.

>>> import numpy as np
>>> import tbdse as td
>>> h = td.memory.Hierarchy("gtx480")
>>> done = h.replay(sm=[0, 0], cycle=[0, 1000], address=[4096, 4096])
>>> int(done[1] - 1000) == td.gpus.gtx480().l1_hit_cycles  # the second is an L1 hit
True
>>> h.stats()["l1_hit_rate"]
0.5
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from tbdse import _core
from tbdse._util.checks import whole
from tbdse.errors import ConfigError
from tbdse.machine.gpus import Gpu, preset

__all__ = ["Hierarchy"]


def _column(values: Any, what: str, n: int | None, *, dtype: type = np.int64) -> npt.NDArray[Any]:
    a = np.asarray(values)
    if a.dtype == bool and dtype is not bool:
        raise ConfigError(f"a memory trace's {what} are integers, not booleans")
    if dtype is bool:
        if a.dtype != bool and not np.issubdtype(a.dtype, np.integer):
            raise ConfigError(f"a memory trace's {what} are booleans")
    elif not np.issubdtype(a.dtype, np.integer):
        raise ConfigError(f"a memory trace's {what} are integers; got dtype {a.dtype}")
    if n is not None and a.shape[:1] != (n,):
        raise ConfigError(f"a memory trace's {what} have {a.shape[:1]} entries; expected {n}")
    if dtype is not bool and a.size and a.min() < 0:
        raise ConfigError(f"a memory trace's {what} must be >= 0")
    return a.astype(dtype, copy=False)


class Hierarchy:
    """A memory hierarchy of GPU ``gpu`` (a :class:`~tbdse.Gpu` or a preset's
    name), its fields overridden by ``overrides`` (e.g. ``l1_bytes=32768``).
    State (cache contents, busy channels, statistics) carries over from one
    replay to the next; accesses are best replayed in non-decreasing cycles.
    ``sample_cycles``: the DRAM queue is sampled every this many cycles (0: never).
    ``booking``: ``"in_order"`` (default) serves L2 bank ports and DRAM
    channels after their latest booking; ``"gap_filling"`` gives a request the
    earliest free slot at or after its cycle, so out-of-order accesses fill
    earlier gaps (identical on accesses in non-decreasing cycles).
    ``dram_write_queue`` (gap_filling only): DRAM writes per channel held back
    and drained into slots reads leave idle behind :meth:`advance`'s horizon.
    A hierarchy is one piece of state: replay on it from one thread at a time
    (the GIL is released during a replay).
    """

    def __init__(
        self,
        gpu: Gpu | str = "gtx480",
        *,
        sample_cycles: int = 1000,
        booking: str = "in_order",
        dram_write_queue: int = 0,
        **overrides: Any,
    ):
        base = preset(gpu) if isinstance(gpu, str) else gpu
        if not isinstance(base, Gpu):
            raise ConfigError(f"a memory hierarchy needs a Gpu or a preset's name; got {gpu!r}")
        self.gpu = base.replace(**overrides) if overrides else base
        sample = whole(sample_cycles, "sample_cycles", 0)
        if booking not in ("in_order", "gap_filling"):
            raise ConfigError(f"booking must be 'in_order' or 'gap_filling'; got {booking!r}")
        queue = whole(dram_write_queue, "dram_write_queue", 0)
        self.booking = booking
        self._h = _core.MemoryHierarchy((self.gpu.name, self.gpu.encoded()), sample, booking, queue)

    def advance(self, horizon: int) -> None:
        """No later access comes before cycle ``horizon`` (gap_filling: queued
        DRAM writes drain into idle slots before it, older bookings are
        dropped; in_order: nothing happens)."""
        self._h.advance(whole(horizon, "horizon", 0))

    def replay(
        self,
        sm: Any,
        cycle: Any,
        address: Any,
        is_write: Any = None,
        *,
        bytes: int = 4,
    ) -> npt.NDArray[np.int64]:
        """One access per entry: SM ``sm[i]`` at ``cycle[i]`` reads (or writes,
        ``is_write[i]``) ``bytes`` bytes from ``address[i]`` (a range of more
        than one line is walked a line per cycle).  Returns completion cycles."""
        addr = _column(address, "addresses", None, dtype=np.uint64)
        if addr.ndim != 1:
            raise ConfigError("a memory trace's addresses are a one-dimensional array")
        n = len(addr)
        writes = (
            np.zeros(n, bool) if is_write is None else _column(is_write, "is_write", n, dtype=bool)
        )
        size = whole(bytes, "bytes", 1)
        return self._h.replay(
            _column(sm, "SMs", n), _column(cycle, "cycles", n), addr, writes, size
        )

    def replay_warps(
        self,
        sm: Any,
        cycle: Any,
        address: Any,
        active: Any = None,
        is_write: Any = None,
        *,
        bytes: int = 4,
    ) -> npt.NDArray[np.int64]:
        """One warp instruction per row: ``address`` is (n, 32), thread t of
        warp i active when bit t of ``active[i]`` is set (default: all); the
        active threads' ``bytes``-byte accesses (at most 32) are coalesced into
        line requests that enter L1 one per cycle.  Returns completion cycles."""
        addr = _column(address, "addresses", None, dtype=np.uint64)
        if addr.ndim != 2 or addr.shape[1] != 32:
            raise ConfigError(f"a warp trace's addresses are an (n, 32) array; got {addr.shape}")
        n = len(addr)
        mask = (
            np.full(n, 0xFFFFFFFF, np.uint32)
            if active is None
            else _column(active, "active masks", n, dtype=np.uint32)
        )
        writes = (
            np.zeros(n, bool) if is_write is None else _column(is_write, "is_write", n, dtype=bool)
        )
        size = whole(bytes, "bytes", 1)
        return self._h.replay_warps(
            _column(sm, "SMs", n), _column(cycle, "cycles", n), addr, mask, writes, size
        )

    def stats(self) -> dict[str, float]:
        """Counts so far: ``l1_hit_rate`` and ``l2_hit_rate`` (read sectors that
        hit), ``dram_bytes`` (read and written), ``average_latency`` (cycles per
        replayed access), and the counters they come from (docs/memory.md)."""
        return dict(self._h.stats())

    def dram_queue_samples(self) -> npt.NDArray[np.float64]:
        """Sector transfers queued or in service over all DRAM channels, every
        ``sample_cycles`` cycles up to the last access."""
        return np.asarray(self._h.dram_queue_samples())
