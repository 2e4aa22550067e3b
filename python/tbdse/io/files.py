"""File primitives that let tbdse prove what it wrote, and touch nothing else.

tbdse deletes or replaces a file only when it can show the file is one it
wrote: its name was recorded, with a SHA-256 of its contents and a MAC made
with this user's key (:mod:`tbdse.io.ownership`: a hash alone proves only that
a file is unchanged), in a record tbdse keeps beside it (an output folder's
manifest, a results store's ledger), and the file on disk still has that
content.  Symbolic links are
never followed inside a folder tbdse owns: a link where tbdse expects its own
file or folder is refused, so nothing outside the folder is reachable.  A
folder in use is locked (:class:`FolderLock`) for the whole run, so a second
process is told who holds it instead of racing it.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import secrets
import socket
import stat
import sys
import time
from collections.abc import Callable
from pathlib import Path

from tbdse.errors import ConfigError

__all__ = [
    "FolderLock",
    "atomic_write",
    "new_token",
    "os_problem",
    "require_no_link",
    "require_replaceable",
    "sha256_file",
    "unlink_if_unchanged",
    "write_text",
]


def os_problem(path: Path, action: str, exc: OSError) -> ConfigError:
    """A ConfigError for an OSError on ``path``: what was tried and the system's reason."""
    reason = exc.strerror or type(exc).__name__
    return ConfigError(f"cannot {action} {path}: {reason}")


def new_token() -> str:
    """A random name part: files tbdse creates never collide with another's."""
    return secrets.token_hex(8)


MAX_RECORD_BYTES = 256 << 20  # a manifest, ledger or store description larger is not tbdse's


def _open_regular(path: Path) -> int | None:
    """A read descriptor of the regular file at ``path``, opened without
    following a link and without blocking (a FIFO never blocks); None for a
    missing file, a link, a folder, a device or a FIFO, or a name the system
    refuses (NUL, too long)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except (OSError, ValueError):
        return None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        return None
    return fd


def sha256_file(path: Path) -> str | None:
    """SHA-256 of a regular file's contents, read without following a link;
    None when ``path`` is missing, a link or not a regular file."""
    fd = _open_regular(path)
    if fd is None:
        return None
    with os.fdopen(fd, "rb") as f:
        digest = hashlib.sha256()
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def read_record(path: Path, what: str) -> str | None:
    """The text of one of tbdse's small record files (a manifest, a ledger, a
    store's description): None when there is none; a ConfigError when it is
    not a regular file (a link, a FIFO, a folder), too large or not text."""
    if not (path.is_symlink() or path.exists()):
        return None
    fd = _open_regular(path)
    if fd is None:
        raise ConfigError(
            f"{path} is not a regular file; tbdse keeps its {what} under that name: move it "
            "away, or choose another folder"
        )
    with os.fdopen(fd, "rb") as f:
        data = f.read(MAX_RECORD_BYTES + 1)
    if len(data) > MAX_RECORD_BYTES:
        raise ConfigError(f"{path} is larger than any {what} tbdse writes; it is not tbdse's")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ConfigError(f"{path} is not text, so it is not the {what} tbdse wrote") from None


def parse_json(text: str) -> object:
    """JSON from one of tbdse's records; None for anything that is not valid
    (nesting too deep included)."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def require_plain_path(folder: Path, relative: str, what: str) -> Path:
    """``folder / relative``, refused when any part below ``folder`` is a
    symbolic link (tbdse never follows a link inside its folders)."""
    path = folder
    for part in Path(relative).parts:
        path = path / part
        require_no_link(path, what)
    return path


def require_no_link(path: Path, what: str) -> None:
    """Refuses a symbolic link where tbdse keeps its own file or folder."""
    if path.is_symlink():
        raise ConfigError(
            f"{path} is a symbolic link (to {os.readlink(path)}); tbdse does not follow links "
            f"where it keeps its {what}, so it cannot write or delete outside the folder; "
            "replace the link with a real folder, or choose another output folder"
        )


def unlink_if_unchanged(path: Path, sha256: str) -> bool:
    """Deletes ``path`` only if it is a regular file (not a link) whose contents
    still hash to ``sha256``; returns whether it did."""
    if sha256_file(path) != sha256:
        return False
    path.unlink()
    return True


def write_text(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")


def _kind(mode: int) -> str:
    """What a non-regular file is, in words."""
    for test, what in (
        (stat.S_ISLNK, "a symbolic link"),
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a FIFO (named pipe)"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return what
    return "not a regular file"


def require_replaceable(path: Path) -> None:
    """Refuses ``path`` as a target unless it is missing or a regular file:
    tbdse writes only regular files it creates, so a link, FIFO, device or
    folder in its place is never replaced (nor written through)."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    except (OSError, ValueError) as exc:
        if isinstance(exc, OSError):
            raise os_problem(path, "write", exc) from None
        raise ConfigError(f"cannot write {path}: not a valid file name") from None
    if not stat.S_ISREG(mode):
        raise ConfigError(
            f"cannot write {path}: it is {_kind(mode)}; tbdse writes only regular files and "
            "never replaces anything else: choose another path, or move it away"
        )


def atomic_write(
    path: Path,
    write: Callable[[Path], None],
    *,
    temporary: Path | None = None,
    before_rename: Callable[[str], None] | None = None,
) -> str:
    """Calls ``write(temporary)``, flushes it to disk and renames it to ``path``;
    returns the SHA-256 of what was written.

    The temporary file is created new (``O_EXCL | O_NOFOLLOW``: never an
    existing file or a link; a random name by default), so a kill leaves
    either the old ``path`` or the new one, never half of one, and never
    touches a file tbdse did not create.  Before the rename the temporary must
    still be the file created here, and ``path`` missing or a regular file:
    a link, FIFO, device or folder there is refused (ConfigError), not replaced.
    ``before_rename(sha256)`` runs once the content is on disk, before it
    takes ``path``'s place (to record it first).  An OSError (a full or
    read-only disk) is a ConfigError naming ``path``.
    """
    tmp = temporary or path.with_name(f".{path.name}.tbdse-{new_token()}.tmp")
    require_replaceable(path)
    ours = False  # the temporary at tmp is the file created here
    try:
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
        fd = os.open(tmp, flags, 0o644)
        ours = True
        made = os.fstat(fd)
        os.close(fd)
        write(tmp)
        ours = False  # until the file at tmp is shown to be the one created here
        fd = os.open(tmp, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
        with os.fdopen(fd, "rb") as f:
            now = os.fstat(f.fileno())
            ours = (now.st_dev, now.st_ino) == (made.st_dev, made.st_ino)
            if not ours:  # someone else's file now: leave it
                raise ConfigError(
                    f"cannot write {path}: its temporary file {tmp} was replaced while tbdse "
                    "wrote it; is another program using this folder?"
                )
            os.fsync(f.fileno())
            digest = hashlib.sha256()
            for block in iter(lambda: f.read(1 << 20), b""):
                digest.update(block)
        if before_rename is not None:
            before_rename(digest.hexdigest())
        require_replaceable(path)  # again: it may have changed while the file was written
        os.replace(tmp, path)
        ours = False
    except OSError as exc:
        if ours:
            tmp.unlink(missing_ok=True)
        raise os_problem(path, "write", exc) from None
    except BaseException:
        if ours:
            tmp.unlink(missing_ok=True)
        raise
    return digest.hexdigest()


def _holder(fd: int) -> dict[str, object] | None:
    """The lock record in an open lock file; None when it is not one tbdse wrote."""
    data = os.pread(fd, 4096, 0)
    if not data:
        return {}
    try:
        record = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):  # deep nesting: not tbdse's
        return None
    return record if isinstance(record, dict) and record.get("tool") == "tbdse" else None


class FolderLock:
    """An exclusive lock on a folder for as long as a run uses it.

    The lock is ``fcntl.flock`` on a small file in the folder that records who
    holds it (pid, host, start, command), so a second process is told which
    run it would have raced.  The lock goes with the process: a killed run
    leaves no stale lock behind.  The file itself stays (deleting lock files
    races with their next user).  On file systems without ``flock`` (some
    network mounts) the lock is not enforced.
    """

    def __init__(self, folder: Path, name: str, what: str) -> None:
        self.path = folder / name
        require_no_link(self.path, what)
        self.created = not self.path.exists()  # made now: a refused run may remove it again
        flags = os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
        try:
            fd = os.open(self.path, flags, 0o644)
        except OSError as exc:
            raise os_problem(self.path, f"lock {what} with", exc) from None
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise ConfigError(f"{self.path} is not a regular file; tbdse keeps its lock there")
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise ConfigError(self._in_use(fd, folder, what)) from None
            except OSError:
                pass  # no flock on this file system: run unlocked (documented)
            if not self._still_named(fd):
                # The holder removed the file as it let go (a store destroyed):
                # this lock is on a file nobody else will open.
                raise ConfigError(
                    f"{folder} ({what}) was being removed by another tbdse run; try again"
                )
            if _holder(fd) is None:
                raise ConfigError(
                    f"{self.path} is not a lock file tbdse wrote; tbdse keeps its lock for the "
                    f"{what} under that name: move that file away, or choose another folder"
                )
            record = {
                "tool": "tbdse",
                "pid": os.getpid(),
                "host": socket.gethostname(),
                "since": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
                "command": " ".join(sys.argv)[:300],
            }
            try:
                os.ftruncate(fd, 0)
                os.pwrite(fd, (json.dumps(record) + "\n").encode("utf-8"), 0)
            except OSError as exc:  # disk full, read-only file system
                raise os_problem(self.path, f"record the holder of the {what} in", exc) from None
        except BaseException:
            os.close(fd)
            raise
        self._fd: int | None = fd

    def _still_named(self, fd: int) -> bool:
        """The locked file is still the one at the lock's path."""
        try:
            now = os.stat(self.path, follow_symlinks=False)
        except OSError:
            return False
        mine = os.fstat(fd)
        return (now.st_dev, now.st_ino) == (mine.st_dev, mine.st_ino)

    @staticmethod
    def _in_use(fd: int, folder: Path, what: str) -> str:
        holder = _holder(fd) or {}
        who = (
            f"pid {holder.get('pid')} on {holder.get('host')} since {holder.get('since')}"
            f" ({holder.get('command')})"
            if holder
            else "another process"
        )
        return (
            f"{folder} ({what}) is in use by another tbdse run: {who}; wait for it to finish, "
            "or use another folder"
        )

    def release(self, *, unlink: bool = False) -> None:
        """Drops the lock; ``unlink`` removes the lock file first, while it is
        still held, so no other process can be holding the removed file."""
        if self._fd is not None:
            with contextlib.suppress(OSError):
                if unlink:
                    self.path.unlink()
                else:
                    os.ftruncate(self._fd, 0)  # nobody holds it now
            os.close(self._fd)  # closing drops the flock
            self._fd = None

    def __enter__(self) -> FolderLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()
