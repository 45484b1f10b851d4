"""The rules by which the processes of one bot share its token's global budget (bot/sessions/share.py), played
out in simulated time: processes that join, renew, stall (a pause longer than a lease), lose answers, get
killed and come back, each with a clock of its own, against a database whose statements see what was
committed before they started and commit a while later. Whatever happens, no second holds more than the
48 requests the shares allow together; and once things are quiet, the shares add up to the whole budget
again and a killed process's share comes back within seconds."""

from __future__ import annotations

import heapq
import itertools
import random
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.sessions.pacing import GLOBAL_PERIOD, GLOBAL_REQUESTS
from bot.sessions.share import FRESH, LIVE, RENEW_EVERY, SETTLE, LeasedShare
from storage.leases import Renewal

STEP = 0.01  # the simulation's resolution, seconds


class NoLeases:
    """The simulation calls `LeasedShare.apply` itself; nothing goes through this."""

    process = "?"

    async def renew(self, forget: list[str]) -> Renewal:
        raise AssertionError("not used")

    async def leave(self) -> None:
        raise AssertionError("not used")

    async def close(self) -> None:
        return None


@dataclass
class Process:
    name: str
    offset: float  # its clock reads the simulated time plus this: clocks of their own
    share: LeasedShare = field(init=False)
    stalled_until: float = 0.0
    dead: bool = False
    waiting: bool = False  # a renewal on its way
    renewals: int = 0

    def __post_init__(self) -> None:
        self.share = LeasedShare(NoLeases(), clock=lambda: 0.0)


class World:
    """Simulated time, a database of lease rows, and the processes."""

    def __init__(self, seed: int, *, slow: float = 0.05, lost: float = 0.02) -> None:
        self.rng = random.Random(seed)
        self.now = 0.0
        self.rows: dict[str, int] = {}  # process -> beat, as committed
        self.events: list[tuple[float, int, Callable[[], None]]] = []
        self.order = itertools.count()
        self.processes: list[Process] = []
        self.slow, self.lost = slow, lost
        self.history: list[list[int]] = []  # per step: each process's limit (0 when it cannot send)

    def at(self, when: float, what: Callable[[], None]) -> None:
        heapq.heappush(self.events, (when, next(self.order), what))

    def clock_of(self, p: Process) -> Callable[[], float]:
        return lambda: self.now + p.offset

    def start(self, p: Process) -> None:
        p.share.clock = self.clock_of(p)
        self.processes.append(p)
        self.renew(p)

    def delay(self) -> float:
        """A leg of a statement's way: mostly quick, now and then slow (a busy server, a long GC pause)."""
        if self.rng.random() < self.slow:
            return self.rng.uniform(0.5, 2.5)
        return self.rng.uniform(0.0005, 0.01)

    def renew(self, p: Process) -> None:
        if p.dead:
            return
        if self.now < p.stalled_until:  # a stalled process sends nothing: it renews once it runs again
            self.at(p.stalled_until, lambda: self.renew(p))
            return
        p.waiting = True
        sent = p.share.clock()
        forget = p.share.to_forget(sent)
        starts = self.now + self.delay()

        def run() -> None:
            # The statement sees what was committed before it started ...
            seen = {q: b for q, b in self.rows.items() if q != p.name}
            joined = p.name not in self.rows
            commits = self.now + self.delay()

            def commit() -> None:  # ... and what it writes is visible once it committed.
                self.rows[p.name] = 0 if joined else self.rows.get(p.name, -1) + 1
                for q in forget:
                    if q != p.name:
                        self.rows.pop(q, None)
                answered = self.now + self.delay()
                lost = self.rng.random() < self.lost  # the connection dropped: the answer never comes

                def answer() -> None:
                    if p.dead:
                        return
                    back_at = max(self.now, p.stalled_until)  # a stalled process reads it when it runs

                    def take() -> None:
                        p.waiting = False
                        if not lost:
                            p.share.apply(Renewal(joined, seen), sent, p.share.clock())
                        p.renewals += 1
                        # As LeasedShare.start(): the second renewal at once, then one a second.
                        pause = 0.0 if p.renewals == 1 else RENEW_EVERY
                        self.at(self.now + pause, lambda: self.renew(p))

                    self.at(back_at, take)

                self.at(answered, answer)

            self.at(commits, commit)

        self.at(starts, run)

    def run_until(self, end: float) -> None:
        while self.now < end:
            self.now = round(self.now + STEP, 6)
            while self.events and self.events[0][0] <= self.now:
                _, _, what = heapq.heappop(self.events)
                what()
            self.history.append(
                [0 if (p.dead or self.now < p.stalled_until) else p.share.limit() for p in self.processes]
            )

    def worst_second(self) -> tuple[float, int]:
        """The most requests the shares let into any one second together (a request counts from leaving
        until a period later: at most the largest limit a process had within that period)."""
        window = round(GLOBAL_PERIOD / STEP)
        width = max(len(h) for h in self.history)
        totals = [0] * len(self.history)
        for j in range(width):
            column = [h[j] if j < len(h) else 0 for h in self.history]
            peaks: deque[int] = deque()  # indexes of a falling run of values: the window's maximum first
            for i, value in enumerate(column):
                while peaks and column[peaks[-1]] <= value:
                    peaks.pop()
                peaks.append(i)
                if peaks[0] <= i - window:
                    peaks.popleft()
                totals[i] += column[peaks[0]]
        worst = max(totals)
        return totals.index(worst) * STEP, worst


def chaos(world: World, seconds: float, *, processes: int = 3) -> None:
    """Processes joining, stalling, dying and coming back, at random."""
    rng = world.rng
    names = itertools.count()
    for _ in range(processes):
        world.start(Process(f"p{next(names)}", offset=rng.uniform(-1e6, 1e6)))
    while world.now < seconds:
        world.run_until(world.now + rng.uniform(0.5, 4.0))
        alive = [p for p in world.processes if not p.dead]
        roll = rng.random()
        if roll < 0.35 and alive:
            victim = rng.choice(alive)
            victim.stalled_until = world.now + rng.choice([0.3, 1.0, 2.5, 4.5, 8.0])  # a pause, a SIGSTOP
        elif roll < 0.5 and alive:
            rng.choice(alive).dead = True  # kill -9: its row stays behind
        elif roll < 0.7 and len(alive) < 5:
            world.start(Process(f"p{next(names)}", offset=rng.uniform(-1e6, 1e6)))


def test_no_second_holds_more_than_the_budget_whatever_the_processes_do():
    for seed in range(6):
        world = World(seed)
        chaos(world, 150.0)
        when, worst = world.worst_second()
        assert worst <= GLOBAL_REQUESTS, f"seed {seed}: {worst} requests allowed in the second at {when:.2f}"
        # And they did send: the shares are a budget, not a brake.
        assert sum(max(row) > 0 for row in world.history) > 0.5 * len(world.history), f"seed {seed}"


def quiet(seed: int) -> World:
    return World(seed, slow=0.0, lost=0.0)


def test_alone_a_process_has_the_whole_budget_at_once():
    world = quiet(1)
    world.start(Process("solo", offset=123.0))
    world.run_until(0.2)  # two renewals: its row, then a look that sees nobody else
    assert world.processes[0].share.limit() == GLOBAL_REQUESTS


def test_two_processes_share_the_budget_and_a_killed_one_gives_its_share_back_within_seconds():
    world = quiet(2)
    first, second = Process("a", offset=5.0), Process("b", offset=-7.0)
    world.start(first)
    world.run_until(1.0)
    world.start(second)
    world.run_until(1.0 + 0.2)
    assert second.share.limit() == 0, "a newcomer waits until the others have shrunk"
    world.run_until(1.0 + SETTLE + RENEW_EVERY + 0.1)
    assert first.share.limit() == second.share.limit() == GLOBAL_REQUESTS // 2

    second.dead = True
    killed = world.now
    while first.share.limit() != GLOBAL_REQUESTS:
        world.run_until(world.now + STEP)
        assert world.now - killed < LIVE + 2 * RENEW_EVERY, "the share comes back within seconds"
    assert world.worst_second()[1] <= GLOBAL_REQUESTS


def test_a_stalled_process_sends_nothing_on_its_old_share_and_joins_again():
    world = quiet(3)
    first, second = Process("a", offset=0.0), Process("b", offset=1e5)
    world.start(first)
    world.start(second)
    world.run_until(SETTLE + 2 * RENEW_EVERY)
    assert first.share.limit() == second.share.limit() == GLOBAL_REQUESTS // 2
    second.stalled_until = world.now + 10.0  # longer than a lease: the other takes it for dead
    world.run_until(world.now + 10.0 - STEP)
    assert first.share.limit() == GLOBAL_REQUESTS
    assert second.share.limit() == 0, "its share lapsed while it stood still (FRESH)"
    world.run_until(world.now + 1.0)
    assert second.share.limit() == 0, "back, it joins again before it sends"
    world.run_until(world.now + SETTLE + 2 * RENEW_EVERY)
    assert first.share.limit() == second.share.limit() == GLOBAL_REQUESTS // 2
    assert world.worst_second()[1] <= GLOBAL_REQUESTS
    assert FRESH < LIVE
