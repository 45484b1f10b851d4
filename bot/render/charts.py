"""The /stats chart in words and picture: a person's chips and ratings over the season (or all time when
the server keeps no seasons), from the store's history rows (`Store.chip_history`, `rating_history`), in
the reader's language. The picture is `bot.render.pictures.chart`; the alt text says what it shows."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import accumulate
from typing import Protocol

from bot import ratings
from bot.i18n import signed, t
from bot.render import game_name
from bot.render.common import Picture
from bot.render.drawings import CACHE
from bot.render.pictures import chart
from bot.render.pictures.canvas import png
from bot.render.pictures.labels import alt, drawn_name
from bot.render.ratings import rating_text


class ChipPoint(Protocol):
    """One finished game's net chips (the store's `ChipPoint` has this shape)."""

    @property
    def table_id(self) -> int: ...
    @property
    def net(self) -> int: ...


class RatingPoint(Protocol):
    """A rating after one rated game (the store's `RatingPoint` has this shape)."""

    @property
    def table_id(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def score(self) -> float: ...
    @property
    def games(self) -> int: ...


def panels(
    chips: Sequence[ChipPoint], rated: Sequence[RatingPoint], *, season: str | None, locale: object = "en"
) -> list[tuple[chart.Panel, str]]:
    """Each panel with its alt text: the running net chips, then each game kind's rating."""
    out: list[tuple[chart.Panel, str]] = []
    if chips:
        running = (0, *accumulate(p.net for p in chips))  # from 0 before his first game
        net = signed(locale, running[-1])
        if season is None:
            heading = t(locale, "picture.chart.chips_all", net=net)
        else:
            heading = t(locale, "picture.chart.chips_season", season=season, net=net)
        words = ", ".join(signed(locale, v) for v in running[1:])
        said = t(locale, "picture.chart.alt", heading=heading, values=words)
        axis = t(locale, "picture.chart.games")
        out.append((chart.Panel(heading, running, signed=True, axis=axis, first=0), said))
    for kind in dict.fromkeys(p.kind for p in rated):
        points = [p for p in rated if p.kind == kind]
        last = points[-1]
        heading = t(
            locale,
            "picture.chart.rating",
            game=game_name(kind, locale),
            rating=rating_text(last.score, last.games, locale=locale),
        )
        values = tuple(ratings.shown(p.score) for p in points)
        words = ", ".join(str(v) for v in values)
        said = t(locale, "picture.chart.alt", heading=heading, values=words)
        out.append((chart.Panel(heading, values, axis=t(locale, "picture.chart.games")), said))
    return out


def stats_chart(
    chips: Sequence[ChipPoint],
    rated: Sequence[RatingPoint],
    *,
    season: str | None,
    locale: object = "en",
    name: str = "",
) -> Picture | None:
    """The chart as a PNG (None: no game in the season, nothing to draw); `name`: whose it is, his display
    name as typed, drawn over it (and first in the alt text)."""
    drawn = panels(chips, rated, season=season, locale=locale)
    if not drawn:
        return None
    shown = drawn_name(name, 0, locale) if name.strip() else ""
    key = repr(("chart", str(locale), drawn, shown))

    def draw() -> Picture:
        canvas = chart.draw([p for p, _ in drawn], locale=locale, name=shown)
        said = alt([name.strip(), *(a for _, a in drawn)])
        return Picture(filename="stats-chart.png", data=png(canvas), alt=said)

    return CACHE.get(key, draw)
