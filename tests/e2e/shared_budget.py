"""One token, two bot processes, one global budget: the scenario of tests/e2e/test_shared_budget.py and of
`bench/bench_discord.py --two-processes`.

Two `cardtable-bot run` processes, Discord shards 0 and 1 of 2, on one PostgreSQL database, against one fake
Discord with its rate limits on (50 requests per second for the token, 429 past it) that counts every
request of the token. A guild on each shard, `tables` channels split between them, a person at each playing
Malice against the computer at a human pace: she moves `think` seconds after she can know it is her turn (the
stored game says so and the table message shows the move that gave it to her, or her own answer kept it).
Meanwhile the process of shard 1 is killed with SIGKILL and started again; its people wait while it is away
(Discord would not even deliver their commands), the other shard's go on.

`Scenario.run()` returns the figures; the caller asserts on them (the test) or prints them (the bench).
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiohttp
import asyncpg

from bot.games.ai import choose_action
from bot.games.registry import REGISTRY
from tests.e2e.fake_discord import GUILD_ID, FakeChannel, FakeDiscord, FakeDiscordError, shard_of
from tests.e2e.test_fuzz import RealGames
from tests.e2e.test_two_processes import BotProcess
from tests.pg import free_port

KIND = "malice"
TURNS = 200  # long games: none ends while the scenario plays
POLL = 0.3  # seconds between the people's looks at the stored games
SAMPLE = 0.25  # seconds between looks at each process's share (its /metrics)
SHARE = re.compile(r"^cardtable_rate_share (\S+)$", re.M)


@dataclass
class Seen:
    table_id: int
    status: str
    seq: int
    stored_at: float  # when the newest action was stored (0: none yet)
    game: Any


@dataclass
class Figures:
    tables: int
    opening: float = 0.0  # seconds until every game was open (a challenge is answered once its table is up)
    seconds: float = 0.0  # of play after that
    moves: int = 0  # stored (people's and computers')
    person_moves: int = 0
    calls: int = 0  # the token's rate-limited REST calls, as the fake counted them
    peak: int = 0  # the most calls in any one-second window
    busiest_second: int = 0  # the most calls in one whole second of the clock
    answered_429: int = 0
    answers: list[float] = field(default_factory=list)  # slash command until its answer, seconds
    down_seconds: float = 0.0  # from the kill until the restarted process was ready
    moves_while_down: int = 0  # moves stored meanwhile at the surviving shard's tables
    moves_after_restart: int = 0  # moves stored at the restarted shard's tables after it came back
    calls_per_second: list[int] = field(default_factory=list)  # every second of the run, in order
    # From each process's /metrics: seconds from the kill until the survivor's share was the whole budget,
    # and from the restarted process joining the lease until both were at half again.
    whole_after_kill: float | None = None
    shared_after_restart: float | None = None
    shares: list[tuple[float, int, int]] = field(default_factory=list)  # (time, shard, share) samples
    problems: list[str] = field(default_factory=list)


class Scenario:
    def __init__(
        self,
        database_url: str,
        folder: Path,
        *,
        tables: int = 200,
        seconds: float = 40.0,
        think: tuple[float, float] = (1.0, 3.0),
        kill_at: float = 10.0,
        down_for: float = 8.0,
        validate: bool = False,
        seed: int = 24,
    ) -> None:
        self.database_url = database_url
        self.folder = folder
        self.tables, self.seconds, self.think = tables, seconds, think
        self.kill_at, self.down_for = kill_at, down_for
        self.rng = random.Random(seed)
        self.fake = FakeDiscord(rate_limits=True, shard_count=2)
        if not validate:  # the schemas cost the fake's process more than the bot's traffic: off for speed
            self.fake._check_body = lambda *args, **kwargs: None  # type: ignore[method-assign]
        den = self.fake.add_guild("Dice Den", [])
        self.guilds = {shard_of(den.id, 2): den.id, shard_of(GUILD_ID, 2): GUILD_ID}
        assert set(self.guilds) == {0, 1}
        self.channels: list[str] = []
        self.shard_of_channel: dict[str, int] = {}
        for i in range(tables):
            name, shard = f"table-{i}", i % 2
            self.fake.channels[name] = FakeChannel(
                720000000000000000 + i, name, self.guilds[shard], position=10 + i
            )
            self.fake.add_member(f"person-{i}")
            self.channels.append(name)
            self.shard_of_channel[name] = shard
        self.processes: list[BotProcess] = []
        self.up: dict[int, bool] = {0: False, 1: False}
        self.seen: dict[int, Seen] = {}  # channel id -> the newest table there
        self.figures = Figures(tables)
        self._conn: asyncpg.Connection | None = None
        self._killed_at = self._back_at = 0.0  # wall clock, as the stored moves' times

    # ------------------------------------------------------------------ what the people can know

    async def poll(self, stop: asyncio.Event) -> None:
        """The stored games, every POLL seconds (one query; a game is read again only when it changed)."""
        assert self._conn is not None
        while not stop.is_set():
            rows = await self._conn.fetch(
                "SELECT t.id, t.channel_id, t.status, a.seq, a.created_at FROM game_tables t"
                " LEFT JOIN LATERAL (SELECT seq, created_at FROM actions WHERE table_id = t.id"
                " ORDER BY seq DESC LIMIT 1) a ON TRUE WHERE t.status IN ('lobby', 'running')"
            )
            changed = []
            for r in rows:
                seq = 0 if r["seq"] is None else r["seq"] + 1
                known = self.seen.get(r["channel_id"])
                if known is None or (known.table_id, known.seq, known.status) != (r["id"], seq, r["status"]):
                    changed.append((r["channel_id"], r["id"], r["status"], seq, r["created_at"] or 0.0))
            if changed:
                snapshots = {
                    s["id"]: s["snapshot"]
                    for s in await self._conn.fetch(
                        "SELECT id, snapshot FROM game_tables WHERE id = ANY($1::bigint[])",
                        [c[1] for c in changed],
                    )
                }
                for channel_id, table_id, status, seq, stored_at in changed:
                    snapshot = snapshots.get(table_id)
                    game = REGISTRY[KIND].load(snapshot) if snapshot else None
                    self.seen[channel_id] = Seen(table_id, status, seq, stored_at, game)
            await asyncio.sleep(POLL)

    def shows(self, channel: str, seen: Seen) -> bool:
        """Whether the channel's table message was written after the newest stored move."""
        found = [m for m in self.fake.channel_messages(channel) if m.author.bot and m.versions]
        return bool(found) and found[-1].versions[-1].at >= seen.stored_at

    # ------------------------------------------------------------------ the people

    async def person(self, i: int, until: float, rng: random.Random) -> None:
        channel, shard = self.channels[i], self.shard_of_channel[self.channels[i]]
        user = self.fake.user(f"person-{i}")
        channel_id = self.fake.channel(channel).id
        answered_at: int | None = None  # the action count right after her last answer
        while time.monotonic() < until:
            seen = self.seen.get(channel_id)
            if not self.up[shard] or seen is None or seen.game is None or seen.status != "running":
                await asyncio.sleep(0.2)
                continue
            behind = answered_at is not None and seen.seq < answered_at  # her last move not read back yet
            if seen.game.current_player != str(user.id) or behind:
                await asyncio.sleep(0.1)
                continue
            if seen.seq != answered_at and not self.shows(channel, seen):
                await asyncio.sleep(0.1)  # the turn came with the computer's move: not shown yet
                continue
            await asyncio.sleep(min(rng.uniform(*self.think), max(0.0, until - time.monotonic())))
            if time.monotonic() >= until or not self.up[shard]:
                continue
            action = choose_action(seen.game, str(user.id), f"budget/{channel}/{seen.seq}")
            command, options = RealGames.command_for(KIND, action)
            started = time.perf_counter()
            try:
                reply = await user.slash(command, channel=channel, **options)
            except FakeDiscordError:
                if self.up[shard]:
                    raise
                continue  # her process was killed as she moved: she tries again once it is back
            self.figures.answers.append(time.perf_counter() - started)
            if "not your turn" in reply.text or "moved on" in reply.text:
                continue  # (a copy of the state from before her last answer)
            self.figures.person_moves += 1
            answered_at = seen.seq + 1

    async def open_games(self) -> None:
        """Every person challenges the computer, a few at a time (people do not all arrive in one second)."""
        for start in range(0, self.tables, 20):
            await asyncio.gather(
                *(
                    self.fake.user(f"person-{i}").slash(
                        "malice challenge", opponent=self.fake.bot_user, turns=TURNS, channel=self.channels[i]
                    )
                    for i in range(start, min(start + 20, self.tables))
                )
            )

    # ------------------------------------------------------------------ the run

    async def start_process(self, process: BotProcess) -> None:
        await process.start()
        self.up[process.shard_id] = True

    async def kill_and_restart(self, began: float) -> None:
        await asyncio.sleep(max(0.0, began + self.kill_at - time.monotonic()))
        victim = self.processes[1]
        self.up[1] = False
        killed = time.monotonic()
        self.figures.problems += [f"shard 1, before the kill: {p}" for p in victim.problems()]
        await victim.kill()
        await asyncio.sleep(self.down_for)
        await self.start_process(victim)
        back = time.monotonic()
        self.figures.down_seconds = back - killed
        self._killed_at, self._back_at = time.time() - (back - killed), time.time()

    async def run(self) -> Figures:
        fake = self.fake
        await fake.start()
        self._conn = await asyncpg.connect(self.database_url)
        self.ports = {shard: free_port() for shard in (0, 1)}
        self.processes = [
            BotProcess(fake, self.database_url, shard, self.folder, METRICS_PORT=str(self.ports[shard]))
            for shard in (0, 1)
        ]
        stop = asyncio.Event()
        poller: asyncio.Task[None] | None = None
        sampler: asyncio.Task[None] | None = None
        try:
            for process in self.processes:
                await self.start_process(process)
            survivor_pid = self.processes[0].proc.pid if self.processes[0].proc else None
            poller = asyncio.ensure_future(self.poll(stop))
            sampler = asyncio.ensure_future(self.sample(stop))
            since = fake.now()
            opened = time.monotonic()
            await self.open_games()  # counted in the figures; the play (and the kill's clock) starts after
            began = time.monotonic()
            self.figures.opening = began - opened
            until = began + self.seconds
            await asyncio.gather(
                self.kill_and_restart(began),
                *(self.person(i, until, random.Random(self.rng.random())) for i in range(self.tables)),
            )
            self.figures.seconds = time.monotonic() - began
            # The people are done: the poller lets go of the connection before the figures' queries use it
            # (one asyncpg connection runs one statement at a time).
            poller.cancel()
            await asyncio.gather(poller, return_exceptions=True)
            await asyncio.sleep(2.0)  # the last writes leave
            stats = fake.rest_stats(since=since)
            f = self.figures
            f.calls, f.peak, f.answered_429 = stats.total, stats.peak(1.0), stats.sent_429
            per_second = stats.per_second()
            f.busiest_second = max(per_second.values(), default=0)
            f.calls_per_second = [per_second.get(s, 0) for s in range(int(since), int(fake.now()) + 1)]
            f.moves = await self._conn.fetchval("SELECT COUNT(*) FROM actions WHERE created_at >= $1", since)
            self._share_times()
            f.moves_while_down = await self._moves_of_shard(0, self._killed_at, self._back_at)
            f.moves_after_restart = await self._moves_of_shard(1, self._back_at, time.time())
            survivor = self.processes[0]
            if survivor.proc is None or survivor.proc.pid != survivor_pid or survivor.exited():
                f.problems.append("the surviving process did not survive")
            for process in self.processes:
                f.problems += [f"shard {process.shard_id}: {p}" for p in process.problems()]
            f.problems += fake.violations + [f"unknown route {r}" for r in fake.unknown_routes]
        finally:
            stop.set()
            for task in (poller, sampler):
                if task is not None:
                    task.cancel()
            codes = [await p.stop() for p in self.processes]
            if any(code not in (0, None) for code in codes):
                self.figures.problems.append(f"exit codes {codes}")
            await self._conn.close()
            await fake.stop()
        return self.figures

    async def sample(self, stop: asyncio.Event) -> None:
        """Each running process's share of the token's budget, as its /metrics says, every SAMPLE seconds."""
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=2)) as session:
            while not stop.is_set():
                for shard, port in self.ports.items():
                    process = self.processes[shard]
                    if process.proc is None or process.exited():
                        continue  # (a process starting again answers once its metrics server is up)
                    try:
                        async with session.get(f"http://127.0.0.1:{port}/metrics") as response:
                            found = SHARE.search(await response.text())
                    except (aiohttp.ClientError, TimeoutError):
                        continue
                    if found:
                        self.figures.shares.append((time.time(), shard, int(float(found.group(1)))))
                await asyncio.sleep(SAMPLE)

    def _share_times(self) -> None:
        f, whole, half = self.figures, 48, 24

        def first(shard: int, share: int, after: float) -> float | None:
            times = [t for t, s, n in f.shares if s == shard and n == share and t > after]
            return round(times[0] - after, 1) if times else None

        f.whole_after_kill = first(0, whole, self._killed_at)
        # The restarted process joins the lease before it connects (its log says so): from then on.
        joined = [r["time"] for r in self.processes[1].records() if "rate budget" in str(r.get("message"))]
        if joined:
            when = datetime.strptime(joined[0], "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC).timestamp()
            shares = [first(1, half, when), first(0, half, when)]
            if None not in shares:
                f.shared_after_restart = max(s for s in shares if s is not None)

    async def _moves_of_shard(self, shard: int, start: float, end: float) -> int:
        assert self._conn is not None
        channels = [self.fake.channel(c).id for c in self.channels if self.shard_of_channel[c] == shard]
        return int(
            await self._conn.fetchval(
                "SELECT COUNT(*) FROM actions a JOIN game_tables t ON t.id = a.table_id"
                " WHERE t.channel_id = ANY($1::bigint[]) AND a.created_at >= $2 AND a.created_at < $3",
                channels,
                start,
                end,
            )
        )


def summary(f: Figures) -> dict[str, Any]:
    """The figures as one JSON-able dict (the bench prints it; a failing test shows it)."""
    answers = sorted(f.answers)

    def pct(q: float) -> float:
        return round(answers[min(len(answers) - 1, int(q * len(answers)))] * 1000) if answers else -1

    return {
        "tables": f.tables,
        "opening": round(f.opening, 1),
        "seconds": round(f.seconds, 1),
        "moves": f.moves,
        "person_moves": f.person_moves,
        "calls": f.calls,
        "peak_per_second": f.peak,
        "busiest_clock_second": f.busiest_second,
        "429s": f.answered_429,
        "answer_p50_ms": pct(0.5),
        "answer_p99_ms": pct(0.99),
        "down_seconds": round(f.down_seconds, 1),
        "moves_while_down": f.moves_while_down,
        "moves_after_restart": f.moves_after_restart,
        "whole_share_after_kill_s": f.whole_after_kill,
        "share_after_restart_s": f.shared_after_restart,
        "problems": f.problems[:10],
    }


def dumps(f: Figures) -> str:
    return json.dumps(summary(f))
