"""``tbdse adopt DIR``: sign, with this user's key, the records of an output
folder or results store that tbdse cannot prove it wrote (one written by an
earlier tbdse, moved from another path, or signed with a key since lost).

Adopting is the user's statement that they trust the folder.  Only entries
whose file is still there, a regular file, with its recorded SHA-256 are
signed; every other entry is dropped from the record, and its file (if any)
is left alone, no longer tbdse's.  Nothing is deleted.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tbdse.errors import ConfigError
from tbdse.experiment import outdir as _outdir
from tbdse.io.files import (
    FolderLock,
    atomic_write,
    parse_json,
    read_record,
    require_no_link,
    require_plain_path,
    sha256_file,
    write_text,
)
from tbdse.simulation import store

__all__ = ["adopt"]


def adopt(folder: str | Path, echo: Callable[[str], None] = print) -> None:
    """Adopts the output folder or results store ``folder`` (see the module docs)."""
    path = Path(folder)
    require_no_link(path, "output folder")
    if (path / _outdir.MANIFEST).exists() or (path / _outdir.MANIFEST).is_symlink():
        _adopt_output_folder(path, echo)
        if (path / _outdir.STORE / store.STORE_FILE).exists():
            _adopt_store(path / _outdir.STORE, echo)
    elif (path / store.STORE_FILE).exists():
        _adopt_store(path, echo)
    else:
        raise ConfigError(
            f"{path} is neither an output folder of tbdse (no {_outdir.MANIFEST}) nor a results "
            f"store (no {store.STORE_FILE}); there is nothing tbdse could adopt"
        )


def _matches(folder: Path, rel: str, digest: object) -> bool:
    try:
        return (
            isinstance(digest, str) and sha256_file(require_plain_path(folder, rel, "")) == digest
        )
    except ConfigError:  # a link on the way: not tbdse's
        return False


def _record(path: Path, what: str) -> dict[str, Any]:
    data = parse_json(read_record(path, what) or "")
    if not isinstance(data, dict) or data.get("tool") != "tbdse":
        raise ConfigError(f"{path} is not a {what} tbdse wrote, so there is nothing to adopt")
    return data


def _adopt_output_folder(folder: Path, echo: Callable[[str], None]) -> None:
    file = folder / _outdir.MANIFEST
    data = _record(file, "manifest")
    files = data.get("files")
    if data.get("format") not in (2, _outdir.FORMAT) or not isinstance(files, dict):
        raise ConfigError(
            f"{file} has format {data.get('format')}, which records no content hashes: tbdse "
            "cannot tell its files from yours; move the outputs you want and delete that file"
        )
    if not isinstance(data.get("experiment"), str):
        raise ConfigError(f"{file} names no experiment, so it is not a manifest tbdse wrote")
    lock = FolderLock(folder, _outdir.LOCK, "output folder")
    try:
        kept = {}
        for rel, entry in files.items():
            digest = entry.get("sha256") if isinstance(entry, dict) else entry
            if (
                isinstance(rel, str)
                and _outdir._inside(folder, rel)
                and _matches(folder, rel, digest)
            ):
                kept[rel] = str(digest)
            else:
                echo(f"left alone (changed or missing since tbdse wrote it): {folder / str(rel)}")
        source = data.get("source") if isinstance(data.get("source"), str) else None
        run = data.get("run") if isinstance(data.get("run"), dict) else None
        text = _outdir.manifest_text(
            folder, data["experiment"], source, data.get("complete") is True, kept, [], run
        )
        atomic_write(file, lambda tmp: write_text(tmp, text))
    finally:
        lock.release()
    echo(f"adopted {len(kept)} file(s) of experiment '{data['experiment']}' in {folder}")


def _adopt_store(folder: Path, echo: Callable[[str], None]) -> None:
    meta = folder / store.STORE_FILE
    data = _record(meta, "results store description")
    if data.get("kind") != "results-store" or data.get("format") not in (1, store.FORMAT):
        raise ConfigError(f"{meta} is not the description of a results store this tbdse reads")
    lock = FolderLock(folder, store.LOCK, "results store")
    try:
        text = read_record(folder / store.LEDGER, "results store ledger") or ""
        lines = []
        for line in text.splitlines():
            entry = parse_json(line)
            if not isinstance(entry, dict) or "file" not in entry:
                continue  # temporaries and torn lines: not signed, so left alone
            name, digest = entry.get("file"), entry.get("sha256")
            if (
                isinstance(name, str)
                and store._CHUNK.fullmatch(name)
                and _matches(folder, name, digest)
            ):
                lines.append(json.dumps(store.chunk_entry(folder, name, str(digest))))
            else:
                echo(f"left alone (changed or missing since tbdse wrote it): {folder / str(name)}")
        ledger = "".join(line + "\n" for line in lines)
        atomic_write(folder / store.LEDGER, lambda tmp: write_text(tmp, ledger))
        description = store.description(folder)
        atomic_write(meta, lambda tmp: write_text(tmp, description))
    finally:
        lock.release()
    echo(f"adopted {len(lines)} chunk(s) of the results store {folder}")
