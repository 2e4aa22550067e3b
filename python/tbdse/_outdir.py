"""An experiment's output folder: what tbdse wrote there, written atomically,
and only ever removed when tbdse wrote it.

``tbdse-run.json`` (the manifest) names the experiment that owns the folder
and every file tbdse wrote into it.  A folder that holds another
experiment's results, or files tbdse would overwrite without having written
them, is refused unless the caller asks to ``overwrite``; even then only
files the manifest lists (and checkpoint chunks) are deleted, never a file
tbdse did not write.  Every output goes to a temporary file first and is
renamed into place, so a kill leaves either the old file or the new one,
never half of one.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from tbdse.errors import ConfigError

__all__ = ["MANIFEST", "OutputFolder", "atomic_write", "remove_checkpoint", "write_text"]

MANIFEST = "tbdse-run.json"
CHECKPOINT = "checkpoint"
# What a checkpoint folder holds when tbdse wrote it (runner._Checkpoint).
_CHECKPOINT_FILES = re.compile(r"^(chunk-\d+\.parquet|\.chunk-\d+\.tmp|meta\.json)$")
# Temporary files of atomic_write, left behind by a kill.
_TEMPORARY = re.compile(r"^\..+\.tbdse-\d+\.tmp$")


def os_problem(path: Path, action: str, exc: OSError) -> ConfigError:
    """A ConfigError for an OSError on ``path``: what was tried and the system's reason."""
    reason = exc.strerror or type(exc).__name__
    return ConfigError(f"cannot {action} {path}: {reason}")


def write_text(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")


def atomic_write(path: Path, write: Callable[[Path], None]) -> None:
    """Calls ``write(temporary)``, flushes it to disk and renames it to ``path``."""
    tmp = path.with_name(f".{path.name}.tbdse-{os.getpid()}.tmp")
    try:
        write(tmp)
        with open(tmp, "rb+") as f:
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise os_problem(path, "write", exc) from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def remove_checkpoint(folder: Path) -> bool:
    """Deletes the files tbdse writes into a checkpoint folder, then the folder
    if nothing else is in it.  Returns False when other files kept it."""
    if not folder.is_dir():
        return True
    for entry in folder.iterdir():
        if _CHECKPOINT_FILES.match(entry.name) and entry.is_file():
            entry.unlink()
    try:
        folder.rmdir()
    except OSError:
        return False
    return True


class OutputFolder:
    """Claims ``path`` for experiment ``name`` (see the module docs)."""

    def __init__(
        self,
        path: str | Path,
        name: str,
        source: str | None,
        outputs: Iterable[str],
        *,
        resume: bool,
        overwrite: bool,
    ) -> None:
        if not str(path).strip():
            raise ConfigError("the output folder must be named (-o DIR); got an empty path")
        self.path = Path(path)
        self.name = name
        self.source = source
        self._prepare_folder()
        previous = self._read_manifest()
        self.previous_files: list[str] = list(previous.get("files", [])) if previous else []
        owner = previous.get("experiment") if previous else None
        if previous is not None and owner != name and not overwrite:
            origin = f" (from {previous['source']})" if previous.get("source") else ""
            raise ConfigError(
                f"{self.path} holds the results of experiment '{owner}'{origin}, not '{name}'; "
                "choose another output folder, or pass --overwrite to replace them"
            )
        if previous is None and not overwrite:
            foreign = self._foreign_outputs(outputs)
            if foreign:
                raise ConfigError(
                    f"{self.path} already holds {', '.join(foreign)}, which tbdse did not write "
                    "for this experiment; choose another output folder, or pass --overwrite to "
                    "replace them"
                )
        if resume and owner != name:
            resume = False  # nothing of this experiment to resume
        self.checkpoint = self.path / CHECKPOINT
        if self.checkpoint.exists() and not self.checkpoint.is_dir():
            raise ConfigError(
                f"{self.checkpoint} is a file, not tbdse's checkpoint folder; move it away"
            )
        self._clear_temporaries()
        if owner is not None and owner != name:
            self._remove(self.previous_files)  # another experiment's outputs, by --overwrite
            self.previous_files = []
        if not resume:
            self.discard_checkpoint()
        self._write_manifest(self.previous_files, complete=False)

    # -- set-up ---------------------------------------------------------------------
    def _prepare_folder(self) -> None:
        for parent in [self.path, *self.path.parents]:
            if parent.exists() and not parent.is_dir():
                where = "is" if parent == self.path else f"is under {parent}, which is"
                raise ConfigError(f"output folder {self.path} {where} a file, not a folder")
        try:
            self.path.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise os_problem(self.path, "create output folder", exc) from None
        probe = self.path / f".probe.tbdse-{os.getpid()}.tmp"
        try:
            probe.write_bytes(b"")
            probe.unlink()
        except OSError as exc:
            raise os_problem(self.path, "write into output folder", exc) from None

    def _read_manifest(self) -> dict[str, Any] | None:
        file = self.path / MANIFEST
        if not file.exists():
            return None
        try:
            data = json.loads(file.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError):
            data = None
        if (
            not isinstance(data, dict)
            or not isinstance(data.get("experiment"), str)
            or not isinstance(data.get("files", []), list)
            or not all(isinstance(f, str) for f in data.get("files", []))
        ):
            raise ConfigError(
                f"{file} is damaged, so tbdse cannot tell what it wrote in {self.path}; "
                "delete that file (and the outputs you no longer want), or use another folder"
            )
        return data

    def _foreign_outputs(self, outputs: Iterable[str]) -> list[str]:
        """Outputs of a run that would land on files tbdse did not write."""
        # (A checkpoint folder is not among them: tbdse only adds its chunk
        # files there, and only ever removes those.)
        names = dict.fromkeys(["results.parquet", "results.csv", "results.partial.csv", *outputs])
        return [n for n in names if (self.path / n).exists()]

    def _clear_temporaries(self) -> None:
        for entry in self.path.iterdir():
            if _TEMPORARY.match(entry.name) and entry.is_file():
                entry.unlink()

    def _remove(self, files: Iterable[str]) -> None:
        for rel in files:
            target = self.path / rel
            if target.is_file() and self.path.resolve() in target.resolve().parents:
                target.unlink()

    def _write_manifest(self, files: list[str], *, complete: bool) -> None:
        data = {
            "tool": "tbdse",
            "experiment": self.name,
            "source": self.source,
            "complete": complete,
            "files": sorted(set(files)),
        }
        text = json.dumps(data, indent=1) + "\n"
        atomic_write(self.path / MANIFEST, lambda tmp: write_text(tmp, text))

    # -- use ----------------------------------------------------------------------------
    def discard_checkpoint(self) -> None:
        remove_checkpoint(self.checkpoint)

    def file(self, relative: str) -> Path:
        """Where output ``relative`` goes (its folder made); recorded in the manifest
        before it is written, so an interrupted write is still known as tbdse's."""
        path = self.path / relative
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise os_problem(path.parent, "create folder", exc) from None
        if path.is_dir():
            raise ConfigError(f"cannot write {path}: a folder of that name is in the way")
        if relative not in self.previous_files:
            self.previous_files.append(relative)
            self._write_manifest(self.previous_files, complete=False)
        return path

    def finish(self, written: Iterable[str]) -> None:
        """Records the outputs of a complete run and removes those of earlier runs
        of this experiment that this one did not write again."""
        kept = sorted(set(written))
        self._remove(f for f in self.previous_files if f not in kept)
        self.previous_files = kept
        self._write_manifest(kept, complete=True)
