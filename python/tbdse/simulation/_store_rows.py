"""A results store's rows: how a chunk is made (:func:`key_frame`), each proved
chunk checked as tbdse writes them, and the chunks merged one row per key
(the rules are in :mod:`tbdse.simulation.store`)."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from tbdse.errors import ConfigError
from tbdse.io.files import sha256_file
from tbdse.simulation.results import STATUS_NAMES

# dtype kinds of the key columns as tbdse writes them (i: int, f: float, O: text)
KEY_KINDS = {
    "_seed": "iu",
    "_hash": "iu",
    "_replicate": "iu",
    "_status": "iu",
    "_timeout_s": "f",
    "_build": "OSU",
    "_error": "OSU",
}
KEY_COLUMNS = ("_seed", "_hash", "_replicate", "_build", "_status", "_error", "_timeout_s")
# Metrics every run has, whatever its scheme: every chunk holds them.
REQUIRED_METRICS = ("makespan_cycles", "makespan_us")

KEY = ["_seed", "_hash", "_replicate", "_build"]
TIMED_OUT = 4  # STATUS_NAMES[4] == "timed_out"


def read_chunk(file: Path) -> pd.DataFrame:
    """A chunk's rows, or a ConfigError naming the chunk and the column."""
    try:
        frame = pd.read_parquet(file)
    except Exception as exc:  # pyarrow raises several types for a damaged file
        raise ConfigError(f"results store chunk {file} cannot be read ({exc})") from None
    if "_timeout_s" not in frame.columns:  # format 1, before time limits: none
        frame["_timeout_s"] = np.inf
    missing = (set(KEY_COLUMNS) | set(REQUIRED_METRICS)) - set(frame.columns)
    if missing:
        raise ConfigError(
            f"results store chunk {file} lacks {', '.join(sorted(missing))}, which every chunk "
            "tbdse writes has; move it away and rerun, which simulates its runs again"
        )
    for column in frame.columns:
        kinds = KEY_KINDS.get(column, "fiub")  # metrics are numbers
        if frame[column].dtype.kind not in kinds:
            raise ConfigError(
                f"results store chunk {file}: column {column} has type "
                f"{frame[column].dtype}, not the one tbdse writes"
            )
    unknown = sorted(set(frame["_status"].unique()) - set(STATUS_NAMES))
    if unknown:
        raise ConfigError(
            f"results store chunk {file}: column _status holds {unknown[0]}, which is no status "
            f"tbdse writes (valid: {', '.join(map(str, sorted(STATUS_NAMES)))})"
        )
    return frame


def merge(chunks: list[tuple[Path, pd.DataFrame]]) -> pd.DataFrame:
    """The chunks' rows, one per key: equal rows once, a timed-out row given
    way to a finished one or one with a longer limit; other clashes refused."""
    frame = pd.concat(
        [f.assign(_chunk=str(file)) for file, f in chunks], ignore_index=True, sort=False
    )
    columns = [c for c in frame.columns if c != "_chunk"]
    frame = frame[~frame.duplicated(subset=columns)]
    timed_out = frame["_status"] == TIMED_OUT
    finished_keys = frame.loc[~timed_out, KEY].drop_duplicates()
    marked = frame.merge(finished_keys.assign(_finished=True), on=KEY, how="left")
    superseded = timed_out.to_numpy() & marked["_finished"].notna().to_numpy()
    frame = frame[~superseded]
    # of the timed-out rows left, the one under the longest limit
    frame = frame.sort_values("_timeout_s", kind="stable", ascending=False)
    longest = frame.duplicated(subset=KEY) & (frame["_status"] == TIMED_OUT)
    frame = frame[~longest].sort_index()
    clash = frame[frame.duplicated(subset=KEY, keep=False)]
    if not clash.empty:
        first = clash.iloc[0]
        files = sorted(set(clash.loc[(clash[KEY] == first[KEY]).all(axis=1), "_chunk"]))
        raise ConfigError(
            f"results store chunks {' and '.join(files)} disagree on the run of seed "
            f"{first['_seed']}, configuration {first['_hash']}, replicate {first['_replicate']}: "
            "tbdse writes one result per run; move the chunk you do not trust away and rerun"
        )
    return frame.drop(columns="_chunk").reset_index(drop=True)


@functools.cache
def build_id() -> str:
    """The compiled core that produces rows: its version and a hash of the extension."""
    from tbdse import _core

    digest = sha256_file(Path(_core.__file__ or "")) or "unknown"
    return f"{_core.__version__}+{digest[:16]}"


def key_frame(
    seed: int,
    hashes: np.ndarray,
    replicates: np.ndarray,
    res: Mapping[str, Any],
    timeout_s: float | None = None,
) -> pd.DataFrame:
    """A chunk's rows as stored: key columns, status, error, the time limit
    the runs had (inf: none), then the metrics."""
    frame = pd.DataFrame(res["metrics"], columns=list(res["columns"]))
    n = len(frame)
    head = pd.DataFrame(
        {
            "_seed": np.full(n, np.uint64(seed)).view(np.int64),
            "_hash": np.asarray(hashes, dtype=np.uint64).view(np.int64),
            "_replicate": np.asarray(replicates, dtype=np.int64),
            "_build": [build_id()] * n,
            "_status": np.asarray(res["status"], dtype=np.int8),
            "_error": list(res["errors"]),
            "_timeout_s": np.full(n, np.inf if timeout_s is None else float(timeout_s)),
        }
    )
    return pd.concat([head, frame], axis=1)
