"""Pacing under Discord's rate limits, so the bot waits on its own instead of collecting 429s.

Discord allows about 5 message writes (send, edit, delete) per 5 s per channel (a DM channel too) and 50
requests per second in all. The presenter asks the `Pacer` for a slot, and only once it has one does it draw
the newest state and send it: a table that waited for its slot shows every move made while it waited, in one
write (coalescing under load comes for free), and the slot is stamped when the request really leaves.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import AsyncIterator, Callable

CHANNEL_WRITES, CHANNEL_PERIOD = 5, 5.4  # Discord: 5 per 5 s per channel; the margin covers clock skew
# Discord: 50 per second. The bot's requests are spaced evenly at this rate (no bursts), so any second as
# Discord counts it, with a few tens of milliseconds of latency jitter, holds at most 47; the requests the
# pacer does not see (the command sync at start) happen before the presenter starts.
GLOBAL_RATE = 45.0
IN_FLIGHT = 8  # requests on their way at once


class Window:
    """A sliding window: at most `limit` events in any `period` seconds. At least as strict as Discord's
    bucket (which resets a fixed time after its first request)."""

    def __init__(self, limit: int, period: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.period = period
        self.clock = clock
        self._times: deque[float] = deque()
        # Waiters are served in the order they came (asyncio.Lock is fair).
        self.queue = asyncio.Lock()

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

    async def wait(self) -> None:
        """Until one more event fits (the caller holds `queue`, so nobody takes it meanwhile)."""
        while (delay := self.wait_time()) > 0:
            await asyncio.sleep(delay)

    def used(self) -> int:
        self._trim(self.clock())
        return len(self._times)


class Spacing:
    """Discord's global budget: requests spaced at least 1/`rate` s apart, first come first served. Even
    spacing keeps every second under the limit however Discord's window falls, and a queue of a hundred
    tables drains at a steady rate instead of in bursts."""

    def __init__(self, rate: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.interval = 1.0 / rate
        self.clock = clock
        self._next = 0.0
        self._queue = asyncio.Lock()

    async def acquire(self, requests: int = 1) -> None:
        async with self._queue:
            now = self.clock()
            start = max(now, self._next)
            if start > now:
                await asyncio.sleep(start - now)
            self._next = max(self.clock(), start) + requests * self.interval


class Pacer:
    """Slots in Discord's budget, taken right before a request leaves: the channel's (or DM channel's)
    window and the global spacing."""

    def __init__(self) -> None:
        self._channels: dict[int, Window] = {}
        self._dm_channels: dict[int, Window] = {}
        self._global = Spacing(GLOBAL_RATE)
        self._in_flight = asyncio.Semaphore(IN_FLIGHT)
        # DMs have their own flight: a slow DM channel never holds up a table's message.
        self._dms_in_flight = asyncio.Semaphore(IN_FLIGHT)
        self._dm_opened: set[int] = set()

    @staticmethod
    def _window(windows: dict[int, Window], key: int) -> Window:
        window = windows.get(key)
        if window is None:
            window = windows[key] = Window(CHANNEL_WRITES, CHANNEL_PERIOD)
        return window

    @contextlib.asynccontextmanager
    async def write(self, channel_id: int) -> AsyncIterator[None]:
        """One message write in a channel: yields when it may leave now."""
        window = self._window(self._channels, channel_id)
        # The channel's writes go one at a time: its window can only free up while this one waits for the
        # global budget, and it is stamped when the request leaves.
        async with window.queue:
            await window.wait()
            async with self._in_flight:
                await self._global.acquire()
                window.take()
                yield

    @contextlib.asynccontextmanager
    async def dm(self, user_id: int) -> AsyncIterator[None]:
        """One DM: the first to a person in this process opens the DM channel too (two requests)."""
        window = self._window(self._dm_channels, user_id)
        async with window.queue:
            await window.wait()
            async with self._dms_in_flight:
                await self._global.acquire(1 if user_id in self._dm_opened else 2)
                window.take()
                self._dm_opened.add(user_id)
                yield
