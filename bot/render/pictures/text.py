"""Text on a picture: Pillow's bundled font, German letters it lacks, names it cannot draw, and a record of
where every text and sprite went (for the tests that check no label is covered).

Sizes: Discord on a phone shows a picture at the screen's width, about 360 px, so a picture 600 px wide is
shown at 0.6 of its size. `MIN_SIZE` (17 px, about 10 px on the phone) is the smallest text anywhere.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache, lru_cache
from typing import NamedTuple

from PIL import Image, ImageDraw, ImageFont

RGB = tuple[int, int, int]

FELT_DARK: RGB = (24, 74, 51)  # the shadow under white text (and a seat's area)
WHITE: RGB = (250, 250, 246)
PHONE_WIDTH = 360
MIN_SIZE = 17


@cache
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's bundled scalable font (Pillow >= 10.1): nothing to download or ship."""
    return ImageFont.load_default(size=size)


# The bundled font has no German letters beyond ASCII: an umlaut is drawn as its vowel with two dots added
# (`_diaereses`), ß as "ss" (as Swiss German writes it); without this a German label shows empty boxes. The
# same dots serve ë and Ë (Zoë); other accents are dropped from names (`printable`). By code point, from their
# Unicode decomposition: these are glyphs, not words (the literal scan reads letters as text).
UMLAUTS = {
    chr(c): unicodedata.normalize("NFD", chr(c))[0]
    for c in (0xE4, 0xF6, 0xFC, 0xC4, 0xD6, 0xDC, 0xEB, 0xCB)
}
SHARP_S = chr(0xDF)
# A letter with no decomposition to an ASCII base (ø, ł, đ, æ, œ) is drawn as the letters its Unicode name
# gives ("LATIN SMALL LETTER O WITH STROKE" -> "o", "... LETTER AE" -> "ae").
_LATIN = re.compile(r"LATIN (SMALL|CAPITAL) (?:LETTER|LIGATURE) ([A-Z]{1,2})\b")
def _drawable(text: str) -> str:
    return "".join(UMLAUTS.get(ch, ch) for ch in text.replace(SHARP_S, "ss"))


@cache
def has_glyph(ch: str) -> bool:
    """Whether the bundled font draws `ch` (not as the empty box it draws for a missing one)."""
    if ch.isspace() or ch in UMLAUTS or ch == SHARP_S:
        return True

    def drawn(c: str) -> bytes:
        mask = Image.new("L", (40, 40))
        ImageDraw.Draw(mask).text((4, 4), c, font=font(24), fill=255)
        return mask.tobytes()

    return drawn(ch) != drawn(chr(0xE000))  # a private-use code point: no font of ours has it


def _nearest(ch: str) -> str:
    """`ch` as ASCII letters, or as itself when it has no Latin base (the caller drops what has no glyph)."""
    base = "".join(c for c in unicodedata.normalize("NFD", ch) if not unicodedata.combining(c))
    if base.isascii():
        return base
    latin = _LATIN.fullmatch(unicodedata.name(ch, "").split(" WITH ")[0])
    if latin is None:
        return base
    return latin.group(2).lower() if latin.group(1) == "SMALL" else latin.group(2)


@lru_cache(maxsize=4096)  # a table's few names are asked for on every picture
def printable(text: str) -> str:
    """A name as the font can draw it: accents dropped ("José" -> "Jose"), umlauts kept, and what has no
    glyph (emoji, other scripts) left out. "" when nothing readable remains: the caller names the seat."""
    out: list[str] = []
    for ch in text:
        kept = ch if ch in UMLAUTS or ch == SHARP_S else _nearest(ch)
        out.extend(c for c in kept if c == " " or (c.isprintable() and has_glyph(c)))
    cleaned = " ".join("".join(out).split())
    return cleaned if any(c.isalnum() for c in cleaned) else ""


def _diaereses(draw: ImageDraw.ImageDraw, f: ImageFont.FreeTypeFont, text: str, x0: int) -> None:
    """Two dots above each umlaut's vowel in the mask of `_drawable(text)` drawn from `x0`."""
    text = text.replace(SHARP_S, "ss")
    radius = max(1.0, f.size / 16)
    for i, ch in enumerate(text):
        base = UMLAUTS.get(ch)
        if base is None:
            continue
        _l, top, _r, _b = f.getbbox(base)
        middle = x0 + f.getlength(_drawable(text[:i])) + f.getlength(base) / 2
        y = max(radius, top - f.size / 10 - radius)
        for dx in (-f.size / 8, f.size / 8):
            cx = middle + dx
            draw.ellipse([cx - radius, y - radius, cx + radius, y + radius], fill=255)


@cache
def text_mask(text: str, size: int) -> Image.Image:
    """A text as an "L" mask, tight to its ink plus the font's line height, so texts of one size align."""
    f = font(size)
    if not isinstance(f, ImageFont.FreeTypeFont):  # load_default(size=) is scalable from Pillow 10.1
        raise RuntimeError("Pillow's bundled font is not scalable: Pillow 10.1 or later is needed")
    drawn = _drawable(text)
    left, _top, right, _bottom = (round(v) for v in f.getbbox(drawn))
    ascent, descent = f.getmetrics()
    mask = Image.new("L", (max(1, right - min(left, 0)), ascent + descent))
    draw = ImageDraw.Draw(mask)
    draw.text((-min(left, 0), 0), drawn, font=f, fill=255)
    if drawn != text:
        _diaereses(draw, f, text, -min(left, 0))
    return mask


@lru_cache(maxsize=16384)  # fitting a name measures many of its shortenings: measured, never drawn
def text_size(text: str, size: int) -> tuple[int, int]:
    """The size of `text_mask(text, size)`, from the font's metrics alone (nothing is drawn)."""
    f = font(size)
    if not isinstance(f, ImageFont.FreeTypeFont):
        return text_mask(text, size).size
    left, _top, right, _bottom = (round(v) for v in f.getbbox(_drawable(text)))
    ascent, descent = f.getmetrics()
    return max(1, right - min(left, 0)), ascent + descent


def fit_text(text: str, size: int, width: int) -> str:
    """The text cut with an ellipsis to fit `width` pixels (long names, long stage texts)."""
    if text_size(text, size)[0] <= width:
        return text
    while len(text) > 1 and text_size(text + "…", size)[0] > width:
        text = text[:-1]
    return text.rstrip() + "…"


# --- where things went: for the layout tests ---------------------------------------------------------------


class Mark(NamedTuple):
    """One text or sprite put on a canvas: what, its box (left, top, right, bottom) and the text's size."""

    canvas: int  # id() of the canvas: a sprite's own texts are drawn on the sprite, not on the picture
    kind: str  # "text" or "sprite"
    box: tuple[int, int, int, int]
    text: str = ""
    size: int = 0


_MARKS: ContextVar[list[Mark] | None] = ContextVar("picture_marks", default=None)


@contextmanager
def recording() -> Iterator[list[Mark]]:
    """Every `draw_text` and `paste` inside the block, in order (the pictures' layout tests read them)."""
    marks: list[Mark] = []
    token = _MARKS.set(marks)
    try:
        yield marks
    finally:
        _MARKS.reset(token)


def record(canvas: Image.Image, kind: str, sprite: Image.Image, xy: tuple[int, int], text: str = "",
           size: int = 0) -> None:
    marks = _MARKS.get()
    if marks is None:
        return
    ink = sprite.getchannel("A").getbbox() if sprite.mode == "RGBA" else sprite.getbbox()
    if ink is not None:
        box = (xy[0] + ink[0], xy[1] + ink[1], xy[0] + ink[2], xy[1] + ink[3])
        marks.append(Mark(id(canvas), kind, box, text, size))


def draw_text(
    canvas: Image.Image,
    xy: tuple[int, int],
    text: str,
    size: int,
    colour: RGB = WHITE,
    *,
    shadow: bool = True,
    anchor: str = "l",
) -> int:
    """Paste a text at `xy` (its left, centre or right edge by `anchor` "l", "m", "r"); returns its width.
    White text on the felt gets a dark shadow so it stays sharp after the picture is scaled down."""
    if not text:
        return 0
    mask = text_mask(text, size)
    x, y = xy
    if anchor == "m":
        x -= mask.width // 2
    elif anchor == "r":
        x -= mask.width
    if shadow:
        canvas.paste(FELT_DARK, (x + 1, y + 2), mask)
    canvas.paste(colour, (x, y), mask)
    record(canvas, "text", mask, (x, y), text, size)
    return mask.width
