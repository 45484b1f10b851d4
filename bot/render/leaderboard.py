"""The words of a server's leaderboard (`/leaderboard` in Discord, the board's page on the web): one line per
player by chips or by rating, the title and what the figures are. A person is worded by `common.name`: a
reference each surface draws (a mention on Discord, a typed `Person` on the web page, which shows the name
it knows)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from bot import ratings
from bot.i18n import signed, t, tn
from bot.render import game_name
from bot.render.common import name
from bot.render.ratings import rating_text

CHIPS, RATING = "chips", "rating"
ALL_TIME = "all-time"  # how the store names "no season" (storage.ALL_TIME; this layer reads no storage)


class LeaderboardRow(Protocol):
    """A line of the board by chips (the store's `LeaderboardRow` has this shape)."""

    @property
    def rank(self) -> int: ...
    @property
    def player(self) -> str: ...
    @property
    def net(self) -> int: ...
    @property
    def games(self) -> int: ...
    @property
    def wins(self) -> int: ...


class RatingBoardRow(Protocol):
    """A line of the board by rating (the store's `RatingBoardRow`)."""

    @property
    def rank(self) -> int: ...
    @property
    def player(self) -> str: ...
    @property
    def score(self) -> float: ...
    @property
    def games(self) -> int: ...
    @property
    def played(self) -> int: ...


def player_label(player: str) -> str:
    return name(player) if player.isdigit() else player


def leaderboard_line(row: LeaderboardRow, locale: object = "en") -> str:
    return t(
        locale,
        "ledger.line",
        rank=row.rank,
        player=player_label(row.player),
        net=signed(locale, row.net),
        games=tn(locale, "count.game", row.games),
        wins=tn(locale, "count.win", row.wins),
    )


def rating_board_line(row: RatingBoardRow, locale: object = "en") -> str:
    return t(
        locale,
        "ledger.rating_line",
        rank=row.rank,
        player=player_label(row.player),
        rating=rating_text(row.score, row.games, locale=locale),
        games=tn(locale, "count.game", row.played),
    )


def board_title(kind: str | None, season: str, by: str, locale: object) -> str:
    """ "Leaderboard: Malice" (all-time by chips, as it always was), with the season and the ranking added."""
    if by == RATING and kind:
        title = t(locale, "ledger.title.rating", game=game_name(kind, locale))
    elif kind:
        title = t(locale, "ledger.title.game", game=game_name(kind, locale))
    else:
        title = t(locale, "ledger.title.all")
    if season != ALL_TIME:
        title = t(locale, "ledger.title.season", title=title, season=season)
    return title


def board_figures(season: str, by: str, locale: object) -> str:
    """What the figures are, said plainly (the footer)."""
    if by == RATING:
        return t(locale, "ledger.figures.rating", games=ratings.PROVISIONAL_GAMES)
    if season != ALL_TIME:
        return t(locale, "ledger.figures.season", season=season)
    # The net is every movement in the chip ledger, so a running game's chips already count; games and wins
    # come from the results of finished games.
    return t(locale, "ledger.figures")


@dataclass(frozen=True)
class BoardSection:
    """One section of a server's leaderboard, worded for one reader: what `/leaderboard` and the board's
    web page both draw (each adds its own frame: Discord its page buttons and page number, the web every
    section on one page)."""

    title: str
    lines: tuple[str, ...]  # one page of it
    empty: str  # said instead of the lines when there are none
    figures: str  # what the figures are
    more: bool  # a further page exists

    @property
    def text(self) -> str:
        return "\n".join(self.lines) or self.empty


def board_section(
    kind: str | None,
    by: str,
    season: str,
    lines: Sequence[str],
    *,
    page: int,
    size: int,
    seasons_kept: bool,
    locale: object,
) -> BoardSection:
    """A section from its worded lines (`size` + 1 of them tell whether a further page exists)."""
    if page:
        empty = t(locale, "ledger.no_more")
    elif by == RATING:
        empty = t(locale, "ledger.empty.rating")
    elif season != ALL_TIME and seasons_kept:
        empty = t(locale, "ledger.empty.season", season=season)
    else:
        empty = t(locale, "ledger.empty")
    return BoardSection(
        title=board_title(kind, season, by, locale),
        lines=tuple(lines[:size]),
        empty=empty,
        figures=board_figures(season, by, locale),
        more=len(lines) > size,
    )
