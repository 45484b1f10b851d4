"""Pacing under Discord's rate limits, so the bot waits on its own instead of collecting 429s.

Discord allows about 5 message writes (send, edit, delete) per 5 s per channel (a DM channel too) and 50
requests per second in all. The presenter asks the `Pacer` for a slot, and only once it has one does it draw
the newest state and send it: a table that waited for its slot shows every move made while it waited, in one
write (coalescing under load comes for free).

Discord counts a request when it gets there, somewhere between the moment it leaves and the moment its answer
is back. So a `Budget` counts each request from the moment it leaves until one period after its answer came
back: whatever the latency and its jitter, no window as Discord counts it holds more than the limit.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import AsyncIterator, Callable

CHANNEL_WRITES, CHANNEL_PERIOD = 5, 5.0  # Discord: 5 per 5 s per channel (a DM channel too)
GLOBAL_REQUESTS, GLOBAL_PERIOD = 48, 1.0  # Discord: 50 per second; the last two stay for clock drift
# Writes are started evenly at this rate, under the budget: a queue of a hundred tables drains steadily, not
# in bursts that would wait at the door.
GLOBAL_RATE = 47.0
IN_FLIGHT = 8  # requests drawn and on their way at once
RECHECK = 0.005  # seconds between looks when the whole budget is on its way (no answer back yet)


class Budget:
    """At most `limit` requests in any `period` seconds as the server counts them: a request counts from the
    moment it leaves until `period` after its answer came back."""

    def __init__(self, limit: int, period: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.period = period
        self.clock = clock
        self._on_the_way = 0
        self._answered: deque[float] = deque()  # when each answer came back, oldest first
        # Waiters are served in the order they came (asyncio.Lock is fair).
        self.queue = asyncio.Lock()

    def used(self) -> int:
        now = self.clock()
        while self._answered and now - self._answered[0] >= self.period:
            self._answered.popleft()
        return self._on_the_way + len(self._answered)

    def wait_time(self, requests: int = 1) -> float:
        """Seconds until `requests` more fit (0 when they fit now)."""
        if self.used() + requests <= self.limit:
            return 0.0
        if not self._answered:
            return RECHECK  # all of it on its way: room comes with the answers
        return max(self._answered[0] + self.period - self.clock(), RECHECK)

    async def wait(self, requests: int = 1) -> None:
        """Until `requests` more fit (the caller holds `queue`, so nobody takes the room meanwhile)."""
        while (delay := self.wait_time(requests)) > 0:
            await asyncio.sleep(delay)

    def leave(self, requests: int = 1) -> None:
        self._on_the_way += requests

    def back(self, requests: int = 1) -> None:
        self._on_the_way -= requests
        self._answered.extend([self.clock()] * requests)


class Spacing:
    """Places in line, at least 1/`rate` s apart, first come first served."""

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


class Slot:
    """A write's place in Discord's budget, its turn come: draw what to send, then send it inside
    `request()`, which waits at the door for the global budget and counts the request until its answer."""

    def __init__(self, pacer: Pacer | None = None, channel: Budget | None = None, requests: int = 1) -> None:
        self._pacer = pacer
        self._channel = channel
        self._requests = requests
        self.used = False

    @contextlib.asynccontextmanager
    async def request(self) -> AsyncIterator[None]:
        self.used = True
        if self._pacer is None or self._channel is None:
            yield
            return
        door = self._pacer.door
        async with door.queue:
            await door.wait(self._requests)
            door.leave(self._requests)
        self._channel.leave()
        try:
            yield
        finally:
            door.back(self._requests)
            self._channel.back()


class Pacer:
    """Slots in Discord's budget: the channel's (or DM channel's) and the global one."""

    def __init__(self) -> None:
        self._channels: dict[int, Budget] = {}
        self._dm_channels: dict[int, Budget] = {}
        self._line = Spacing(GLOBAL_RATE)
        self.door = Budget(GLOBAL_REQUESTS, GLOBAL_PERIOD)
        self._in_flight = asyncio.Semaphore(IN_FLIGHT)
        # DMs have their own flight: a slow DM channel never holds up a table's message.
        self._dms_in_flight = asyncio.Semaphore(IN_FLIGHT)

    @staticmethod
    def _budget(budgets: dict[int, Budget], key: int) -> Budget:
        budget = budgets.get(key)
        if budget is None:
            budget = budgets[key] = Budget(CHANNEL_WRITES, CHANNEL_PERIOD)
        return budget

    @contextlib.asynccontextmanager
    async def write(self, channel_id: int) -> AsyncIterator[Slot]:
        """One message write in a channel: yields its slot once its turn has come."""
        channel = self._budget(self._channels, channel_id)
        # The channel's writes go one at a time: its room can only grow while this one waits and draws.
        async with channel.queue:
            await channel.wait()
            async with self._in_flight:
                await self._line.acquire()
                yield Slot(self, channel)

    @contextlib.asynccontextmanager
    async def dm(self, user_id: int, requests: int = 1) -> AsyncIterator[Slot]:
        """One DM of `requests` requests (two when the DM channel is opened first)."""
        channel = self._budget(self._dm_channels, user_id)
        async with channel.queue:
            await channel.wait()
            async with self._dms_in_flight:
                await self._line.acquire(requests)
                yield Slot(self, channel, requests)
