"""YAML reading that remembers where every value came from.

Experiment files are validated with messages of the form
``file.yaml:12:5: schemes[1].polcy: unknown parameter ...``, so the loader keeps
the line and column of every key and value.  It also rejects duplicate keys
(PyYAML silently keeps the last one) and resolves plain scalars with the
YAML 1.2 core schema, so ``1e3`` is a number and ``no`` stays a string.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from tbdse._util.excerpts import content, excerpt, from_file_hidden, quoted, showing_input, shown
from tbdse.errors import ConfigError
from tbdse.io.inputs import read_input

__all__ = ["Located", "Problems", "load_yaml", "path_str", "read_text"]

Path_ = tuple[str | int, ...]

# The YAML 1.2 core schema's tag resolution for plain scalars.
_INT = re.compile(r"^[-+]?[0-9]+$")
_OCT = re.compile(r"^0o[0-7]+$")
_HEX = re.compile(r"^0x[0-9a-fA-F]+$")
_FLOAT = re.compile(r"^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$")
_INF = re.compile(r"^[-+]?\.(inf|Inf|INF)$")
_NAN = re.compile(r"^\.(nan|NaN|NAN)$")


def path_str(path: Path_) -> str:
    """('schemes', 1, 'policy') -> 'schemes[1].policy'."""
    out = ""
    for part in path:
        if not isinstance(part, int):
            text = str(part)  # a key from the file: one short line in messages
            if from_file_hidden(text):  # a data file's key that is no name: not quoted
                part = f"<{content(text, 'key')}>"
            else:
                part = text if text.isprintable() and len(text) <= 60 else excerpt(text)
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


@dataclass
class Located:
    """A loaded document and the (line, column) of each path in it, 1-based."""

    data: Any
    file: str
    marks: dict[Path_, tuple[int, int]] = field(default_factory=dict)

    def where(self, path: Path_) -> str:
        """'file:line:col' of the deepest known prefix of ``path``."""
        for cut in range(len(path), -1, -1):
            if path[:cut] in self.marks:
                line, col = self.marks[path[:cut]]
                return f"{self.file}:{line}:{col}"
        return self.file


class Problems:
    """Collects every problem of a file before raising one ConfigError listing them all."""

    def __init__(self, doc: Located) -> None:
        self.doc = doc
        self.items: list[tuple[tuple[int, int], str]] = []

    def add(self, path: Path_, message: str) -> None:
        where = self.doc.where(path)
        mark = next(
            (
                self.doc.marks[path[:c]]
                for c in range(len(path), -1, -1)
                if path[:c] in self.doc.marks
            ),
            (0, 0),
        )
        self.items.append((mark, f"{where}: {path_str(path)}: {message}"))

    def __bool__(self) -> bool:
        return bool(self.items)

    def raise_if_any(self) -> None:
        if not self.items:
            return
        lines = [text for _, text in sorted(self.items, key=lambda item: item[0])]
        count = f"{len(lines)} problem{'s' if len(lines) > 1 else ''}"
        raise ConfigError(f"{self.doc.file}: {count}:\n  " + "\n  ".join(lines))


def _scalar(node: yaml.ScalarNode) -> Any:
    text = node.value
    if node.style is not None:  # quoted or block: always a string
        return text
    if text in ("", "~", "null", "Null", "NULL"):
        return None
    if text in ("true", "True", "TRUE"):
        return True
    if text in ("false", "False", "FALSE"):
        return False
    if _INT.match(text):
        return int(text) if len(text) <= MAX_DIGITS else text  # a value is refused in _convert
    if _OCT.match(text):
        return int(text[2:], 8)
    if _HEX.match(text):
        return int(text[2:], 16)
    if _FLOAT.match(text):
        return float(text)
    if _INF.match(text):
        return -math.inf if text.startswith("-") else math.inf
    if _NAN.match(text):
        return math.nan
    return text


# Limits that keep a hostile or broken file from taking unbounded time or
# memory: nesting depth, and values produced beyond the file's own nodes (YAML
# aliases can repeat a node exponentially often: the "billion laughs").
MAX_DEPTH = 64
MAX_VALUES = 1_000_000
# A YAML file is a description (experiment, task list, application): 8 MiB is far
# beyond any, and the pure-Python parser reads it in seconds, not minutes.
MAX_YAML_BYTES = 8 * 2**20
MAX_DIGITS = 64  # a whole number longer than this is no count or size (int() balks at 4300)
ALIAS_GROWTH = 20  # values per distinct node before expansion counts as a bomb
_TAG = "tag:yaml.org,2002:"
_ALLOWED_TAGS = {
    _TAG + t for t in ("str", "int", "float", "bool", "null", "seq", "map", "timestamp", "value")
}


class _Budget:
    def __init__(self) -> None:
        self.values = 0
        self.nodes: set[int] = set()


def _convert(node: yaml.Node, path: Path_, doc: Located, errors: list[str], budget: _Budget) -> Any:
    doc.marks[path] = (node.start_mark.line + 1, node.start_mark.column + 1)
    budget.values += 1
    budget.nodes.add(id(node))
    if len(path) > MAX_DEPTH:
        raise ConfigError(
            f"{doc.where(path)}: {path_str(path[:4])}...: values nested more than {MAX_DEPTH} "
            "levels deep (or an alias that contains itself)"
        )
    if budget.values > MAX_VALUES or (
        budget.values > 10_000 and budget.values > ALIAS_GROWTH * len(budget.nodes)
    ):
        raise ConfigError(
            f"{doc.where(path)}: {path_str(path)}: the file expands to more than "
            f"{budget.values - 1:,} values (YAML aliases repeating nodes?); refused"
        )
    if node.tag not in _ALLOWED_TAGS:
        shown = "!!" + node.tag[len(_TAG) :] if node.tag.startswith(_TAG) else node.tag
        if not shown.isprintable() or len(shown) > 60:
            shown = excerpt(shown)
        errors.append(f"{doc.where(path)}: {path_str(path)}: tag {shown} is not supported")
        return None
    if isinstance(node, yaml.ScalarNode):
        if node.style is None and len(node.value) > MAX_DIGITS and _INT.match(node.value):
            errors.append(
                f"{doc.where(path)}: {path_str(path)}: a whole number of {len(node.value):,} "
                f"digits; numbers are read up to {MAX_DIGITS} digits"
            )
            return None
        return _scalar(node)
    if isinstance(node, yaml.SequenceNode):
        return [
            _convert(child, (*path, i), doc, errors, budget) for i, child in enumerate(node.value)
        ]
    if isinstance(node, yaml.MappingNode):
        out: dict[Any, Any] = {}
        first_line: dict[Any, int] = {}
        for key_node, value_node in node.value:
            line = key_node.start_mark.line + 1
            where = f"{doc.file}:{line}:{key_node.start_mark.column + 1}"
            if not isinstance(key_node, yaml.ScalarNode):
                errors.append(f"{where}: {path_str(path)}: keys must be plain names")
                continue
            key = _scalar(key_node)
            if key == "<<":
                errors.append(f"{where}: {path_str(path)}: merge keys ('<<') are not supported")
                continue
            if key in out:
                errors.append(
                    f"{where}: {path_str((*path, key))}: duplicate key {quoted(key)} "
                    f"(first given on line {first_line[key]})"
                )
                continue
            first_line[key] = line
            doc.marks[(*path, key)] = (line, key_node.start_mark.column + 1)
            out[key] = _convert(value_node, (*path, key), doc, errors, budget)
            doc.marks[(*path, key)] = (line, key_node.start_mark.column + 1)
        return out
    raise ConfigError(f"{doc.file}: unsupported YAML node {node!r}")


def _line_col(data: bytes | str, offset: int) -> tuple[int, int]:
    before = data[:offset]
    newline = b"\n" if isinstance(before, bytes) else "\n"
    line = before.count(newline) + 1  # type: ignore[arg-type]
    return line, offset - (before.rfind(newline) + 1) + 1  # type: ignore[arg-type]


def read_text(source: str | Path, what: str = "file", limit: int | None = None) -> str:
    """A text file's contents as UTF-8 (a BOM is allowed); ConfigError naming the
    file, line and column for anything else: other encodings, binary data, NUL bytes,
    and for what tbdse.io.inputs refuses (not a regular file, too large, outside the
    input root, beyond the format's ``limit`` in bytes, compressed or not)."""
    # The one reader of inputs: regular files only, size-limited, within the input root.
    data = read_input(source, what, limit)
    p = shown(source)
    for bom, name in (
        (b"\xff\xfe\x00\x00", "UTF-32"),
        (b"\x00\x00\xfe\xff", "UTF-32"),
        (b"\xff\xfe", "UTF-16"),
        (b"\xfe\xff", "UTF-16"),
    ):
        if data.startswith(bom):
            raise ConfigError(f"{p}: the {what} is {name} text; save it as UTF-8")
    if b"\x00" in data:
        line, col = _line_col(data, data.index(b"\x00"))
        raise ConfigError(f"{p}:{line}:{col}: a NUL byte: this is not a text file")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line, col = _line_col(data, exc.start)
        raise ConfigError(
            f"{p}:{line}:{col}: not UTF-8 text (byte 0x{data[exc.start]:02x}); "
            "save the file as UTF-8"
        ) from None


_FLOW = re.compile(r"[\[\]{}]")
_QUOTED = re.compile(r"'(?:[^'\n]|'')*'|\"(?:[^\"\\\n]|\\.)*\"|#[^\n]*")


def flow_depth(text: str) -> int:
    """The deepest nesting of flow brackets ([ { } ]) outside quotes and comments,
    found without recursion (the parser recurses, so it is checked first)."""
    if "[" not in text and "{" not in text:
        return 0
    bare = _QUOTED.sub("", text)
    depth = deepest = 0
    for match in _FLOW.finditer(bare):
        depth += 1 if match.group() in "[{" else -1
        deepest = max(deepest, depth)
    return deepest


def _problem(problem: str) -> str:
    """PyYAML's problem text with the tokens it quotes from the file left out
    (a lone punctuation or space character, such as a tab, is kept)."""
    if showing_input():
        return problem if problem.isprintable() and len(problem) <= 120 else excerpt(problem, 120)

    def hide(match: re.Match[str]) -> str:
        inner = match.group()[1:-1]
        return match.group() if len(inner) <= 2 and not inner.isalnum() else "<not shown>"

    return re.sub(r"'[^']*'|\"[^\"]*\"", hide, problem)[:200]


def load_yaml(source: str | Path, *, text: str | None = None) -> Located:
    """Loads one YAML document from a file (or ``text`` named ``source``),
    of at most :data:`MAX_YAML_BYTES` and :data:`MAX_DEPTH` levels."""
    name = str(source)
    if text is None:
        text = read_text(source, "YAML file", MAX_YAML_BYTES)
    if flow_depth(text) > MAX_DEPTH:
        raise ConfigError(
            f"{name}: values nested more than {MAX_DEPTH} levels deep ([ or {{ brackets)"
        )
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        where = f"{name}:{mark.line + 1}:{mark.column + 1}" if mark else name
        # The problem text can quote a token of the file: not shown unless asked.
        problem = _problem(exc.problem or "(no detail)")
        raise ConfigError(f"{where}: not valid YAML: {problem}") from None
    except yaml.reader.ReaderError as exc:
        line, col = _line_col(text, exc.position)
        code = exc.character if isinstance(exc.character, int) else ord(exc.character)
        raise ConfigError(
            f"{name}:{line}:{col}: character U+{code:04X} is not allowed in YAML"
        ) from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"{name}: not valid YAML: {exc}") from None
    except RecursionError:
        raise ConfigError(
            f"{name}: values nested too deeply to read (more than {MAX_DEPTH} levels)"
        ) from None
    doc = Located(None, name)
    if node is None:
        raise ConfigError(f"{name}: the file is empty")
    errors: list[str] = []
    doc.data = _convert(node, (), doc, errors, _Budget())
    if errors:
        raise ConfigError(
            f"{name}: {len(errors)} problem{'s' if len(errors) > 1 else ''}:\n  "
            + "\n  ".join(errors)
        )
    return doc
