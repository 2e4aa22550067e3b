"""The one way tbdse opens a file it reads: experiment files, graph files,
task lists, application and control-flow kernel files.

An experiment file is a code-like input: it names the paths it reads.  So
every input must be a regular file (no directory, FIFO or device: /dev/zero
would grow without end, a FIFO would block), at most :data:`MAX_INPUT_BYTES`
long (checked before reading, and the read itself is bounded), and, inside
:func:`input_root`, lie below that folder once symlinks are resolved.  Every
refusal is a ConfigError naming the path and why.  Files the C++ readers open
by path (graph files) are checked with :func:`check_input` first.

A name ending in ``.gz`` is a gzip-compressed input, read decompressed
everywhere: the limits hold for the compressed file and, checked while
decompressing, for what it holds (:data:`MAX_INPUT_BYTES` each), so a "zip
bomb" is a ConfigError, not memory exhaustion.  For the C++ readers, which
open a path, :func:`input_path` decompresses into a temporary folder tbdse
owns and removes, and :func:`named` puts the original name back into their
messages.

A .gz input may also expand at most :data:`MAX_GZIP_RATIO` times its own size
(beyond :data:`GZIP_FLOOR_BYTES`), and a reader may set a lower limit for its
format (``limit``): a 400 KB file that holds 250 MB of text is refused while
decompressing, in well under a second.

Messages never quote a file tbdse did not write, unless the user asked
(``--show-input``): see tbdse._util.excerpts, whose helpers are re-exported here.
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import stat
import tempfile
import zlib
from collections.abc import Iterator
from pathlib import Path

from tbdse._util.excerpts import (  # re-exported: every reader imports them from here
    EXCERPT_CHARS,
    content,
    excerpt,
    from_file,
    from_file_hidden,
    quoted,
    show_input,
    showing_input,
    shown,
)
from tbdse.errors import ConfigError

__all__ = [
    "EXCERPT_CHARS",
    "MAX_INPUT_BYTES",
    "check_input",
    "content",
    "current_root",
    "excerpt",
    "from_file",
    "from_file_hidden",
    "input_path",
    "input_root",
    "is_gzip",
    "named",
    "quoted",
    "read_input",
    "show_input",
    "showing_input",
    "shown",
    "text_lines",
]

# Inputs are descriptions and graphs, not data sets: 256 MiB holds a DIMACS road
# network of tens of millions of arcs, and refuses a runaway file before it fills memory.
MAX_INPUT_BYTES = 256 * 2**20
# What a .gz input holds is limited like any input: checked while decompressing.
MAX_DECOMPRESSED_BYTES = MAX_INPUT_BYTES
# Text and graphs compress 3-20 times; far more is a "zip bomb" built to exhaust memory.
MAX_GZIP_RATIO = 100
GZIP_FLOOR_BYTES = 16 * 2**20  # below this, any ratio is fine (small files, padding)

_ROOT: contextvars.ContextVar[Path | None] = contextvars.ContextVar(
    "tbdse_input_root", default=None
)


def current_root() -> Path | None:
    """The folder inputs are confined to, or None."""
    return _ROOT.get()


@contextlib.contextmanager
def input_root(root: str | os.PathLike[str] | None) -> Iterator[Path | None]:
    """Within the block every input path must resolve (symlinks followed) below
    ``root``; None lifts no confinement set by an enclosing block."""
    if root is None:
        yield _ROOT.get()
        return
    resolved = _resolve_root(root)
    token = _ROOT.set(resolved)
    try:
        yield resolved
    finally:
        _ROOT.reset(token)


def _resolve_root(root: str | os.PathLike[str]) -> Path:
    if not isinstance(root, (str, os.PathLike)) or not os.fspath(root):
        raise ConfigError(f"the input root must be a folder name; got {excerpt(root)}")
    try:
        resolved = Path(root).resolve(strict=True)
    except (OSError, ValueError, RuntimeError):
        raise ConfigError(f"input root {shown(root)}: no such folder") from None
    if not resolved.is_dir():
        raise ConfigError(f"input root {shown(root)} is not a folder")
    return resolved


def _kind(mode: int) -> str:
    for test, name in (
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISFIFO, "a FIFO (named pipe)"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return name
    return "not a regular file"


def _check_stat(st: os.stat_result, name: str, what: str) -> None:
    if not stat.S_ISREG(st.st_mode):
        raise ConfigError(f"{name}: the {what} is {_kind(st.st_mode)}, not a regular file")
    if st.st_size > MAX_INPUT_BYTES:
        raise ConfigError(
            f"{name}: the {what} is {st.st_size:,} bytes; inputs are limited to "
            f"{MAX_INPUT_BYTES:,} bytes"
        )


def check_input(source: str | os.PathLike[str], what: str = "file") -> Path:
    """The path to open for input ``source`` (resolved when an input root is set),
    after checking it: a regular file within the size limit and the root."""
    if not isinstance(source, (str, os.PathLike)):
        raise ConfigError(f"the {what} must be a path; got {excerpt(source)}")
    name = shown(source)
    path = Path(source)
    if "\x00" in os.fspath(path):
        raise ConfigError(f"{name}: a file name cannot contain a NUL character")
    root = _ROOT.get()
    if root is not None:
        try:
            path = path.resolve(strict=True)
        except FileNotFoundError:
            raise ConfigError(f"no such file: {name}") from None
        except (OSError, RuntimeError) as exc:  # a symlink loop, a permission
            reason = getattr(exc, "strerror", None) or exc
            raise ConfigError(f"cannot read {name}: {reason}") from None
        if not path.is_relative_to(root):
            raise ConfigError(
                f"{name}: the {what} lies outside the input root {shown(root)} "
                "(inputs are confined to it)"
            )
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise ConfigError(f"no such file: {name}") from None
    except OSError as exc:
        raise ConfigError(f"cannot read {name}: {exc.strerror or exc}") from None
    _check_stat(st, name, what)
    return path


def is_gzip(source: str | os.PathLike[str]) -> bool:
    """Whether input ``source`` is read gzip-decompressed (its name ends in .gz)."""
    return os.fsdecode(source).lower().endswith(".gz")


def read_input(
    source: str | os.PathLike[str], what: str = "file", limit: int | None = None
) -> bytes:
    """The bytes of input ``source``, checked as in :func:`check_input`;
    decompressed when its name ends in ``.gz`` (:func:`is_gzip`).  ``limit``
    (bytes) is a format's own budget, lower than :data:`MAX_INPUT_BYTES`, for
    the file and for what it decompresses to.

    Opened without blocking and re-checked on the open descriptor, so a FIFO
    or device swapped in after the check is refused rather than read."""
    raw = _read_raw(source, what)
    name = shown(source)
    if limit is not None and len(raw) > limit:
        raise ConfigError(
            f"{name}: the {what} is {len(raw):,} bytes; a {what} is read up to {limit:,} bytes"
        )
    if isinstance(source, (str, os.PathLike)) and is_gzip(source):
        return b"".join(_gunzip(raw, name, what, limit))
    return raw


def _gunzip(data: bytes, name: str, what: str, limit: int | None = None) -> Iterator[bytes]:
    """The decompressed pieces of gzip ``data`` (one member or several); a
    ConfigError for data that is not gzip, is cut short, or would decompress
    beyond :data:`MAX_DECOMPRESSED_BYTES`, ``limit`` or :data:`MAX_GZIP_RATIO`
    times its size (checked before the excess is made)."""
    budget = min(MAX_DECOMPRESSED_BYTES, max(GZIP_FLOOR_BYTES, MAX_GZIP_RATIO * len(data)))
    if limit is not None and limit < budget:
        budget = limit
    left = budget
    rest = data
    if not rest:
        raise ConfigError(f"{name}: the {what} is empty, not gzip-compressed data")
    while rest:
        unpack = zlib.decompressobj(16 + zlib.MAX_WBITS)
        pending = rest
        while True:
            try:
                piece = unpack.decompress(pending, min(left + 1, 1 << 20))
            except zlib.error as exc:
                raise ConfigError(
                    f"{name}: the {what} is not valid gzip-compressed data ({exc}); "
                    "a file named .gz is read decompressed"
                ) from None
            left -= len(piece)
            if left < 0:
                raise ConfigError(_too_big(name, what, len(data), budget, limit))
            if piece:
                yield piece
            pending = unpack.unconsumed_tail
            if unpack.eof or (not pending and not piece):
                break
        if not unpack.eof:
            raise ConfigError(f"{name}: the {what} is cut short (the gzip data ends early)")
        rest = unpack.unused_data
        if rest.strip(b"\x00") == b"":  # padding after the last member
            break


def _too_big(name: str, what: str, packed: int, budget: int, limit: int | None) -> str:
    if budget == limit:
        return (
            f"{name}: the {what} decompresses to more than {limit:,} bytes; a {what} is "
            f"read up to {limit:,} bytes"
        )
    if budget == MAX_DECOMPRESSED_BYTES:
        return (
            f"{name}: the {what} decompresses to more than "
            f"{MAX_DECOMPRESSED_BYTES:,} bytes; inputs are limited to that"
        )
    return (
        f"{name}: the {what} decompresses to more than {budget:,} bytes, over "
        f"{MAX_GZIP_RATIO} times its {packed:,} compressed bytes: refused as a "
        f"decompression bomb (a .gz input may expand {MAX_GZIP_RATIO} times, or to "
        f"{GZIP_FLOOR_BYTES:,} bytes)"
    )


@contextlib.contextmanager
def input_path(source: str | os.PathLike[str], what: str = "file") -> Iterator[str]:
    """A path a C++ reader can open for input ``source``: the checked file
    itself, or for a ``.gz`` input its decompressed contents in a temporary
    folder that is removed when the block ends.  Wrap the reader in
    :func:`named` so its messages name ``source``, not the temporary file."""
    if not (isinstance(source, (str, os.PathLike)) and is_gzip(source)):
        yield str(check_input(source, what))
        return
    raw = _read_raw(source, what)
    with tempfile.TemporaryDirectory(prefix="tbdse-gz-") as folder:
        name = os.fsdecode(os.path.basename(os.fspath(source)))[:-3] or "input"
        target = os.path.join(folder, name if name.isprintable() else "input")
        with open(target, "wb") as out:
            for piece in _gunzip(raw, shown(source), what):
                out.write(piece)
        del raw
        yield target


@contextlib.contextmanager
def named(temporary: str, source: str | os.PathLike[str]) -> Iterator[None]:
    """ConfigErrors raised in the block name ``source`` where they said ``temporary``."""
    try:
        yield
    except ConfigError as exc:
        message = str(exc)
        if temporary == os.fspath(source) or temporary not in message:
            raise
        raise ConfigError(message.replace(temporary, shown(source))) from None


def _read_raw(source: str | os.PathLike[str], what: str) -> bytes:
    path = check_input(source, what)
    name = shown(source)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    flags |= getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise ConfigError(f"cannot read {name}: {exc.strerror or exc}") from None
    try:
        st = os.fstat(fd)
        _check_stat(st, name, what)
        root = _ROOT.get()
        if root is not None:
            # The file opened is the one checked (not a symlink swapped in since).
            checked = os.stat(path)
            if (checked.st_dev, checked.st_ino) != (st.st_dev, st.st_ino):
                raise ConfigError(f"{name}: the {what} changed while being opened")
        chunks = []
        left = MAX_INPUT_BYTES + 1  # one byte more tells a file that grew past the limit
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    except OSError as exc:
        raise ConfigError(f"cannot read {name}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if left <= 0:
        raise ConfigError(
            f"{name}: the {what} grew beyond {MAX_INPUT_BYTES:,} bytes while being read"
        )
    return b"".join(chunks)


def text_lines(text: str) -> Iterator[str]:
    """The lines of ``text`` one at a time (splitlines() would hold them all
    at once: a reader's budget counts what it holds)."""
    start = 0
    while start < len(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        yield text[start:end]
        start = end + 1
