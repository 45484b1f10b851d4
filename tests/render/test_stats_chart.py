"""The /stats chart: a person's chips and ratings over the season, game by game. It looks as approved in both
languages (goldens in tests/render/golden/results/, as a phone shows them), says in its alt text what it
shows, keeps every text readable on a phone, and is not drawn for a season without a game.

After a deliberate change of look: `UPDATE_GOLDEN=1 python -m pytest tests/render/test_stats_chart.py`, then
LOOK at each picture before committing it."""

from __future__ import annotations

import io
import os
from dataclasses import dataclass
from itertools import takewhile

import pytest
from PIL import Image

from bot.render.charts import panels, stats_chart
from bot.render.drawings import CACHE
from bot.render.pictures import chart
from bot.render.pictures import sprites as sp
from bot.render.pictures.text import PHONE_WIDTH, recording
from tests.render import golden
from tests.render.test_pictures import differing_share
from tests.render.test_result_card import FOLDER


@dataclass(frozen=True)
class Chips:
    table_id: int
    net: int
    kind: str = "malice"


@dataclass(frozen=True)
class Rated:
    table_id: int
    kind: str
    score: float
    games: int


CHIPS = [Chips(i, n) for i, n in enumerate([3, -2, -4, 5, 1, -1, 6, 2])]
RATED = [Rated(i, "malice", s, i + 1) for i, s in enumerate([1000, 1021, 1008, 995, 1030, 1044, 1040, 1072])]
RATED += [Rated(10 + i, "insomnia", s, i + 1) for i, s in enumerate([1000, 968, 990.4])]


def drawn(locale: str) -> bytes:
    CACHE.clear()
    picture = stats_chart(CHIPS, RATED, season="2026-12", locale=locale)
    assert picture is not None and picture.filename == "stats-chart.png"
    return picture.data


@pytest.mark.parametrize("locale", ["en", "de"])
def test_the_chart_looks_as_approved(locale):
    name = f"stats-chart-{locale}"
    got = golden.on_a_phone(drawn(locale))
    path = FOLDER / f"{name}.png"
    if os.environ.get("UPDATE_GOLDEN"):
        FOLDER.mkdir(parents=True, exist_ok=True)
        got.quantize(golden.COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE).save(
            path, "PNG", optimize=True
        )
        pytest.skip(f"golden {name} redrawn: look at it, then commit it")
    want = Image.open(path).convert("RGB")
    assert got.size == want.size
    got = got.quantize(palette=Image.open(path), dither=Image.Dither.NONE).convert("RGB")
    assert differing_share(got, want) <= 0.002, f"{name} differs from its golden picture"


@pytest.mark.parametrize(
    ("locale", "said"),
    [
        (
            "en",
            [
                "Chips this season (2026-12): +10; game by game: +3, +1, -3, +2, +3, +2, +8, +10.",
                "Malice rating: 1072; game by game: 1000, 1021,",
                "Insomnia rating: 990 (provisional)",
            ],
        ),
        (
            "de",
            [
                "Chips in dieser Saison (2026-12): +10; Spiel für Spiel: +3, +1, -3,",
                "Wertung Malice: 1072;",
                "Wertung Insomnia: 990 (vorläufig)",
            ],
        ),
    ],
)
def test_the_alt_text_says_what_the_chart_shows(locale, said):
    picture = stats_chart(CHIPS, RATED, season="2026-12", locale=locale)
    assert picture is not None
    for words in said:
        assert words in picture.alt, (words, picture.alt)
    assert Image.open(io.BytesIO(picture.data)).format == "PNG"


def test_without_seasons_the_chips_are_of_all_time_and_without_games_there_is_no_chart():
    picture = stats_chart(CHIPS[:1], [], season=None, locale="en")
    assert picture is not None and picture.alt.startswith("Chips over all time: +3")
    assert stats_chart([], [], season="2026-12", locale="en") is None


@pytest.mark.parametrize("locale", ["en", "de"])
def test_every_text_is_readable_on_a_phone_and_inside_the_picture(locale):
    with recording() as marks:
        canvas = chart.draw([p for p, _ in panels(CHIPS, RATED, season="2026-12", locale=locale)])
    texts = [m for m in marks if m.kind == "text" and m.canvas == id(canvas)]
    assert len(texts) == 3 + 3 * 2 + 3 + 8 + 8 + 3  # heading, highest and lowest value, the games' numbers
    for m in texts:
        assert m.size * PHONE_WIDTH / canvas.width >= 10, m
        assert m.box[0] >= 0 and m.box[2] <= canvas.width and m.box[3] <= canvas.height, m


def feet(texts: list, axis: str) -> list[list[int]]:
    """Each panel's game numbers along its foot, as drawn after the axis' name."""
    words = [m.text for m in texts]
    return [
        [int(w) for w in takewhile(str.isdigit, words[i + 1 :])] for i, w in enumerate(words) if w == axis
    ]


@pytest.mark.parametrize(("locale", "axis"), [("en", "Game"), ("de", "Spiel")])
def test_each_panel_counts_the_games_along_its_foot(locale, axis):
    """The x axis: "Game 1 2 3 …" under each plot, each number under its game's point (the chips start from
    0 before the first game, which has no number); a long season numbers every 5th or 10th game and the last,
    none touching another."""
    with recording() as marks:
        canvas = chart.draw([p for p, _ in panels(CHIPS, RATED, season="2026-12", locale=locale)])
    texts = [m for m in marks if m.kind == "text" and m.canvas == id(canvas)]
    assert feet(texts, axis) == [list(range(1, 9)), list(range(1, 9)), [1, 2, 3]]

    season = [Chips(i, (-1) ** i * i) for i in range(61)]
    rated = [Rated(i, "malice", 1000 + 3 * i, i + 1) for i in range(137)]
    with recording() as marks:
        canvas = chart.draw([p for p, _ in panels(season, rated, season="2026-12", locale=locale)])
    texts = [m for m in marks if m.kind == "text" and m.canvas == id(canvas)]
    chips, ratings = feet(texts, axis)
    assert chips[-1] == 61 and ratings[-1] == 137 and len(chips) >= 6 and len(ratings) >= 6
    every = chips[1] - chips[0]
    assert every > 1 and chips[:-1] == [every * (i + 1) for i in range(len(chips) - 1)]  # evenly, the last
    numbers = [m for m in texts if m.text.isdigit() and m.size == sp.SMALL]
    for i, a in enumerate(numbers):
        assert a.box[0] >= 0 and a.box[2] <= canvas.width and a.size * PHONE_WIDTH / canvas.width >= 10
        for b in numbers[i + 1 :]:
            beside = a.box[2] <= b.box[0] or b.box[2] <= a.box[0]
            assert beside or a.box[3] <= b.box[1] or b.box[3] <= a.box[1], (a, b)
