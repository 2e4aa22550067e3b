"""An experiment's output folder: what tbdse wrote there, proved by a MAC
and by content, and only ever replaced or removed when tbdse can prove it
wrote it.

``tbdse-run.json`` (the manifest) names the experiment that owns the folder
and every file tbdse wrote into it with the SHA-256 of its contents and a MAC
made with this user's key over (purpose, the folder's resolved path, the
file's name, its digest) (:mod:`tbdse.io.ownership`); the manifest itself is
signed for its folder and experiment.  A hash proves only that a file is
unchanged; the MAC proves that this user's tbdse wrote it, here.  A manifest
any of whose entries does not verify (crafted, copied from another folder,
written by another user or by an earlier tbdse) makes the folder refused
with the command that adopts it (``tbdse adopt DIR``), and nothing in it is
touched.  On opening a folder every listed file still there must have its
recorded content: a file changed since tbdse wrote it makes the folder
refused.  An output would land on a file the manifest does not list:
refused, whatever the flags.  A folder holding another experiment's results
is refused unless the caller asks to ``overwrite``; even then only its
listed, proved, unchanged files (and its results store, see
:mod:`tbdse.simulation.store`) are deleted.  Symbolic links are never followed inside
the folder.  Every output goes to a new temporary file, announced (signed) in
the manifest first, and is renamed into place, so a kill leaves either the
old file or the new one, never half of one, and nothing unaccounted for.  The
folder is locked for the whole run: a second run into it is refused with the
name of the first.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterable
from pathlib import Path, PurePosixPath
from typing import Any

from tbdse.errors import ConfigError
from tbdse.io.files import (
    FolderLock,
    atomic_write,
    new_token,
    os_problem,
    parse_json,
    read_record,
    require_no_link,
    require_plain_path,
    sha256_file,
    unlink_if_unchanged,
    write_text,
)
from tbdse.io.ownership import adopt_hint, sign, verifies
from tbdse.simulation.store import ResultsStore

__all__ = ["LOCK", "MANIFEST", "STORE", "OutputFolder", "atomic_write", "os_problem", "write_text"]

MANIFEST = "tbdse-run.json"
LOCK = "tbdse-run.lock"
STORE = "store"
FORMAT = 3  # 3: every entry signed (MAC); 2: hashes only (adopt it); 1: names only
# What each MAC of the manifest is for (never valid for another purpose).
FOLDER_MAC, FILE_MAC, TEMPORARY_MAC = "output-folder", "output-file", "output-temporary"
# A temporary of the manifest itself, left by a kill (removed when it holds a manifest).
_MANIFEST_START = b'{\n "tool": "tbdse",'
_MANIFEST_TEMPORARY = re.compile(r"^\.tbdse-run\.json\.tbdse-[0-9a-f]{16}\.tmp$")


class OutputFolder:
    """Claims ``path`` for experiment ``name`` (see the module docs) and holds
    its lock until :meth:`close`."""

    def __init__(
        self,
        path: str | Path,
        name: str,
        source: str | None,
        outputs: Iterable[str],
        *,
        overwrite: bool,
        any_source: bool = False,
        provenance: dict[str, Any] | None = None,
    ) -> None:
        """``any_source``: the folder's experiment may come from another file
        of the same name (redrawing figures from resolved.yaml).
        ``provenance``: what made the run (command line, overrides, version,
        git commit, host, start), recorded in the manifest with its end."""
        if not str(path).strip():
            raise ConfigError("the output folder must be named (-o DIR); got an empty path")
        self.path = Path(path)
        self.name = name
        self.source = source
        self._any_source = any_source
        self.provenance = dict(provenance) if provenance else None
        created = self._prepare_folder()
        self._lock = FolderLock(self.path, LOCK, "output folder")
        try:
            self._claim(outputs, overwrite)
        except BaseException:
            self._release_refused(created)
            raise

    def _release_refused(self, created: list[Path]) -> None:
        """A refused claim leaves the folder as it found it: the lock file (made
        now) and the folders made for this run go again, when they are empty."""
        if self._lock.created:
            self._lock.release(unlink=True)
        else:
            self._lock.release()
        for folder in created:
            try:
                folder.rmdir()
            except OSError:
                break

    def _claim(self, outputs: Iterable[str], overwrite: bool) -> None:
        self._clear_manifest_temporaries()
        previous = self.previous = self._read_manifest()
        self.files: dict[str, str] = (
            {rel: e["sha256"] for rel, e in previous["files"].items()} if previous else {}
        )
        for entry in previous.get("pending", []) if previous else []:
            self._settle(entry)
        self._check_unchanged()
        owner = previous.get("experiment") if previous else None
        other = previous is not None and (owner != self.name or self._other_source(previous))
        if previous is not None and other and not overwrite:
            origin = f" (from {previous['source']})" if previous.get("source") else ""
            mine = f" from {self.source}" if self.source else ""
            raise ConfigError(
                f"{self.path} holds the results of experiment '{owner}'{origin}, not of "
                f"'{self.name}'{mine}; choose another output folder, or pass --overwrite to "
                "replace them"
            )
        foreign = self._foreign_outputs(outputs)
        if foreign:
            raise ConfigError(
                f"{self.path} already holds {', '.join(foreign)}, which tbdse did not write; "
                "tbdse never replaces a file it did not write (not even with --overwrite): "
                "move them away, or choose another output folder"
            )
        self.pending: list[dict[str, str]] = []
        store_path = self.path / STORE
        require_no_link(store_path, "results store")
        if other:  # --overwrite: the other experiment's files, all checked before any goes
            old_store = ResultsStore(store_path) if store_path.is_dir() else None
            if old_store is not None:
                old_store.require_destroyable()
            self._remove(list(self.files))
            if old_store is not None:
                old_store.destroy()
            self.files = {}
        self._write_manifest(complete=False)
        self.store = ResultsStore(store_path)

    # -- set-up ---------------------------------------------------------------------
    def _prepare_folder(self) -> list[Path]:
        """Makes the folder; returns the folders it made, deepest first."""
        for parent in [self.path, *self.path.parents]:
            if parent.exists() and not parent.is_dir():
                where = "is" if parent == self.path else f"is under {parent}, which is"
                raise ConfigError(f"output folder {self.path} {where} a file, not a folder")
        created = [p for p in [self.path, *self.path.parents] if not p.exists()]
        try:
            self.path.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise os_problem(self.path, "create output folder", exc) from None
        return created

    def _other_source(self, previous: dict[str, Any]) -> bool:
        """The folder's experiment has this name but came from another file."""
        theirs, mine = previous.get("source"), self.source
        if not theirs or not mine or self._any_source:
            return False
        try:
            return Path(theirs).resolve() != Path(mine).resolve()
        except (OSError, ValueError):
            return True

    def _read_manifest(self) -> dict[str, Any] | None:
        file = self.path / MANIFEST
        text = read_record(file, "manifest")
        if text is None:
            return None
        data = parse_json(text)
        if isinstance(data, dict) and isinstance(data.get("files"), list):
            raise ConfigError(
                f"{file} was written by an older tbdse, which did not record what its files "
                "held, so tbdse cannot tell them from yours; move the outputs you want to keep "
                "and delete that file, or use another folder"
            )
        if isinstance(data, dict) and data.get("tool") == "tbdse" and data.get("format") == 2:
            raise ConfigError(
                f"{file} was written by an earlier tbdse (format 2). " + adopt_hint(self.path)
            )
        files = data.get("files") if isinstance(data, dict) else None
        if (
            not isinstance(data, dict)
            or data.get("tool") != "tbdse"
            or not isinstance(data.get("experiment"), str)
            or not isinstance(files, dict)
            or not all(isinstance(k, str) and _file_entry(v) for k, v in files.items())
            or not all(_inside(self.path, k) for k in files)
            or not isinstance(data.get("pending", []), list)
            or not all(_pending_entry(self.path, p) for p in data.get("pending", []))
        ):
            raise ConfigError(
                f"{file} is damaged, so tbdse cannot tell what it wrote in {self.path}; "
                "delete that file (and the outputs you no longer want), or use another folder"
            )
        if not self._proved(data):
            raise ConfigError(f"{file}: " + adopt_hint(self.path))
        return data

    def _proved(self, data: dict[str, Any]) -> bool:
        """Every entry of the manifest carries this user's MAC for this folder."""
        folder = self.path
        if not verifies(data.get("mac"), FOLDER_MAC, folder, MANIFEST, data["experiment"]):
            return False
        for rel, entry in data["files"].items():
            if not verifies(entry["mac"], FILE_MAC, folder, rel, entry["sha256"]):
                return False
        for entry in data.get("pending", []):
            if not verifies(entry.get("mac"), TEMPORARY_MAC, folder, entry["tmp"], entry["file"]):
                return False
            digest = entry.get("sha256")
            if digest is not None and not verifies(
                entry.get("file_mac"), FILE_MAC, folder, entry["file"], digest
            ):
                return False
        return True

    def _check_unchanged(self) -> None:
        """Every file the manifest lists and that is still there holds what tbdse wrote."""
        changed = [
            rel
            for rel, digest in self.files.items()
            if _exists(self._plain(rel)) and sha256_file(self._plain(rel)) != digest
        ]
        if changed:
            raise ConfigError(
                f"{self.path}: {', '.join(sorted(changed))} changed since tbdse wrote "
                f"{'them' if len(changed) > 1 else 'it'} (or the manifest {MANIFEST} does not "
                "belong to this folder); tbdse replaces only files it can prove it wrote: move "
                "those files away, or use another folder"
            )

    def _foreign_outputs(self, outputs: Iterable[str]) -> list[str]:
        """Outputs of a run that would land on a file tbdse did not write."""
        names = dict.fromkeys(["results.parquet", "results.csv", "results.partial.csv", *outputs])
        return [n for n in names if _exists(self.path / n) and n not in self.files]

    def _clear_manifest_temporaries(self) -> None:
        """Removes temporaries of the manifest a kill left: by name and by their
        start, which is the manifest's own (even half written), or nothing."""
        for entry in self.path.iterdir():
            if _MANIFEST_TEMPORARY.match(entry.name) and entry.is_file() and not entry.is_symlink():
                with open(entry, "rb") as f:
                    head = f.read(len(_MANIFEST_START))
                if _MANIFEST_START.startswith(head):
                    entry.unlink()

    def _settle(self, entry: dict[str, str]) -> None:
        """A write a kill interrupted: if its file took the new content, that is
        now the file's record; its temporary (tbdse's, announced) is removed."""
        digest = entry.get("sha256")
        if digest is not None and sha256_file(self._plain(entry["file"])) == digest:
            self.files[entry["file"]] = digest
        tmp = self._plain(entry["tmp"])
        if tmp.is_file():
            tmp.unlink()

    def _remove(self, files: Iterable[str]) -> None:
        for rel in files:
            digest = self.files.pop(rel, None)
            if digest is not None:
                unlink_if_unchanged(self._plain(rel), digest)

    def _write_manifest(self, *, complete: bool) -> None:
        text = manifest_text(
            self.path, self.name, self.source, complete, self.files, self.pending, self.provenance
        )
        atomic_write(self.path / MANIFEST, lambda tmp: write_text(tmp, text))

    # -- use ----------------------------------------------------------------------------
    def write(self, relative: str, write: Callable[[Path], None]) -> Path:
        """Writes output ``relative`` atomically through ``write(path)`` and
        records it with its content's hash."""
        path = self._plain(relative)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise os_problem(path.parent, "create folder", exc) from None
        path = self._plain(relative)  # no link made meanwhile either
        if path.is_dir():
            raise ConfigError(f"cannot write {path}: a folder of that name is in the way")
        if _exists(path) and relative not in self.files:
            raise ConfigError(f"cannot write {path}: a file tbdse did not write is in the way")
        tmp = path.with_name(f".{path.name}.tbdse-{new_token()}.tmp")
        rel_tmp = str(tmp.relative_to(self.path))
        entry = {
            "tmp": rel_tmp,
            "file": relative,
            "mac": sign(TEMPORARY_MAC, self.path, rel_tmp, relative),
        }
        self.pending.append(entry)
        self._write_manifest(complete=False)  # a kill now leaves a temporary known as tbdse's

        def announce(digest: str) -> None:  # a kill after the rename still proves the file
            # What is there now must still be what tbdse wrote (or nothing):
            # a file edited while the run went on is not replaced.
            if _exists(path) and sha256_file(path) != self.files.get(relative):
                raise ConfigError(
                    f"cannot write {path}: it changed while this run went on (tbdse replaces "
                    "only files it can prove it wrote); move it away and run again"
                )
            entry["sha256"] = digest
            entry["file_mac"] = sign(FILE_MAC, self.path, relative, digest)
            self._write_manifest(complete=False)

        digest = atomic_write(path, write, temporary=tmp, before_rename=announce)
        self.files[relative] = digest
        self.pending.remove(entry)
        self._write_manifest(complete=False)
        return path

    def _plain(self, relative: str) -> Path:
        return require_plain_path(self.path, relative, "outputs")

    def finish(self, written: Iterable[str], *, prune: bool = True) -> None:
        """Records the outputs of a complete run and (``prune``) removes those of
        earlier runs of this experiment that this one did not write again."""
        kept = set(written)
        if prune:
            self._remove([f for f in list(self.files) if f not in kept])
        complete = prune or bool(self.previous and self.previous.get("complete"))
        if self.provenance is not None:
            self.provenance["finished"] = time.strftime("%Y-%m-%dT%H:%M:%S%z")
        self._write_manifest(complete=complete)

    def close(self) -> None:
        """Releases the folder (and its store) for other runs."""
        self.store.unlock()
        self._lock.release()


def manifest_text(
    folder: Path,
    name: str,
    source: str | None,
    complete: bool,
    files: dict[str, str],
    pending: list[dict[str, str]],
    provenance: dict[str, Any] | None,
) -> str:
    """The manifest of ``folder``: every file with its digest, all signed."""
    data: dict[str, Any] = {
        "tool": "tbdse",
        "format": FORMAT,
        "experiment": name,
        "source": source,
        "complete": complete,
        "files": {
            rel: {"sha256": digest, "mac": sign(FILE_MAC, folder, rel, digest)}
            for rel, digest in sorted(files.items())
        },
        "pending": pending,
        "mac": sign(FOLDER_MAC, folder, MANIFEST, name),
    }
    if provenance is not None:
        data["run"] = provenance
    return json.dumps(data, indent=1) + "\n"


def _exists(path: Path) -> bool:
    """A file or link at ``path`` (a dangling link counts)."""
    return path.is_symlink() or path.exists()


def _file_entry(entry: object) -> bool:
    return isinstance(entry, dict) and all(isinstance(entry.get(k), str) for k in ("sha256", "mac"))


def _pending_entry(folder: Path, entry: object) -> bool:
    return (
        isinstance(entry, dict)
        and all(isinstance(entry.get(k), str) for k in ("tmp", "file", "mac"))
        and isinstance(entry.get("sha256", ""), str)
        and isinstance(entry.get("file_mac", ""), str)
        and _inside(folder, entry["file"])
        # only the temporary name tbdse gives that output (a crafted manifest
        # cannot point tbdse at another file to delete)
        and re.fullmatch(
            re.escape(str(Path(entry["file"]).with_name(f".{Path(entry['file']).name}")))
            + r"\.tbdse-[0-9a-f]{16}\.tmp",
            entry["tmp"],
        )
        is not None
    )


def _inside(folder: Path, relative: str) -> bool:
    """``relative`` names a file inside ``folder`` as tbdse writes names: in
    normal form, no absolute path, no '.' or '..', no NUL, not too long."""
    rel = PurePosixPath(relative)
    return (
        bool(relative)
        and "\0" not in relative
        and len(relative) < 1024
        and all(0 < len(part) < 256 for part in rel.parts)
        and not rel.is_absolute()
        and rel.as_posix() == relative
        and not {".", ".."} & set(relative.split("/"))
    )
