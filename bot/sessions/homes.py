"""The presenter's part of a thread per game (`bot.sessions.threads`): a game that moved into its thread keeps
its lobby message in the channel it was opened in, its home. The home says the game is on in the thread while
it runs, and shows the result once it is over; then the thread is archived. So the channel keeps exactly one
message per game, and the thread holds the table message, the pings and the rest.

The move itself is seen by `bot.sessions.drawing.follow_home`. All of it is derived from the table's
record and the presenter's own `Display`, stored after each write: a restart goes on where it stopped (a
table resumed in its thread writes there; a home not yet showing the result shows it). Discord refuses edits
in an archived thread: the announcer unarchives one first (a thread Discord archived on its own after a long
pause), and the bot archives its thread only once nothing is left to write there.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any, Protocol

from bot import render
from bot.i18n import t
from bot.render.common import Message, channel, name
from bot.sessions.display import Display
from bot.sessions.drawing import Drawing, Job
from bot.sessions.pacing import Pacer, Slot
from bot.sessions.records import TableRecord

PLAYING, OVER = "playing", "over"


class Host(Protocol):
    """What the homes use of the presenter that holds them."""

    announcer: Any
    drawing: Drawing
    pacer: Pacer | None

    def write_slot(self, channel_id: int) -> contextlib.AbstractAsyncContextManager[Slot]: ...
    def message_id(self, table_id: int) -> int | None: ...


def thread_name(record: TableRecord) -> str:
    """The thread's name, in the table's public language (Discord allows 100 characters)."""
    return t(
        record.language, "thread.name", game=render.game_name(record.kind, record.language), table=record.id
    )[:100]


def playing_message(record: TableRecord) -> Message:
    """The home while the game runs in its thread: no buttons (they work in the thread)."""
    lang = record.language
    players = ", ".join(name(p, lang) for p in record.players)
    game = render.game_name(record.kind, lang)
    return Message(
        content=t(
            lang,
            "thread.playing",
            game=game,
            table=record.id,
            thread=channel(record.channel_id),
            players=players,
        )
    )


def wanted_home(record: TableRecord) -> str:
    """What the home should show: the game on, or its result as it stands (a finished table still changes
    with its rematch's clicks and outcome, which the home shows like the thread's table message)."""
    if record.is_open:
        return PLAYING
    rematch = record.session.rematch
    return OVER if rematch is None else f"{OVER}:{rematch.outcome}:{','.join(rematch.clicked)}"


class Homes:
    def __init__(self, presenter: Host) -> None:
        self.presenter = presenter

    async def open_thread(self, record: TableRecord) -> int | None:
        """A public thread on the lobby's message, for its game to play in (None: the lobby has no message
        yet). Raises `MissingPermission` when Discord refuses it, or whatever else Discord answered."""
        presenter = self.presenter
        message_id = presenter.message_id(record.id)
        if message_id is None:  # not loaded yet (a lobby resumed after a restart): as stored
            row = await presenter.drawing.store.get_table(record.id)
            message_id = None if row is None else Display.of_row(row).table_message_id
        if message_id is None:
            return None
        async with self._call(record.channel_id) as slot, slot.request():
            thread: int = await presenter.announcer.start_thread(
                record.channel_id, message_id, thread_name(record)
            )
        return thread

    @contextlib.asynccontextmanager
    async def _call(self, channel_id: int) -> AsyncIterator[Slot]:
        """A request on the channel that is no message write (a thread opened or archived), paced apart from
        its message writes (`Pacer.call`) and at the door like every request."""
        pacer = self.presenter.pacer
        if pacer is None:
            yield Slot()
            return
        async with pacer.call(channel_id) as slot:
            yield slot

    @staticmethod
    def settled(job: Job) -> bool:
        """Nothing left to do at home: it shows the result and the thread is archived (or there is none)."""
        display, record = job.display, job.record
        if job.silenced or display is None or record.home_channel_id is None:
            return True
        if display.home_message_id is None:
            return True
        return display.home_shown == wanted_home(record) and display.thread_archived

    async def update(self, job: Job) -> bool:
        """At most one request for the home (its edit, or archiving the thread); True when one was made.
        Called when the thread's own messages show everything."""
        presenter, record, display = self.presenter, job.record, job.display
        home = record.home_channel_id
        if display is None or home is None or display.home_message_id is None:
            return False
        wanted = wanted_home(record)
        if display.home_shown != wanted:
            async with presenter.write_slot(home) as slot, job.lock:
                if wanted == PLAYING:
                    message = playing_message(record)
                else:
                    message, _ = await presenter.drawing.drawn(job, record)
                    played = t(record.language, "thread.played_in", thread=channel(record.channel_id))
                    message.content = f"{played}\n{message.content or ''}".strip()
                async with slot.request():
                    # False: someone deleted it; the channel then keeps no message of the game, as he chose.
                    await presenter.announcer.edit(home, display.home_message_id, message)
            display.home_shown = wanted
            if wanted != PLAYING:  # the thread's table message was written for it: archived again after
                display.thread_archived = False
            await presenter.drawing.save(job)
            return True
        # Archived last: nothing may be left to write in the thread (a ping to delete, an old message).
        if (
            wanted != PLAYING
            and not display.thread_archived
            and display.ping_message_id is None
            and not display.stale_messages
        ):
            async with self._call(record.channel_id) as slot, slot.request():
                await presenter.announcer.archive_thread(record.channel_id)
            display.thread_archived = True
            await presenter.drawing.save(job)
            return True
        return False
