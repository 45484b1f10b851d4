"""The presenter: shows each table's stored state in its channel, at Discord's pace, worded when shown.

One worker per table. The `stored` signal hands it each new record and goes on; the worker waits a moment
(several moves in that moment become one write), then for its turn in Discord's budget (it never provokes a
429), and only then words and draws the newest state: the table message (edited in place: the board, the
moves not shown yet and whose turn it is), the new hands by DM, a "your turn" ping for a person who stays
quiet. What it has shown is its own record (`Display`), stored by it alone: after a failed write or a restart
it goes on from there, and every stored move appears in some write of the table message (as many per write as
fit).

A click on the table message's own buttons updates it through the interaction's response (no channel write):
`answers.update()` (bot/sessions/answers.py) words it under the same per-table lock and counts it shown;
the same part holds the tables of interaction-only places (DMs and group DMs of a user install).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Protocol

from bot.render.common import Message
from bot.sessions.answers import COMPUTER_WAIT, Answers
from bot.sessions.display import Display
from bot.sessions.drawing import Drawing, Job, Jobs
from bot.sessions.errors import ChannelGone, EditExpired, MissingPermission
from bot.sessions.facts import TableFact
from bot.sessions.failures import expected
from bot.sessions.homes import Homes
from bot.sessions.links import Pages
from bot.sessions.pacing import Budget, Pacer, Slot
from bot.sessions.pings import Pings
from bot.sessions.places import interaction_only
from bot.sessions.records import MoveFacts, NoteFact, TableRecord, note
from bot.sessions.stopping import cancel_and_wait
from storage.contract import Store

log = logging.getLogger(__name__)

RETRY_PAUSES = (0.5, 1.0, 2.0, 5.0, 10.0, 30.0)  # after a failed write; the last one repeats


class Announcer(Protocol):
    """The Discord side of the presenter, implemented in the cogs (and by a recorder in tests).

    Failures are the exceptions of `bot.sessions.errors` (`EditExpired`, `ChannelGone`, `MissingPermission`,
    `DMClosed`); anything else is taken as Discord being unwell and retried later."""

    async def send(self, channel_id: int, message: Message) -> int:
        """Post a public message in the channel; returns its id."""

    async def edit(self, channel_id: int, message_id: int, message: Message) -> bool:
        """Edit a message in place; False when it no longer exists."""

    async def delete(self, channel_id: int, message_id: int) -> None:
        """Delete a public message; a message that no longer exists is fine."""

    async def dm(self, user_id: int, message: Message) -> None:
        """Send a direct message; raises `DMClosed` when the user's DMs are closed."""

    def dm_requests(self, user_id: int) -> int:
        """How many rate-limited requests a DM to this user takes now (2: his DM channel is opened first)."""

    async def start_thread(self, channel_id: int, message_id: int, name: str) -> int:
        """Open a public thread on a message of the channel; returns the thread's id. `MissingPermission`
        without Create Public Threads."""

    async def archive_thread(self, thread_id: int) -> None:
        """Archive a thread the bot opened (it can no longer be written in until unarchived)."""

    async def edit_original(self, token: str, message: Message) -> bool:
        """Edit the original response of the interaction with this token (a table message in a place where
        the bot may only answer interactions); False when Discord no longer takes the token."""


class Presenter:
    def __init__(
        self,
        announcer: Announcer,
        store: Store,
        *,
        facts: Callable[[TableRecord], Awaitable[tuple[MoveFacts, ...]]],
        deadline: Callable[[int], float | None],
        channel_gone: Callable[[int], Awaitable[None]],
        clock: Callable[[], float] = time.time,
        coalesce: float = 0.15,
        ping_after: float = 15.0,
        pacing: bool = True,
        door: Budget | None = None,
        pages: Pages | None = None,
    ) -> None:
        self.announcer = announcer
        self.store = store
        # Off only in tests that count what, not when. `door`: the process's share of the token's global
        # budget (bot.ops), else one of the pacer's own.
        self.pacer: Pacer | None = Pacer(door) if pacing else None
        self.deadline = deadline
        self._channel_gone = channel_gone
        self.clock = clock
        self.coalesce = coalesce
        self.drawing = Drawing(store, facts=facts, deadline=deadline, pages=pages or Pages())
        self.jobs = Jobs()  # each table's worker state, shared with the parts below
        self.pings = Pings(self, ping_after)
        self.homes = Homes(self)
        self.answers = Answers(self)  # clicks answered in place; the tables of interaction-only places
        self._behind: dict[int, float] = {}  # table id -> (monotonic) its oldest change not shown: /metrics
        self._started = asyncio.Event()
        self._closed = False
        self.writes = 0  # rate-limited calls made (send, edit, delete, DM): for tests and benchmarks

    @property
    def token_edits(self) -> int:
        """Table messages edited through a click's token instead (no rate limit): for tests and benchmarks."""
        return self.answers.token_edits

    # ---------------------------------------------------------------- control

    def start(self) -> None:
        """Begin writing (after the gateway is ready: nothing is sent before)."""
        self._started.set()

    def heard(self, fact: TableFact) -> None:
        """The `stored` signal: whatever the change, the channel shows the newest record."""
        self.changed(fact.record)

    def changed(self, record: TableRecord) -> None:
        """The `stored` signal: show this record when the channel allows. Never blocks."""
        if self._closed:
            return
        job = self.jobs.get(record.id)
        if job is None or not self.needs_write(job) or record.id not in self._behind:
            self._behind[record.id] = time.monotonic()  # it showed everything before this change
        if job is None:
            job = self.jobs[record.id] = Job(record)
        elif record.revision >= job.record.revision:
            job.told(record)
        self.pings.track(job, record)
        job.silenced = False
        self.wake(job)

    def wake(self, job: Job) -> None:
        job.wake.set()
        if job.task is None or job.task.done():
            job.task = asyncio.ensure_future(self._run(job))

    def live(self, job: Job) -> bool:
        """Whether `job` is still the table's worker (a closed table's ends; a new one may follow)."""
        return self.jobs.live(job)

    def record(self, table_id: int) -> TableRecord | None:
        """The newest record this presenter was given of the table, while it still shows it."""
        job = self.jobs.get(table_id)
        return None if job is None else job.record

    def pictures_off(self, table_id: int) -> bool:
        job = self.jobs.get(table_id)
        return job is not None and job.display is not None and job.display.pictures_off

    def backlog(self) -> tuple[int, float]:
        """For /metrics: how many tables' messages do not show their newest state, and how long (s) the one
        that waits longest has waited."""
        now, waiting, longest = time.monotonic(), 0, 0.0
        for table_id in [t for t in self._behind if t not in self.jobs]:
            del self._behind[table_id]
        for table_id, job in self.jobs.items():
            if self.needs_write(job) and not job.silenced:
                waiting += 1
                longest = max(longest, now - self._behind.get(table_id, now))
        return waiting, longest

    def message_id(self, table_id: int) -> int | None:
        job = self.jobs.get(table_id)
        return None if job is None or job.display is None else job.display.table_message_id

    async def idle(self) -> None:
        """Wait until every table shows its newest state (tests, shutdown); a ping to come does not count."""
        while (
            not self._closed
            and self._started.is_set()
            and any(j.busy or j.wake.is_set() for j in self.jobs.values() if j.task and not j.task.done())
        ):
            await asyncio.sleep(0.005)

    async def close(self) -> None:
        self._closed = True
        await cancel_and_wait([j.task for j in self.jobs.values()])
        self.jobs.clear()

    async def drawn(self, table_id: int) -> Message | None:
        """The table message a write would carry now, its picture drawn in a worker thread (None: none)."""
        job = self.jobs.get(table_id)
        return None if job is None else (await self.drawing.drawn(job, job.record))[0]

    def needs_write(self, job: Job) -> bool:
        return job.shown_revision < job.record.revision

    # ---------------------------------------------------------------- writes

    def write_slot(self, channel_id: int) -> contextlib.AbstractAsyncContextManager[Slot]:
        """One rate-limited write in the channel, entered when its turn has come: what to write is decided
        inside, so a table that waited shows everything that happened meanwhile."""
        return self._slot(lambda pacer: pacer.write(channel_id))

    def dm_slot(self, user_id: int) -> contextlib.AbstractAsyncContextManager[Slot]:
        return self._slot(lambda pacer: pacer.dm(user_id, self.announcer.dm_requests(user_id)))

    @contextlib.asynccontextmanager
    async def _slot(
        self, paced: Callable[[Pacer], contextlib.AbstractAsyncContextManager[Slot]]
    ) -> AsyncIterator[Slot]:
        slot = Slot()
        try:
            if self.pacer is None:
                yield slot
            else:
                async with paced(self.pacer) as slot:
                    yield slot
        finally:
            self.writes += slot.used

    async def post_now(self, record: TableRecord) -> None:
        """Post a new table's message at once (a lobby): the caller learns whether the bot may write here.
        Raises `MissingPermission`, `ChannelGone`, or whatever else Discord answered."""
        job = self.jobs.setdefault(record.id, Job(record))
        job.display = job.display or Display()
        async with self.write_slot(record.channel_id) as slot, job.lock:
            message, win = await self.drawing.word(job, job.record)
            async with slot.request():
                job.display.table_message_id = await self.announcer.send(record.channel_id, message)
            self.drawing.shown(job, job.record, win)
        await self.drawing.save(job)

    async def write_table(self, job: Job) -> None:
        display = await self.drawing.display(job)
        if interaction_only(display):
            await self.answers.write(job)
            return
        if await self.answers.through_token(job):
            return  # the last click's token carried it: no channel write
        channel = job.record.channel_id
        if display.table_message_id is not None:
            async with self.write_slot(channel) as slot, job.lock:
                if not self.needs_write(job):
                    return  # a click's response showed it meanwhile: the slot is simply unused
                record = job.record
                message, win = await self.drawing.drawn(job, record)
                try:
                    async with slot.request():
                        edited = await self.announcer.edit(channel, display.table_message_id, message)
                    if edited:
                        self.drawing.shown(job, record, win)
                        await self.drawing.save(job)
                        return
                except EditExpired:
                    # Discord no longer lets us edit it (an old message): a fresh one, the old one goes.
                    display.stale_messages.append(display.table_message_id)
                display.table_message_id = None  # gone (deleted, or too old to edit): a fresh one
        # No table message (or it is gone): a fresh one, in a write slot of its own.
        async with self.write_slot(channel) as slot, job.lock:
            if display.table_message_id is not None:
                # Posted while this waited: the lobby's own post (`post_now`), still on its way when this
                # looked (many tables opening at once). Its message is the table's: the next step edits it
                # if it is behind; a second one would leave the lobby behind in the channel.
                return
            record = job.record
            message, win = await self.drawing.drawn(job, record)
            async with slot.request():
                display.table_message_id = await self.announcer.send(channel, message)
            self.drawing.shown(job, record, win)
            await self.drawing.save(job)

    def notice(self, job: Job, said: NoteFact) -> None:
        """The presenter's own word over the table (pictures off, a closed DM), told once."""
        display = job.display
        assert display is not None
        display.notice = said.model_copy(update={"at": job.record.seq})
        display.notice_shown = False
        job.shown_revision = -1  # the table message must show it

    # ---------------------------------------------------------------- the worker

    async def _run(self, job: Job) -> None:
        try:
            while not self._closed:
                job.busy = False
                await job.wake.wait()
                job.busy = True
                await self._started.wait()
                if self.coalesce:
                    await asyncio.sleep(self.coalesce)
                    await job.computer_answered(COMPUTER_WAIT)
                job.wake.clear()
                more = await self._guarded_step(job)
                if more:
                    job.wake.set()
                elif over(self, job):
                    if self.jobs.get(job.record.id) is job:
                        del self.jobs[job.record.id]
                    return
        finally:
            job.busy = False

    async def _guarded_step(self, job: Job) -> bool:
        try:
            more = await self._step(job)
            job.failures = 0
            return more
        except asyncio.CancelledError:
            raise
        except ChannelGone:
            log.warning("table %s: its channel is gone; ending the game", job.record.id)
            job.silenced = True
            await self._channel_gone(job.record.id)
            return False
        except MissingPermission as exc:
            display = await self.drawing.display(job)
            if exc.permission == "attach_files" and not display.pictures_off:
                # Pictures are a bonus: say so once on the table message and go on in text.
                log.info("table %s: no Attach Files permission; text only", job.record.id)
                display.pictures_off = True
                self.notice(job, note("table.pictures_off"))
                await self.drawing.save(job)
                return True
            log.warning(
                "table %s: missing the %s permission; waiting for the next change",
                job.record.id,
                exc.permission,
            )
            job.silenced = True
            return False
        except Exception as exc:
            pause = RETRY_PAUSES[min(job.failures, len(RETRY_PAUSES) - 1)]
            job.failures += 1
            # Discord unwell (a 5xx, a 429, the network): one line; a bug keeps its traceback.
            why = expected(exc)
            log.warning(
                "table %s: writing to Discord failed (%s); retrying in %.1f s",
                job.record.id,
                why or f"{type(exc).__name__}: {exc}",
                pause,
                exc_info=why is None,
            )
            await asyncio.sleep(pause)
            return True

    async def _step(self, job: Job) -> bool:
        """At most one channel write (plus the new hands); True when more is left to do now."""
        display = await self.drawing.display(job)
        if interaction_only(display):
            return await self.answers.step(job)
        owed: list[str] = []
        if display.hands_seq < job.record.seq and job.record.game is not None:
            owed = await self.pings.owed(job)
            if not owed:
                display.hands_seq = job.record.seq  # nothing to send: stored with the next write
        wrote = False
        if not job.silenced and behind_answers(job):
            # The table message first: the whole channel waits for it, a hand only its owner.
            await self.write_table(job)
            wrote = True
        if owed:
            await self.pings.send_hands(job, owed)
        if job.silenced:
            return False
        if wrote or behind_answers(job):
            return True
        if await self.pings.update(job) or await self.homes.update(job):
            return True
        if display.stale_messages:
            async with self.write_slot(job.record.channel_id) as slot, slot.request():
                await self.announcer.delete(job.record.channel_id, display.stale_messages.pop())
            await self.drawing.save(job)
            return True
        self.pings.wake_when_due(job)
        return False


def over(presenter: Presenter, job: Job) -> bool:
    """A finished or cancelled table whose last state is shown: its worker can end."""
    record, display = job.record, job.display
    if record.is_open or job.wake.is_set():
        return False
    if display is None:
        return job.silenced
    if interaction_only(display) and presenter.needs_write(job):
        return False  # its last state is shown at the next click on it: keep what it needs
    settled = job.silenced or (not presenter.needs_write(job) and display.hands_seq >= record.seq)
    settled = settled and display.ping_message_id is None and not display.stale_messages
    return settled and presenter.homes.settled(job)


def behind_answers(job: Job) -> bool:
    """The table message is behind, and no click is being answered with it (that answer wakes the worker
    after, if it did not show everything)."""
    return job.shown_revision < job.record.revision and not job.answering
