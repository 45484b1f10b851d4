"""Timers and computer turns: after every stored change, either a computer seat moves (in a task of its own,
so no caller waits for it) or the turn timer of the person to play starts. Both call the service like any
player would."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from bot.sessions.service import TableService
from bot.sessions.state import Table

log = logging.getLogger(__name__)

COMPUTER_WAITS = 0.03  # seconds between a person's move and the computer seat starting to think


class Scheduler:
    def __init__(self, service: TableService, *, clock: Callable[[], float] = time.time) -> None:
        self.service = service
        self.clock = clock
        self._timers: dict[int, asyncio.Task[Any]] = {}  # table id -> its one live timer (also while it runs)
        self._tasks: set[asyncio.Task[Any]] = set()  # computer turns in flight
        self._closed = False

    def after(self, table: Table) -> None:
        """Called by the service after each stored change (synchronously: it only schedules)."""
        if table.status != "running" or self._closed or not self.service.is_current(table):
            self._cancel_timer(table)
            table.deadline = None
            return
        current = table.playing.current_player
        if current is not None and table.seat_is_computer(current):
            self._cancel_timer(table)
            table.deadline = None
            self._spawn(self._computer_turn(table))
        else:
            self._schedule_timer(table)

    async def _computer_turn(self, table: Table) -> None:
        # The move that gave the computer its turn is still being answered: its answer leaves first (the
        # computer thinks in a thread, which would compete with it for the interpreter).
        await asyncio.sleep(COMPUTER_WAITS)
        await self.service.computer_moves(table)

    def _spawn(self, coro: Awaitable[None]) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("session task failed", exc_info=task.exception())

    def _cancel_timer(self, table: Table) -> None:
        timer = self._timers.pop(table.id, None)
        if timer is not None and timer is not asyncio.current_task():
            timer.cancel()

    def _schedule_timer(self, table: Table) -> None:
        self._cancel_timer(table)
        if table.timeout <= 0:
            table.deadline = None
            return
        table.deadline = self.clock() + table.timeout
        task = asyncio.ensure_future(self._timer(table, table.seq, table.timeout))
        self._timers[table.id] = task

    async def _timer(self, table: Table, seq: int, delay: float) -> None:
        await asyncio.sleep(delay)
        # The timer stays in `_timers` while it applies, so `close()` (a restart) stops it half way.
        try:
            await self.service.time_out(table, seq)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: the turn timer failed", table.id)

    async def idle(self) -> None:
        """Wait until no computer turn is in flight."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def close(self) -> None:
        """Stop every timer and computer turn; the stored state is already complete."""
        self._closed = True
        tasks = list(self._timers.values()) + list(self._tasks)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        self._timers.clear()
        self._tasks.clear()
