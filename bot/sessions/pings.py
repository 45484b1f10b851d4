"""The presenter's two smaller jobs: the new hands by DM, and the "your turn" ping for a person who stays
quiet after the turn passed to him from another person (deleted when the turn moves on; never against the
computer).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any, Protocol

from bot.games.registry import REGISTRY
from bot.i18n import t
from bot.render.common import Message, moment, name
from bot.render.compose import hand_message
from bot.sessions.drawing import Drawing, Job
from bot.sessions.errors import DMClosed
from bot.sessions.pacing import Slot
from bot.sessions.records import NoteFact, TableRecord, note, player
from bot.sessions.view import view_of


class Host(Protocol):
    """What these jobs use of the presenter that holds them."""

    announcer: Any
    drawing: Drawing

    def clock(self) -> float: ...
    def deadline(self, table_id: int) -> float | None: ...
    def write_slot(self, channel_id: int) -> contextlib.AbstractAsyncContextManager[Slot]: ...
    def dm_slot(self, user_id: int) -> contextlib.AbstractAsyncContextManager[Slot]: ...
    def notice(self, job: Job, said: NoteFact) -> None: ...
    def live(self, job: Job) -> bool: ...
    def wake(self, job: Job) -> None: ...


log = logging.getLogger(__name__)


async def drawn_hand_message(record: TableRecord, who: str, *, pictures_off: bool) -> Message:
    """A player's hand for his DM (his private view, `bot.render.compose`), its picture drawn in a worker
    thread from the stored game."""
    locale = record.locale_of(who)
    snapshot = record.snapshot
    if snapshot is None or pictures_off or not record.options.get("pictures", True):
        return hand_message(view_of(record, reader=who, locale=locale, pictures_off=True))
    spec = REGISTRY[record.kind]
    copy = record.evolve(game=spec.load(snapshot))  # the thread's own game (the record's is shared)
    view = await asyncio.to_thread(lambda: view_of(copy, reader=who, locale=locale, picture=True))
    return hand_message(view)


class Pings:
    def __init__(self, presenter: Host, ping_after: float) -> None:
        self.presenter = presenter
        self.ping_after = ping_after

    # ---------------------------------------------------------------- hands

    async def owed(self, job: Job) -> list[str]:
        """The people whose hand a step since the last sending changed (each once)."""
        record, display = job.record, job.display
        assert display is not None
        owed: list[str] = []
        for step in await self.presenter.drawing.steps_for_hands(job):
            if step.count > display.hands_seq:
                owed.extend(p for p in step.hands if p not in owed)
        return [p for p in owed if p not in display.dm_closed and not record.seat_is_computer(p)]

    async def send_hands(self, job: Job, owed: list[str]) -> None:
        """Each of them gets his hand once, as it is now; the mark of what was sent is stored."""
        presenter, record, display = self.presenter, job.record, job.display
        assert display is not None
        display.hands_seq = record.seq
        for who in owed:
            try:
                async with presenter.dm_slot(int(who)) as slot:
                    message = await drawn_hand_message(record, who, pictures_off=display.pictures_off)
                    async with slot.request():
                        await presenter.announcer.dm(int(who), message)
            except DMClosed:
                display.dm_closed.append(who)
                # Told once, on the table message (no message of its own): /hand always works.
                presenter.notice(job, note("table.dm_closed", player=player(who)))
            except Exception as exc:
                # Discord unwell, another 403: the hand stays available by /hand; no retry storm.
                log.warning("table %s: DMing the hand to %s failed (%s)", record.id, who, exc)
        await presenter.drawing.save(job)

    # ---------------------------------------------------------------- pings

    def track(self, job: Job, record: TableRecord) -> None:
        """Who holds the turn and since when, from each new record."""
        game = record.game
        current = None if game is None or game.is_over else game.current_player
        now = self.presenter.clock()
        moved = record.seq > job.tracked_seq >= 0 and record.moves and record.moves[-1].count == record.seq
        if moved and record.moves[-1].actor == job.turn_holder:
            job.turn_since = now  # he is here and moving: no ping
        job.tracked_seq = max(job.tracked_seq, record.seq)
        if current is not None and not record.seat_is_computer(current) and current != job.turn_holder:
            # A ping only when the turn passes between two people: not at the start, not after a restart,
            # never for a turn that comes back after the computer's.
            job.ping_wanted = job.turn_holder is not None
            job.turn_holder, job.turn_since = current, now

    def _current_person(self, job: Job) -> str | None:
        record = job.record
        if record.status != "running" or record.game is None or record.game.is_over:
            return None
        current = record.game.current_player
        if current is None or record.seat_is_computer(current) or job.turn_holder != current:
            return None
        return current if job.ping_wanted else None

    def _target(self, job: Job) -> str | None:
        current = self._current_person(job)
        if current is None:
            return None
        return current if self.presenter.clock() - job.turn_since >= self.ping_after else None

    def wake_when_due(self, job: Job) -> None:
        current = self._current_person(job)
        display = job.display
        if current is None or display is None or display.ping_player == current:
            return
        due = job.turn_since + self.ping_after
        presenter = self.presenter
        if due <= presenter.clock():
            return

        def wake() -> None:
            if presenter.live(job):
                presenter.wake(job)

        asyncio.get_running_loop().call_later(max(0.0, due - presenter.clock()), wake)

    async def update(self, job: Job) -> bool:
        presenter, record, display = self.presenter, job.record, job.display
        assert display is not None
        target = self._target(job)
        if display.ping_player == target:
            return False
        if display.ping_message_id is not None:
            async with presenter.write_slot(record.channel_id) as slot:
                message_id, display.ping_message_id, display.ping_player = display.ping_message_id, None, None
                async with slot.request():
                    await presenter.announcer.delete(record.channel_id, message_id)
            await presenter.drawing.save(job)
            return True
        if target is None:
            display.ping_player = None
            return False
        deadline = presenter.deadline(record.id)
        if deadline:  # each surface words the moment in its reader's own language
            text = t(
                record.language,
                "turn.ping_deadline",
                player=name(target),
                table=record.id,
                deadline=moment(deadline),
            )
        else:
            text = t(record.language, "turn.ping", player=name(target), table=record.id)
        async with presenter.write_slot(record.channel_id) as slot, slot.request():
            display.ping_message_id = await presenter.announcer.send(
                record.channel_id, Message(content=text, mentions=[int(target)])
            )
        display.ping_player = target
        await presenter.drawing.save(job)
        return True
