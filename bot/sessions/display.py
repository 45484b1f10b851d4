"""The presenter's own record of a table: its messages in the channel and what they have shown. Stored by the
presenter alone (the table's `display` column), never by the service, so a move that fails to store can never
roll back a message id the presenter wrote meanwhile, and after any failure or restart the presenter knows
which stored moves the table message has not shown yet."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from bot.sessions.records import NoteFact
from storage.models import TableRow


class Display(BaseModel):
    model_config = ConfigDict(extra="ignore")

    table_message_id: int | None = None
    shown_seq: int = -1  # the table message has shown the log of every step up to this one (-1: none yet)
    shown_note: int = 0  # ... and every session note up to this number
    shown_banner: int = 0  # the number of the session banner it last showed
    hands_seq: int = -1  # the new hands of every step up to this one have been sent (or were not to be)
    dm_closed: list[str] = []  # players whose DMs failed with 50007: we stopped DMing them
    ping_message_id: int | None = None  # the live "your turn" ping, deleted when the turn moves on
    ping_player: str | None = None
    pictures_off: bool = False  # the channel refused a picture (no Attach Files permission): text only
    notice: NoteFact | None = None  # the presenter's own word over the table (pictures off, a closed DM)
    notice_shown: bool = False
    stale_messages: list[int] = []  # old table messages to delete (after Discord refused an edit: 30046)
    # A game in a thread of its own (`bot.sessions.homes`): its lobby message, left in the channel it was
    # opened in; what that shows now ("": the lobby still, "playing", "over": the result); the thread
    # archived.
    home_message_id: int | None = None
    home_shown: str = ""
    thread_archived: bool = False
    # Where the table lives (bot/sessions/places.py): "channel", a channel the bot writes in; "interaction",
    # a DM or group DM of a user install, where the table message changes only through interaction answers.
    place: str = "channel"

    @classmethod
    def of_row(cls, row: TableRow) -> Display:
        """The stored record; for a table stored before the presenter kept its own, its fields from the old
        `meta` (the moves up to the last stored one count as shown: that process showed what it stored)."""
        if row.display:
            return cls.model_validate(row.display)
        legacy: dict[str, Any] = {
            k: v
            for k, v in (row.meta or {}).items()
            if k in ("table_message_id", "dm_closed", "ping_message_id", "ping_player", "pictures_off")
        }
        started = row.snapshot is not None
        return cls.model_validate(
            {
                **legacy,
                "shown_seq": row.next_seq if started and legacy else -1,
                "hands_seq": row.next_seq if started else -1,
            }
        )
