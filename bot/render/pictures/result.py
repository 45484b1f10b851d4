"""The result card: a finished game's picture on its table message, made to be shared. One row per player
by place: the place, a star for a winner, his name, the chips he won or lost (Insomnia: and his chips at the
end) and, when the game was rated, his rating after it and its change (a mark while it is provisional).

Drawn for a phone (600 px wide, shown about 360): the place, the chips and the rating change at 26 px, the
smallest text `SMALL`. Only facts public once the game is over: the standings and the rating changes, which
the caller reads from the store (`RatingChange`); players named as the table pictures name them
(`labels.SeatNames`), a long name on two lines (the row grows), cut only past them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image

from bot.i18n import number, signed, t, tn
from bot.render.common import TableInfo
from bot.render.pictures import sprites as sp
from bot.render.pictures.canvas import MARGIN, WIDTH, new_canvas
from bot.render.pictures.labels import ELLIPSIS, SeatNames, alt, player_name

ROW_H = 66
NAME = 24  # a name's size; a name too long for two lines of it takes two lines of SMALL_NAME
SMALL_NAME = 20
NAME_LINE = 30  # a name's second line, below its first
ROW_GAP = 8
HEAD_H = 92
BIG = 26
PLACE_W = 56  # the place and the winner's star
CHIPS_RIGHT = WIDTH - MARGIN - 170  # the chips column's right edge
CHIPS_W = 96  # the chips column: the chip icon at its left, the number right-aligned (up to "-1,000")
RATING_RIGHT = WIDTH - MARGIN - 14  # the rating column's right edge


@dataclass(frozen=True)
class RatingChange:
    """A player's rating as the card shows it: the number after the game, its change, provisional or not."""

    after: int
    change: int
    provisional: bool = False


def card_height(rows: Sequence[int], unrated_line: bool) -> int:
    """The card's height, `rows` being the lines each row's name takes."""
    return HEAD_H + sum(_row_height(lines) + ROW_GAP for lines in rows) + (28 if unrated_line else 0) + MARGIN


def _row_height(lines: int) -> int:
    return ROW_H + NAME_LINE * (lines - 1)


def _name_room(rated: bool) -> int:
    """The name column's width: from after the place to the chips (which take the right edge unrated)."""
    right = CHIPS_RIGHT if rated else RATING_RIGHT
    return right - CHIPS_W - 12 - (MARGIN + 14 + PLACE_W + 10)


def draw(
    info: TableInfo,
    game_title: str,
    standings: Sequence[Any],
    names: Mapping[str, str] | None,
    ratings: Mapping[str, RatingChange] | None = None,
    *,
    locale: object = "en",
) -> tuple[Image.Image, str]:
    """The card and its alt text. `standings`: the game's (`player`, `placement`, `net`, `won`,
    `final_chips`); `ratings`: each rated player's change; empty when the game was not rated (the card says
    so), None when ratings are not known here (the card leaves them out)."""
    rows = sorted(
        standings,
        key=lambda s: (s.placement, info.players.index(s.player) if s.player in info.players else 0),
    )
    rated = bool(ratings)
    unrated_line = ratings is not None and not ratings
    labels = SeatNames(info, names, locale)
    lines = [_name(labels, row.player, _name_room(rated)) for row in rows]
    canvas = new_canvas(card_height([len(n) for _, n in lines], unrated_line))
    title = t(locale, "picture.result.title", game=game_title, table=info.id)
    sp.draw_text(canvas, (MARGIN, MARGIN), sp.fit_text(title, BIG, WIDTH - 2 * MARGIN), BIG)
    y = MARGIN + 44
    right = CHIPS_RIGHT if rated else RATING_RIGHT  # without ratings the chips take the right edge
    sp.draw_text(canvas, (right, y), t(locale, "picture.result.chips"), sp.SMALL, sp.MUTED, anchor="r")
    if rated:
        head = t(locale, "picture.result.rating")
        sp.draw_text(canvas, (RATING_RIGHT, y), head, sp.SMALL, sp.MUTED, anchor="r")
    y = HEAD_H
    words = [t(locale, "picture.result.alt_title", game=game_title, table=info.id)]
    for row, (size, name) in zip(rows, lines, strict=True):
        change = (ratings or {}).get(row.player)
        _row(canvas, row, name, size, change, (y, right), locale)
        words.append(_row_words(info, row, change, names, rated, locale))
        y += _row_height(len(name)) + ROW_GAP
    if unrated_line:
        sp.draw_text(canvas, (MARGIN + 4, y + 2), t(locale, "picture.result.not_rated"), sp.SMALL, sp.MUTED)
        words.append(t(locale, "picture.result.not_rated"))
    return canvas, alt(words)


def _name(labels: SeatNames, player: str, room: int) -> tuple[int, list[str]]:
    """A row's name: its size and lines, whole if two lines of either size hold it (cut only past that)."""
    lines = labels.lines(player, NAME, room)
    if ELLIPSIS in lines[-1]:
        smaller = labels.lines(player, SMALL_NAME, room)
        if ELLIPSIS not in smaller[-1]:
            return SMALL_NAME, smaller
    return NAME, lines


def _row(
    canvas: Image.Image,
    row: Any,
    name: list[str],
    size: int,
    change: RatingChange | None,
    at: tuple[int, int],
    locale: object,
) -> None:
    """One player's row: `name`, his label's lines (one or two) of `size`."""
    y, right = at
    sp.paste(canvas, sp.panel(WIDTH - 2 * MARGIN, _row_height(len(name))), (MARGIN, y))
    x = MARGIN + 14
    place = sp.draw_text(canvas, (x, y + 16), t(locale, "picture.result.place", place=row.placement), BIG)
    if row.won:
        sp.paste(canvas, sp.star(20), (x + place + 4, y + 20))
    x += PLACE_W + 10
    room = right - CHIPS_W - 12 - x
    final = getattr(row, "final_chips", None)
    top = y + (8 if final is not None else 18)
    for n, line in enumerate(name):
        sp.draw_text(canvas, (x, top + NAME_LINE * n), line, size)
    if final is not None:
        left = tn(locale, "picture.result.final_chips", final, chips=number(locale, final))
        below = y + 40 + NAME_LINE * (len(name) - 1)
        sp.draw_text(canvas, (x, below), sp.fit_text(left, sp.SMALL, room), sp.SMALL, sp.MUTED)
    net = signed(locale, row.net)
    sp.draw_text(canvas, (right, y + 14), net, BIG, anchor="r")
    sp.paste(canvas, sp.chip(22), (right - CHIPS_W, y + 18))
    if change is None:
        return
    sp.draw_text(canvas, (RATING_RIGHT, y + 6), signed(locale, change.change), BIG, anchor="r")
    now = t(locale, "picture.result.rating_now", rating=str(change.after))  # a rating is never grouped
    if change.provisional:
        now = t(locale, "picture.result.provisional", rating=now)
    sp.draw_text(canvas, (RATING_RIGHT, y + 40), now, sp.SMALL, sp.MUTED, anchor="r")


def _row_words(
    info: TableInfo,
    row: Any,
    change: RatingChange | None,
    names: Mapping[str, str] | None,
    rated: bool,
    locale: object,
) -> str:
    chips = tn(locale, "picture.result.alt_chips", abs(row.net), signed=signed(locale, row.net))
    who = player_name(info, row.player, names, locale)
    if not rated:
        return t(locale, "picture.result.alt_row", place=row.placement, player=who, chips=chips)
    if change is None:
        rating = t(locale, "picture.result.alt_unrated")
    else:
        rating = t(
            locale,
            "picture.result.alt_rating",
            change=signed(locale, change.change),
            rating=str(change.after),
        )
        if change.provisional:
            rating = t(locale, "picture.result.provisional", rating=rating)
    return t(
        locale, "picture.result.alt_row_rated", place=row.placement, player=who, chips=chips, rating=rating
    )
