"""The canvas a picture is drawn on, its PNG encoding, and the cache of finished pictures."""

from __future__ import annotations

import struct
import threading
import zlib
from collections import OrderedDict
from collections.abc import Callable
from functools import cache

from PIL import Image, ImageDraw
from zlib_ng import zlib_ng

from bot.games.cards import JOKER, Card, Rank, Suit
from bot.render.common import Picture
from bot.render.pictures import sprites as sp
from bot.render.pictures.sprites import FELT, FELT_DARK

WIDTH = 600  # Discord shows it about 360 px wide on a phone: every size is chosen for that scale (text.py)
MARGIN = 14
# The finished picture is reduced to a palette: felt, paper, four suit colours and their antialiased edges fit
# in it, and a palette PNG is a tenth of the RGB one and faster to compress.
COLOURS = 128


def new_canvas(height: int, width: int = WIDTH) -> Image.Image:
    canvas = Image.new("RGB", (width, height), FELT)
    ImageDraw.Draw(canvas).rectangle([0, 0, width - 1, height - 1], outline=FELT_DARK, width=3)
    return canvas


@cache
def palette() -> Image.Image:
    """The one palette of every picture, taken once from a swatch of every sprite on the felt.

    Mapping a picture to a fixed palette costs a fifth of finding one per picture (FASTOCTREE) and every
    colour a picture can hold is in the swatch: the felt, paper, suits, backs, dice, chips, the marks'
    colours, the faded cards, the text and the antialiased edges between them."""
    swatch = new_canvas(260)
    x = 8
    for c in [Card.of(Rank.TEN, suit) for suit in Suit] + [JOKER]:
        sp.paste(swatch, sp.card(c, 64), (x, 8))
        swatch.paste(sp.FELT, (x, 8), sp.faded(64, sp.card_height(64)))
        sp.paste(swatch, sp.card(c, 96), (x, 110))
        x += 70
    sp.paste(swatch, sp.back(64), (x, 8))
    sp.paste(swatch, sp.slot(64), (x, 110))
    sp.paste(swatch, sp.die(Rank.ACE, 56), (8, 200))
    sp.paste(swatch, sp.die(Rank.NINE, 44), (70, 200))
    sp.paste(swatch, sp.chip(24), (120, 210))
    sp.paste(swatch, sp.star(20), (148, 210))
    sp.paste(swatch, sp.panel(120, 50, True), (170, 200))
    sp.paste(swatch, sp.ring(40, 40, 4, sp.LEGAL), (300, 200))
    sp.paste(swatch, sp.ring(30, 30, 3, sp.LAST), (350, 205))
    sp.paste(swatch, sp.badge("12", sp.MIN_SIZE, sp.INK, sp.WHITE), (390, 210))
    for i, colour in enumerate((sp.WHITE, sp.TURN, sp.LEGAL, sp.MUTED)):
        sp.draw_text(swatch, (430, 180 + 20 * i), "Seat 8 · 0123", sp.SMALL, colour)
    return swatch.quantize(COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def png(canvas: Image.Image) -> bytes:
    return palette_png(canvas.quantize(palette=palette(), dither=Image.Dither.NONE))


# zlib-ng's level 4: a Malice table's picture in 0.7 ms where Pillow's PNG writer (the system's zlib, level 3)
# took 1.1 ms, and every sample picture 7-12% smaller (level 2: 0.4 ms, but some pictures a little larger).
DEFLATE_LEVEL = 4
SIGNATURE = b"\x89PNG\r\n\x1a\n"


def palette_png(image: Image.Image) -> bytes:
    """A palette image as PNG: 8 bits a pixel, no filter (a palette's indices are no gradients a filter
    could predict), the rows deflated by zlib-ng."""
    if image.mode != "P":
        raise ValueError(f"a palette image is needed, not {image.mode}")
    width, height = image.size
    # Each row of a PNG starts with its filter's byte (0: none): the image pasted one column in, on a
    # column of zeros, is those rows as they are stored.
    rows = Image.new("P", (width + 1, height), 0)
    rows.paste(image, (1, 0))
    colours = image.getpalette() or [0, 0, 0]
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8 bits, palette, deflate, no interlace
    return b"".join(
        (
            SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", bytes(colours[: 3 * 256])),
            _chunk(b"IDAT", zlib_ng.compress(rows.tobytes(), DEFLATE_LEVEL)),
            _chunk(b"IEND", b""),
        )
    )


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


class PictureCache:
    """The last `size` pictures by key (the public view's JSON and the table facts drawn): a table message is
    rendered on every edit, and most edits do not change what the picture shows."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._items: OrderedDict[str, Picture] = OrderedDict()
        self.hits = 0
        self.misses = 0
        # The presenter draws in worker threads: the bookkeeping is locked, the drawing is not (two threads
        # may draw the same picture once each; both results are the same bytes).
        self._lock = threading.Lock()

    def get(self, key: str, draw: Callable[[], Picture]) -> Picture:
        with self._lock:
            picture = self._items.get(key)
            if picture is not None:
                self._items.move_to_end(key)
                self.hits += 1
                return picture
            self.misses += 1
        picture = draw()
        with self._lock:
            self._items[key] = picture
            if len(self._items) > self.size:
                self._items.popitem(last=False)
        return picture

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self.hits = self.misses = 0
