"""Rows the store returns and inputs it takes: plain ids, JSON text and numbers, no library objects.

Times are unix seconds (float), taken by the store's clock; the engines never see a clock.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

TableStatus = Literal["lobby", "running", "finished", "cancelled"]


class _Row(BaseModel):
    model_config = ConfigDict(frozen=True)


class SeatIn(_Row):
    seat: int = Field(ge=0)
    player: str  # a Discord user id in decimal, or "ai:<n>"
    user_id: int | None = None  # None for a computer seat
    name: str | None = None  # his display name, where known (None keeps the stored one)


class LedgerIn(_Row):
    from_account: str  # a player id or "@pot" (bot.games.base.POT)
    to_account: str
    amount: int = Field(gt=0)
    reason: str


class ResultIn(_Row):
    player: str
    final_chips: int | None = None
    net: int
    placement: int = Field(ge=1)
    won: bool


class SeatRow(_Row):
    seat: int
    player: str
    user_id: int | None
    joined_at: float
    display_name: str | None = None


class TableRow(_Row):
    id: int
    guild_id: int
    channel_id: int  # where it plays: the channel it was opened in, or the thread it moved into
    kind: str
    status: TableStatus
    options: dict[str, Any]
    seed: str
    commitment: str
    host_id: int
    meta: dict[str, Any]  # the session's state (seat control, timeouts, languages, notes)
    display: dict[str, Any] = {}  # the presenter's record (message ids, what the table message showed)
    snapshot: str | None  # the game's JSON after the last stored action (or at start)
    next_seq: int  # the seq the next append_action must carry (the number of stored actions)
    created_at: float
    started_at: float | None
    finished_at: float | None
    seats: list[SeatRow]
    home_channel_id: int | None = None  # the channel it was opened in, once it plays in a thread of its own
    competition_id: int | None = None  # the event whose match it plays (`competition_matches`), if any

    @property
    def players(self) -> list[str]:
        """Player ids in seat order (what `new_game(players, ...)` takes)."""
        return [s.player for s in self.seats]


class ActionRow(_Row):
    table_id: int
    seq: int
    actor: str | None  # None for a system action (timeout, /cancel) if the session records it so
    action: str  # the action as JSON text
    created_at: float


class LedgerRow(_Row):
    id: int  # entry order, increasing
    table_id: int
    seq: int  # the action that caused the movement
    from_account: str
    to_account: str
    amount: int
    reason: str
    created_at: float


class HistoryEntry(ActionRow):
    """One action with the chip movements it caused, in entry order."""

    ledger: list[LedgerRow]


class ResultRow(_Row):
    table_id: int
    kind: str
    player: str
    final_chips: int | None
    net: int
    placement: int
    won: bool


class LeaderboardRow(_Row):
    rank: int  # 1-based position in the full ordering (offset included)
    player: str
    net: int
    games: int
    wins: int


class KindStats(_Row):
    games: int = 0
    wins: int = 0
    net: int = 0
    biggest_win: int | None = None  # largest net of one finished game; None if no game ever won chips


class PlayerStats(KindStats):
    player: str
    per_game: dict[str, KindStats] = {}


class RatingIn(_Row):
    """One person of a finished game, handed to the rater: his rank among the game's people (1 best, ties
    share one) and his rating before it (`mu`, `sigma` None: never rated in this game and server)."""

    player: str
    rank: int = Field(ge=1)
    mu: float | None = None
    sigma: float | None = None
    games: int = 0  # rated games before this one


class Rating(_Row):
    """A rating as the rater gives it: its two numbers and `score`, the conservative number people see and
    the leaderboard ranks by."""

    mu: float
    sigma: float
    score: float


# The rater: (before, after) for each person, in the order given. Pure (no I/O): it runs inside the finishing
# transaction, so what it reads is locked until what it wrote is committed.
Rate = Callable[[Sequence[RatingIn]], Sequence[tuple[Rating, Rating]]]


@dataclass(frozen=True)
class Rated:
    """What a finishing move asks of the store to rate the game: each person's rank among the game's people
    (only people: computer seats and seats a computer took over are left out by the caller) and the rater.
    Fewer than two people: nothing is rated."""

    ranks: Mapping[str, int]
    rate: Rate


class RatingChange(_Row):
    """What one rated game did to one person's rating (`rating_changes`)."""

    table_id: int
    player: str
    guild_id: int
    kind: str
    ended_at: float
    rank: int
    mu_before: float
    sigma_before: float
    score_before: float
    mu_after: float
    sigma_after: float
    score_after: float
    games: int  # his rated games in this game kind and server, this one included

    @property
    def change(self) -> float:
        return self.score_after - self.score_before


class PlayerRating(_Row):
    """A person's current rating in one game kind of a server, and his last rated game's change."""

    player: str
    kind: str
    mu: float
    sigma: float
    score: float
    games: int
    last_change: float | None = None


class RatingBoardRow(_Row):
    rank: int  # 1-based position in the full ordering (offset included)
    player: str
    score: float  # all-time: the current rating; a season: the rating after his last game of the season
    games: int  # rated games in all (what decides "provisional")
    played: int  # rated games in this view (the season's, or all of them)


class RatingPoint(_Row):
    """A person's rating after one rated game (`rating_history`)."""

    table_id: int
    kind: str
    ended_at: float
    score: float
    games: int


class ChipPoint(_Row):
    """A person's net chips of one finished game (`chip_history`)."""

    table_id: int
    kind: str
    ended_at: float
    net: int


class HeadToHead(_Row):
    """Two people's record in the finished games they both played (one game kind, or all)."""

    games: int = 0
    wins: int = 0  # games the first placed above the second
    draws: int = 0  # the same place
    losses: int = 0
    net: int = 0  # chips that went straight from the second to the first, less those the other way


class GuildSettings(_Row):
    """A server's settings (`/settings`), as stored; a server that chose nothing has these defaults."""

    guild_id: int
    language: str | None = None  # its public messages' language ("en", "de"); None: the server's locale
    host_role: int | None = None  # a role that may open and cancel games (besides Manage Server); None: all
    channels: list[int] = []  # where games may be opened, ascending; empty: every channel
    defaults: dict[str, dict[str, Any]] = {}  # game kind -> option -> its default for new tables (JSON)
    threads: bool = False  # each game plays in a thread of its own, opened on its lobby message
    seasons: Literal["monthly", "off"] = "monthly"  # leaderboards by calendar month, or all-time only
    web: bool = True  # its tables, replays and leaderboard on the web (bot/web), when the bot serves pages
