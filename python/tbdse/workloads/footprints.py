"""Data footprints of a task graph's thread blocks (docs/simulation.md "Data
footprints"): the byte ranges each task's TB reads when it starts and writes
when it ends.  With them the TB engine sends those ranges through the GPU's
memory hierarchy (docs/memory.md): a consumer issued while its producer's
lines are still in L2 hits there, one issued after they were evicted goes to
DRAM.  The kernel's ``mem_fraction`` share of a TB's cost is replaced by what
the reads take."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from tbdse._util.excerpts import excerpt
from tbdse.errors import ConfigError

__all__ = ["DataFootprints"]

_MAX_BYTES = 2**40
_MAX_BASE = 2**62


class DataFootprints:
    """One row per byte range: the task (input id), its base address, its size
    in bytes and whether the TB writes it (else reads it).  A task may have any
    number of ranges, in any order; tasks without rows touch no data.

    ``DataFootprints(task, base, bytes, write)`` takes four equally long
    arrays; :meth:`from_rows` takes ``(task, "read" | "write", base, bytes)``
    tuples.  Bad values raise ConfigError naming the row's task and field."""

    def __init__(self, task: Any, base: Any, bytes: Any, write: Any) -> None:
        columns = {"task": task, "base": base, "bytes": bytes, "write": write}
        arrays = {k: np.asarray(v) for k, v in columns.items()}
        for key, a in arrays.items():
            if a.ndim != 1:
                raise ConfigError(f"data footprints: '{key}' must be a 1-D array; got {excerpt(a)}")
        lengths = {k: len(a) for k, a in arrays.items()}
        if len(set(lengths.values())) != 1:
            raise ConfigError(f"data footprints: columns of different lengths {lengths}")
        for key in ("task", "base", "bytes"):
            a = arrays[key]
            if a.size and not np.issubdtype(a.dtype, np.integer):
                raise ConfigError(f"data footprints: '{key}' must hold integers; got {a.dtype}")
        if arrays["write"].size and arrays["write"].dtype != np.bool_:
            raise ConfigError(
                f"data footprints: 'write' must hold booleans; got {arrays['write'].dtype}"
            )
        self.task = arrays["task"].astype(np.int64)
        self.base = arrays["base"].astype(np.int64)
        self.bytes = arrays["bytes"].astype(np.int64)
        self.write = arrays["write"].astype(bool)
        self._check("base", (self.base < 0) | (self.base >= _MAX_BASE), "[0, 2^62)")
        self._check("bytes", (self.bytes < 0) | (self.bytes > _MAX_BYTES), "[0, 2^40]")
        self._check("task", self.task < 0, "a task id >= 0")

    def _check(self, key: str, bad: np.ndarray, valid: str) -> None:
        if bad.any():
            i = int(np.argmax(bad))
            raise ConfigError(
                f"data footprints: the range of task {int(self.task[i])} (row {i}) has "
                f"'{key}' = {int(getattr(self, key)[i])}; it must be in {valid}"
            )

    @classmethod
    def from_rows(cls, rows: Iterable[tuple[int, str, int, int]]) -> DataFootprints:
        """From ``(task, "read" | "write", base, bytes)`` tuples."""
        task, base, size, write = [], [], [], []
        for row in rows:
            if len(row) != 4 or row[1] not in ("read", "write"):
                raise ConfigError(
                    "data footprints: a row is (task, 'read' | 'write', base, bytes); "
                    f"got {excerpt(row)}"
                )
            task.append(int(row[0]))
            write.append(row[1] == "write")
            base.append(int(row[2]))
            size.append(int(row[3]))
        return cls(
            np.array(task, np.int64),
            np.array(base, np.int64),
            np.array(size, np.int64),
            np.array(write, bool),
        )

    def __len__(self) -> int:
        return len(self.task)

    def check_tasks(self, tasks: int, workload: str) -> None:
        """Every row's task is one of the graph's ``tasks``."""
        bad = self.task >= tasks
        if bad.any():
            i = int(np.argmax(bad))
            raise ConfigError(
                f"workload '{workload}': data footprints name task {int(self.task[i])} "
                f"(row {i}); 'task' must be in [0, {tasks})"
            )

    def bytes_read(self) -> int:
        return int(self.bytes[~self.write].sum())

    def bytes_written(self) -> int:
        return int(self.bytes[self.write].sum())

    def core_tuple(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        return (self.task, self.base, self.bytes, self.write)  # the core reads them in place

    def digest(self) -> bytes:
        import hashlib

        h = hashlib.sha1()
        for a in (self.task, self.base, self.bytes, self.write):
            h.update(a.tobytes())
        return h.digest()

    def __repr__(self) -> str:
        return (
            f"DataFootprints({len(self)} ranges, {self.bytes_read()} B read, "
            f"{self.bytes_written()} B written)"
        )
