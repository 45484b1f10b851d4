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
