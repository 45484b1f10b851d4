"""The pictures' own PNG writer (`bot.render.pictures.canvas.palette_png`): whatever palette image it is
given, a PNG reader gets back the same pixels, and a real picture is no larger than Pillow's own file."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from bot.render.drawings import _names
from bot.render.pictures.canvas import palette, palette_png, png
from bot.render.registry import PRESENTATIONS
from tests.render.states import STATES


@settings(max_examples=60, deadline=None)
@given(
    width=st.integers(1, 40),
    height=st.integers(1, 30),
    colours=st.integers(1, 256),
    seed=st.binary(min_size=1, max_size=64),
)
def test_any_palette_image_reads_back_as_drawn(width: int, height: int, colours: int, seed: bytes) -> None:
    pixels = bytes(seed[i % len(seed)] % colours for i in range(width * height))
    image = Image.frombytes("P", (width, height), pixels)
    image.putpalette([(i * 37 + c * 91) % 256 for i in range(colours) for c in range(3)])
    read = Image.open(io.BytesIO(palette_png(image)))
    read.load()
    assert read.mode == "P" and read.size == (width, height)
    assert read.tobytes() == pixels
    assert read.convert("RGB").tobytes() == image.convert("RGB").tobytes()


def test_a_picture_that_is_not_a_palette_image_is_refused() -> None:
    with pytest.raises(ValueError, match="palette"):
        palette_png(Image.new("RGB", (4, 4)))


@pytest.mark.parametrize("state", sorted(STATES))
def test_each_table_picture_shows_what_pillow_would_write_and_is_no_larger(state: str) -> None:
    info, game, _ = STATES[state]()
    canvas, _ = PRESENTATIONS[info.kind].pictures.table(info, game.public_view(), _names(info), locale="en")
    ours = png(canvas)
    small = canvas.quantize(palette=palette(), dither=Image.Dither.NONE)
    theirs = io.BytesIO()
    small.save(theirs, "PNG", compress_level=3)  # what the bot wrote before
    read = Image.open(io.BytesIO(ours)).convert("RGB")
    assert read.tobytes() == Image.open(theirs).convert("RGB").tobytes()
    assert len(ours) <= len(theirs.getvalue())
