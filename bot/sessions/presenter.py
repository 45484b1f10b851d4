"""The presenter: turns stored table state into Discord messages at Discord's pace.

One worker per table. The service tells it `changed(table)` after every stored change and goes on; the worker
waits a moment (several moves in that moment become one write), waits until the channel's bucket and the
global budget allow a write (it never provokes a 429), then writes the newest state: the table message
(edited in place; it carries the board, the recent moves and whose turn it is), the hands to DM, a "your
turn" ping for a person who has not moved for a while (deleted when the turn moves on). A failed write is
retried after a pause; what to show is always derived from the table as stored, so after a failure or a
restart the channel catches up instead of losing lines.

A click on the table message's own buttons can update it through the interaction's response, which costs no
channel write: `interaction_update()` renders under the same per-table lock and marks that state shown.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot import render
from bot.games.registry import REGISTRY
from bot.i18n import t
from bot.render.common import Message, name
from bot.sessions.errors import ChannelGone, DMClosed, EditExpired, MissingPermission
from bot.sessions.failures import expected
from bot.sessions.pacing import Budget, Pacer, Slot
from bot.sessions.state import Table

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
        """How many rate-limited requests a DM to this user takes now (2 when his DM channel must be opened
        first)."""


@dataclass
class _Job:
    table: Table
    shown: int = 0  # the table version the table message shows
    shown_seq: int = -1  # the action count it shows: later log lines are new to the channel
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)  # one write of this table's messages at a time
    task: asyncio.Task[Any] | None = None
    failures: int = 0
    stale_messages: list[int] = field(default_factory=list)  # old table messages to delete (after 30046)
    silenced: bool = False  # the bot may not write here (permission missing): wait for the next change
    busy: bool = False  # between a wake-up and the end of its step
    waiting_since: float | None = None  # (monotonic) the oldest change its message does not show: /metrics


def _shown_seq(table: Table) -> int:
    """The action count a table message drawn now shows the log up to. A lobby (or a challenge) shows no log
    line: the lines of the game's start carry the same count (0) as the lobby, so counting them shown would
    drop them for good whenever more than a few lines come before the next write (a failed write, quick
    moves)."""
    return table.seq if table.game is not None else -1


def table_view(
    table: Table, shown_seq: int | None = None, *, locale: object = None, picture: bool = True
) -> Message:
    """The table message for the table as it stands (also what /table shows). Lines of actions after
    `shown_seq` are new to the channel: all of them are shown. In the table's public language unless a
    `locale` is given (/table, answered privately); the log lines stay as they were written, in public."""
    recent = [line.text for line in table.meta.recent]
    new = len(recent) if shown_seq is None else sum(line.seq > shown_seq for line in table.meta.recent)
    deadline = int(table.deadline) if table.deadline else None
    message = render.table_message(
        table.info(),
        table.game,
        note=table.meta.note,
        recent=recent,
        new=new,
        deadline=deadline,
        locale=table.language if locale is None else locale,
        picture=picture,
    )
    if table.game is not None:
        message.mentions = []  # only the challenge pings (when posted); the game's edits never do
    return message


async def drawn_table_view(table: Table, shown_seq: int | None) -> Message:
    """`table_view` with its picture drawn in a worker thread, from the game as stored: Pillow takes a few
    milliseconds a picture, and meanwhile the event loop goes on answering players."""
    info = table.info()
    snapshot = table.snapshot
    if table.game is None or snapshot is None or not info.pictures:
        return table_view(table, shown_seq)
    message = table_view(table, shown_seq, picture=False)
    spec, locale = REGISTRY[table.kind], table.language
    picture = await asyncio.to_thread(lambda: render.table_picture(info, spec.load(snapshot), locale=locale))
    return render.attach_picture(message, picture)


async def drawn_hand_message(table: Table, player: str) -> Message:
    """A player's hand for his DM, its picture drawn in a worker thread like the table's."""
    info, game, locale = table.info(), table.playing, table.locale_of(player)
    snapshot = table.snapshot
    if snapshot is None or not info.pictures:
        return render.hand_message(info, game, player, dm=True, locale=locale)
    message = render.hand_message(info, game, player, dm=True, locale=locale, picture=False)
    spec = REGISTRY[table.kind]
    picture = await asyncio.to_thread(
        lambda: render.hand_picture(info, spec.load(snapshot), player, locale=locale)
    )
    return render.attach_picture(message, picture)


class Presenter:
    def __init__(
        self,
        announcer: Announcer,
        *,
        save: Callable[[Table], Awaitable[None]],
        channel_gone: Callable[[Table], Awaitable[None]],
        clock: Callable[[], float] = time.time,
        coalesce: float = 0.15,
        ping_after: float = 15.0,
        pacing: bool = True,
        door: Budget | None = None,
    ) -> None:
        self.announcer = announcer
        # Off only in tests that count what is written, not when. `door`: the process's share of the token's
        # global budget (bot.ops), else one of the pacer's own.
        self.pacer: Pacer | None = Pacer(door) if pacing else None
        self._save = save
        self._channel_gone = channel_gone
        self.clock = clock
        self.coalesce = coalesce
        self.ping_after = ping_after
        self._jobs: dict[int, _Job] = {}
        self._started = asyncio.Event()
        self._closed = False
        self.writes = 0  # rate-limited calls made (send, edit, delete, DM): for tests and benchmarks

    # ---------------------------------------------------------------- control

    def start(self) -> None:
        """Begin writing (after the gateway is ready: nothing is sent before)."""
        self._started.set()

    def changed(self, table: Table) -> None:
        """The table changed: show its newest state when the channel allows. Never blocks."""
        if self._closed:
            return
        job = self._job(table)
        if job.waiting_since is None or job.shown >= table.version - 1:
            job.waiting_since = time.monotonic()  # the message showed everything before this change
        job.silenced = False
        job.wake.set()
        if job.task is None or job.task.done():
            job.task = asyncio.ensure_future(self._run(job))

    def shows_newest(self, table: Table) -> bool:
        """Whether the table message shows the table as it stands (what a person in the channel sees)."""
        job = self._jobs.get(table.id)
        return job is None or job.table is not table or job.shown >= table.version

    def backlog(self) -> tuple[int, float]:
        """For /metrics: how many tables' messages do not show their newest state, and how long (s) the one
        that waits longest has waited."""
        now, waiting, longest = time.monotonic(), 0, 0.0
        for job in self._jobs.values():
            if job.shown < job.table.version and not job.silenced:
                waiting += 1
                longest = max(longest, now - (job.waiting_since or now))
        return waiting, longest

    async def idle(self) -> None:
        """Wait until every table shows its newest state (tests and shutdown use this); a ping still to
        come later does not count."""
        while not self._closed and self._started.is_set() and any(
            j.busy or j.wake.is_set() for j in self._jobs.values() if j.task and not j.task.done()
        ):
            await asyncio.sleep(0.005)

    async def close(self) -> None:
        self._closed = True
        tasks = [j.task for j in self._jobs.values() if j.task]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        self._jobs.clear()

    def _job(self, table: Table) -> _Job:
        job = self._jobs.get(table.id)
        if job is None or job.table is not table:
            job = self._jobs[table.id] = _Job(table)
        return job

    async def post_now(self, table: Table) -> None:
        """Post a new table's message at once (a lobby): the caller learns whether the bot may write here.
        Raises `MissingPermission`, `ChannelGone`, or whatever else Discord answered."""
        job = self._job(table)
        async with self._write_slot(table.channel_id) as slot, job.lock:
            version, seq = table.version, _shown_seq(table)
            message = table_view(table)
            async with slot.request():
                table.meta.table_message_id = await self.announcer.send(table.channel_id, message)
            job.shown, job.shown_seq = max(job.shown, version), seq
            table.shown_note = table.meta.note
        await self._save(table)

    @contextlib.asynccontextmanager
    async def interaction_update(self, table: Table) -> AsyncIterator[Message]:
        """The newest table message for a click's own response (type 7); shown once the block succeeds."""
        job = self._job(table)
        async with job.lock:
            version, seq = table.version, _shown_seq(table)
            yield table_view(table, job.shown_seq)
            job.shown, job.shown_seq = max(job.shown, version), seq
            table.shown_note = table.meta.note

    # ---------------------------------------------------------------- the worker

    def _write_slot(self, channel_id: int) -> contextlib.AbstractAsyncContextManager[Slot]:
        """One rate-limited write in the channel: entered when its turn has come. What to write is decided
        inside, so a table that waited for its turn shows everything that happened meanwhile; the request
        itself goes inside the slot's `request()`."""
        return self._slot(lambda pacer: pacer.write(channel_id))

    def _dm_slot(self, user_id: int) -> contextlib.AbstractAsyncContextManager[Slot]:
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

    async def _run(self, job: _Job) -> None:
        try:
            while not self._closed:
                job.busy = False
                await job.wake.wait()
                job.busy = True
                await self._started.wait()
                if self.coalesce:
                    await asyncio.sleep(self.coalesce)
                job.wake.clear()
                try:
                    more = await self._step(job)
                    job.failures = 0
                except asyncio.CancelledError:
                    raise
                except ChannelGone:
                    log.warning("table %s: its channel is gone; ending the game", job.table.id)
                    job.silenced = True
                    await self._channel_gone(job.table)
                    more = False
                except MissingPermission as exc:
                    if exc.permission == "attach_files" and not job.table.meta.pictures_off:
                        # Pictures are a bonus: say so once on the table message and go on in text.
                        await self._pictures_off(job.table)
                        more = True
                    else:
                        log.warning("table %s: missing the %s permission; waiting for the next change",
                                    job.table.id, exc.permission)
                        job.silenced = True
                        more = False
                except Exception as exc:
                    pause = RETRY_PAUSES[min(job.failures, len(RETRY_PAUSES) - 1)]
                    job.failures += 1
                    why = expected(exc)  # Discord unwell: one line; anything else keeps its traceback
                    log.warning("table %s: writing to Discord failed (%s); retrying in %.1f s",
                                job.table.id, why or type(exc).__name__, pause, exc_info=why is None)
                    await asyncio.sleep(pause)
                    more = True
                if more:
                    job.wake.set()
                elif self._over(job):
                    if self._jobs.get(job.table.id) is job:
                        del self._jobs[job.table.id]
                    return
        finally:
            job.busy = False

    @staticmethod
    def _over(job: _Job) -> bool:
        """A finished or cancelled table whose last state is shown: its worker can end."""
        table = job.table
        if table.status not in ("finished", "cancelled") or job.wake.is_set():
            return False
        settled = job.silenced or (job.shown >= table.version and not table.meta.dm_pending)
        return settled and table.meta.ping_message_id is None and not job.stale_messages

    async def _step(self, job: _Job) -> bool:
        """At most one channel write (plus pending DMs); True when more is left to do now."""
        table = job.table
        wrote = False
        if not job.silenced and job.shown < table.version:
            # The table message first: the whole channel waits for it, a hand only its owner.
            await self._write_table(job)
            wrote = True
        if table.meta.dm_pending:
            await self._send_hands(table)
        if job.silenced:
            return False
        if wrote or job.shown < table.version:  # a closed DM's note is news for the table message
            return True
        if await self._update_ping(job):
            return True
        if job.stale_messages:
            async with self._write_slot(table.channel_id) as slot, slot.request():
                await self.announcer.delete(table.channel_id, job.stale_messages.pop())
            return True
        due = self._ping_due_at(table)
        if due is not None:
            self._wake_at(job, due)
        return False

    async def _write_table(self, job: _Job) -> None:
        table = job.table
        if table.meta.table_message_id is not None:
            async with self._write_slot(table.channel_id) as slot, job.lock:
                if job.shown >= table.version:
                    return  # a click's response showed it meanwhile: the write slot is simply unused
                message_id = table.meta.table_message_id
                version, seq = table.version, _shown_seq(table)
                message = await drawn_table_view(table, job.shown_seq)
                try:
                    async with slot.request():
                        edited = await self.announcer.edit(table.channel_id, message_id, message)
                    if edited:
                        self._shown(job, version, seq)
                        return
                except EditExpired:
                    # Discord no longer lets us edit it (an old message): a fresh one, the old one goes.
                    job.stale_messages.append(message_id)
        # No table message (or it is gone): a fresh one, in a write slot of its own.
        async with self._write_slot(table.channel_id) as slot, job.lock:
            version, seq = table.version, _shown_seq(table)
            message = await drawn_table_view(table, job.shown_seq)
            async with slot.request():
                table.meta.table_message_id = await self.announcer.send(table.channel_id, message)
            await self._save(table)
            self._shown(job, version, seq)

    @staticmethod
    def _shown(job: _Job, version: int, seq: int) -> None:
        job.shown, job.shown_seq = max(job.shown, version), seq
        job.table.shown_note = job.table.meta.note

    async def _pictures_off(self, table: Table) -> None:
        log.info("table %s: no Attach Files permission in channel %s; text only", table.id, table.channel_id)
        table.meta.pictures_off = True
        table.meta.note = t(table.language, "table.pictures_off")
        table.version += 1
        await self._save(table)

    async def _send_hands(self, table: Table) -> None:
        for player in list(table.meta.dm_pending):
            if player in table.meta.dm_closed or table.seat_is_computer(player) or table.game is None:
                table.meta.dm_pending.remove(player)
                continue
            try:
                async with self._dm_slot(int(player)) as slot:
                    message = await drawn_hand_message(table, player)
                    async with slot.request():
                        await self.announcer.dm(int(player), message)
            except DMClosed:
                table.meta.dm_closed.append(player)
                # Told once, on the table message (no message of its own): /hand always works.
                table.meta.note = t(table.language, "table.dm_closed", player=name(player))
                table.version += 1
            except Exception as exc:
                # Discord unwell, another 403: the hand stays available by /hand; no retry storm.
                why = expected(exc)
                log.warning("table %s: DMing the hand to %s failed (%s)", table.id, player,
                            why or type(exc).__name__, exc_info=why is None)
            table.meta.dm_pending.remove(player)
        await self._save(table)

    # ---------------------------------------------------------------- pings

    def _ping_target(self, table: Table) -> str | None:
        """Who should hold a ping now: the person whose turn it is, once he has had it for `ping_after`."""
        if table.status != "running" or table.game is None or table.game.is_over:
            return None
        current = table.game.current_player
        if current is None or table.seat_is_computer(current) or table.turn_holder != current:
            return None
        if not table.ping_wanted:
            return None
        return current if self.clock() - table.turn_since >= self.ping_after else None

    def _ping_due_at(self, table: Table) -> float | None:
        """When the current person's ping falls due, if it is still to come."""
        if table.status != "running" or table.game is None or table.game.is_over:
            return None
        current = table.game.current_player
        if current is None or table.seat_is_computer(current) or table.meta.ping_player == current:
            return None
        if table.turn_holder != current or not table.ping_wanted:
            return None
        due = table.turn_since + self.ping_after
        return due if due > self.clock() else None

    def _wake_at(self, job: _Job, when: float) -> None:
        def wake() -> None:
            if self._jobs.get(job.table.id) is job:
                job.wake.set()
                if job.task is None or job.task.done():
                    job.task = asyncio.ensure_future(self._run(job))

        asyncio.get_running_loop().call_later(max(0.0, when - self.clock()), wake)

    async def _update_ping(self, job: _Job) -> bool:
        table = job.table
        target = self._ping_target(table)
        meta = table.meta
        if meta.ping_player == target:
            return False
        if meta.ping_message_id is not None:
            async with self._write_slot(table.channel_id) as slot:
                message_id, meta.ping_message_id, meta.ping_player = meta.ping_message_id, None, None
                async with slot.request():
                    await self.announcer.delete(table.channel_id, message_id)
            await self._save(table)
            return True
        if target is None:
            meta.ping_player = None
            return False
        # Discord writes the <t:...:R> timestamp in each reader's own language.
        if table.deadline:
            text = t(
                table.language,
                "turn.ping_deadline",
                player=name(target),
                table=table.id,
                deadline=f"<t:{int(table.deadline)}:R>",
            )
        else:
            text = t(table.language, "turn.ping", player=name(target), table=table.id)
        ping = Message(content=text, mentions=[int(target)])
        async with self._write_slot(table.channel_id) as slot, slot.request():
            meta.ping_message_id = await self.announcer.send(table.channel_id, ping)
        meta.ping_player = target
        await self._save(table)
        return True
