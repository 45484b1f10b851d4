"""The store's standings: the leaderboards (all-time and per season, by chips and by rating), a person's
stats, ratings and histories, and two people's record against each other. All reads; part of `Store`
(`storage.contract`), kept apart so that each class stays one job's size.

A season is the calendar month (UTC) a game ended in, by the store's clock at the move that finished it:
`season_balances` and `season_ratings` are kept in that move's transaction, as `balances` and `ratings` are,
so every leaderboard is a page read in index order, whatever the size of the ledger.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from storage import reads
from storage.common import ALL_KINDS, ALL_TIME, SEASON, season_of, stats_from_balances
from storage.database import Database
from storage.models import (
    ChipPoint,
    HeadToHead,
    LeaderboardRow,
    PlayerRating,
    PlayerStats,
    RatingBoardRow,
    RatingChange,
    RatingPoint,
)


class Standings:
    _db: Database
    _clock: Callable[[], float]

    async def leaderboard(
        self,
        guild_id: int,
        kind: str | None = None,
        limit: int = 10,
        offset: int = 0,
        *,
        season: str | None = None,
    ) -> list[LeaderboardRow]:
        """People of the guild (overall or for one game kind) by their kept balance: net chips of the ledger
        (running games included), games and wins of finished tables. Order: net desc, wins desc, games asc,
        player asc. Computer seats and table accounts keep no balance, so they never appear.

        `season` ("2026-11"): the games that ended in that month (UTC) alone, their results' net chips (a
        running game counts once it ends); None or "all-time": every movement as above."""
        _page(limit, offset)
        if _season(season) is None:
            rows = await self._db.fetch(reads.LEADERBOARD, guild_id, kind or ALL_KINDS, limit, offset)
        else:
            rows = await self._db.fetch(
                reads.SEASON_LEADERBOARD, guild_id, season, kind or ALL_KINDS, limit, offset
            )
        return [LeaderboardRow(rank=offset + i + 1, **r) for i, r in enumerate(rows)]

    async def rating_leaderboard(
        self, guild_id: int, kind: str, limit: int = 10, offset: int = 0, *, season: str | None = None
    ) -> list[RatingBoardRow]:
        """People of the guild by their rating in one game kind (highest first, then player): all-time their
        current rating; in a `season`, those who played a rated game that ended in it, by their rating after
        their last such game."""
        _page(limit, offset)
        if _season(season) is None:
            rows = await self._db.fetch(reads.RATING_LEADERBOARD, guild_id, kind, limit, offset)
        else:
            rows = await self._db.fetch(
                reads.SEASON_RATING_LEADERBOARD, guild_id, season, kind, limit, offset
            )
        return [RatingBoardRow(rank=offset + i + 1, **r) for i, r in enumerate(rows)]

    def current_season(self) -> str:
        """The season now, by the store's clock ("2026-11")."""
        return season_of(self._clock())

    async def seasons(self, guild_id: int, kind: str | None = None) -> list[str]:
        """The seasons in which games of the guild (of that kind) ended, newest first."""
        rows = await self._db.fetch(reads.SEASONS, guild_id, kind or ALL_KINDS)
        return [str(r["season"]) for r in rows]

    # ---- ratings ------------------------------------------------------------------------------------------

    async def rating_changes(self, table_id: int) -> list[RatingChange]:
        """What a rated game did to each of its people's ratings, best rank first; empty if not rated."""
        return [RatingChange(**r) for r in await self._db.fetch(reads.RATING_CHANGES, table_id)]

    async def player_ratings(self, guild_id: int, player: str) -> list[PlayerRating]:
        """A person's current rating in each game kind he has a rated game of, with his last game's change."""
        return [PlayerRating(**r) for r in await self._db.fetch(reads.PLAYER_RATINGS, guild_id, player)]

    async def rating_history(
        self, guild_id: int, player: str, kind: str | None = None, since: float | None = None
    ) -> list[RatingPoint]:
        """A person's rating after each of his rated games (of that kind) that ended at `since` or later,
        oldest first."""
        sql, args = _by_kind(reads.RATING_HISTORY, (guild_id, player, since or 0.0), kind)
        return [RatingPoint(**r) for r in await self._db.fetch(sql, *args)]

    async def chip_history(
        self, guild_id: int, player: str, kind: str | None = None, since: float | None = None
    ) -> list[ChipPoint]:
        """A person's net chips of each finished game (of that kind) that ended at `since` or later, oldest
        first."""
        sql, args = _by_kind(reads.CHIP_HISTORY, (guild_id, player, since or 0.0), kind)
        return [ChipPoint(**r) for r in await self._db.fetch(sql, *args)]

    async def head_to_head(self, guild_id: int, player: str, other: str) -> dict[str, HeadToHead]:
        """`player`'s record against `other` in the finished games both played in the guild, per game kind
        and over all kinds (`"*"`; no entry: no game together): games, wins, draws and losses by place, and
        the chips that went straight between them."""
        return reads.head_to_head(await self._db.fetch(reads.TOGETHER, other, guild_id, player))

    async def player_stats(self, guild_id: int, player: str) -> PlayerStats:
        """A player's games, wins, net chips and biggest single win in the guild, overall and per kind."""
        rows = await self._db.fetch(reads.STATS, guild_id, player)
        return stats_from_balances(player, [tuple(r.values()) for r in rows])


def _page(limit: int, offset: int) -> None:
    if limit < 0 or offset < 0:
        raise ValueError("limit and offset must not be negative")


def _season(season: str | None) -> str | None:
    """A season asked for, checked: None for all-time; ValueError if it is no season."""
    if season is None or season == ALL_TIME:
        return None
    if not SEASON.fullmatch(season):
        raise ValueError(f"not a season: {season!r} (YYYY-MM or {ALL_TIME!r})")
    return season


def _by_kind(sql: str, args: tuple[Any, ...], kind: str | None) -> tuple[str, tuple[Any, ...]]:
    if kind is None:
        return sql.format(kind=""), args
    return sql.format(kind=" AND kind = ?"), (*args, kind)
