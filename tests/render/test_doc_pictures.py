"""The bot's own pictures on the documentation site and in the README (docs/pictures/, in git so the README
shows one on any forge) are what the renderers draw today: each is drawn again from its fixed state by
`scripts/make_pictures.py` and compared pixel for pixel, so a change of look that forgets
`python scripts/make_pictures.py` fails here instead of leaving a stale picture on the site."""

from __future__ import annotations

import importlib.util
import io
from pathlib import Path
from types import ModuleType

import pytest
from PIL import Image, ImageChops

ROOT = Path(__file__).resolve().parents[2]


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_pictures", ROOT / "scripts" / "make_pictures.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


MAKE = _script()


@pytest.mark.parametrize("name", sorted(MAKE.SAMPLES))
def test_each_picture_on_the_site_is_what_the_renderer_draws_now(name: str) -> None:
    committed = ROOT / "docs" / "pictures" / f"{name}.png"
    assert committed.is_file(), f"{committed} is missing: python scripts/make_pictures.py"
    state, what, locale = MAKE.SAMPLES[name]
    drawn = Image.open(io.BytesIO(MAKE.draw(state, what, locale))).convert("RGBA")
    shown = Image.open(committed).convert("RGBA")
    assert drawn.size == shown.size, f"{name}: redraw it with python scripts/make_pictures.py"
    assert ImageChops.difference(drawn, shown).getbbox() is None, (
        f"{name}.png is stale: python scripts/make_pictures.py, look at it, commit it"
    )


def test_every_picture_in_docs_pictures_is_made_by_the_script() -> None:
    """No picture copied in by hand: every PNG in git under docs/pictures/ is one the script draws (the
    screenshots and the click pictures are made at build time into docs/pictures/built/, not in git)."""
    kept = {path.stem for path in (ROOT / "docs" / "pictures").glob("*.png")}
    assert kept == set(MAKE.SAMPLES)


@pytest.mark.parametrize("name", [f"{what}-{locale}" for what in MAKE.NAMED for locale in ("en", "de")])
def test_each_picture_of_the_names_set_is_what_the_renderer_draws_now(name: str) -> None:
    """docs/pictures/names/ (issue 39: every picture drawn with a real server's names) is the script's too."""
    committed = ROOT / "docs" / "pictures" / "names" / f"{name}.png"
    assert committed.is_file(), f"{committed} is missing: python scripts/make_pictures.py"
    what, locale = name.rsplit("-", 1)
    picture = MAKE.named(what, locale)
    assert picture is not None
    drawn = Image.open(io.BytesIO(picture.data)).convert("RGBA")
    shown = Image.open(committed).convert("RGBA")
    assert drawn.size == shown.size and ImageChops.difference(drawn, shown).getbbox() is None, (
        f"names/{name}.png is stale: python scripts/make_pictures.py, look at it, commit it"
    )
    kept = {path.stem for path in committed.parent.glob("*.png")}
    assert kept == {f"{w}-{lo}" for w in MAKE.NAMED for lo in ("en", "de")}  # none copied in by hand
