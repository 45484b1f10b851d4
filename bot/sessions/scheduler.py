"""Timers and computer turns: after every stored change, either a computer seat moves (in a task of its own,
so no caller waits for it) or the turn timer of the person to play starts. Both act like any player would.
The scheduler owns the timers and their deadlines (the table message shows `deadline(table_id)`)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from bot.sessions.facts import GameChanged, TableFact
from bot.sessions.records import TableRecord
from bot.sessions.stopping import cancel_and_wait

log = logging.getLogger(__name__)

COMPUTER_WAITS = 0.03  # seconds between a person's move and the computer seat starting to think


class Scheduler:
    def __init__(
        self,
        *,
        computer_moves: Callable[[int], Awaitable[None]],
        time_out: Callable[[int, int], Awaitable[None]],
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._computer_moves = computer_moves
        self._time_out = time_out
        self.clock = clock
        self._timers: dict[int, asyncio.Task[Any]] = {}  # table id -> its one live timer (also while it runs)
        self._deadlines: dict[int, float] = {}
        self._timer_seq: dict[int, int] = {}  # the action count each live timer was set at
        self._tasks: set[asyncio.Task[Any]] = set()  # computer turns in flight
        self._thinking: set[int] = set()  # tables with a computer turn in flight
        self._closed = False

    def deadline(self, table_id: int) -> float | None:
        """When the running turn timer of the table runs out (None: no timer)."""
        return self._deadlines.get(table_id)

    def after(self, fact: TableFact) -> None:
        """The `stored` signal (synchronous: it only schedules): a running game's step sets its timer or
        starts a computer turn; anything else ends its timer."""
        record = fact.record
        if not isinstance(fact, GameChanged) or self._closed or record.game is None:
            self._cancel_timer(record.id)
            return
        current = record.game.current_player
        if current is not None and record.seat_is_computer(current):
            self._cancel_timer(record.id)
            if record.id not in self._thinking:
                self._thinking.add(record.id)
                self._spawn(self._computer_turn(record.id))
        else:
            self._schedule_timer(record)

    async def _computer_turn(self, table_id: int) -> None:
        # The move that gave the computer its turn is still being answered: its answer leaves first.
        try:
            await asyncio.sleep(COMPUTER_WAITS)
            await self._computer_moves(table_id)
        finally:
            self._thinking.discard(table_id)

    def _spawn(self, coro: Awaitable[None]) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("session task failed", exc_info=task.exception())

    def _cancel_timer(self, table_id: int) -> None:
        self._deadlines.pop(table_id, None)
        self._timer_seq.pop(table_id, None)
        timer = self._timers.pop(table_id, None)
        if timer is not None and timer is not asyncio.current_task():
            timer.cancel()

    def _schedule_timer(self, record: TableRecord) -> None:
        if record.id in self._timers and self._timer_seq.get(record.id) == record.seq:
            return  # the same turn (a change that is no move): its timer runs on
        self._cancel_timer(record.id)
        if record.timeout <= 0:
            return
        self._deadlines[record.id] = self.clock() + record.timeout
        task = asyncio.ensure_future(self._timer(record.id, record.seq, record.timeout))
        self._timers[record.id] = task
        self._timer_seq[record.id] = record.seq

    async def _timer(self, table_id: int, seq: int, delay: float) -> None:
        await asyncio.sleep(delay)
        # The timer stays in `_timers` while it applies, so `close()` (a restart) stops it half way.
        try:
            await self._time_out(table_id, seq)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: the turn timer failed", table_id)

    def busy(self) -> bool:
        return bool(self._tasks)

    async def idle(self) -> None:
        """Wait until no computer turn is in flight."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def close(self) -> None:
        """Stop every timer and computer turn; the stored state is already complete."""
        self._closed = True
        await cancel_and_wait([*self._timers.values(), *self._tasks])
        self._timers.clear()
        self._tasks.clear()
        self._deadlines.clear()
