"""The font every picture is drawn in, shipped beside this module (`fonts/`, with its license), and the
letters it has: read from its own character map (the TrueType `cmap` table), so what a picture can draw is
a fact of the file, not a guess from drawing a letter and looking at the ink.

Noto Sans (SIL Open Font License 1.1): Latin with every accent, the capital sharp s, Greek and Cyrillic. It
has no Chinese, Japanese or Korean and no emoji: a font for those is ten times the size of the package, so
those letters are left out of a drawn name (`text.printable`) and the alt text keeps the name whole.
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files
from pathlib import Path

FONT_FILE = "NotoSans-Regular.ttf"


def font_path() -> Path:
    return Path(str(files("bot.render.pictures").joinpath("fonts", FONT_FILE)))


def _u16(data: bytes, at: int) -> int:
    return int.from_bytes(data[at : at + 2], "big")


def _u32(data: bytes, at: int) -> int:
    return int.from_bytes(data[at : at + 4], "big")


@cache
def code_points() -> frozenset[int]:
    """Every code point the font maps to a glyph (its Unicode subtables: formats 4 and 12)."""
    data = font_path().read_bytes()
    directory = range(12, 12 + 16 * _u16(data, 4), 16)  # the font's tables: tag, checksum, offset, length
    cmap = next(_u32(data, at + 8) for at in directory if data[at : at + 4] == b"cmap")
    found: set[int] = set()
    for i in range(_u16(data, cmap + 2)):
        platform, offset = _u16(data, cmap + 4 + 8 * i), _u32(data, cmap + 8 + 8 * i)
        if platform not in (0, 3):  # Unicode and Windows: the Unicode maps
            continue
        at = cmap + offset
        form = _u16(data, at)
        if form == 4:
            found |= _format4(data, at)
        elif form == 12:
            for g in range(_u32(data, at + 12)):
                first, last, glyph = (_u32(data, at + 16 + 12 * g + 4 * k) for k in range(3))
                found.update(c for c in range(first, last + 1) if glyph + c - first)
    return frozenset(found)


def _format4(data: bytes, at: int) -> set[int]:
    """A format 4 subtable's code points: segments of (end, start, delta, range offset), glyph 0 missing."""
    segments = _u16(data, at + 6) // 2
    ends_at, starts_at = at + 14, at + 16 + 2 * segments
    deltas_at, ranges_at = at + 16 + 4 * segments, at + 16 + 6 * segments
    found: set[int] = set()
    for s in range(segments):
        start, end = _u16(data, starts_at + 2 * s), _u16(data, ends_at + 2 * s)
        delta, offset = _u16(data, deltas_at + 2 * s), _u16(data, ranges_at + 2 * s)
        for c in range(start, end + 1):
            if c == 0xFFFF:
                continue
            if offset == 0:
                glyph = (c + delta) & 0xFFFF
            else:
                glyph = _u16(data, ranges_at + 2 * s + offset + 2 * (c - start))
                glyph = (glyph + delta) & 0xFFFF if glyph else 0
            if glyph:
                found.add(c)
    return found


def has(ch: str) -> bool:
    """Whether the font draws the letter `ch` (a glyph of its own, not the empty box of a missing one)."""
    return ord(ch) in code_points()
