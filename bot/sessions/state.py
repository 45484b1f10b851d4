"""A table as the session layer holds it in memory, and the presentation state kept in its meta."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from bot.render.common import LogGroup, TableInfo, is_computer


class TableMeta(BaseModel):
    """Presentation state the session owns, stored with the table so it survives a restart."""

    table_message_id: int | None = None
    turn_message_id: int | None = None
    turn_player: str | None = None  # whose turn the last turn message announced
    dm_closed: list[str] = []  # players whose DMs failed with 50007: we stopped DMing them
    computer_seats: list[str] = []  # people whose seat a computer player took (resign, three timeouts)
    timeouts: dict[str, int] = {}  # timeouts in a row, per player
    # The public log message being written (edited in place while its group lasts), its group and its text.
    log_message_id: int | None = None
    log_group: LogGroup | None = None
    log_text: str = ""


@dataclass
class Table:
    id: int
    guild_id: int
    channel_id: int
    kind: str
    host_id: int
    options: dict
    seed: str
    commitment: str
    status: str
    players: list[str]
    seq: int
    meta: TableMeta
    game: Any = None  # the engine's Game while running or finished
    # The game's JSON as last stored: equal to `game` between actions (only `_apply` mutates it), so a refused
    # or unstored action rolls back to it without dumping the game a second time per action.
    snapshot: str | None = None

    @property
    def timeout(self) -> float:
        return float(self.options.get("timeout") or 0)

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
        )
