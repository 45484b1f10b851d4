"""Text on a picture: the shipped font (`fontfile`: Noto Sans), names as it can draw them, and a record of
where every text and sprite went (for the tests that check no label is covered and every name is drawn).

Sizes: Discord on a phone shows a picture at the screen's width, about 360 px, so a picture 600 px wide is
shown at 0.6 of its size. `MIN_SIZE` (17 px, about 10 px on the phone) is the smallest text anywhere.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache, lru_cache
from typing import NamedTuple

from PIL import Image, ImageDraw, ImageFont

from bot.render.pictures import fontfile

RGB = tuple[int, int, int]

FELT_DARK: RGB = (24, 74, 51)  # the shadow under white text (and a seat's area)
WHITE: RGB = (250, 250, 246)
PHONE_WIDTH = 360
MIN_SIZE = 17


@cache
def font(size: int) -> ImageFont.FreeTypeFont:
    """The shipped font at `size` pixels. Laid out letter by letter (Pillow's basic layout, no shaping
    library): the same pixels on every machine, and the font's letters are whole (names are made whole first:
    `drawable`)."""
    return ImageFont.truetype(str(fontfile.font_path()), size, layout_engine=ImageFont.Layout.BASIC)


def has_glyph(ch: str) -> bool:
    """Whether the font draws `ch` (spaces count: they are drawn as room)."""
    return ch.isspace() or fontfile.has(ch)


@lru_cache(maxsize=4096)  # every text of every picture passes here
def drawable(text: str) -> str:
    """`text` as the font draws it: composed letters ("e" + U+0301 as "é", which the font has whole), and
    what it has no glyph for left out (an emoji, a Chinese letter, a variation selector) rather than drawn as
    an empty box."""
    composed = unicodedata.normalize("NFC", text)
    if all(has_glyph(c) for c in composed):
        return composed
    return "".join(c for c in composed if has_glyph(c))


@lru_cache(maxsize=4096)  # a table's few names are asked for on every picture
def printable(text: str) -> str:
    """A name as the picture draws it: every letter the font has, as typed ("José", "ẞtraßenbahn", "Ωmega",
    "Дмитрий"); the letters of scripts it lacks (Chinese, emoji) left out and the spaces closed up. "" when
    no letter or digit remains: the caller names the seat instead (`labels.seat_label`)."""
    cleaned = " ".join(drawable(text).split())
    return cleaned if any(c.isalnum() for c in cleaned) else ""


# Bounded: every text of every picture is one (turn numbers, counts, every table's names), so a process that
# runs for months would keep them all; 8,192 masks of a few KB each, the texts of the busy tables' pictures.
@lru_cache(maxsize=8192)
def text_mask(text: str, size: int) -> Image.Image:
    """A text as an "L" mask, tight to its ink plus the font's line height, so texts of one size align."""
    f = font(size)
    drawn = drawable(text)
    left, _top, right, _bottom = (round(v) for v in f.getbbox(drawn)) if drawn else (0, 0, 1, 0)
    ascent, descent = f.getmetrics()
    mask = Image.new("L", (max(1, right - min(left, 0)), ascent + descent))
    ImageDraw.Draw(mask).text((-min(left, 0), 0), drawn, font=f, fill=255)
    return mask


@lru_cache(maxsize=16384)  # fitting a name measures many of its shortenings: measured, never drawn
def text_size(text: str, size: int) -> tuple[int, int]:
    """The size of `text_mask(text, size)`, from the font's metrics alone (nothing is drawn)."""
    f = font(size)
    drawn = drawable(text)
    left, _top, right, _bottom = (round(v) for v in f.getbbox(drawn)) if drawn else (0, 0, 1, 0)
    ascent, descent = f.getmetrics()
    return max(1, right - min(left, 0)), ascent + descent


def fit_text(text: str, size: int, width: int) -> str:
    """The text cut with an ellipsis to fit `width` pixels (long stage texts, headings). Names are cut by
    `labels.shorten`, which keeps what tells them apart."""
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


def record(
    canvas: Image.Image, kind: str, sprite: Image.Image, xy: tuple[int, int], text: str = "", size: int = 0
) -> None:
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
