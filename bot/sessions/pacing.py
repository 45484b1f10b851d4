"""Pacing under Discord's rate limits, so the bot waits on its own instead of collecting 429s.

Discord allows about 5 message writes (send, edit, delete) per 5 s per channel (a DM channel, a thread too)
and 50 requests per second in all. The presenter asks the `Pacer` for a slot, and only once it has one does it
draw the newest state and send it: a table that waited for its slot shows every move made while it waited, in
one write (coalescing under load comes for free).

Discord counts a request when it gets there, somewhere between the moment it leaves and the moment its answer
is back. So a `Budget` counts each request from the moment it leaves until one period after its answer came
back: whatever the latency and its jitter, no window as Discord counts it holds more than the limit.

The global limit belongs to the token, not the process: the door's limit is this process's share of it
(`bot.sessions.share`: all 48 alone, floor(48 / processes) when several processes of one bot share a
PostgreSQL database), read at every request, so a share that shrinks or lapses holds requests at once. The
presenter's writes are counted by their `Slot`; every other request on the token (start-up calls, a retry
inside discord.py) is counted by the HTTP layer through `before_request` / `after_request`, so the door sees
everything the process sends.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import time
from collections import deque
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

CHANNEL_WRITES, CHANNEL_PERIOD = 5, 5.0  # Discord: 5 per 5 s per channel (a DM channel, a thread too)
GLOBAL_REQUESTS, GLOBAL_PERIOD = 48, 1.0  # Discord: 50 per second; the last two stay for clock drift
# Writes are started evenly at this rate, under the budget: a queue of a hundred tables drains steadily, not
# in bursts that would wait at the door.
GLOBAL_RATE = 47.0
IN_FLIGHT = 8  # requests drawn and on their way at once
RECHECK = 0.005  # seconds between looks when the whole budget is on its way (no answer back yet)
CLOSED_RECHECK = 0.05  # seconds between looks while the limit is 0 (a share not granted or lapsed)


class Budget:
    """At most `limit` requests in any `period` seconds as the server counts them: a request counts from the
    moment it leaves until `period` after its answer came back. `limit` is a number or a function read at
    every look (a process's share of the token's budget, which changes and may be 0 for a while)."""

    def __init__(
        self, limit: int | Callable[[], int], period: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._limit = limit
        self.period = period
        self.clock = clock
        self._on_the_way = 0
        self._answered: deque[float] = deque()  # when each answer came back, oldest first
        # Waiters are served in the order they came (asyncio.Lock is fair).
        self.queue = asyncio.Lock()

    @property
    def limit(self) -> int:
        return self._limit() if callable(self._limit) else self._limit

    def used(self) -> int:
        now = self.clock()
        while self._answered and now - self._answered[0] >= self.period:
            self._answered.popleft()
        return self._on_the_way + len(self._answered)

    def wait_time(self, requests: int = 1) -> float:
        """Seconds until `requests` more fit (0 when they fit now)."""
        limit, used = self.limit, self.used()
        # A DM's two requests under a share of one: they go when nothing else is counted.
        if used + requests <= limit or (used == 0 < limit):
            return 0.0
        if limit <= 0:
            return CLOSED_RECHECK  # no share now: it comes with the next renewal
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
    """Places in line, at least 1/`rate` s apart, first come first served. `rate` may be a function (it
    follows the process's share of the global budget)."""

    def __init__(
        self, rate: float | Callable[[], float], clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._rate = rate
        self.clock = clock
        self._next = 0.0
        self._queue = asyncio.Lock()

    @property
    def interval(self) -> float:
        rate = self._rate() if callable(self._rate) else self._rate
        return 1.0 / max(rate, 1.0)

    async def acquire(self, requests: int = 1) -> None:
        async with self._queue:
            now = self.clock()
            start = max(now, self._next)
            if start > now:
                await asyncio.sleep(start - now)
            self._next = max(self.clock(), start) + requests * self.interval


@dataclass
class _Counted:
    """The requests a slot counted at the door and not yet made (the HTTP layer takes one per request)."""

    left: int


# Set inside `Slot.request()`: the HTTP layer's requests there are the slot's own, already counted.
_counted: contextvars.ContextVar[_Counted | None] = contextvars.ContextVar("cardtable_counted", default=None)


async def before_request(door: Budget) -> bool:
    """For the HTTP layer, before each request on the bot's token. Inside a slot, the slot's own requests
    are counted already (False). Any other (a start-up call, a retry past the slot's count) waits at the door
    here and is counted (True): call `after_request` when its answer is back or it failed."""
    counted = _counted.get()
    if counted is not None and counted.left > 0:
        counted.left -= 1
        return False
    async with door.queue:
        await door.wait()
        door.leave()
    return True


def after_request(door: Budget) -> None:
    door.back()


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
        token = _counted.set(_Counted(self._requests))
        try:
            yield
        finally:
            _counted.reset(token)
            door.back(self._requests)
            self._channel.back()


class Pacer:
    """Slots in Discord's budget: the channel's (or DM channel's) and the global one. `door`: the process's
    global budget, shared with its HTTP layer (`bot.ops`); by default one of its own at 48 per second."""

    def __init__(self, door: Budget | None = None) -> None:
        self._channels: dict[int, Budget] = {}
        self._dm_channels: dict[int, Budget] = {}
        self._calls: dict[int, Budget] = {}  # a channel's other requests (a thread opened, archived)
        self.door = door if door is not None else Budget(GLOBAL_REQUESTS, GLOBAL_PERIOD)
        # Started evenly just under the door's limit, whatever share of the token's budget it is now.
        self._line = Spacing(lambda: GLOBAL_RATE * self.door.limit / GLOBAL_REQUESTS)
        self._in_flight = asyncio.Semaphore(IN_FLIGHT)
        # DMs have their own flight: a slow DM channel never holds up a table's message.
        self._dms_in_flight = asyncio.Semaphore(IN_FLIGHT)

    @staticmethod
    def _budget(budgets: dict[int, Budget], key: int) -> Budget:
        budget = budgets.get(key)
        if budget is None:
            budget = budgets[key] = Budget(CHANNEL_WRITES, CHANNEL_PERIOD)
        return budget

    def write(self, channel_id: int) -> contextlib.AbstractAsyncContextManager[Slot]:
        """One message write in a channel (a thread is a channel of its own): yields its slot once its turn
        has come."""
        return self._paced(self._channels, channel_id)

    def call(self, channel_id: int) -> contextlib.AbstractAsyncContextManager[Slot]:
        """One request on a channel that is no message write (opening a thread on one of its messages,
        archiving a thread): Discord limits those apart from the message writes; paced alike."""
        return self._paced(self._calls, channel_id)

    @contextlib.asynccontextmanager
    async def _paced(self, budgets: dict[int, Budget], key: int) -> AsyncIterator[Slot]:
        channel = self._budget(budgets, key)
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
