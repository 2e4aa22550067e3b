"""Which run ``tbdse run --trace RUN`` (``Experiment.run(trace=...)``) records:
a row of the results (0: the first) or a configuration hash."""

from __future__ import annotations

import argparse
import re
from collections.abc import Sequence

import numpy as np
import pandas as pd

from tbdse._util.excerpts import excerpt
from tbdse.errors import ConfigError

# A configuration hash is 16 hex digits (the results' config_hash); a unique
# prefix of at least this many digits names it too.
MIN_HASH_DIGITS = 4
SELECTOR = re.compile(r"\d+|[0-9a-fA-F]{4,16}")

HOW = (
    "a row number of the results (0: the first run) or a configuration hash "
    f"(config_hash, or its first {MIN_HASH_DIGITS}+ hex digits)"
)


def check_selector(which: bool | int | str) -> bool | int | str:
    """``which`` as given, if it can name a run at all (checked before anything runs)."""
    if isinstance(which, bool):
        return which
    if isinstance(which, (int, np.integer)):
        if which < 0:
            raise ConfigError(f"trace: the run to record is {HOW}; got {which}")
        return int(which)
    if isinstance(which, str) and SELECTOR.fullmatch(which):
        return which
    raise ConfigError(f"trace: the run to record is {HOW}; got {excerpt(which)}")


def pick_run(which: bool | int | str, frame: pd.DataFrame, main_runs: int) -> int:
    """The plan's run index that ``which`` names, among the ``main_runs``
    result rows of ``frame`` (row i is run i)."""
    if which is True:
        return 0
    # A number names a row; one past the rows with 4+ digits may be a hash's start.
    digits = isinstance(which, str) and which.isdigit()
    if digits and (int(which) < main_runs or len(str(which)) < MIN_HASH_DIGITS):
        which = int(which)
    if isinstance(which, int):
        if not 0 <= which < main_runs:
            raise ConfigError(
                f"trace: there is no run {which}; the experiment has {main_runs} "
                f"(rows 0 to {main_runs - 1} of its results)"
            )
        return which
    hashes = frame.get("config_hash", pd.Series([], dtype=object)).astype(str)
    hits = np.flatnonzero(hashes.str.startswith(str(which).lower()).to_numpy())
    if len(hits) == 0:
        raise ConfigError(
            f"trace: no run has configuration hash {which!r} (nor is it a row number below "
            f"{main_runs}); the results' config_hash column lists them"
        )
    found = sorted(set(hashes.iloc[hits]))
    if len(found) > 1:
        raise ConfigError(
            f"trace: {which!r} begins {len(found)} configuration hashes "
            f"({', '.join(found[:4])}{', ...' if len(found) > 4 else ''}); give more digits"
        )
    return int(hits[0])  # the first row with it: replicate 0 of that configuration


# -- the command line: tbdse run --trace [RUN] -------------------------------------------
def trace_arg(text: str) -> str:
    try:
        check_selector(text)
    except ConfigError:
        raise argparse.ArgumentTypeError(f"RUN is {HOW}; got {text!r}") from None
    return text


def trace_words(argv: Sequence[str]) -> list[str]:
    """``--trace`` takes the next word only when it can name a run (a number,
    a hash), so ``--trace exp.yaml`` and ``--trace seed=3`` keep their words."""
    out: list[str] = []
    words = list(argv)
    i = 0
    while i < len(words):
        word = words[i]
        if word == "--":
            out += words[i:]
            break
        if word == "--trace":
            after = words[i + 1] if i + 1 < len(words) else ""
            taken = bool(SELECTOR.fullmatch(after))
            out.append(f"--trace={after if taken else '0'}")
            i += 2 if taken else 1
            continue
        out.append(word)
        i += 1
    return out
