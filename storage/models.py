"""Rows the store returns and inputs it takes: plain ids, JSON text and numbers, no library objects.

Times are unix seconds (float), taken by the store's clock; the engines never see a clock.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

TableStatus = Literal["lobby", "running", "finished", "cancelled"]


class _Row(BaseModel):
    model_config = ConfigDict(frozen=True)


class SeatIn(_Row):
    seat: int = Field(ge=0)
    player: str  # a Discord user id in decimal, or "ai:<n>"
    user_id: int | None = None  # None for a computer seat


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


class GuildSettings(_Row):
    """A server's settings (`/settings`), as stored; a server that chose nothing has these defaults."""

    guild_id: int
    language: str | None = None  # its public messages' language ("en", "de"); None: the server's locale
    host_role: int | None = None  # a role that may open and cancel games (besides Manage Server); None: all
    channels: list[int] = []  # where games may be opened, ascending; empty: every channel
    defaults: dict[str, dict[str, Any]] = {}  # game kind -> option -> its default for new tables (JSON)
    threads: bool = False  # each game plays in a thread of its own, opened on its lobby message
