"""The golden pictures: a few sample states drawn as a phone shows them (360 px wide), with the players'
names, committed in tests/render/golden/ and compared with a tolerance by tests/render/test_pictures.py.

After a deliberate change of look, redraw them, LOOK at every one, and commit them:

    UPDATE_GOLDEN=1 python -m pytest tests/render/test_pictures.py -k golden   # or:
    python scripts/make_pictures.py --golden
"""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

from bot.render.drawings import CACHE, hand_picture, table_picture
from tests.render.states import STATES

FOLDER = Path(__file__).parent / "golden"
PHONE = 360  # Discord on a phone shows a picture at the screen's width: the goldens are what a player sees
COLOURS = 64  # the suits, marks and a scaled picture's edges; a golden stays 10-20 KB
# name -> (state, table or hand, language): each kind of picture once, with names, dice, marks, stage 4.
CASES: dict[str, tuple[str, str, str]] = {
    "insomnia-tricks-table-en": ("insomnia-tricks", "table", "en"),
    "insomnia-stage4-table-de": ("insomnia-stage4", "table", "de"),
    "insomnia-stage4-hand-en": ("insomnia-stage4", "hand", "en"),
    "insomnia-rethrow-hand-de": ("insomnia-rethrow", "hand", "de"),
    "insomnia-over-table-en": ("insomnia-over", "table", "en"),
    "malice-middle-table-de": ("malice-middle", "table", "de"),
    "malice-middle-hand-en": ("malice-middle", "hand", "en"),
}


def draw(state: str, what: str, locale: str) -> bytes:
    info, game, player = STATES[state]()
    CACHE.clear()
    picture = (
        table_picture(info, game, locale=locale)
        if what == "table"
        else hand_picture(info, game, player, locale=locale)
    )
    assert picture is not None
    return picture.data


def on_a_phone(data: bytes) -> Image.Image:
    """A picture's PNG as a phone shows it: scaled to 360 px wide."""
    image = Image.open(io.BytesIO(data)).convert("RGB")
    return image.resize((PHONE, round(image.height * PHONE / image.width)), Image.Resampling.LANCZOS)


def path(name: str) -> Path:
    return FOLDER / f"{name}.png"


def write(name: str) -> Path:
    image = on_a_phone(draw(*CASES[name]))
    FOLDER.mkdir(parents=True, exist_ok=True)
    small = image.quantize(COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    small.save(path(name), "PNG", optimize=True)
    return path(name)


def read(name: str) -> Image.Image:
    return Image.open(path(name)).convert("RGB")


def in_palette_of(image: Image.Image, name: str) -> Image.Image:
    """`image` reduced to the golden's own colours, so that only what was drawn differently differs."""
    return image.quantize(palette=Image.open(path(name)), dither=Image.Dither.NONE).convert("RGB")
