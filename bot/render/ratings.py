"""Ratings in words: a person's number (marked provisional while it is), a game's change, the result line."""

from __future__ import annotations

from collections.abc import Sequence

from bot import ratings
from bot.i18n import join, signed, t
from bot.render.common import RatingShown, name
from bot.render.pictures.result import RatingChange


def rating_text(score: float, games: int, *, locale: object = "en") -> str:
    """ "1043", or "1043 (provisional)" until the person's rated games of the kind reach the count."""
    shown = str(ratings.shown(score))  # a rating reads as one figure, never grouped ("1082")
    if ratings.provisional(games):
        return t(locale, "rating.provisional", rating=shown)
    return shown


def change_text(before: float, after: float, *, locale: object = "en") -> str:
    """A game's change as the difference of the two shown numbers: "+43", "-12", "0"."""
    return signed(locale, ratings.change(before, after))


def rating_line(changes: Sequence[RatingShown], *, locale: object = "en") -> str:
    """The result's line of a rated game: each person's new number and its change."""
    parts = [
        t(
            locale,
            "log.rating.one",
            player=name(c.player, locale),
            rating=rating_text(c.after, c.games, locale=locale),
            change=change_text(c.before, c.after, locale=locale),
        )
        for c in changes
    ]
    return t(locale, "log.rating", changes=join(locale, parts))


def result_ratings(changes: Sequence[RatingShown]) -> dict[str, RatingChange]:
    """A rated game's changes as the result card shows them (empty: the game was not rated)."""
    return {
        c.player: RatingChange(
            after=ratings.shown(c.after),
            change=ratings.change(c.before, c.after),
            provisional=ratings.provisional(c.games),
        )
        for c in changes
    }
