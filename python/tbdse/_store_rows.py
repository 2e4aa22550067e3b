"""A results store's rows: each proved chunk checked as tbdse writes them, and
the chunks merged one row per key (the rules are in :mod:`tbdse.store`)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from tbdse.errors import ConfigError
from tbdse.results import STATUS_NAMES
from tbdse.store import _KEY_KINDS, KEY_COLUMNS, REQUIRED_METRICS

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
        kinds = _KEY_KINDS.get(column, "fiub")  # metrics are numbers
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
