"""What error messages show of an input file: by default nothing but numbers,
single characters and short names (tbdse quotes no file it did not write, so a
password hash or a key's header named by mistake does not end up in a log);
with ``--show-input`` (:func:`show_input`) a short, escaped excerpt.

A reader passes raw text of a file (a line, a word) through :func:`content`,
and checks the values it parsed from a file inside :func:`from_file`, where
:func:`excerpt` describes a text, list or mapping instead of quoting it and
:func:`quoted` shows only name-like names.  Outside :func:`from_file` (values
given in Python, overrides on the command line) both quote as before.
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import re
from collections.abc import Iterator
from typing import Any

__all__ = [
    "EXCERPT_CHARS",
    "content",
    "excerpt",
    "from_file",
    "from_file_hidden",
    "quoted",
    "show_input",
    "showing_input",
    "shown",
]

EXCERPT_CHARS = 60
# Names (keys, task and node ids) a message may show from a file: short identifiers.
_NAME_LIKE = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.+-]{0,23}")
# A numeral is shown as a number is: what a count or cost was given as.
_NUMERAL = re.compile(r"[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?", re.ASCII)
_SHOW = [False]  # process-wide: set by --show-input / td.show_input()
_FROM_FILE: contextvars.ContextVar[bool] = contextvars.ContextVar("tbdse_from_file", default=False)


class _Showing(contextlib.AbstractContextManager["_Showing"]):
    def __init__(self, on: bool) -> None:
        self.before = _SHOW[0]
        _SHOW[0] = bool(on)

    def __exit__(self, *exc: object) -> None:
        _SHOW[0] = self.before


def show_input(on: bool = True) -> contextlib.AbstractContextManager[Any]:
    """Lets error messages quote short, escaped excerpts of input files (off by
    default: a message names the file, line and what was expected, and quotes
    nothing from a file tbdse did not write).  Takes effect at once; used as
    ``with td.show_input():`` the setting before is restored at the end."""
    return _Showing(on)


def showing_input() -> bool:
    """Whether messages may quote input files (:func:`show_input`)."""
    return _SHOW[0]


@contextlib.contextmanager
def from_file() -> Iterator[None]:
    """Within the block the values checked came from an input file: :func:`excerpt`
    and :func:`quoted` describe them rather than quote them (unless shown)."""
    token = _FROM_FILE.set(True)
    try:
        yield
    finally:
        _FROM_FILE.reset(token)


_HIDDEN = "not shown; --show-input shows it"


def content(text: Any, what: str = "text") -> str:
    """Raw text taken from an input file, for a message: an escaped excerpt with
    ``--show-input``, else only its length."""
    # A numeral is shown as a number is, and one character tells no secret; other
    # words of the file are not shown (one may be a password hash or a key).
    if _SHOW[0] or (
        isinstance(text, str) and (len(text) <= 1 or (len(text) <= 24 and _NUMERAL.fullmatch(text)))
    ):
        return excerpt(text, limit=EXCERPT_CHARS, _force=True)
    size = len(text) if isinstance(text, (str, bytes)) else 0
    return f"a {what} of {size:,} character{'s' if size != 1 else ''} ({_HIDDEN})"


def _described(value: Any) -> str | None:
    """What a value parsed from a file is, without its content (None: show it)."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return None if len(repr(value)) <= 24 else f"a number of {len(repr(value)):,} digits"
    if isinstance(value, str) and (_NUMERAL.fullmatch(value) or _NAME_LIKE.fullmatch(value)):
        return None  # a number or a short name: what a count or a choice was given as
    if isinstance(value, (str, bytes)):
        return content(value)
    if isinstance(value, dict):
        return f"a mapping of {len(value)} key{'s' if len(value) != 1 else ''} ({_HIDDEN})"
    if isinstance(value, (list, tuple)):
        return f"a list of {len(value)} item{'s' if len(value) != 1 else ''} ({_HIDDEN})"
    return f"a {type(value).__name__} ({_HIDDEN})"


def excerpt(value: Any, limit: int = EXCERPT_CHARS, *, _force: bool = False) -> str:
    """``repr(value)`` (control characters escaped) cut to about ``limit``
    characters; inside :func:`from_file` (unless shown) a description instead."""
    if not _force and not _SHOW[0] and _FROM_FILE.get():
        described = _described(value)
        if described is not None:
            return described
    if isinstance(value, (str, bytes)) and len(value) > 4 * limit:
        value = value[: 4 * limit]  # repr of a huge string costs time; the cut hides the rest
        shown_ = repr(value)
        return shown_[: limit - 3] + "..."
    try:
        shown_ = repr(value)
    except Exception:  # a value whose repr fails still gets a message
        shown_ = f"<{type(value).__name__}>"
    return shown_ if len(shown_) <= limit else shown_[: limit - 3] + "..."


def from_file_hidden(name: str) -> bool:
    """Whether a name (a key, an id) from a file is kept out of messages: inside
    :func:`from_file`, unless shown, a name that is no short identifier."""
    return not _SHOW[0] and _FROM_FILE.get() and not _NAME_LIKE.fullmatch(name)


def quoted(name: Any) -> str:
    """A name for a message in quotes: 'name' when short and printable, else an excerpt."""
    text = str(name)
    if from_file_hidden(text):
        return excerpt(name)
    if isinstance(name, str) and text.isprintable() and len(text) <= EXCERPT_CHARS:
        return f"'{text}'"
    return excerpt(name)


def shown(path: Any) -> str:
    """A path for a message: as written when printable, else escaped."""
    text = os.fsdecode(path) if isinstance(path, (bytes, os.PathLike)) else str(path)
    return text if text.isprintable() else repr(text)
