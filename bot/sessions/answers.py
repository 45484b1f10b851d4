"""The presenter's part for tables in interaction-only places (bot/sessions/places.py): the table message is
the answer to the command that opened the table, and afterwards changes only through interaction answers
(a click's type 7) or the live token of the last one. Nothing here writes in a channel."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any, Protocol

from bot.render.common import Message
from bot.sessions.display import Display
from bot.sessions.drawing import Drawing, Job, Jobs, follow_home
from bot.sessions.failures import expected
from bot.sessions.pacing import Budget
from bot.sessions.places import CHANNEL_TOKEN_USES, INTERACTION, FirstAnswer, Tokens, interaction_only
from bot.sessions.records import TableRecord
from bot.sessions.view import Window


class Host(Protocol):
    """What this part uses of the presenter that holds it."""

    announcer: Any
    drawing: Drawing

    def clock(self) -> float: ...

    jobs: Jobs
    pacer: Any

    def needs_write(self, job: Job) -> bool: ...
    def wake(self, job: Job) -> None: ...


# How long a click's answer (and a write) waits for a computer seat's reply (a computer's turn takes a few
# tens of ms; a busy process's queue of thinking may take longer: it shows what is stored, the rest follows).
COMPUTER_WAIT = 1.0

# Table messages edited through a click's token per second: outside Discord's limits, but each draws a
# picture (about 10 ms), so a busy process keeps most of its CPU for the answers (a table whose turn comes
# later shows every move made meanwhile). 24 held a computer's turn back 1.5-2.4 s at 100 busy tables
# with a core idle (bench_discord); 48 is about half a core of pictures at most.
TOKEN_EDITS_PER_SECOND = 48


class Answers:
    def __init__(self, presenter: Host) -> None:
        self.presenter = presenter
        self.tokens = Tokens(presenter.clock)
        self.pace = Budget(TOKEN_EDITS_PER_SECOND, 1.0) if presenter.pacer is not None else None
        self.token_edits = 0  # table messages edited through a click's token (no rate limit)

    @contextlib.asynccontextmanager
    async def _paced(self) -> AsyncIterator[None]:
        """A turn in the token edits' pace, in the order they came. (An edit that brings only a picture
        once waited behind those with moves; measured on and off at 48 a second it bought nothing
        consistent: docs/design.md, "No news-first line".)"""
        pace = self.pace
        if pace is None:
            yield
            return
        async with pace.queue:
            await pace.wait()
            pace.leave()
        try:
            yield
        finally:
            pace.back()

    async def message(self, job: Job, record: TableRecord) -> tuple[Message, Window | None]:
        """The table message as an interaction's answer carries it, its picture drawn in a worker thread (the
        event loop answers other clicks meanwhile; a click not answered in time is deferred by the cog)."""
        return await self.presenter.drawing.drawn(job, record)

    @contextlib.asynccontextmanager
    async def update(
        self, table_id: int, message_id: int, token: str | None = None
    ) -> AsyncIterator[Message | None]:
        """The newest table message for a click on it (response type 7); counted shown once the block
        succeeds. Yields None when that message is not (or no longer) the table message. `token`: the
        click's (an interaction-only place's table message may be edited through it for a while)."""
        job = follow_home(self.presenter.jobs.get(table_id))  # the lobby of a game that just moved
        # Just after a restart the worker may not have read its display record yet: read it here.
        display = None if job is None else await self.presenter.drawing.display(job)
        if job is None or display is None or display.table_message_id != message_id:
            yield None
            return
        # The computer's immediate reply first (a few tens of ms): this answer shows both, picture and all,
        # and no token edit has to follow it (the presenter's worker leaves the table message to it meanwhile,
        # and is woken if it did not show it all).
        job.answering += 1
        try:
            await job.computer_answered(COMPUTER_WAIT)
            async with job.lock:
                record = job.record
                message, win = await self.message(job, record)
                yield message
                self.presenter.drawing.shown(job, record, win)
            await self.clicked(job, token)
        finally:
            job.answering -= 1
            if not job.answering and self.presenter.needs_write(job):
                self.presenter.wake(job)

    async def here(self, record: TableRecord) -> None:
        """A new table in an interaction-only place: its message will be the answer to the command that
        opened it (`first_answer`), and the presenter never writes in its channel. Called right after the
        table was published: its display is set before this awaits, so the worker never takes it for a
        channel's table; then stored."""
        job = self.presenter.jobs.setdefault(record.id, Job(record))
        job.display = job.display or Display(place=INTERACTION)
        job.display.place = INTERACTION
        await self.presenter.drawing.save(job)

    @contextlib.asynccontextmanager
    async def first_answer(self, table_id: int) -> AsyncIterator[FirstAnswer | None]:
        """The newest table message of a table opened in an interaction-only place, to send as the answer
        to the command that opened it; `answer.sent(message_id, token)` records where it went."""
        job = self.presenter.jobs.get(table_id)
        if job is None or not interaction_only(job.display):
            yield None
            return
        async with job.lock:
            record = job.record
            message, win = await self.message(job, record)
            answer = FirstAnswer(message)
            yield answer
            if answer.message_id is None:
                return
            assert job.display is not None
            job.display.table_message_id = answer.message_id
            self.tokens.took(table_id, answer.token)
            self.presenter.drawing.shown(job, record, win)
            job.silenced = False
        await self.presenter.drawing.save(job)

    async def clicked(self, job: Job, token: str | None) -> None:
        """A click's answer showed the table message: its token may edit it for a while (in a server channel
        too: what the next click does not carry, a computer's move, goes through it, outside the limits)."""
        if interaction_only(job.display):
            self.tokens.took(job.record.id, token)
            job.silenced = False
            await self.presenter.drawing.save(job)
        elif job.display is not None:
            self.tokens.took(job.record.id, token, job.display.table_message_id, CHANNEL_TOKEN_USES)

    async def through_token(self, job: Job) -> bool:
        """A server channel's table message edited through the live token of the last click answered on it
        (no rate-limited call); False when there is none, or Discord refused it: the channel's write then."""
        display = job.display
        if display is None or display.table_message_id is None:
            return False
        presenter = self.presenter
        if not self.tokens.has(job.record.id, display.table_message_id):
            return False
        # Its turn first, outside the table's lock: a click on the table is answered meanwhile.
        async with self._paced(), job.lock:
            if not presenter.needs_write(job):
                return True  # a click's answer showed it meanwhile
            token = self.tokens.usable(job.record.id, display.table_message_id)
            if token is None:
                return False
            record = job.record
            message, win = await presenter.drawing.drawn(job, record)
            try:
                edited = await presenter.announcer.edit_original(token, message)
            except Exception as exc:
                if expected(exc) is None:
                    raise
                edited = False  # Discord unwell for this route: the channel's own write
            if not edited:
                self.tokens.drop(record.id)
                return False
            presenter.drawing.shown(job, record, win)
            self.token_edits += 1
        await presenter.drawing.save(job)
        return True

    async def step(self, job: Job) -> bool:
        """The worker's step: no channel, no DMs (the Move dialog and My hand show each hand), no pings;
        only the table message, through an interaction's token."""
        assert job.display is not None
        job.display.hands_seq = job.record.seq
        if not job.silenced and self.presenter.needs_write(job):
            await self.write(job)
        return False

    def behind(self, table_id: int) -> bool:
        """Whether a table's message has states it has not shown (a closed table's last one included): the
        next click on it shows them."""
        job = self.presenter.jobs.get(table_id)
        return job is not None and job.display is not None and self.presenter.needs_write(job)

    async def write(self, job: Job) -> None:
        """The table message edited through the live token of the last interaction that answered on it;
        without one it waits for the next click (which shows it)."""
        display = job.display
        assert display is not None
        presenter = self.presenter
        async with job.lock:
            if not presenter.needs_write(job):
                return  # a click's answer showed it meanwhile: the token is not spent
            token = self.tokens.usable(job.record.id) if display.table_message_id is not None else None
            if token is None:
                job.silenced = True
                return
            record = job.record
            message, win = await presenter.drawing.drawn(job, record)
            if not await presenter.announcer.edit_original(token, message):
                self.tokens.drop(record.id)  # expired early (Discord's clock): the next click shows it
                job.silenced = True
                return
            presenter.drawing.shown(job, record, win)
            await presenter.drawing.save(job)
