"""Exceptions raised by tbdse.

The compiled core raises these same classes (they are registered with the
extension), so ``except tbdse.ConfigError`` catches bad input whether Python or
C++ found it.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["ConfigError", "DeadlockError", "SimulationError", "SweepInterrupted", "TbdseError"]


class TbdseError(Exception):
    """Base class of every tbdse error."""


class ConfigError(TbdseError, ValueError):
    """Bad input: an unknown or misspelt key, a wrong type, an impossible size.

    The message names the offending key, node or parameter and what is valid.
    """


class SimulationError(TbdseError, RuntimeError):
    """A run that could not be completed."""


class DeadlockError(SimulationError):
    """A run that can never finish (e.g. a buffer too small for the graph).

    ``stuck_tasks`` lists ids of tasks that could not make progress, most telling first.
    """

    def __init__(self, message: str, stuck_tasks: Sequence[int] = ()) -> None:
        super().__init__(message)
        self.stuck_tasks: list[int] = list(stuck_tasks)


class SweepInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped a sweep; ``results`` holds every run that had finished."""

    def __init__(self, results: object, message: str = "sweep interrupted") -> None:
        super().__init__(message)
        self.results = results
