"""Which elements of a buffer each thread block touches, as BlockMaestro's
kernel-launch-time value range analysis finds them (ISCA 2021 §III-B,
Algorithm 1): per buffer dimension an index range whose bounds are affine in
the block index ``(bx, by, bz)``.

>>> from tbdse.workloads.access import Buffer, bx
>>> A = Buffer("A", 1 << 20)
>>> A[256 * bx - 1 : 256 * bx + 257]        # a halo of one element each side
A[256*bx - 1 : 256*bx + 257]
>>> A.indirect()                            # an address loaded from memory
A[indirect]

Ranges are clipped to the buffer (a halo at the edge reads what exists). Each
dimension's bounds may depend on one block coordinate at most; a 2-D tile is
written ``B[16*by : 16*by + 16, 16*bx : 16*bx + 16]`` on a 2-D buffer. In YAML
an access is a string: ``"256*bx - 1 : 256*bx + 257"``, dimensions separated
by commas, ``":"`` for a whole dimension, ``"indirect"`` or ``"all"``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

from tbdse._util.checks import plain, text, whole
from tbdse._util.excerpts import excerpt
from tbdse.errors import ConfigError

__all__ = ["Access", "Affine", "Buffer", "bx", "by", "bz", "parse_access", "parse_affine"]

_LIMIT = 2**62


@dataclass(frozen=True)
class Affine:
    """``c0 + cx*bx + cy*by + cz*bz`` with integer coefficients."""

    c0: int = 0
    cx: int = 0
    cy: int = 0
    cz: int = 0

    def __post_init__(self) -> None:
        # Sums and products of bounds are checked here, so that every Affine
        # fits the core's 64-bit arithmetic.
        for part in (self.c0, self.cx, self.cy, self.cz):
            if not -_LIMIT <= part <= _LIMIT:
                raise ConfigError(
                    f"an index bound's coefficient {part} is out of range; "
                    f"every coefficient and constant must lie within +-2^62"
                )

    @staticmethod
    def of(value: Any, what: str = "an index bound") -> Affine:
        value = plain(value)
        if isinstance(value, Affine):
            return value
        if isinstance(value, str):
            return parse_affine(value, what)
        return Affine(whole(value, what, -_LIMIT, _LIMIT))

    def __add__(self, other: Any) -> Affine:
        o = Affine.of(other)
        return Affine(self.c0 + o.c0, self.cx + o.cx, self.cy + o.cy, self.cz + o.cz)

    __radd__ = __add__

    def __neg__(self) -> Affine:
        return Affine(-self.c0, -self.cx, -self.cy, -self.cz)

    def __sub__(self, other: Any) -> Affine:
        return self + (-Affine.of(other))

    def __rsub__(self, other: Any) -> Affine:
        return Affine.of(other) - self

    def __mul__(self, k: Any) -> Affine:
        if isinstance(plain(k), Affine):
            raise ConfigError("an index bound must be affine: block coordinates cannot multiply")
        k = whole(k, "a coefficient of an index bound", -_LIMIT, _LIMIT)
        return Affine(self.c0 * k, self.cx * k, self.cy * k, self.cz * k)

    __rmul__ = __mul__

    def as_tuple(self) -> tuple[int, int, int, int]:
        return (self.c0, self.cx, self.cy, self.cz)

    def __str__(self) -> str:
        out = ""
        for c, v in ((self.cx, "bx"), (self.cy, "by"), (self.cz, "bz")):
            if c:
                term = v if abs(c) == 1 else f"{abs(c)}*{v}"
                out = (
                    ("-" if c < 0 else "") + term
                    if not out
                    else out + (" - " if c < 0 else " + ") + term
                )
        if not out:
            return str(self.c0)
        if self.c0:
            out += (" - " if self.c0 < 0 else " + ") + str(abs(self.c0))
        return out


bx, by, bz = Affine(cx=1), Affine(cy=1), Affine(cz=1)

_TOKEN = re.compile(r"\s*(?:(\d+)|(bx|by|bz)|([+\-*]))")


def parse_affine(source: str, what: str = "an index bound") -> Affine:
    """``"256*bx - 1"`` as an :class:`Affine`; ConfigError saying what is valid."""
    pos, tokens = 0, []
    source = source.strip()
    while pos < len(source):
        m = _TOKEN.match(source, pos)
        if not m or m.end() == pos:
            raise ConfigError(
                f"{what}: cannot read {source!r} at {source[pos:]!r}; write an affine "
                "expression of bx, by, bz with whole numbers, e.g. '256*bx - 1'"
            )
        tokens.append(m.group(1) or m.group(2) or m.group(3))
        pos = m.end()
    total, sign, i = Affine(), 1, 0
    if not tokens:
        raise ConfigError(f"{what}: empty expression")
    while i < len(tokens):
        if tokens[i] in "+-":
            sign = -1 if tokens[i] == "-" else 1
            i += 1
        factors, expect_factor = [], True
        while i < len(tokens) and tokens[i] not in "+-":
            tok = tokens[i]
            if expect_factor == (tok == "*"):
                raise ConfigError(f"{what}: misplaced {tok!r} in {source!r}")
            if tok != "*":
                factors.append(tok)
            expect_factor = tok == "*"
            i += 1
        if not factors or expect_factor:
            raise ConfigError(f"{what}: incomplete term in {source!r}")
        term, variables = Affine(sign), 0
        for f in factors:
            if f.isdigit():
                if len(f) > 19:  # beyond +-2^62 anyway; int() refuses huge digit strings
                    raise ConfigError(f"{what}: the number {f[:20]}... in {source!r} is too large")
                term = term * int(f)
            else:
                variables += 1
                term = Affine(
                    0, term.c0 * (f == "bx"), term.c0 * (f == "by"), term.c0 * (f == "bz")
                )
        if variables > 1:
            raise ConfigError(f"{what}: {source!r} multiplies block coordinates; it must be affine")
        total = total + term
        sign = 1
    return total


@dataclass(frozen=True)
class Access:
    """The part of ``buffer`` one TB touches: per dimension ``(lo, hi)``, hi
    exclusive; ``dims`` is None for an indirect access."""

    buffer: Buffer
    dims: tuple[tuple[Affine, Affine], ...] | None

    def __repr__(self) -> str:
        if self.dims is None:
            return f"{self.buffer.name}[indirect]"
        return f"{self.buffer.name}[{', '.join(f'{lo} : {hi}' for lo, hi in self.dims)}]"


class Buffer:
    """A device buffer: a name, a shape in elements and the element size."""

    def __init__(self, name: str, shape: int | Sequence[int], element_bytes: int = 4) -> None:
        self.name = text(name, "a buffer's name")
        if isinstance(plain(shape), int):
            dims = [shape]
        elif isinstance(shape, Sequence) and not isinstance(shape, str):
            dims = list(cast(Sequence[int], shape))
        else:
            raise ConfigError(
                f"buffer '{name}': shape must be a number of elements or a list of them "
                f"(e.g. 1024 or [512, 512]); got {excerpt(shape)}"
            )
        if not dims:
            raise ConfigError(f"buffer '{name}': its shape needs at least one dimension")
        self.shape = tuple(whole(d, f"buffer '{name}': a dimension", 1, _LIMIT) for d in dims)
        self.element_bytes = whole(element_bytes, f"buffer '{name}': element_bytes", 1, 2**20)

    @property
    def elements(self) -> int:
        n = 1
        for d in self.shape:
            n *= d
        return n

    @property
    def bytes(self) -> int:
        return self.elements * self.element_bytes

    def __getitem__(self, key: Any) -> Access:
        keys = key if isinstance(key, tuple) else (key,)
        if len(keys) != len(self.shape):
            raise ConfigError(
                f"buffer '{self.name}' has {len(self.shape)} dimension(s); an access names "
                f"{len(keys)}"
            )
        dims = []
        for k, extent in zip(keys, self.shape, strict=True):
            if not isinstance(k, slice) or k.step is not None:
                raise ConfigError(
                    f"buffer '{self.name}': give each dimension as a range lo:hi; got {excerpt(k)}"
                )
            lo = Affine() if k.start is None else Affine.of(k.start)
            hi = Affine(extent) if k.stop is None else Affine.of(k.stop)
            dims.append((lo, hi))
        return Access(self, tuple(dims))

    def indirect(self) -> Access:
        """An access whose addresses come from loaded data (unknown at launch)."""
        return Access(self, None)

    def all(self) -> Access:
        return self[tuple(slice(None) for _ in self.shape)]

    def __repr__(self) -> str:
        return f"Buffer({self.name!r}, shape={self.shape}, element_bytes={self.element_bytes})"


def parse_access(buffer: Buffer, source: str) -> Access:
    """A YAML access string on ``buffer``: ``"lo : hi, lo : hi"``, ``"indirect"``
    or ``"all"``."""
    what = f"access to buffer '{buffer.name}'"
    src = text(source, what).strip()
    if src == "indirect":
        return buffer.indirect()
    if src == "all":
        return buffer.all()
    parts = src.split(",")
    if len(parts) != len(buffer.shape):
        raise ConfigError(
            f"{what}: {src!r} gives {len(parts)} dimension(s) but the buffer has "
            f"{len(buffer.shape)}; separate dimensions with commas"
        )
    keys = []
    for part in parts:
        if part.count(":") != 1:
            raise ConfigError(
                f"{what}: each dimension is 'lo : hi' (or ':'); got {excerpt(part.strip())}"
            )
        lo, hi = (s.strip() for s in part.split(":"))
        keys.append(
            slice(parse_affine(lo, what) if lo else None, parse_affine(hi, what) if hi else None)
        )
    return buffer[tuple(keys)]
