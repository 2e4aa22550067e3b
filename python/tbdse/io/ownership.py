"""Proof that tbdse wrote a file: a MAC made with this user's secret key.

A file's SHA-256 in a record beside it (an output folder's manifest, a
results store's ledger) proves only that the file is unchanged, not that
tbdse wrote it: anyone who can put a record in the folder can list a user's
file with its hash.  So every entry tbdse writes in such a record also
carries an HMAC-SHA256, made with a key only this user can read, over what
the entry claims: its purpose, the folder's resolved absolute path, the file's
name relative to the folder and its digest.  tbdse deletes, replaces or
renames a file only when its entry's MAC verifies with this user's key *and*
the file still has the digest.  A record copied from another folder, written
by another user or by a tbdse before these MACs, or crafted, proves nothing.

The key: 32 random bytes in ``$TBDSE_STATE_DIR/key`` (else
``$XDG_STATE_HOME/tbdse/key``, else ``~/.local/state/tbdse/key``), created
once (mode 0600, in a folder of mode 0700).  A key file that is a link, not a
regular file, not the user's, or readable or writable by others is refused:
tbdse would trust a key someone else knows.  Deleting the key makes every
earlier record unprovable (its folders are refused until adopted again with
``tbdse adopt DIR``), never deleted.
"""

from __future__ import annotations

import errno
import hashlib
import hmac
import json
import os
import secrets
import stat
from pathlib import Path

from tbdse.errors import ConfigError

__all__ = ["adopt_hint", "sign", "state_dir", "user_key", "verifies"]

KEY_BYTES = 32
_keys: dict[str, bytes] = {}  # by key file path: read once per process


def state_dir() -> Path:
    """This user's tbdse state folder (see the module docs)."""
    if os.environ.get("TBDSE_STATE_DIR"):
        return Path(os.environ["TBDSE_STATE_DIR"])
    if os.environ.get("XDG_STATE_HOME"):
        return Path(os.environ["XDG_STATE_HOME"]) / "tbdse"
    return Path.home() / ".local" / "state" / "tbdse"


def _untrusted(path: Path, why: str) -> ConfigError:
    return ConfigError(
        f"tbdse's key {path} {why}, so tbdse cannot trust it to prove which files it wrote; "
        "remove it (tbdse makes a new one; folders signed with the old key are then refused "
        "until `tbdse adopt DIR`), or set TBDSE_STATE_DIR to a private folder"
    )


def _private_folder(folder: Path) -> None:
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = os.lstat(folder)
    except OSError as exc:
        raise ConfigError(
            f"cannot create tbdse's state folder {folder} (where it keeps the key that signs "
            f"what it writes): {exc.strerror}; set TBDSE_STATE_DIR to a private folder of yours"
        ) from None
    if not stat.S_ISDIR(info.st_mode):
        raise _untrusted(folder / "key", f"is in {folder}, which is not a folder (or a link)")
    if info.st_uid != os.getuid() or info.st_mode & 0o022:
        raise _untrusted(folder / "key", f"is in {folder}, which others may write")


def _read_key(path: Path) -> bytes | None:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        return None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise _untrusted(path, "is a symbolic link") from None
        raise _untrusted(path, f"cannot be read ({exc.strerror})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise _untrusted(path, "is not a regular file")
        if info.st_uid != os.getuid() or info.st_mode & 0o077:
            raise _untrusted(path, "may be read or written by others (it must have mode 0600)")
        data = os.read(fd, KEY_BYTES + 1)
    finally:
        os.close(fd)
    if len(data) != KEY_BYTES:
        raise _untrusted(path, f"does not hold {KEY_BYTES} bytes")
    return data


def _create_key(path: Path) -> None:
    """Writes a new key beside ``path`` and links it there: the key appears
    whole or not at all, and a key another process made first wins."""
    tmp = path.with_name(f".key.{secrets.token_hex(8)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        os.write(fd, secrets.token_bytes(KEY_BYTES))
        os.fsync(fd)
    finally:
        os.close(fd)
    try:
        os.link(tmp, path)
    except FileExistsError:
        pass
    finally:
        tmp.unlink()


def user_key() -> bytes:
    """This user's key (made on first use; see the module docs)."""
    path = state_dir() / "key"
    if str(path) in _keys:
        return _keys[str(path)]
    _private_folder(path.parent)
    key = _read_key(path)
    if key is None:
        try:
            _create_key(path)
        except OSError as exc:
            raise ConfigError(f"cannot create tbdse's key {path}: {exc.strerror}") from None
        key = _read_key(path)
        assert key is not None
    _keys[str(path)] = key
    return key


def forget_keys() -> None:
    """Reads the key file again on next use (tests that swap keys)."""
    _keys.clear()


def _message(purpose: str, folder: Path, name: str, value: str) -> bytes:
    return json.dumps([purpose, str(folder.resolve()), name, value]).encode("utf-8")


def sign(purpose: str, folder: Path, name: str, value: str) -> str:
    """The MAC of an entry: ``purpose`` says which record and which kind of
    entry; ``value`` is what the entry claims about ``name`` (its digest)."""
    return hmac.new(user_key(), _message(purpose, folder, name, value), hashlib.sha256).hexdigest()


def verifies(mac: object, purpose: str, folder: Path, name: str, value: str) -> bool:
    """``mac`` is this user's MAC of that entry."""
    return isinstance(mac, str) and hmac.compare_digest(mac, sign(purpose, folder, name, value))


def adopt_hint(folder: Path) -> str:
    """How to proceed when tbdse cannot prove it wrote what a folder's record lists."""
    return (
        "tbdse cannot prove it wrote the files it lists (the record was written by an earlier "
        "tbdse or another user, signed with another key, copied from another folder, or "
        "crafted), so it neither replaces nor deletes them.  If you trust this folder, "
        f"adopt its files that still match their recorded hashes: tbdse adopt {folder}; "
        "otherwise use another folder"
    )
