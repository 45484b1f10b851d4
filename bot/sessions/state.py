"""A table as the session layer holds it in memory, and the state kept in its meta.

The meta is stored in the same transaction as each move (see `TableService`), so seat control, timeout counts
and what the channel should show (the recent lines, the hands to DM) are never out of step with the game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from bot.games.base import GameState
from bot.render.common import LogGroup, TableInfo, is_computer

RECENT_KEPT = 60  # public lines kept in the meta: the table message shows those not shown yet, and more


class RecentLine(BaseModel):
    """One public line of the game's log, with the number of actions stored when it was written."""

    seq: int
    text: str


class TableMeta(BaseModel):
    """What the session owns besides the game, stored with the table so it survives a restart."""

    table_message_id: int | None = None
    dm_closed: list[str] = []  # players whose DMs failed with 50007: we stopped DMing them
    computer_seats: list[str] = []  # people whose seat a computer player took (resign, three timeouts)
    timeouts: dict[str, int] = {}  # timeouts in a row, per player
    # The game's public log as the channel shows it: the newest lines (the table message shows the last few,
    # /history has them all) and the group of the last line, so a new group gets its title line.
    recent: list[RecentLine] = []
    log_group: LogGroup | None = None
    note: str | None = None  # a banner over the table (cancelled, restarted, pictures off...)
    dm_pending: list[str] = []  # players whose new hand is still to be DMed
    ping_message_id: int | None = None  # the live "your turn" ping, deleted when the turn moves on
    pictures_off: bool = False  # the channel refused a picture (no Attach Files permission): text only
    ping_player: str | None = None


@dataclass
class Table:
    id: int
    guild_id: int
    channel_id: int
    kind: str
    host_id: int
    options: dict[str, Any]
    seed: str
    commitment: str
    status: str
    players: list[str]
    seq: int
    meta: TableMeta
    game: GameState | None = None  # the engine's game while running or finished
    # The game's JSON as last stored: equal to `game` between actions (only the service mutates it), so a
    # refused or unstored action rolls back to it without dumping the game a second time per action.
    snapshot: str | None = None
    # In memory only: what the presenter compares against (bumped on every change the channel should see),
    # the deadline of the running turn timer, and since when the current person holds the turn.
    version: int = 1
    deadline: float | None = None
    turn_holder: str | None = None
    turn_since: float = 0.0
    ping_wanted: bool = False  # the turn passed from one person to another: ping him if he stays quiet

    @property
    def timeout(self) -> float:
        return float(self.options.get("timeout") or 0)

    @property
    def playing(self) -> GameState:
        """The game of a started table (moves, timers and computer turns only ever act on one)."""
        if self.game is None:
            raise RuntimeError(f"table {self.id} has not started")
        return self.game

    def seat_is_computer(self, player: str) -> bool:
        return is_computer(player) or player in self.meta.computer_seats

    def info(self) -> TableInfo:
        over = self.game is not None and self.game.is_over
        return TableInfo(
            id=self.id,
            kind=self.kind,
            status=self.status,
            host_id=self.host_id,
            players=list(self.players),
            options=dict(self.options),
            seq=self.seq,
            commitment=self.commitment,
            seed=self.seed if over else None,
            computer_seats=list(self.meta.computer_seats),
            timeout=self.timeout,
            pictures=bool(self.options.get("pictures", True)) and not self.meta.pictures_off,
        )
