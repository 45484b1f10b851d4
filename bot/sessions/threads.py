"""A thread per game (`/settings threads`): where a game plays once it starts.

Off (the default), a game plays in the channel it was opened in, on its lobby message. On, the lobby or
challenge stays in the channel, and when the game starts a public thread is opened on the lobby message: the
table moves into it (the store's `start_table(thread_id=)`, one transaction with the start), its table
message, pings and timers live there, and at the end the result goes back on the lobby message and the
thread is archived (the presenter's part: `bot.sessions.homes`). So the channel keeps one message per game,
and runs several games at once, one per thread.

Opening a thread needs Create Public Threads and writing in it Send Messages in Threads. The cogs tell what
Discord says of the place a game starts in (`Room`): the bot's permissions there, from the interaction, and
whether a thread can be opened at all (not in a thread, nor outside a server). Without them, or when Discord
refuses the thread, the game plays in the channel and its table says so once (a public note).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.sessions.errors import MissingPermission
from bot.sessions.records import NoteFact, TableRecord, note
from storage.contract import Store

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Room:
    """What Discord says of the place a game starts in. `can_thread`: a thread may be opened here (a server's
    text channel, not a thread itself); `permitted`: the bot has Create Public Threads and Send Messages in
    Threads there (the interaction's `app_permissions`)."""

    can_thread: bool = False
    permitted: bool = False


NO_THREADS = Room()


class Threads:
    """Decides, when a game starts, whether it moves into a thread of its own, and opens it (`open`: the
    presenter's, through Discord: the new thread's id; `MissingPermission` when Discord refuses)."""

    def __init__(self, store: Store, open_thread: Callable[[TableRecord], Awaitable[int | None]]) -> None:
        self.store = store
        self.open_thread = open_thread

    async def place(self, record: TableRecord, room: Room) -> tuple[int | None, NoteFact | None]:
        """The thread the game moves into (None: it plays where it is), and the note to tell the table."""
        if not room.can_thread:
            return None, None
        settings = await self.store.guild_settings(record.guild_id)
        if not settings.threads:
            return None, None
        # The note: the server plays in threads, but the bot may not open one here.
        if not room.permitted:
            return None, note("table.threads_missing")
        try:
            thread = await self.open_thread(record)
        except MissingPermission:
            return None, note("table.threads_missing")
        except Exception as exc:  # Discord unwell: the game goes on in the channel rather than wait
            log.warning("table %s: opening its thread failed (%s); it plays in the channel", record.id, exc)
            return None, None
        return thread, None
