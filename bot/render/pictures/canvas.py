"""The canvas a picture is drawn on, its PNG encoding, and the cache of finished pictures."""

from __future__ import annotations

import io
from collections import OrderedDict
from collections.abc import Callable

from PIL import Image, ImageDraw

from bot.render.common import Picture
from bot.render.pictures.sprites import FELT, FELT_DARK

WIDTH = 600  # Discord shows it at about 400 px on a phone: every size below is chosen for that scale
MARGIN = 14
# The finished picture is reduced to a palette: felt, paper, four suit colours and their antialiased edges fit
# in it, and a palette PNG is a tenth of the RGB one and faster to compress.
COLOURS = 96


def new_canvas(height: int, width: int = WIDTH) -> Image.Image:
    canvas = Image.new("RGB", (width, height), FELT)
    ImageDraw.Draw(canvas).rectangle([0, 0, width - 1, height - 1], outline=FELT_DARK, width=3)
    return canvas


def png(canvas: Image.Image) -> bytes:
    small = canvas.quantize(COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    out = io.BytesIO()
    small.save(out, "PNG", compress_level=3)  # level 6 is 1 ms slower for a file a fifth smaller
    return out.getvalue()


class PictureCache:
    """The last `size` pictures by key (the public view's JSON and the table facts drawn): a table message is
    rendered on every edit, and most edits do not change what the picture shows."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._items: OrderedDict[str, Picture] = OrderedDict()
        self.hits = 0
        self.misses = 0

    def get(self, key: str, draw: Callable[[], Picture]) -> Picture:
        picture = self._items.get(key)
        if picture is not None:
            self._items.move_to_end(key)
            self.hits += 1
            return picture
        self.misses += 1
        picture = draw()
        self._items[key] = picture
        if len(self._items) > self.size:
            self._items.popitem(last=False)
        return picture

    def clear(self) -> None:
        self._items.clear()
        self.hits = self.misses = 0
