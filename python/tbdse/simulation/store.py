"""A results store: every finished run of a sweep, on disk, reused by key.

A store is a folder.  Each finished chunk of a sweep is one Parquet file of
rows keyed by (seed, configuration hash, replicate, build) with the run's
status and error; a rerun, an extended grid or another sweep that shares
configurations simulates only what the store lacks.  ``build`` names the
compiled core that produced a row (version and a hash of the extension), so
rows from another build of tbdse are never taken for this one's.

Layout::

    tbdse-store.json     what the folder is (written once, signed)
    ledger.jsonl         one line per chunk: its file name, SHA-256 and MAC
    chunk-<token>.parquet
    tbdse-store.lock     held (flock) by the sweep writing to the store

Chunks are written to a temporary file, flushed, recorded in the ledger and
renamed into place, so a kill at any point loses at most the chunk being
written, and leaves nothing tbdse cannot recognise as its own.  Every ledger
entry (and the description) carries a MAC made with this user's key over
(purpose, the store's resolved path, the file's name, its digest)
(:mod:`tbdse.io.ownership`): a hash proves only that a file is unchanged, the
MAC that this user's tbdse wrote it here.  Only chunks whose entry verifies
and whose content still has its digest are read as rows, renamed or deleted;
a ledger with an entry that does not verify (crafted, copied, another user's,
or an earlier tbdse's) is refused with the command that adopts the store
(``tbdse adopt DIR``), and anything else in the folder is left alone.  One
sweep writes a store at a time: a second is refused with the name of the
first (pid, host, start).

Rows: a chunk's ``_status`` must be a status tbdse writes and its metrics
numbers; a chunk adopted from format 1 that lacks ``_timeout_s`` reads it as
``inf`` (no limit), its documented default.  Every chunk must hold the
metrics every run has (``makespan_cycles``, ``makespan_us``); other metrics may differ
between chunks (sweeps of other schemes record other statistics) and read as
NaN where a chunk lacks them.  Rows of one key (seed, hash, replicate, build)
that are equal are one row; a timed-out row gives way to a finished one (or
to one timed out under a longer limit); any other disagreement is refused.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from tbdse.errors import ConfigError
from tbdse.io.files import (
    FolderLock,
    atomic_write,
    new_token,
    os_problem,
    parse_json,
    read_record,
    require_no_link,
    sha256_file,
    unlink_if_unchanged,
    write_text,
)
from tbdse.io.ownership import adopt_hint, sign, verifies
from tbdse.simulation._store_rows import KEY_COLUMNS, build_id, key_frame, merge, read_chunk

__all__ = ["KEY_COLUMNS", "ResultsStore", "build_id", "key_frame"]

STORE_FILE = "tbdse-store.json"
LEDGER = "ledger.jsonl"
LOCK = "tbdse-store.lock"
FORMAT = 2  # 2: entries signed (MACs); 1: hashes only (tbdse adopt DIR)
STORE_MAC, CHUNK_MAC, TEMPORARY_MAC = "results-store", "store-chunk", "store-temporary"
# The names tbdse gives chunks and their temporaries: nothing else is read or deleted.
_CHUNK = re.compile(r"chunk-[0-9a-f]{16}\.parquet")
_PENDING = re.compile(r"\.chunk-[0-9a-f]{16}\.parquet\.tmp")


class ResultsStore:
    """A folder of finished runs (see the module docs).

    ``ResultsStore(path)`` opens or creates one; :meth:`rows` reads what is
    stored.  Sweeps write through ``td.sweep(..., store=path)`` (or
    ``checkpoint=path``); ``tbdse run`` keeps one in ``OUT/store``.
    """

    def __init__(self, path: str | Path) -> None:
        if not isinstance(path, str | os.PathLike) or not str(path).strip() or "\0" in str(path):
            shown = "a NUL character" if "\0" in str(path) else repr(path)[:80]
            raise ConfigError(f"a results store must be named by a folder path; got {shown}")
        self.path = Path(path)
        require_no_link(self.path, "results store")
        if self.path.exists() and not self.path.is_dir():
            raise ConfigError(
                f"results store {self.path} is a file, not a folder; use another path"
            )
        try:
            self.path.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise os_problem(self.path, "create results store", exc) from None
        self._lock: FolderLock | None = None
        meta = self.path / STORE_FILE
        require_no_link(meta, "results store")
        if meta.is_symlink() or meta.exists():
            self._check_meta(meta)
        else:
            self._refuse_foreign()
            atomic_write(meta, lambda p: write_text(p, description(self.path)))

    def __repr__(self) -> str:
        return f"ResultsStore({str(self.path)!r})"

    # -- what the folder is -------------------------------------------------------------
    @staticmethod
    def _check_meta(meta: Path) -> None:
        data = parse_json(read_record(meta, "results store description") or "")
        if not isinstance(data, dict) or data.get("kind") != "results-store":
            raise ConfigError(
                f"{meta} is not a tbdse results store's description; this folder is not a "
                "results store tbdse wrote: use another folder"
            )
        if data.get("format") == 1:
            raise ConfigError(
                f"results store {meta.parent} was written by an earlier tbdse (format 1). "
                + adopt_hint(meta.parent)
            )
        if data.get("format") != FORMAT:
            raise ConfigError(
                f"results store {meta.parent} has format {data.get('format')}, which this tbdse "
                f"(format {FORMAT}) cannot read; use another folder"
            )
        if not verifies(data.get("mac"), STORE_MAC, meta.parent, STORE_FILE, str(FORMAT)):
            raise ConfigError(f"results store {meta.parent}: " + adopt_hint(meta.parent))

    def _refuse_foreign(self) -> None:
        """A store is made only in a new or empty folder: never among files
        tbdse could not tell from its own."""
        if (self.path / "meta.json").exists() and any(self.path.glob("chunk-*.parquet")):
            raise ConfigError(
                f"{self.path} looks like a checkpoint of an older tbdse (meta.json and "
                "chunk files, without a ledger): tbdse cannot tell its files from others', "
                "so it neither reads nor deletes them; use another folder"
            )
        if any(self.path.iterdir()):
            raise ConfigError(
                f"{self.path} holds files but is not a results store; a store is made in a new "
                "or empty folder: use another folder"
            )

    # -- the ledger ---------------------------------------------------------------------
    def _entries(self) -> Iterator[dict[str, Any]]:
        """The ledger's entries; a line torn by a kill (or not an entry) is skipped."""
        text = read_record(self.path / LEDGER, "results store ledger") or ""
        for line in text.splitlines():
            entry = parse_json(line)
            if isinstance(entry, dict):
                yield entry

    def _signed(self, entry: dict[str, Any]) -> bool:
        """``entry`` is one this user's tbdse wrote in this store."""
        pending, name = entry.get("pending"), entry.get("file")
        if isinstance(pending, str) and name is None:
            return bool(_PENDING.fullmatch(pending)) and verifies(
                entry.get("mac"), TEMPORARY_MAC, self.path, pending, ""
            )
        digest = entry.get("sha256")
        return (
            isinstance(name, str)
            and bool(_CHUNK.fullmatch(name))
            and isinstance(digest, str)
            and verifies(entry.get("mac"), CHUNK_MAC, self.path, name, digest)
        )

    def _ledger_is_ours(self) -> bool:
        """Every line of the ledger is an entry tbdse wrote (or one torn by a kill)."""
        try:
            text = read_record(self.path / LEDGER, "results store ledger")
        except ConfigError:
            return False
        for line in (text or "").splitlines():
            entry = parse_json(line)
            if entry is None and line.startswith('{"'):
                continue  # torn by a kill
            if not isinstance(entry, dict) or not self._signed(entry):
                return False
        return True

    def _proved_entries(self) -> list[dict[str, Any]]:
        """The ledger's entries, each proved to be this user's tbdse's; one
        that is not makes the store refused (nothing in it is touched)."""
        entries = list(self._entries())
        for entry in entries:
            if not self._signed(entry):
                name = entry.get("file", entry.get("pending"))
                raise ConfigError(
                    f"{self.path / LEDGER} lists {str(name)[:80]!r} without this user's "
                    "signature. " + adopt_hint(self.path)
                )
        return entries

    def _pending(self) -> list[Path]:
        """Temporaries the ledger announced (names tbdse gives them, nothing else)."""
        names = (e.get("pending") for e in self._proved_entries())
        return [self.path / n for n in names if isinstance(n, str) and _PENDING.fullmatch(n)]

    def _chunks(self) -> dict[str, str]:
        """Chunk file name -> SHA-256, as the ledger records them.  Only names
        tbdse gives chunks count: an entry naming anything else (another
        folder, '..', an absolute path) is not tbdse's and is refused."""
        chunks = {}
        for e in self._entries():
            name, digest = e.get("file"), e.get("sha256")
            if name is None:
                continue
            if not (isinstance(name, str) and _CHUNK.fullmatch(name) and isinstance(digest, str)):
                raise ConfigError(
                    f"{self.path / LEDGER} names {str(name)[:80]!r}, which is not a chunk "
                    "tbdse writes: the ledger is not tbdse's; use another folder"
                )
            if not self._signed(e):
                raise ConfigError(
                    f"{self.path / LEDGER} lists chunk {name} without this user's signature. "
                    + adopt_hint(self.path)
                )
            chunks[name] = digest
        return chunks

    def _append(self, entry: Mapping[str, Any]) -> None:
        ledger = self.path / LEDGER
        fd = os.open(ledger, os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW, 0o644)
        try:
            size = os.fstat(fd).st_size
            torn = size > 0 and os.pread(fd, 1, size - 1) != b"\n"
            line = ("\n" if torn else "") + json.dumps(entry) + "\n"
            os.write(fd, line.encode("utf-8"))
            os.fsync(fd)
        finally:
            os.close(fd)

    # -- reading ------------------------------------------------------------------------
    def rows(self) -> pd.DataFrame:
        """Every stored row (key columns, status, error and metrics), in chunk
        order, one per key (see the module docs)."""
        self._proved_entries()  # a ledger with any unproved entry is not read
        frames = []
        for name, digest in self._chunks().items():
            file = self.path / name
            if not (file.is_symlink() or file.exists()):
                continue  # recorded, then lost to a kill before its rename
            if sha256_file(file) != digest:
                raise ConfigError(
                    f"results store chunk {file} is not what tbdse wrote there (its content "
                    "changed, or it is a link or not a file); move it away and rerun, which "
                    "simulates its runs again"
                )
            frames.append((file, read_chunk(file)))
        if not frames:
            return pd.DataFrame({c: pd.Series(dtype=object) for c in KEY_COLUMNS})
        return merge(frames)

    def summary(self) -> pd.Series:
        """Stored rows per status."""
        from tbdse.simulation.results import STATUS_NAMES

        codes = self.rows()["_status"].astype(int)
        return codes.map(STATUS_NAMES).value_counts().rename("rows")

    # -- writing ------------------------------------------------------------------------
    def lock(self) -> None:
        """Takes the store for this process (ConfigError naming the holder if taken)."""
        if self._lock is None:
            self._lock = FolderLock(self.path, LOCK, "results store")
            try:
                self._recover()
            except BaseException:
                self.unlock()
                raise

    @property
    def locked(self) -> bool:
        """This object holds the store's lock."""
        return self._lock is not None

    def unlock(self) -> None:
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def _recover(self) -> None:
        """Finishes or removes what a killed writer left: a chunk recorded in the
        ledger but not yet renamed is renamed; an announced temporary that was
        never recorded is removed."""
        chunks = self._chunks()
        for path in self._pending():
            final = path.name[1:].removesuffix(".tmp")
            if final in chunks and not (self.path / final).exists():
                if sha256_file(path) == chunks[final]:
                    os.replace(path, self.path / final)
            elif final not in chunks and path.is_file() and not path.is_symlink():
                path.unlink()

    def write(self, frame: pd.DataFrame) -> None:
        """Adds finished rows (a chunk) to the store; the caller holds the lock."""
        if self._lock is None:
            raise ConfigError("internal: write to a results store that is not locked")
        token = new_token()
        final = f"chunk-{token}.parquet"
        tmp = self.path / f".{final}.tmp"
        self._append({"pending": tmp.name, "mac": sign(TEMPORARY_MAC, self.path, tmp.name, "")})
        atomic_write(
            self.path / final,
            lambda p: frame.to_parquet(p, index=False),
            temporary=tmp,
            before_rename=lambda d: self._append(chunk_entry(self.path, final, d)),
        )

    def _foreign(self) -> list[str]:
        """What in the store's folder tbdse cannot prove is its own."""
        chunks = self._chunks()
        pending = {p.name for p in self._pending()}
        ours = {STORE_FILE, LOCK, *pending} | ({LEDGER} if self._ledger_is_ours() else set())
        foreign = []
        for entry in self.path.iterdir():
            name = entry.name
            if name in ours and not entry.is_symlink():
                continue
            if name in chunks and sha256_file(entry) == chunks[name]:
                continue
            foreign.append(name)
        return sorted(foreign)

    def require_destroyable(self) -> None:
        """ConfigError unless :meth:`destroy` would remove the whole store (so a
        replacement checks everything before it deletes anything)."""
        foreign = self._foreign()
        if foreign:
            shown = ", ".join(foreign[:5]) + (" ..." if len(foreign) > 5 else "")
            raise ConfigError(
                f"results store {self.path} holds files tbdse cannot prove it wrote ({shown}); "
                "tbdse never deletes those: move them away first"
            )

    def destroy(self) -> bool:
        """Deletes the store's own files (ledger-verified chunks, announced
        temporaries, its ledger, description and lock), then the folder if
        nothing else is in it.  Returns False when other files kept it."""
        self.lock()
        assert self._lock is not None
        try:
            for name, digest in self._chunks().items():
                unlink_if_unchanged(self.path / name, digest)
            for path in self._pending():
                if path.is_file() and not path.is_symlink():
                    path.unlink()
            if self._ledger_is_ours():
                (self.path / LEDGER).unlink(missing_ok=True)
            (self.path / STORE_FILE).unlink(missing_ok=True)  # checked by __init__
        finally:
            self._lock.release(unlink=True)  # removed while held: no one holds a removed file
            self._lock = None
        try:
            self.path.rmdir()
        except OSError:
            return False
        return True


def description(folder: Path) -> str:
    """The text of a store's description (``tbdse-store.json``), signed for ``folder``."""
    mac = sign(STORE_MAC, folder, STORE_FILE, str(FORMAT))
    data = {"tool": "tbdse", "kind": "results-store", "format": FORMAT, "mac": mac}
    return json.dumps(data) + "\n"


def chunk_entry(folder: Path, name: str, digest: str) -> dict[str, str]:
    """A ledger entry for chunk ``name`` of the store ``folder``, signed."""
    return {"file": name, "sha256": digest, "mac": sign(CHUNK_MAC, folder, name, digest)}
