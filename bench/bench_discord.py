"""The bot at Discord's limits: the real bot, as deployed (`cardtable-bot run` in a process of its own, on
SQLite), against the project's fake Discord in the bench's process with the rate limits on (5 message writes
per 5 s per channel, 50 requests/s in all, 429s past them) and every request body checked against Discord's
schemas, N tables of each game played at a human pace: a person moves 1-3 s after he can know it is his turn
(after his own answer, or once the table message shows someone else's move gave him the turn).

Printed, each beside its baseline measured in the same run:
- answer p50/p99 of a move (a slash command until its answer) against /help p50/p99;
- rate-limited REST calls per stored move (human and computer moves) and the peak calls per second;
- 429s received;
- the time from a move's answer to the table message showing it (p50/p99), and from a computer's last move
  of a turn to the table message showing it;
- bot messages left in the channel per finished game;
- resume: 1,000 running tables in the database, the time from READY to the first answered command, the calls
  made before READY, and how long until every table message was refreshed (peak calls per second).

Run from the repository root: `python bench/bench_discord.py [--write]` (`--quick` for N = 1 and 10 only and
a shorter window; `--seconds`, `--tables`, `--resume-tables` to change the sizes; `--no-validate` skips the
schema checks).

`--baseline REV` runs the click scenarios with the bot of git revision REV too (its files as git has them),
the two bots in turns, and prints the bot's CPU per move of a person for both; `--profile` samples the bot's
process with py-spy through each click scenario's play and splits that CPU by where it went. After the click
scenarios: every rate-limited call of a whole game by clicks with its reason, and how many busy tables one
core and one token carry, from the measured figures.

`--two-processes` runs only the token's budget across processes instead (tests/e2e/shared_budget.py): two bot
processes, shards 0 and 1 of 2, on one PostgreSQL (TEST_DATABASE_URL's server, else a throwaway one), 200
tables (`--tables N`) at the same human pace, the process of shard 1 killed with SIGKILL a quarter into the
run and started again 8 s later; printed: the token's REST calls, the most in any second and in any whole
second of the clock, 429s, answer p50/p99, moves at the surviving shard's tables while the other was away
and at the restarted one's after; `--write` puts them in their own section of docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import logging
import os
import random
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.report import write_section  # noqa: E402
from bot import render  # noqa: E402
from bot.config import Settings  # noqa: E402
from bot.games.ai import choose_action  # noqa: E402
from bot.games.registry import REGISTRY  # noqa: E402
from bot.sessions import SessionManager, lobbies  # noqa: E402
from bot.sessions.pacing import GLOBAL_REQUESTS  # noqa: E402
from storage import Store  # noqa: E402
from tests.e2e.bot_process import API_ENV, GATEWAY_ENV  # noqa: E402
from tests.e2e.fake_discord import FakeChannel, FakeDiscord, FakeDiscordError  # noqa: E402
from tests.e2e.harness import Harness  # noqa: E402
from tests.e2e.test_fuzz import RealGames  # noqa: E402
from tests.e2e.test_play_in_place import Table as ClickingTable  # noqa: E402
from tests.e2e.test_user_install import select_of  # noqa: E402

PEOPLE = ("alice", "bob", "carol")


def checkout(revision: str, into: str) -> Path:
    """The files of `revision` (committed, as git has them) in a new folder under `into` (`--baseline`)."""
    folder = Path(into) / "baseline"
    folder.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", revision], check=True, capture_output=True)
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    return folder


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def ms(value: float) -> str:
    return "n/a" if value != value else f"{value * 1000:.0f}"


@dataclass
class Figures:
    kind: str
    tables: int
    answers: list[float] = field(default_factory=list)
    helps: list[float] = field(default_factory=list)
    shown_after: list[float] = field(default_factory=list)
    computer_shown_after: list[float] = field(default_factory=list)
    moves: int = 0
    calls: int = 0
    peak: int = 0
    answered_429: int = 0
    messages_left: list[int] = field(default_factory=list)
    seconds: float = 0.0
    routes: Counter[str] = field(default_factory=Counter)
    clicks: bool = False  # moves by the Move dialog on the table message (else by slash command)
    people_moves: int = 0  # moves made by the people (the computer's not counted)
    in_answer: int = 0  # of those, answered by updating the table message with the move (type 7)
    opens: list[float] = field(default_factory=list)  # Move pressed until the dialog opened
    refused: int = 0  # interactions Discord refused (an answer past its 3 s) or a Move refused
    bot_cpu: float = 0.0  # CPU seconds the bot's process spent in the play
    bench_cpu: float = 0.0  # CPU seconds the bench's process (the fake Discord and the people) spent in it
    code: Path = ROOT  # the bot's files: this checkout's, or a baseline revision's (`--baseline`)
    unlimited: Counter[str] = field(default_factory=Counter)  # interaction answers and token edits, by route
    where: Counter[str] = field(default_factory=Counter)  # the bot's profile: samples by where (`--profile`)
    rounds: list[float] = field(default_factory=list)  # the bot's CPU per move of a person in each round (ms)


class Bench:
    """One fake Discord with `channels` game channels, three people at each. The play scenarios run the bot
    as its own process (`BotProcess`); the whole-game and resume figures run it in this one (`start`)."""

    def __init__(self, folder: Path, channels: int, *, rate_limits: bool = True) -> None:
        self.folder = folder
        self.fake = FakeDiscord(rate_limits=rate_limits)
        self.names = [f"table-{i}" for i in range(channels)]
        # Different people at every table (three each), as in a real server: one person's DMs have a bucket
        # of their own.
        for i in range(channels):
            for seat in PEOPLE:
                self.fake.add_member(f"{seat}-{i}")
        for i, name in enumerate(self.names):
            self.fake.channels[name] = FakeChannel(
                710000000000000000 + i, name, self.fake.guild_id, position=10 + i
            )
        self.harness: Harness | None = None

    async def start(self, database: Path, **settings: Any) -> None:
        await self.fake.start()
        Route.BASE = self.fake.api_base
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.fake.gateway_url)
        self.harness = Harness(
            self.fake, self.folder, database_path=database, log_level="WARNING", **settings
        )
        await self.harness.start_bot()

    async def stop(self) -> None:
        if self.harness is not None:
            await self.harness.close()
        await self.fake.stop()

    @property
    def sessions(self) -> SessionManager:
        assert self.harness is not None and self.harness.bot is not None
        return self.harness.bot.sessions

    def table(self, channel: str) -> Any:
        return self.sessions.tables.in_channel(self.fake.channel(channel).id)

    def people(self, channel: str) -> list[Any]:
        """The three people of a table's channel."""
        i = self.names.index(channel)
        return [self.fake.user(f"{seat}-{i}") for seat in PEOPLE]

    async def open_game(self, kind: str, channel: str, *, short: bool = False) -> None:
        alice, bob, carol = self.people(channel)
        if kind == "malice":
            turns = 20 if short else 200
            await alice.slash("malice challenge", channel=channel, opponent=self.fake.bot_user, turns=turns)
        else:
            await alice.slash("insomnia new", channel=channel, chips=30, deals=1 if short else 3)
            await bob.slash("insomnia join", channel=channel)
            await carol.slash("insomnia join", channel=channel)
            await alice.slash("insomnia addbot", channel=channel)
            await alice.slash("insomnia start", channel=channel)


class BotProcess:
    """The bot as deployed: `cardtable-bot run` in a process of its own (tests/e2e/bot_process.py points it
    at the fake), its database a SQLite file this process reads too. Discord is not in the bot's process,
    so neither is the fake: its work (and the simulated people's) never competes with the bot's."""

    def __init__(self, fake: FakeDiscord, database: Path, folder: Path, code: Path = ROOT) -> None:
        """`code`: the files the bot runs from (this checkout, or a baseline's: `--baseline`)."""
        settings = {name.upper() for name in Settings.model_fields}
        self.env = {k: v for k, v in os.environ.items() if k not in settings}
        self.env.update(
            PYTHONPATH=str(code),
            DISCORD_TOKEN=fake.token,
            DATABASE_PATH=str(database),
            TURN_TIMEOUT_SECONDS="600",
            LOG_LEVEL="INFO",
        )
        self.env[API_ENV], self.env[GATEWAY_ENV] = fake.api_base, fake.gateway_url
        self.folder = folder
        self.lines: list[str] = []
        self.proc: asyncio.subprocess.Process | None = None
        self._reader: asyncio.Future[None] | None = None

    async def start(self) -> None:
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tests.e2e.bot_process",
            cwd=self.folder,
            env=self.env,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        self._reader = asyncio.ensure_future(self._read())
        deadline = time.monotonic() + 90
        while not any("logged in" in line for line in self.lines):
            if self.proc.returncode is not None or time.monotonic() > deadline:
                raise RuntimeError("the bot process did not start:\n" + "\n".join(self.lines[-20:]))
            await asyncio.sleep(0.05)

    def cpu_seconds(self) -> float:
        """CPU time the bot's process has used (all its threads), from /proc."""
        assert self.proc is not None
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    async def _read(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        async for raw in self.proc.stdout:
            self.lines.append(raw.decode(errors="replace").rstrip("\n"))

    async def stop(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.send_signal(signal.SIGTERM)
            await asyncio.wait_for(self.proc.wait(), 60)
        problems = [line for line in self.lines if "ERROR" in line or "Traceback" in line]
        if problems:
            print("the bot process logged errors:", *problems[:10], sep="\n", file=sys.stderr)


# Where the bot's CPU goes (`--profile`): each sample of a thread of its process at work goes to the first of
# these its stack matches. Every thread is sampled, not only the one holding the GIL (py-spy `--gil`): Pillow
# and zlib-ng let the GIL go while they paste, map and deflate, and the kernel's part of a send runs without
# it, so a GIL profile showed a picture at a third of what it costs.
WHERE = [
    ("/help (the bench's baseline command)", r"Help\.help"),
    ("pictures (drawing, palette, PNG)", r"table_picture|hand_picture|bot/render/pictures|PIL/"),
    (
        "composing the text (the table message, its log, the dialog)",
        r"compose \(|Drawing\.word|dialog_of|(?<!open_)move_dialog \(|tablelog|message_of",
    ),
    ("storage (SQLite through aiosqlite)", r"storage/|aiosqlite"),
    ("the rules and the computer player", r"bot/games/"),
    (
        "discord.py and aiohttp: requests out",
        r"aiohttp|AsyncWebhookAdapter|HTTPClient\.request|discord/webhook|discord_out|InteractionResponse",
    ),
    (
        "discord.py: events in (gateway, interactions)",
        r"discord/gateway|discord/state|Interaction\.__init__|schedule_dynamic|_from_interaction|discord/ui"
        r"|discord/app_commands",
    ),
]
REST = "the event loop and the rest"

# Where a thread of the bot sleeps (its stack's innermost frame there): waiting for work (the worker threads,
# aiosqlite's), for a socket (the event loop's epoll) or for a timer (discord.py's heartbeat). py-spy's own
# test of an idle thread does not see these as idle on this kernel, so they are left out by their line.
SLEEPS = [
    ("concurrent.futures.thread", "_worker", "work_queue.get(block=True)"),
    ("aiosqlite.core", "_connection_worker_thread", "tx.get()"),
    ("selectors", "select", "self._selector.poll("),
    ("threading", "wait", "waiter.acquire("),
]


def sleeping_frames() -> re.Pattern[str]:
    """The innermost frames, as py-spy names them (`Class.function (module/path.py:line)`), of a thread asleep
    at one of `SLEEPS`: their lines found in the installed sources (they move between versions). A sleep no
    longer found is said on stderr (its samples then count as work), never left to match everything."""
    frames = []
    for module_name, function, call in SLEEPS:
        module = importlib.import_module(module_name)
        source = Path(str(module.__file__)).read_text().splitlines()
        path = module_name.replace(".", "/") + ".py"
        found = [number for number, line in enumerate(source, start=1) if call in line]
        if not found:
            print(f"--profile: no `{call}` in {path} any more; its sleeps count as work", file=sys.stderr)
        frames += [rf"(^|;|\.){re.escape(function)} \({re.escape(path)}:{n}\)$" for n in found]
    return re.compile("|".join(frames) or r"(?!)")


class Profile:
    """py-spy sampling the bot's process through the play (`--profile`; `pip install py-spy`)."""

    def __init__(self, proc: asyncio.subprocess.Process, out: Path) -> None:
        self.proc, self.out = proc, out

    @classmethod
    async def start(cls, bot: BotProcess, folder: Path, seconds: float) -> Profile:
        assert bot.proc is not None
        out = folder / f"profile-{bot.proc.pid}.txt"
        proc = await asyncio.create_subprocess_exec(
            "py-spy",
            "record",
            "--rate",
            os.environ.get("BENCH_PROFILE_RATE", "50"),
            "--format",
            "raw",
            "--duration",
            str(int(seconds)),
            "--pid",
            str(bot.proc.pid),
            "--output",
            str(out),
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
        )
        return cls(proc, out)

    async def stop(self) -> Counter[str]:
        await asyncio.wait_for(self.proc.wait(), 120)
        where: Counter[str] = Counter()
        if not self.out.exists():
            print("py-spy wrote no profile (is it installed? pip install py-spy)", file=sys.stderr)
            return where
        keep = os.environ.get("BENCH_PROFILE_DIR")  # the raw stacks, for a flame graph or a closer look
        if keep:
            shutil.copy(self.out, Path(keep) / self.out.name)
        rules = [(name, re.compile(pattern)) for name, pattern in WHERE]
        asleep = sleeping_frames()
        for line in self.out.read_text().splitlines():
            stack, _, count = line.rpartition(" ")
            if asleep.search(stack):
                continue
            name = next((name for name, rule in rules if rule.search(stack)), REST)
            where[name] += int(count)
        return where


def where_table(clicked: list[Figures], before: list[Figures], revision: str) -> list[str]:
    """The bot's CPU per move of a person split as its profile splits its samples, before and now."""
    columns = [(f"{f.kind} at `{revision}`", f) for f in before] + [(f"{f.kind} now", f) for f in clicked]
    columns = [(label, f) for label, f in columns if f.where]
    if not columns:
        return []
    out = [
        "| where | " + " | ".join(f"{label} (ms)" for label, _ in columns) + " |",
        "|---|" + "---|" * len(columns),
    ]
    for name in [name for name, _ in WHERE] + [REST]:
        cells = []
        for _, f in columns:
            share = f.where[name] / max(1, sum(f.where.values()))
            cells.append(f"{share * f.bot_cpu / max(1, f.people_moves) * 1000:.1f} ({share:.0%})")
        out.append(f"| {name} | " + " | ".join(cells) + " |")
    totals = [f"**{f.bot_cpu / max(1, f.people_moves) * 1000:.1f}**" for _, f in columns]
    out.append("| all | " + " | ".join(totals) + " |")
    return out


@dataclass
class Seen:
    """A table as a person at it can know it: the stored game (what his hand and the table show) and
    whether the table message shows the newest move."""

    table_id: int
    status: str
    seq: int
    game: Any
    message_id: int | None
    stored_at: float  # when the newest action was stored (0: none yet)


class Tables:
    """Reads the bot's SQLite file from the bench's process (WAL: readers never block the bot). A thousand
    people each looking at their table every 0.1 s would be ten thousand queries a second, the bench's own
    load rather than the bot's: the tables are read in one query at most every 50 ms, and one table alone
    only when its person needs it now (right after his own move)."""

    BATCH_AGE = 0.05

    def __init__(self, database: Path) -> None:
        self.conn = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
        self._seen: dict[int, Seen] = {}  # channel id -> the newest table there, as last read
        self._rows: dict[int, tuple[int, str, str, int | None]] = {}  # channel id -> its newest table's row
        self._read_at = float("-inf")

    def _newest(self, channel_id: int, fresh: bool) -> tuple[int, str, str, int | None] | None:
        if fresh:
            return self.conn.execute(
                "SELECT id, kind, status, (SELECT MAX(seq) FROM actions WHERE table_id = t.id) "
                "FROM game_tables t WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
                (channel_id,),
            ).fetchone()
        if time.monotonic() - self._read_at >= self.BATCH_AGE:
            self._read_at = time.monotonic()
            self._rows = {
                row[0]: row[1:]
                for row in self.conn.execute(
                    "SELECT channel_id, id, kind, status, "
                    "(SELECT MAX(seq) FROM actions WHERE table_id = t.id) FROM game_tables t "
                    "WHERE id IN (SELECT MAX(id) FROM game_tables GROUP BY channel_id)"
                )
            }
        return self._rows.get(channel_id)

    def seen(self, channel_id: int, *, fresh: bool = False) -> Seen | None:
        row = self._newest(channel_id, fresh)
        if row is None:
            return None
        table_id, kind, status, last = row
        seq = 0 if last is None else int(last) + 1
        known = self._seen.get(channel_id)
        same = known is not None and (known.table_id, known.seq, known.status) == (table_id, seq, status)
        if same and known is not None and known.message_id is not None:
            return known
        if known is not None and (known.table_id, known.seq) > (table_id, seq):
            return known  # the batch is older than this table's own fresh read
        # Something changed: read the game, the table message and when the newest action was stored.
        snapshot, display = self.conn.execute(
            "SELECT snapshot, display FROM game_tables WHERE id = ?", (table_id,)
        ).fetchone()
        stored_at = 0.0
        if last is not None:
            (stored_at,) = self.conn.execute(
                "SELECT created_at FROM actions WHERE table_id = ? AND seq = ?", (table_id, last)
            ).fetchone()
        game = REGISTRY[kind].load(snapshot) if snapshot is not None else None
        message_id = json.loads(display or "{}").get("table_message_id")
        seen = self._seen[channel_id] = Seen(table_id, status, seq, game, message_id, stored_at)
        return seen

    def hands_pending(self, table_id: int) -> bool:
        """Whether the newest steps' hands still wait to be DMed (the presenter sends them after the table
        message, and marks them sent in its display record)."""
        display, last = self.conn.execute(
            "SELECT display, (SELECT MAX(seq) FROM actions WHERE table_id = t.id) FROM game_tables t"
            " WHERE id = ?",
            (table_id,),
        ).fetchone()
        seq = 0 if last is None else int(last) + 1
        return int(json.loads(display or "{}").get("hands_seq", -1)) < seq

    def close(self) -> None:
        self.conn.close()


def shows(fake: FakeDiscord, seen: Seen) -> bool:
    """Whether the table message was written after the newest stored action (a person sees it)."""
    message = fake.messages.get(seen.message_id or 0)
    return message is not None and bool(message.versions) and message.versions[-1].at >= seen.stored_at


def offers_move(fake: FakeDiscord, seen: Seen) -> bool:
    """Whether the table message shows the running game (its Move button): a person clicks what he sees."""
    message = fake.messages.get(seen.message_id or 0)
    return message is not None and "Move" in message.button_labels


# The slash command a person types for a move: the same mapping the e2e fuzz and fault tests drive games with.
command_for = RealGames.command_for


async def drive(
    bench: Bench, tables: Tables, kind: str, channel: str, until: float, figures: Figures, rng: random.Random
) -> None:
    """A person (or three) at one table. A person moves 1-3 s after he can know it is his turn: at once after
    his own answer when the turn is still his, else once the table message shows the turn came to him (a
    person cannot answer a move the channel has not shown yet). His move is the one the computer player
    would make, typed as a slash command; /help just before it is the baseline."""
    users = {str(u.id): u for u in bench.people(channel)}
    channel_id = bench.fake.channel(channel).id
    answered_at_seq: int | None = None  # the table's action count right after this table's last answer
    fresh = False  # right after his own move he looks at once (the batched read may be older)
    while time.monotonic() < until:
        seen = tables.seen(channel_id, fresh=fresh)
        fresh = False
        if seen is None or seen.status not in ("running", "lobby"):
            await asyncio.sleep(rng.uniform(1.0, 3.0))
            if time.monotonic() < until:
                try:
                    await bench.open_game(kind, channel)  # the game ended: the people start another
                except FakeDiscordError:
                    figures.refused += 1
            continue
        player = seen.game.current_player if seen.game is not None else None
        user = users.get(player or "")
        if user is None:
            await asyncio.sleep(0.1)  # the computer is moving, or the game is being dealt
            continue
        if seen.seq != answered_at_seq and not shows(bench.fake, seen):
            await asyncio.sleep(0.1)  # the turn came from someone else's move: not shown yet
            continue
        if figures.clicks and not offers_move(bench.fake, seen):
            await asyncio.sleep(0.1)  # the table message still shows the lobby: the start is not shown yet
            continue
        await asyncio.sleep(rng.uniform(1.0, 3.0))
        if time.monotonic() >= until:
            return
        try:
            await one_move(bench, user, seen, kind, channel, player, figures)
        except FakeDiscordError as exc:
            # An answer Discord refused (a 3-s deadline missed: the machine is overloaded): counted, the
            # person goes on (as he would, clicking again).
            figures.refused += 1
            if figures.refused <= 3:
                print(f"refused: {exc}", file=sys.stderr, flush=True)
            await asyncio.sleep(rng.uniform(1.0, 3.0))  # he looks again a moment later
            continue
        figures.people_moves += 1
        answered_at_seq = seen.seq + 1
        fresh = True
        figures_pending.setdefault(channel, []).append((bench.fake.now(), seen.message_id))


async def one_move(
    bench: Bench, user: Any, seen: Seen, kind: str, channel: str, player: str, figures: Figures
) -> None:
    """The /help baseline, then the person's move: by clicks or by a slash command."""
    started = time.perf_counter()
    await user.slash("help", channel=channel)
    figures.helps.append(time.perf_counter() - started)
    action = choose_action(seen.game, player, f"bench/{channel}/{seen.seq}")
    if figures.clicks:
        if not await click_move(bench, user, seen, kind, action, figures):
            raise FakeDiscordError("the Move dialog was refused (the table moved on)")
    else:
        command, options = command_for(kind, action)
        started = time.perf_counter()
        await user.slash(command, channel=channel, **options)
        figures.answers.append(time.perf_counter() - started)


async def click_move(bench: Bench, user: Any, seen: Seen, kind: str, action: Any, figures: Figures) -> bool:
    """A person's move by clicks: Move on the table message, then his move picked in the dialog. The answer
    to his submit should be the table message with his move (type 7). False: the click was refused (the
    table moved on meanwhile)."""
    message = bench.fake.messages.get(seen.message_id or 0)
    if message is None:
        return False
    started = time.perf_counter()
    opened = await user.click(message, "Move")
    figures.opens.append(time.perf_counter() - started)
    if opened.kind != "modal":
        return False
    token = render.token(kind, action)
    started = time.perf_counter()
    done = await user.submit(opened, {select_of(opened, token): [token]})
    figures.answers.append(time.perf_counter() - started)
    figures.in_answer += done.kind in ("update", "deferred_update") and bool(
        done.message is not None and done.message.id == message.id
    )
    return True


# channel -> when each of its moves was answered, and the table message that should show it
figures_pending: dict[str, list[tuple[float, int | None]]] = {}


def shown_delays(bench: Bench, channel: str, answered: list[tuple[float, int | None]]) -> list[float]:
    """For each move answered at time t: how long until its table message was written after t."""
    delays = []
    for t, message_id in answered:
        message = bench.fake.messages.get(message_id or 0)
        if message is None:
            continue
        later = [v.at for v in message.versions if v.at >= t]
        if later:
            delays.append(min(later) - t)
    return delays


async def scenario(
    kind: str,
    tables: int,
    seconds: float,
    seed: int,
    *,
    clicks: bool = False,
    code: Path = ROOT,
    profile: bool = False,
) -> Figures:
    figures = Figures(kind, tables, clicks=clicks, code=code)
    figures_pending.clear()
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "bench.sqlite3"
        bench = Bench(Path(folder), tables)
        await bench.fake.start()
        bot = BotProcess(bench.fake, database, Path(folder), code)
        reader: Tables | None = None
        try:
            await bot.start()
            reader = Tables(database)
            for name in bench.names:
                await bench.open_game(kind, name)
            await everything_shown(bench, reader)
            since = bench.fake.now()
            first = len(bench.fake.requests)
            rng = random.Random(seed)
            until = time.monotonic() + seconds
            started = time.monotonic()
            cpu = bot.cpu_seconds(), time.process_time()
            spy = await Profile.start(bot, Path(folder), seconds) if profile else None
            await asyncio.gather(
                *(
                    drive(bench, reader, kind, n, until, figures, random.Random(rng.random()))
                    for n in bench.names
                )
            )
            await everything_shown(bench, reader, hands=not clicks)
            figures.seconds = time.monotonic() - started
            figures.bot_cpu = bot.cpu_seconds() - cpu[0]
            figures.bench_cpu = time.process_time() - cpu[1]
            if spy is not None:
                figures.where = await spy.stop()
            stats = bench.fake.rest_stats(since=since)
            figures.calls = stats.total
            figures.peak = stats.peak(window=1.0)
            figures.answered_429 = stats.sent_429
            figures.routes = Counter(call.route for call in stats.calls)
            requests = bench.fake.requests[first:]
            figures.unlimited = Counter(r.route for r in requests if r.route.startswith(UNLIMITED))
            figures.moves = max(1, stored_moves(database, since))
            for name in bench.names:
                figures.shown_after += shown_delays(bench, name, figures_pending.get(name, []))
            figures.computer_shown_after = computer_turn_delays(bench, database, since)
        finally:
            if reader is not None:
                reader.close()
            await bot.stop()
            await bench.fake.stop()
    return figures


async def everything_shown(
    bench: Bench, tables: Tables, timeout: float | None = None, *, hands: bool = True
) -> None:
    """Until every table message shows its table's newest move, its hands are DMed (`hands`: after the
    play, a table played by clicks may owe nobody a hand, and the presenter then stores that only with its
    next write) and no computer is still to move."""
    # The opening's writes (a table message and the hands' DMs per table) pass the token's 48 per second.
    deadline = time.monotonic() + (timeout or max(30.0, len(bench.names) * 0.15))
    people = {str(u.id) for name in bench.names for u in bench.people(name)}
    why: Counter[str] = Counter()
    while time.monotonic() < deadline:
        why.clear()
        for name in bench.names:
            seen = tables.seen(bench.fake.channel(name).id)
            if seen is None or seen.game is None:
                why["no game yet"] += 1
            elif seen.status == "running" and seen.game.current_player not in people:
                why["a computer to move"] += 1
            elif not shows(bench.fake, seen):
                why["the table message behind"] += 1
            elif hands and seen.status == "running" and tables.hands_pending(seen.table_id):
                why["hands to DM"] += 1  # (a finished game has none to send)
        if not why:
            return
        await asyncio.sleep(0.1)
    print(f"not everything shown after the wait: {dict(why)}", file=sys.stderr, flush=True)


def computer_turn_delays(bench: Bench, database: Path, since: float) -> list[float]:
    """For each computer turn (consecutive actions by no person of the table): the time from its last
    action being stored to the channel's table message showing it."""
    people = {str(u.id): name for name in bench.names for u in bench.people(name)}
    channels = {bench.fake.channel(name).id: name for name in bench.names}
    with sqlite3.connect(database) as conn:
        rows = conn.execute(
            "SELECT a.table_id, a.actor, a.created_at, t.channel_id FROM actions a "
            "JOIN game_tables t ON t.id = a.table_id WHERE a.created_at >= ? ORDER BY a.table_id, a.seq",
            (since,),
        ).fetchall()
    ends: list[tuple[str, float]] = []  # (channel, when the turn's last action was stored)
    for i, (table_id, actor, at, channel_id) in enumerate(rows):
        if actor is None or actor in people or actor == "timeout":
            continue
        following = rows[i + 1] if i + 1 < len(rows) else None
        if following is None or following[0] != table_id or following[1] in people:
            ends.append((channels[channel_id], at))
    delays = []
    for channel, at in ends:
        messages = [m for m in bench.fake.channel_messages(channel) if m.author.bot]
        shown = [v.at for m in messages for v in m.versions if v.at >= at]
        if shown:
            delays.append(min(shown) - at)
    return delays


def stored_moves(database: Path, since: float) -> int:
    """Every action stored since `since` (people's and computers'), read from the database file."""
    with sqlite3.connect(database) as conn:
        (count,) = conn.execute("SELECT COUNT(*) FROM actions WHERE created_at >= ?", (since,)).fetchone()
    return int(count)


@dataclass
class GameCalls:
    """Every rate-limited call of one whole game by clicks, from the first command to the end."""

    kind: str
    people_moves: int
    calls: Counter[tuple[str, str]]  # (route, why) -> how many

    @property
    def total(self) -> int:
        return sum(self.calls.values())


def why(fake: FakeDiscord, request: Any) -> str:
    """What a rate-limited call was for, told from its route and body as Discord saw it."""
    route, body = request.route, request.body if isinstance(request.body, dict) else {}
    if route == "POST /users/@me/channels":
        return "a person's DM channel opened, for his hand"
    parts = request.path.split("/")
    channel = fake.channel(int(parts[2])) if len(parts) > 2 and parts[2].isdigit() else None
    payload = body.get("payload_json", body) if isinstance(body, dict) else {}
    buttons = bool(payload.get("components")) if isinstance(payload, dict) else False
    if route == "POST /channels/{channel_id}/messages":
        if channel is not None and channel.guild_id is None:
            return "a hand by DM (each deal's, the mission's)"
        return "the table message posted (a new table)" if buttons else "a message in the channel"
    if route == "PATCH /channels/{channel_id}/messages/{message_id}":
        return "the table message edited in the channel (a change no click's answer or token carried)"
    if route == "DELETE /channels/{channel_id}/messages/{message_id}":
        return "an old table message removed"
    return "other"


async def whole_game_by_clicks(kind: str) -> GameCalls:
    """One whole game played by clicks at a person's pace (tests/e2e/test_play_in_place.py's people: each
    moves 1-3 s on the fake's clock after the table message shows his turn), one table, the bot in this
    process; its rate-limited calls from the first command (the table opened by slash commands, as the
    other scenarios) to the end, each with its reason."""
    lobbies.new_seed = lambda: f"bench-whole-{kind}-1"  # reproducible: the same deal every run
    with tempfile.TemporaryDirectory() as folder:
        bench = Bench(Path(folder), 1)
        await bench.start(Path(folder) / "bench.sqlite3", turn_timeout_seconds=600)
        try:
            channel = bench.names[0]
            first = len(bench.fake.requests)
            since = bench.fake.now()
            await bench.open_game(kind, channel)
            await bench.sessions.idle()
            assert bench.harness is not None
            clicking = ClickingTable(bench.harness, channel, bench.people(channel), seed=42)
            clicking.table_id = bench.table(channel).id
            await clicking.play()
            await bench.sessions.idle()
            limited = Counter(c.route for c in bench.fake.rest_stats(since=since).calls)
            calls: Counter[tuple[str, str]] = Counter()
            for request in bench.fake.requests[first:]:
                if limited[request.route] > 0:
                    limited[request.route] -= 1
                    calls[(request.route, why(bench.fake, request))] += 1
            return GameCalls(kind, clicking.moves, calls)
        finally:
            await bench.stop()


def game_calls_line(g: GameCalls) -> str:
    parts = [f"{n} {reason} (`{route}`)" for (route, reason), n in g.calls.most_common()]
    return (
        f"- {g.kind}: {g.total} rate-limited calls for {g.people_moves} moves of people "
        f"(**{g.total / max(1, g.people_moves):.2f}** per move of a person): " + ("; ".join(parts) or "none")
    )


async def finished_game_messages(kind: str) -> list[int]:
    """Whole games at a quick pace, one table: the bot messages each leaves in its channel."""
    left = []
    with tempfile.TemporaryDirectory() as folder:
        bench = Bench(Path(folder), 1)
        await bench.start(Path(folder) / "bench.sqlite3", turn_timeout_seconds=600)
        users = {str(u.id): u for u in bench.people(bench.names[0])}
        try:
            channel = bench.names[0]
            await bench.open_game(kind, channel, short=True)
            for _ in range(5000):
                table = bench.table(channel)
                if table is None:
                    break
                player = table.game.current_player
                if player not in users or table.seat_is_computer(player):
                    await asyncio.sleep(0.01)
                    continue
                action = choose_action(table.game, player, f"bench/{table.seq}")
                command, options = command_for(kind, action)
                await users[player].slash(command, channel=channel, **options)
            await bench.sessions.idle()
            left.append(len([m for m in bench.fake.channel_messages(channel) if m.author.bot]))
        finally:
            await bench.stop()
    return left


async def resume(tables: int) -> dict[str, float]:
    """`tables` running Malice games in the database (a person to move in each), then a bot start."""
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "bench.sqlite3"
        bench = Bench(Path(folder), tables)
        store = await Store.open(str(database))

        class Silent:
            """The seeding process's Discord: its messages are gone (the new bot posts fresh ones)."""

            async def send(self, channel_id: int, message: Any) -> Any:
                return None

            async def edit(self, channel_id: int, message_id: int, message: Any) -> bool:
                return True

            async def delete(self, channel_id: int, message_id: int) -> None:
                return None

            async def dm(self, user_id: int, message: Any) -> None:
                return None

            def dm_requests(self, user_id: int) -> int:
                return 1

        # The earlier process, with its DMs sent and its messages posted (here: into the void).
        seeding = SessionManager(
            store, Silent(), default_timeout=600, bot_user_id=bench.fake.bot_user.id, coalesce=0, pacing=False
        )
        for name in bench.names:
            await seeding.open_table(
                "malice",
                bench.fake.guild_id,
                bench.fake.channel(name).id,
                bench.people(name)[0].id,
                opponent=bench.fake.bot_user.id,
            )
        await seeding.idle()
        await seeding.close(flush=0)
        await store.close()

        await bench.fake.start()
        Route.BASE = bench.fake.api_base
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(bench.fake.gateway_url)
        bench.harness = Harness(
            bench.fake, bench.folder, database_path=database, log_level="WARNING", turn_timeout_seconds=600
        )
        started = bench.fake.now()
        try:
            await bench.harness.start_bot()
            ready = bench.fake.now()
            before_ready = len([c for c in bench.fake.rest_stats(since=started).calls if c.at < ready])
            sent = time.perf_counter()
            await bench.people(bench.names[-1])[0].slash("hand", channel=bench.names[-1])
            first_answer = time.perf_counter() - sent
            refreshed_at = ready
            await asyncio.wait_for(bench.sessions.idle(), 600)
            refreshed_at = bench.fake.now()
            stats = bench.fake.rest_stats(since=ready)
            return {
                "tables": tables,
                "calls_before_ready": before_ready,
                "first_answer": first_answer,
                "refreshed": refreshed_at - ready,
                "calls": stats.total,
                "peak": stats.peak(window=1.0),
                "answered_429": stats.sent_429,
            }
        finally:
            await bench.stop()


HEADER = [
    "| game | tables | moves | answer p50 / p99 ms | /help p50 / p99 ms | p99 ratio | REST calls per move "
    "| peak calls/s | 429s | table shows a move p50 / p99 ms | a computer's turn p50 / p99 ms |",
    "|---|---|---|---|---|---|---|---|---|---|---|",
]


def row(f: Figures) -> str:
    ratio = pct(f.answers, 0.99) / pct(f.helps, 0.99) if f.helps and f.answers else float("nan")
    return (
        f"| {f.kind} | {f.tables} | {f.moves} | {ms(pct(f.answers, 0.5))} / {ms(pct(f.answers, 0.99))} "
        f"| {ms(pct(f.helps, 0.5))} / {ms(pct(f.helps, 0.99))} | {ratio:.2f} | {f.calls / f.moves:.2f} "
        f"| {f.peak} | {f.answered_429} "
        f"| {ms(pct(f.shown_after, 0.5))} / {ms(pct(f.shown_after, 0.99))} "
        f"| {ms(pct(f.computer_shown_after, 0.5))} / {ms(pct(f.computer_shown_after, 0.99))} |"
    )


CLICK_HEADER = [
    "| game | tables | moves (by people) | answer p50 / p99 ms | /help p50 / p99 ms | p99 ratio "
    "| rate-limited calls per move of a person | peak calls/s | 429s | refused (past 3 s, or moved on) "
    "| own move in the answer | Move opens p50 / p99 ms | a computer's turn p50 / p99 ms |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
]


def click_row(f: Figures) -> str:
    ratio = pct(f.answers, 0.99) / pct(f.helps, 0.99) if f.helps and f.answers else float("nan")
    people = max(1, f.people_moves)
    return (
        f"| {f.kind} | {f.tables} | {f.moves} ({f.people_moves}) "
        f"| {ms(pct(f.answers, 0.5))} / {ms(pct(f.answers, 0.99))} "
        f"| {ms(pct(f.helps, 0.5))} / {ms(pct(f.helps, 0.99))} | {ratio:.2f} | {f.calls / people:.3f} "
        f"| {f.peak} | {f.answered_429} | {f.refused} | {f.in_answer} of {f.people_moves} "
        f"| {ms(pct(f.opens, 0.5))} / {ms(pct(f.opens, 0.99))} "
        f"| {ms(pct(f.computer_shown_after, 0.5))} / {ms(pct(f.computer_shown_after, 0.99))} |"
    )


def cpu_line(f: Figures) -> str:
    people = max(1, f.people_moves)
    return (
        f"- {f.kind}, {f.tables} tables: {f.people_moves / f.seconds:.0f} moves of people a second; CPU per "
        f"move of a person: the bot {f.bot_cpu / people * 1000:.1f} ms, the fake Discord and the people "
        f"{f.bench_cpu / people * 1000:.1f} ms; the cores busy {(f.bot_cpu + f.bench_cpu) / f.seconds:.2f} "
        f"of {os.cpu_count()}"
    )


def capacity_line(f: Figures, game: GameCalls | None) -> str:
    """How many tables as busy as these one core and one token carry, from this run's own figures: the bot's
    CPU per move of a person, how often a person moves at a busy table, and the whole game's rate-limited
    calls per move of a person (the opening and the hands by DM included; the play's own calls if no whole
    game was measured) against the token's 48 calls a second (GLOBAL_REQUESTS)."""
    people = max(1, f.people_moves)
    per_table = f.people_moves / f.seconds / f.tables  # moves of people a second at one busy table
    cpu = f.bot_cpu / people
    calls = game.total / max(1, game.people_moves) if game is not None else f.calls / people
    core = 1 / (cpu * per_table) if cpu and per_table else float("inf")
    token = GLOBAL_REQUESTS / (calls * per_table) if calls and per_table else float("inf")
    return (
        f"- {f.kind}: a busy table makes {per_table:.2f} moves of people a second; one core carries "
        f"**{core:,.0f}** such tables (the bot at {cpu * 1000:.1f} ms of CPU per move of a person), one "
        f"token **{token:,.0f}** ({calls:.3f} rate-limited calls per move of a person"
        f"{', whole games' if game is not None else ''}, 48 a second)"
    )


# Interaction answers and edits through their tokens: outside the rate limits, but each a request the bot's
# process makes (its CPU).
UNLIMITED = ("POST /interactions", "PATCH /webhooks", "POST /webhooks", "GET /webhooks")


def unlimited_line(f: Figures) -> str:
    people = max(1, f.people_moves)
    parts = [f"{route} {count / people:.2f}" for route, count in f.unlimited.most_common()]
    return f"- {f.kind}, {f.tables} tables: " + "; ".join(parts)


def routes_line(f: Figures) -> str:
    parts = [f"{route} {count / f.moves:.2f}" for route, count in f.routes.most_common()]
    return f"- {f.kind}, {f.tables} tables: " + "; ".join(parts)


SUMMED = (
    "moves",
    "calls",
    "answered_429",
    "seconds",
    "people_moves",
    "in_answer",
    "refused",
    "bot_cpu",
    "bench_cpu",
)


def pooled(rounds: list[Figures]) -> Figures:
    """One scenario's rounds (`--rounds`) as one: counts, CPU and the profile's samples summed, the timings
    joined, the peak the highest (so every figure per move is over all of them); `rounds` keeps each round's
    CPU per move."""
    last = rounds[-1]
    if len(rounds) == 1:
        return last
    summed = {name: sum(getattr(f, name) for f in rounds) for name in SUMMED}
    joined = {
        name: [x for f in rounds for x in getattr(f, name)]
        for name in ("answers", "helps", "shown_after", "computer_shown_after", "messages_left", "opens")
    }
    counted = {
        name: sum((getattr(f, name) for f in rounds), Counter()) for name in ("routes", "unlimited", "where")
    }
    return replace(
        last,
        **summed,
        **joined,
        **counted,
        peak=max(f.peak for f in rounds),
        rounds=[f.bot_cpu / max(1, f.people_moves) * 1000 for f in rounds],
    )


def cpu_table(clicked: list[Figures], before: list[Figures], revision: str) -> list[str]:
    """The bot's CPU per move of a person at each click scenario, at `--baseline`'s revision and now (the
    same run: the two bots took turns on the same machine)."""
    then = {(f.kind, f.tables): f for f in before}
    out = [
        f"| game | tables | the bot's CPU per move of a person at `{revision}` (ms) | now (ms) | now / then "
        "| moves of people (then / now) |",
        "|---|---|---|---|---|---|",
    ]
    for f in clicked:
        b = then.get((f.kind, f.tables))
        now = f.bot_cpu / max(1, f.people_moves) * 1000
        was = b.bot_cpu / max(1, b.people_moves) * 1000 if b is not None else float("nan")
        moves = f"{b.people_moves} / {f.people_moves}" if b is not None else f"n/a / {f.people_moves}"
        each = ""
        if len(f.rounds) > 1:
            said = ", ".join(f"{x:.1f}" for x in b.rounds) if b is not None else "n/a"
            each = f" (each round, ms: {said} / " + ", ".join(f"{x:.1f}" for x in f.rounds) + ")"
        out.append(f"| {f.kind} | {f.tables} | {was:.1f} | **{now:.1f}** | {now / was:.2f} | {moves}{each} |")
    return out


def report(
    rows: list[Figures],
    clicked: list[Figures],
    finished: dict[str, list[int]],
    resumed: dict[str, float],
    args: Any,
    before: list[Figures] | None = None,
    games: dict[str, GameCalls] | None = None,
) -> str:
    validation = "on" if args.validate else "off"
    lines = [
        "The bot runs as deployed (`cardtable-bot run`, a process of its own, SQLite), the fake Discord in "
        f"the bench's process with its rate limits on (request bodies checked against Discord's schemas: "
        f"{validation}); each table played for {args.seconds:.0f} s at a human pace: a person moves 1-3 s "
        "after he can know it is his turn "
        "(at once after his own answer when the turn stays his, else once the table message shows the "
        "turn came to him); Insomnia: three people and a computer seat, Malice: "
        "a person against the computer. The baseline is /help, sent by the same person just before each "
        'move (as many samples as moves). "A computer\'s turn": from its last move being stored to the '
        "table message showing it.",
    ]
    if clicked:
        lines += [
            "",
            "### By clicks (issue 30): every move answered in place",
            "",
            'Each move: Move on the table message, the move picked in the dialog; "answer" is the dialog\'s '
            "submit until its answer (the table message updated with the move, type 7). Rate-limited calls: "
            "every call of the bot's token in the play (interaction answers and their webhook are outside "
            "the limits), per move of a person.",
            "",
            *CLICK_HEADER,
            *(click_row(f) for f in clicked),
            "",
            "Where the rate-limited calls went (calls per move, by route):",
            "",
            *(routes_line(f) for f in clicked),
            "",
            "Where the machine's time went (the bot's process, and the bench's: the fake Discord with its "
            "schema checks and the simulated people, on the same cores):",
            "",
            *(cpu_line(f) for f in clicked),
            "",
            "The requests outside the limits (interaction answers, edits through a click's token: the /help "
            "baseline, Move's dialog, its submit's answer, the computer's moves and the pictures), per move "
            "of a person:",
            "",
            *(unlimited_line(f) for f in clicked),
        ]
        if before:
            lines += [
                "",
                f"The bot's CPU per move of a person, before (the bot of revision `{args.baseline}`, "
                f"{args.baseline_commit}, run by the same bench in turns with this one"
                + (
                    f", {args.rounds} rounds, each in the other order, their figures pooled"
                    if args.rounds > 1
                    else ""
                )
                + ") and now:",
                "",
                *cpu_table(clicked, before, args.baseline),
                "",
                "Before, where the machine's time went:",
                "",
                *(cpu_line(f) for f in before),
            ]
        where = where_table(clicked, before or [], getattr(args, "baseline", None) or "")
        if where:
            lines += [
                "",
                "Where the bot's CPU went, per move of a person (a py-spy profile of the bot's process "
                "through the play: the samples of its threads at work, a thread asleep in a queue, a lock "
                "or epoll left out; each counted under the first of these its stack is in; the share of the "
                "samples times the CPU per move):",
                "",
                *where,
                "",
                "Every thread is sampled, so Pillow's and zlib-ng's work (done without the GIL) counts under "
                "the picture, and the kernel's part of a send under the request it sends "
                "(`BENCH_PROFILE_DIR=folder` keeps the raw stacks, `BENCH_PROFILE_RATE` sets py-spy's "
                "rate).",
            ]
        if games:
            lines += [
                "",
                "Every rate-limited call of a whole game by clicks (one table, the people at a person's "
                "pace: 1-3 s on the fake's clock after the table message shows their turn; from the first "
                "command to the end), by reason:",
                "",
                *(game_calls_line(g) for g in games.values()),
            ]
        lines += [
            "",
            "What one core and one token carry, from these figures (the bot alone on the core; the "
            "token's 48 calls a second):",
            "",
            *(capacity_line(f, (games or {}).get(f.kind)) for f in clicked),
        ]
    if rows:
        lines += [
            "",
            "### By slash commands (a command per move: every move shown by a write in the channel, as "
            "before issue 30)",
            "",
            *HEADER,
            *(row(f) for f in rows),
            "",
            "Where the rate-limited calls went (calls per move, by route):",
            "",
            *(routes_line(f) for f in rows),
        ]
    lines += ["", "Bot messages left in the channel per finished game (whole games, one table, quick pace):"]
    lines.append("")
    for kind, left in finished.items():
        lines.append(f"- {kind}: {', '.join(str(n) for n in left)}")
    if resumed:
        lines += [
            "",
            f"Resume with {resumed['tables']:,.0f} running tables: {resumed['calls_before_ready']:.0f} REST "
            f"calls before READY; first command answered {resumed['first_answer'] * 1000:.0f} ms after "
            f"READY; every table message refreshed {resumed['refreshed']:.1f} s after READY "
            f"({resumed['calls']:.0f} calls, peak {resumed['peak']:.0f}/s, "
            f"{resumed['answered_429']:.0f} 429s).",
        ]
    return "\n".join(lines)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=40.0, help="how long each scenario plays")
    parser.add_argument(
        "--tables",
        default="1,10,100",
        help="table counts played by slash commands, comma-separated ('' for none)",
    )
    parser.add_argument(
        "--click-tables",
        default="1000",
        help="table counts played by clicks (the Move dialog), comma-separated ('' for none)",
    )
    parser.add_argument("--resume-tables", type=int, default=1000)
    parser.add_argument(
        "--games",
        default="malice,insomnia",
        help="the games played, comma-separated (a closer look at one: --games malice)",
    )
    parser.add_argument("--quick", action="store_true", help="N = 1 and 10, 15 s, resume with 200 tables")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--no-validate",
        dest="validate",
        action="store_false",
        help="do not check request bodies against Discord's schemas (the tests always do)",
    )
    parser.add_argument("--write", action="store_true", help="write the figures into docs/benchmarks.md")
    parser.add_argument(
        "--baseline",
        metavar="REV",
        help="also run the click scenarios with the bot of git revision REV (say main), in turns with this",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="play each click scenario this many times (with --baseline: in turns, the order swapped each "
        "round) and pool their figures: the shared machine's minutes differ",
    )
    parser.add_argument(
        "--profile",
        action="store_true",
        help="sample the bot's process with py-spy in the click scenarios: where its CPU goes (needs py-spy)",
    )
    parser.add_argument(
        "--two-processes",
        action="store_true",
        help="only the token's budget across two bot processes on one PostgreSQL (one killed and restarted)",
    )
    args = parser.parse_args()
    args.kinds = tuple(kind for kind in args.games.split(",") if kind)
    if args.two_processes:
        await two_processes(args)
        return
    if not args.validate:
        FakeDiscord._check_body = lambda self, *a, **k: None  # type: ignore[method-assign]
    if args.quick:
        args.seconds, args.tables, args.click_tables, args.resume_tables = 15.0, "1,10", "10", 200
    logging.basicConfig(level=logging.ERROR)
    clicked, before = [], []
    baseline = None
    folder = tempfile.TemporaryDirectory()
    if args.baseline:
        args.baseline_commit = subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "--short", args.baseline],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
        baseline = checkout(args.baseline, folder.name)
    print("\n".join(CLICK_HEADER), flush=True)
    for n in [int(x) for x in args.click_tables.split(",") if x]:
        for kind in args.kinds:
            thens: list[Figures] = []
            nows: list[Figures] = []
            for turn in range(args.rounds):
                # The two bots take turns (the same machine, the same minutes), each round in the other order:
                # a machine that gets busier through a round weighs on both alike.
                for baseline_now in (True, False) if turn % 2 == 0 else (False, True):
                    if baseline_now and baseline is not None:
                        then = await scenario(
                            kind, n, args.seconds, args.seed, clicks=True, code=baseline, profile=args.profile
                        )
                        thens.append(then)
                        print(f"at {args.baseline}:", click_row(then), cpu_line(then), sep="\n", flush=True)
                    elif not baseline_now:
                        figures = await scenario(
                            kind, n, args.seconds, args.seed, clicks=True, profile=args.profile
                        )
                        nows.append(figures)
                        print(click_row(figures), flush=True)
                        print(routes_line(figures), flush=True)
                        print(cpu_line(figures), flush=True)
                        print(unlimited_line(figures), flush=True)
            clicked.append(pooled(nows))
            if thens:
                before.append(pooled(thens))
    folder.cleanup()
    games = {}
    if clicked:
        for kind in args.kinds:
            games[kind] = await whole_game_by_clicks(kind)
            print(game_calls_line(games[kind]), flush=True)
    rows = []
    print("\n".join(HEADER), flush=True)
    for n in [int(x) for x in args.tables.split(",") if x]:
        for kind in args.kinds:
            figures = await scenario(kind, n, args.seconds, args.seed)
            rows.append(figures)
            print(row(figures), flush=True)
            print(routes_line(figures), flush=True)
    finished = {kind: await finished_game_messages(kind) for kind in args.kinds}
    resumed = await resume(args.resume_tables) if args.resume_tables else {}
    text = report(rows, clicked, finished, resumed, args, before, games)
    print(text)
    if args.write:
        write_section("discord", "## Discord traffic at Discord's limits\n\n" + text)


TWO_HEADER = [
    "| processes | tables | moves | REST calls | most calls in a second | in a clock second | 429s "
    "| answer p50 / p99 ms | shard 1 away s | moves at shard 0 meanwhile | moves at shard 1 after |",
    "|---|---|---|---|---|---|---|---|---|---|---|",
]


async def two_processes(args: Any) -> None:
    from bench.bench_storage import Postgres
    from tests import pg
    from tests.e2e.shared_budget import Scenario, summary

    tables = int(args.tables) if args.tables.isdigit() else 200
    with Postgres() as postgres, tempfile.TemporaryDirectory() as folder:
        url = await postgres.database()
        try:
            scenario = Scenario(
                url,
                Path(folder),
                tables=tables,
                seconds=args.seconds,
                think=(1.0, 3.0),
                kill_at=args.seconds / 4,
                down_for=8.0,
                validate=args.validate,
                seed=args.seed,
            )
            figures = await scenario.run()
        finally:
            assert postgres.admin is not None
            await pg.drop_database(postgres.admin, url)
        database = await postgres.describe()
    s = summary(figures)
    row = (
        f"| 2 (shards 0, 1 of 2) | {s['tables']} | {s['moves']} | {s['calls']} | {s['peak_per_second']} "
        f"| {s['busiest_clock_second']} | {s['429s']} | {s['answer_p50_ms']} / {s['answer_p99_ms']} "
        f"| {s['down_seconds']} | {s['moves_while_down']} | {s['moves_after_restart']} |"
    )
    validation = "on" if args.validate else "off"
    text = "\n".join(
        [
            "Two bot processes of one token (`cardtable-bot run`, shards 0 and 1 of 2) on one PostgreSQL "
            f"database ({database}), one fake Discord with its rate limits on (50 requests per second for "
            "the "
            f"token, 429 past it; request bodies checked against Discord's schemas: {validation}) counting "
            "every "
            f"request of the token; {s['tables']} tables of Malice against the computer, half on each shard, "
            f"opened in {s['opening']} s (each challenge is answered once its table is posted), then "
            f"played for {args.seconds:.0f} s at the Discord section's human pace (a move 1-3 s after a "
            "person "
            f"can know it is her turn); the process of shard 1 killed with SIGKILL {args.seconds / 4:.0f} s "
            "into "
            "the play "
            'and started again 8 s later ("away": from the kill until it was ready again). "Most calls in a '
            'second": in any window of one second; "in a clock second": in one whole second of the fake\'s '
            "clock.",
            "",
            *TWO_HEADER,
            row,
            "",
            "Each process's share of the token's budget, as its /metrics said (sampled every 0.25 s): shard "
            "0 "
            f"had the whole 48 per second {s['whole_share_after_kill_s']} s after the kill; "
            f"{s['share_after_restart_s']} s after the restarted process joined its lease, both were at 24 "
            "again.",
            "",
            "The token's calls in each second of the run: "
            + ", ".join(str(n) for n in figures.calls_per_second),
            *(["", f"Problems: {'; '.join(s['problems'])}"] if s["problems"] else []),
        ]
    )
    print(text)
    if args.write:
        write_section("discord-processes", "## One token's budget across two processes\n\n" + text)


if __name__ == "__main__":
    asyncio.run(main())
