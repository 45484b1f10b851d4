"""This process's share of the token's global budget (Discord: 50 requests per second per token, whichever
process sends them), agreed with the other processes of the bot through leases in the database they share.

Alone (SQLite, or no other process) the share is all of it: `FixedShare(48)`. With PostgreSQL each process
holds a lease row (`storage.postgres.leases`) and renews it every second; its share is floor(48 / processes
alive) as its last renewal saw them, and 0 while it joins. The door (`pacing.Budget`) reads `limit()` at
every request, so a share that shrinks or lapses holds requests back at once.

No clock is compared across machines. A renewal adds one to the process's own `beat` and reads everyone
else's; each process judges the others by its own monotonic clock: another process is alive while its beat
changed within `LIVE` seconds (a process seen for the first time counts as alive). What keeps the sum of the
shares in force at or under 48 (the proof is in docs/design.md, "Pacing across processes"):

- a renewal's share is good for `FRESH` seconds from the moment the renewal was sent, never longer: a
  process that stalls (a pause, a slow database) sends nothing on an old share;
- a renewal whose answer took longer than `GUARD` grants nothing (its commit may have come late for the
  others), and one sent `LIVE - GUARD` or more after the last renewal that counted means the others may have
  taken this process for dead: it joins again;
- a process joining (new, or again) takes no share for `SETTLE` seconds after its row is visible: by then
  every other process has read it and shrunk, and what it sent on its larger share has left the window;
  unless its own renewal, made after its row was committed, saw nobody else alive (it is alone);
- LIVE >= FRESH + the budget's period, SETTLE >= FRESH + period: a process taken for dead has nothing left
  in the window, and one that joins finds the window already free of the others' larger shares.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from bot.sessions.pacing import GLOBAL_PERIOD, GLOBAL_REQUESTS
from storage.leases import Leases, Renewal

log = logging.getLogger(__name__)

RENEW_EVERY = 1.0  # seconds between renewals
FRESH = 2.0  # a renewal's share is good this long from the moment it was sent
LIVE = 4.0  # another process is alive while its beat changed within this long (LIVE >= FRESH + period)
SETTLE = 3.5  # a joining process waits this long after its row is visible (SETTLE >= FRESH + period)
GUARD = 1.5  # a renewal whose answer took longer than this grants nothing
FORGET = 60.0  # a row whose beat has not changed for this long is deleted (a process killed long ago)
LEAVE_AFTER = GLOBAL_PERIOD  # on a graceful stop: the last requests leave the window before the row goes

assert LIVE >= FRESH + GLOBAL_PERIOD and SETTLE >= FRESH + GLOBAL_PERIOD and GUARD < LIVE - RENEW_EVERY


class Share(Protocol):
    def limit(self) -> int:
        """Requests per period this process may have counted now (0: none until a renewal grants some)."""
        ...


class FixedShare:
    """A share nobody else takes from: one process alone on the token (SQLite included)."""

    def __init__(self, requests: int = GLOBAL_REQUESTS) -> None:
        self.requests = requests

    def limit(self) -> int:
        return self.requests

    def processes(self) -> int:
        return 1

    async def start(self) -> None:
        return None

    async def close(self) -> None:
        return None


@dataclass
class _Seen:
    beat: int
    since: float  # when (our clock) we first saw this beat: the answer of that renewal came back


@dataclass
class LeasedShare:
    """This process's share, agreed through `leases`. `start()` begins renewing (the share is 0 until a
    renewal grants one), `close()` gives the share back."""

    leases: Leases
    total: int = GLOBAL_REQUESTS
    clock: Callable[[], float] = time.monotonic
    _share: int = 0
    _alive: int = 1
    _good_until: float = float("-inf")  # the share is void from then on, unless a renewal extends it
    _settle_at: float | None = None  # joining: no share before then
    _last_counted: float | None = None  # when the last renewal that counted was sent
    _seen: dict[str, _Seen] = field(default_factory=dict)
    _task: asyncio.Task[None] | None = None
    _closed: bool = False
    _failing: bool = False
    answered: float = float("-inf")  # when the database last answered a renewal (our clock): health

    def limit(self) -> int:
        now = self.clock()
        if self._closed or now >= self._good_until:
            return 0
        if self._settle_at is not None and now < self._settle_at:
            return 0
        return self._share

    def processes(self) -> int:
        """How many processes share the token, as the last renewal that counted saw them."""
        return self._alive

    async def start(self) -> None:
        """Join now (two renewals: the row, then a look made after it was committed), then every second."""
        await self.renew()
        await self.renew()
        self._task = asyncio.ensure_future(self._run())

    async def _run(self) -> None:
        while not self._closed:
            await asyncio.sleep(RENEW_EVERY)
            await self.renew()

    async def renew(self) -> None:
        sent = self.clock()
        forget = self.to_forget(sent)
        try:
            renewal = await self.leases.renew(forget)
        except Exception as exc:  # the database is away: the share lapses on its own (FRESH)
            if not self._failing:
                log.warning(
                    "rate budget: renewing the lease failed (%s); sending pauses until it works",
                    " ".join(str(exc).split()) or type(exc).__name__,
                )
            self._failing = True
            return
        back = self.clock()
        self.answered = back
        if self._failing:
            log.info("rate budget: the lease is renewed again")
            self._failing = False
        self.apply(renewal, sent, back)

    def to_forget(self, now: float) -> list[str]:
        """The rows whose beat has not changed for FORGET seconds: their processes are long gone."""
        return [p for p, seen in self._seen.items() if now - seen.since >= FORGET]

    def apply(self, renewal: Renewal, sent: float, back: float) -> None:
        """Take in one renewal sent at `sent` and answered at `back` (our clock)."""
        alive = 1
        for process, beat in renewal.others.items():
            seen = self._seen.get(process)
            if seen is None or seen.beat != beat:
                self._seen[process] = _Seen(beat, back)
                alive += 1
            elif sent - seen.since < LIVE:
                alive += 1
        for process in list(self._seen):
            if process not in renewal.others:
                del self._seen[process]  # gone from the table: left (or forgotten)
        lapsed = self._last_counted is None or sent - self._last_counted >= LIVE - GUARD
        if renewal.joined or lapsed:
            # The others may not count us yet (a new row) or may have taken us for dead (a long gap): join.
            self._settle_at = back + SETTLE
        elif self._settle_at is not None and alive == 1:
            self._settle_at = None  # our row was committed before this look, and nobody else is alive
        if back - sent > GUARD:
            return  # its commit may have come late for the others: it grants nothing
        self._last_counted = sent
        self._alive = alive
        self._share = self.total // alive
        self._good_until = sent + FRESH
        if self._settle_at is not None and back >= self._settle_at:
            self._settle_at = None

    async def close(self) -> None:
        """Stop sending, let the last requests leave the window, then delete the row: the others take the
        share back at their next renewal."""
        self._closed = True
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await asyncio.sleep(LEAVE_AFTER)
        with contextlib.suppress(Exception):
            await self.leases.leave()
        await self.leases.close()
