"""The result card, the finished table message's picture: it looks as approved in both languages (goldens in
tests/render/golden/results/, drawn as a phone shows them, 360 px wide), names the players by name in place
order with their chips and rating changes, says when a game was not rated, keeps every text readable on a
phone and uncovered, and is what a finished table message carries.

After a deliberate change of look: `UPDATE_GOLDEN=1 python -m pytest tests/render/test_result_card.py`, then
LOOK at each picture before committing it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PIL import Image

from bot import render
from bot.render.common import RatingShown
from bot.render.drawings import CACHE
from bot.render.pictures import result
from bot.render.pictures import sprites as sp
from bot.render.pictures.text import PHONE_WIDTH, recording
from bot.render.ratings import result_ratings
from tests.render import golden
from tests.render.states import STATES
from tests.render.test_pictures import differing_share

FOLDER = Path(__file__).parent / "golden" / "results"
# Anna climbs with her second game (provisional), Jörg has played enough, Maximilian is new; the computer
# is never rated.
RATED = [
    RatingShown(player="303", before=1000.0, after=978.4, games=1),
    RatingShown(player="101", before=1253.2, after=1287.0, games=2),
    RatingShown(player="202", before=1202.1, after=1190.3, games=9),
]
CASES = {
    "insomnia-result-rated-en": ("insomnia-over", "en", RATED),
    "insomnia-result-rated-de": ("insomnia-over", "de", RATED),
    "malice-result-unrated-de": ("malice-over", "de", []),
    "malice-result-unrated-en": ("malice-over", "en", []),
}


def card(state: str, locale: str, rated: list[RatingShown]) -> tuple[bytes, str]:
    info, game, _ = STATES[state]()
    info = info.model_copy(update={"status": "finished", "ratings": rated})
    CACHE.clear()
    picture = render.table_picture(info, game, locale=locale)
    assert picture is not None and picture.filename == f"{info.kind}-result.png"
    return picture.data, picture.alt


def path(name: str) -> Path:
    return FOLDER / f"{name}.png"


@pytest.mark.parametrize("name", list(CASES))
def test_each_result_card_looks_as_approved(name):
    state, locale, rated = CASES[name]
    got = golden.on_a_phone(card(state, locale, rated)[0])
    if os.environ.get("UPDATE_GOLDEN"):
        FOLDER.mkdir(parents=True, exist_ok=True)
        got.quantize(golden.COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE).save(
            path(name), "PNG", optimize=True
        )
        pytest.skip(f"golden {name} redrawn: look at it, then commit it")
    want = Image.open(path(name)).convert("RGB")
    assert got.size == want.size, f"{name}: {got.size} drawn, {want.size} approved"
    got = got.quantize(palette=Image.open(path(name)), dither=Image.Dither.NONE).convert("RGB")
    assert differing_share(got, want) <= 0.002, f"{name} differs from its golden picture"


ALT = {
    "en": [
        "Result of Insomnia, table 7:",
        "Place 1: Maximilian Alexander von Hohenlohe, +4 chips, rating 978 (-22) (provisional).",
        "Place 2: Anna, +2 chips, rating 1287 (+34) (provisional).",
        "Place 3: Jörg Weißmüller, -7 chips, rating 1190 (-12).",
        "Computer 1, -8 chips, not rated.",
    ],
    "de": [
        "Ergebnis von Insomnia, Tisch 7:",
        "Platz 2: Anna, +2 Chips, Wertung 1287 (+34) (vorläufig).",
        "Platz 3: Jörg Weißmüller, -7 Chips, Wertung 1190 (-12).",
        "Computer 1, -8 Chips, nicht gewertet.",
    ],
}


@pytest.mark.parametrize(("locale", "words"), list(ALT.items()))
def test_the_alt_text_reads_the_places_chips_and_ratings_by_name(locale, words):
    _, alt = card("insomnia-over", locale, RATED)
    for said in words:
        assert said in alt, (said, alt)


def test_a_game_nobody_was_rated_in_says_so():
    for locale, words in (("en", "This game was not rated."), ("de", "Dieses Spiel wurde nicht gewertet.")):
        assert words in card("malice-over", locale, [])[1]


@pytest.mark.parametrize("locale", ["en", "de"])
@pytest.mark.parametrize("rated", [RATED, []], ids=["rated", "unrated"])
def test_every_text_is_readable_on_a_phone_and_none_is_covered(locale, rated):
    info, game, _ = STATES["insomnia-over"]()
    changes = result_ratings(rated)
    with recording() as marks:
        canvas, _ = result.draw(info, "Insomnia", game.standings(), info.names, changes, locale=locale)
    texts = [m for m in marks if m.kind == "text" and m.canvas == id(canvas)]
    assert {"Anna", "Jörg Weißmüller", "Computer 1"} <= {m.text for m in texts}
    names = " ".join(m.text for m in texts if m.size in (result.NAME, result.SMALL_NAME))  # line by line
    assert "Maximilian Alexander von Hohenlohe" in names, "whole, on two lines"
    for m in texts:
        assert m.size * PHONE_WIDTH / canvas.width >= 10, m  # at least 10 px on a phone
        assert m.box[0] >= 0 and m.box[2] <= canvas.width and m.box[3] <= canvas.height, m
    for i, a in enumerate(texts):
        for b in texts[i + 1 :]:
            beside = a.box[2] <= b.box[0] or b.box[2] <= a.box[0]
            assert beside or a.box[3] <= b.box[1] or b.box[3] <= a.box[1], (a, b)
    assert min(m.size for m in texts) >= sp.MIN_SIZE
