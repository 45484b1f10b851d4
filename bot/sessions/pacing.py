"""Pacing under Discord's rate limits, so the bot waits on its own instead of collecting 429s.

Discord allows about 5 message writes (send, edit, delete) per 5 s per channel and 50 requests per second in
all. A `Window` is a sliding window: at most `limit` events in any `period` seconds. A sliding window is at
least as strict as Discord's bucket (which resets a fixed time after its first request); the margin in the
periods below covers the latency between our clock and Discord's.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable
from typing import Any

CHANNEL_WRITES, CHANNEL_PERIOD = 5, 5.4  # Discord: 5 per 5 s per channel (a DM channel too)
# Discord: 50 per second. A slot is taken a moment before its request leaves (under load, many at once), and
# the commands' own calls need room too: 30 keeps every 1-second window under 50 as Discord counts it.
GLOBAL_REQUESTS, GLOBAL_PERIOD = 30, 1.0


class Window:
    def __init__(self, limit: int, period: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.period = period
        self.clock = clock
        self._times: deque[float] = deque()
        # Waiters are served in the order they came (asyncio.Lock is fair): with many tables waiting for the
        # global budget, none is starved while the others keep winning the race for each freed slot.
        self._queue = asyncio.Lock()

    def _trim(self, now: float) -> None:
        while self._times and now - self._times[0] >= self.period:
            self._times.popleft()

    def wait_time(self) -> float:
        """Seconds until one more event fits (0 when it fits now)."""
        now = self.clock()
        self._trim(now)
        if len(self._times) < self.limit:
            return 0.0
        return self._times[0] + self.period - now

    def take(self) -> None:
        self._times.append(self.clock())

    async def acquire(self) -> None:
        """Wait (in turn) until one more event fits, then count it."""
        async with self._queue:
            while (delay := self.wait_time()) > 0:
                await asyncio.sleep(delay)
            self.take()

    def used(self) -> int:
        self._trim(self.clock())
        return len(self._times)


IN_FLIGHT = 8  # requests on their way at once: a slot is counted when its request really leaves


class PacedAnnouncer:
    """An `Announcer` that spends Discord's budget at the moment of each request: it waits for a slot of the
    channel's window and of the global one, then sends. Counting at the call itself (with few requests in
    flight at once) keeps every second Discord counts under its limit even when a thousand tables want a
    write at the same moment (a slot taken long before its request leaves would bunch requests up)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self._channels: dict[int, Window] = {}
        self._global = Window(GLOBAL_REQUESTS, GLOBAL_PERIOD)
        self._in_flight = asyncio.Semaphore(IN_FLIGHT)
        # DMs queue on their own: a slow DM channel must never hold up a table's message (nor a lobby post
        # a command waits for).
        self._dms_in_flight = asyncio.Semaphore(IN_FLIGHT)
        self._dm_windows: dict[int, Window] = {}

    def _window(self, channel_id: int) -> Window:
        window = self._channels.get(channel_id)
        if window is None:
            window = self._channels[channel_id] = Window(CHANNEL_WRITES, CHANNEL_PERIOD)
        return window

    async def _slot(self, channel_id: int | None, requests: int = 1) -> None:
        if channel_id is not None:
            await self._window(channel_id).acquire()
        for _ in range(requests):
            await self._global.acquire()

    async def send(self, channel_id: int, message: Any) -> int:
        async with self._in_flight:
            await self._slot(channel_id)
            return int(await self.inner.send(channel_id, message))

    async def edit(self, channel_id: int, message_id: int, message: Any) -> bool:
        async with self._in_flight:
            await self._slot(channel_id)
            return bool(await self.inner.edit(channel_id, message_id, message))

    async def delete(self, channel_id: int, message_id: int) -> None:
        async with self._in_flight:
            await self._slot(channel_id)
            await self.inner.delete(channel_id, message_id)

    async def dm(self, user_id: int, message: Any) -> None:
        async with self._dms_in_flight:
            # A DM channel has a bucket of its own (5 per 5 s, like a channel): a person at several tables may
            # get several hands at once.
            window = self._dm_windows.get(user_id)
            if window is None:
                window = self._dm_windows[user_id] = Window(CHANNEL_WRITES, CHANNEL_PERIOD)
            await window.acquire()
            # Two requests: discord.py opens the DM channel first (once per user and process).
            await self._slot(None, requests=2)
            await self.inner.dm(user_id, message)
