"""Two bot processes, one PostgreSQL database: the bot as Discord shards 0 and 1 of 2, each a real process
(`python -m tests.e2e.bot_process`, i.e. `cardtable-bot run`), against one fake Discord (in this test's event
loop) with a guild on each shard. A Malice game against the computer runs in each guild, played by a person
through slash commands. The process of one shard is killed with SIGKILL mid-game and started again: its game
resumes and is played to its end; the other process's game goes on meanwhile and ends too, without a restart
note or an error in that process's log. Then each table's ledger sums to zero, nothing is left outside the
players' accounts, and the results are what the ledger says.

Skipped with its reason when no PostgreSQL is available (see tests/conftest.py).
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from pathlib import Path

import pytest

from bot.config import Settings
from storage import Store, open_store
from tests.e2e.bot_process import API_ENV, GATEWAY_ENV
from tests.e2e.fake_discord import FakeDiscord, FakeMessage, UserHandle, shard_of
from tests.e2e.test_game_support import ledger_net

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = (
    90.0  # a process imports discord.py, migrates the database and connects: generous, never waited
)
STOP_TIMEOUT = 30.0
TURNS = 14  # the game's turn cap: ends it as a stalemate if nobody empties the payoff pile first
RESUMED = "The bot restarted: this game resumed."
TABLE_TITLE = "Malice · table"


class BotProcess:
    """One `cardtable-bot run` process as one shard. Its log (JSON lines on stdout) is read as it comes,
    kept per run in `lines` and copied to a file per run in the test's folder. `module`: what runs (a
    subclass may run tests/e2e/crash_process.py instead)."""

    module = "tests.e2e.bot_process"

    def __init__(
        self, fake: FakeDiscord, database_url: str, shard_id: int, folder: Path, **more: str
    ) -> None:
        self.fake = fake
        self.shard_id = shard_id
        self.folder = folder
        self.starts = 0
        self.proc: asyncio.subprocess.Process | None = None
        self.lines: list[str] = []
        self._reader: asyncio.Task[None] | None = None
        # Only the bot's own settings, nothing from the developer's environment (a DATABASE_PATH, a
        # DEV_GUILD_ID) and no .env: the process runs in a folder of its own.
        settings = {name.upper() for name in Settings.model_fields}
        self.env = {k: v for k, v in os.environ.items() if k not in settings}
        self.env.update(
            PYTHONPATH=str(ROOT),
            DISCORD_TOKEN=fake.token,
            DATABASE_URL=database_url,
            SHARD_COUNT="2",
            SHARD_IDS=str(shard_id),
            # Long turns: the person's pace (and a restart) must never let a timeout play for her.
            TURN_TIMEOUT_SECONDS="3600",
            LOG_FORMAT="json",
            LOG_LEVEL="INFO",
        )
        self.env.update(more)  # more settings, or "" to unset one (SQLite: DATABASE_URL="")
        self.env = {k: v for k, v in self.env.items() if v != ""}
        self.env[API_ENV] = fake.api_base
        self.env[GATEWAY_ENV] = fake.gateway_url

    async def start(self) -> None:
        self.starts += 1
        self.lines = []
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            self.module,
            cwd=self.folder,
            env=self.env,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        copy = self.folder / f"shard{self.shard_id}-run{self.starts}.log"
        self._reader = asyncio.create_task(self._read(self.proc, copy))
        # Ready: the shard identified and the bot said it logged in (on_ready: its guild is in its cache).
        await self.fake.wait_for(
            lambda: (
                self.exited() or (self.shard_id in self.fake.connected_shards() and self.logged("logged in"))
            ),
            timeout=START_TIMEOUT,
            what=f"the bot process of shard {self.shard_id} to be ready",
        )
        assert not self.exited(), f"shard {self.shard_id} exited: {self.lines[-20:]}"

    async def _read(self, proc: asyncio.subprocess.Process, copy: Path) -> None:
        assert proc.stdout is not None
        with copy.open("w") as out:
            async for raw in proc.stdout:
                line = raw.decode(errors="replace").rstrip("\n")
                self.lines.append(line)
                out.write(line + "\n")
                out.flush()
                # A log line is a change the fake's waiters may wait for (the process said it is ready).
                self.fake._notify()
        await proc.wait()
        self.fake._notify()

    def exited(self) -> bool:
        return self.proc is not None and self.proc.returncode is not None

    def records(self) -> list[dict]:
        """The log records of the current run (one JSON object per line; anything else is kept as text)."""
        found = []
        for line in self.lines:
            try:
                found.append(json.loads(line))
            except json.JSONDecodeError:
                found.append({"level": "TEXT", "message": line})
        return found

    def logged(self, text: str) -> bool:
        return any(text in str(r.get("message", "")) for r in self.records())

    def problems(self) -> list[str]:
        """Errors in the log of the current run, and anything not written by the logger (a traceback)."""
        return [
            f"{r.get('level')}: {r.get('message')} {r.get('exception') or ''}".strip()
            for r in self.records()
            if r.get("level") not in ("DEBUG", "INFO", "WARNING")
        ]

    async def kill(self) -> None:
        """SIGKILL: no graceful stop, no closing of connections; the kernel drops its sockets."""
        assert self.proc is not None and self._reader is not None
        self.proc.send_signal(signal.SIGKILL)
        await asyncio.wait_for(self._reader, STOP_TIMEOUT)
        await self.fake.wait_for(
            lambda: self.shard_id not in self.fake.connected_shards(),
            what=f"the gateway connection of shard {self.shard_id} to drop",
        )

    async def stop(self) -> int | None:
        """SIGTERM, the graceful stop; the exit code (None if it never started)."""
        if self.proc is None or self._reader is None:
            return None
        if self.proc.returncode is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(asyncio.shield(self._reader), STOP_TIMEOUT)
            except TimeoutError:
                self.proc.kill()
                await self._reader
        return self.proc.returncode


class Player:
    """A person playing Malice against the computer in one channel, only through slash commands."""

    def __init__(self, fake: FakeDiscord, user: UserHandle, channel: str) -> None:
        self.fake = fake
        self.user = user
        self.channel = channel
        self.moves = 0

    def table(self) -> FakeMessage:
        # The challenge message becomes the table message (it may lag a move behind: the bot edits it at
        # its own pace).
        found = [m for m in self.fake.channel_messages(self.channel) if "Malice" in m.text]
        assert found, f"no table message in {self.channel}: {self.fake.channel_messages(self.channel)}"
        return found[-1]

    def over(self) -> bool:
        return "Game over" in self.table().text

    async def turn(self) -> None:
        """Play one of her turns (each move as autocomplete offers it; a side play or /malice end ends it),
        or, when it is the computer's turn, wait until the table message changes."""
        mark = self.fake.mark()
        hand = await self.user.slash("hand", channel=self.channel)
        if "It is your turn" not in hand.text:
            await self.fake.wait_for_message(channel=self.channel, contains=TABLE_TITLE, since=mark)
            return
        for _ in range(40):  # a turn is a few centre plays and one side play: bounded, never reached
            cards = await self.user.autocomplete("malice play", "card", channel=self.channel)
            to = []
            if cards:
                to = await self.user.autocomplete(
                    "malice play", "to", card=cards[0].value, channel=self.channel
                )
            if not to:
                await self.user.slash("malice end", channel=self.channel)
                self.moves += 1
                return
            reply = await self.user.slash(
                "malice play", card=cards[0].value, to=to[0].value, channel=self.channel
            )
            assert "not your turn" not in reply.text and "moved on" not in reply.text, reply.text
            self.moves += 1
            if not to[0].value.startswith("centre") or self.over():
                return  # a side play ends the turn
        raise AssertionError(f"{self.user.name}'s turn in {self.channel} did not end")

    async def wait_for_my_turn(self) -> None:
        for _ in range(4 * TURNS):
            mark = self.fake.mark()
            if "It is your turn" in (await self.user.slash("hand", channel=self.channel)).text:
                return
            await self.fake.wait_for_message(channel=self.channel, contains=TABLE_TITLE, since=mark)
        raise AssertionError(f"{self.user.name}'s turn in {self.channel} never came")

    async def play_to_the_end(self) -> None:
        for _ in range(4 * TURNS):
            if self.over():
                return
            await self.turn()
        assert self.over(), f"the game in {self.channel} did not end within its {TURNS} turns"


async def check_the_books(store: Store, fake: FakeDiscord, channel: str, player: UserHandle) -> None:
    row = await store.last_table(fake.channel(channel).id)
    assert row is not None and row.status == "finished" and row.guild_id == fake.guild_of(channel).id
    actions = await store.actions(row.id)
    assert [a.seq for a in actions] == list(range(len(actions))), "every move stored once, in order"
    net = ledger_net(await store.ledger(row.id))
    assert sum(net.values()) == 0
    results = {r.player: r.net for r in await store.results(row.id)}
    assert str(player.id) in results
    assert {p: net.get(p, 0) for p in results} == results, "the results are what the ledger says"
    assert all(v == 0 for a, v in net.items() if a not in results), f"chips left outside the players: {net}"


@pytest.mark.slow
async def test_two_shard_processes_share_one_database_and_survive_a_kill(pg_url: str, tmp_path: Path) -> None:
    fake = FakeDiscord(shard_count=2)
    den = fake.add_guild("Dice Den", ["den-games"])
    # shard 0: the Dice Den (survivor); shard 1: Card Club, whose process is killed.
    assert shard_of(den.id, 2) == 0 and shard_of(fake.guild_id, 2) == 1
    await fake.start()
    processes = [BotProcess(fake, pg_url, shard, tmp_path) for shard in (0, 1)]
    store = await open_store(pg_url)
    try:
        for p in processes:
            await p.start()
        survivor, victim = processes
        alice = Player(fake, fake.user("alice"), "den-games")  # on shard 0
        bob = Player(fake, fake.user("bob"), "games")  # on shard 1
        for player in (alice, bob):
            reply = await player.user.slash(
                "malice challenge", opponent=fake.bot_user, turns=TURNS, channel=player.channel
            )
            assert "the game against the computer started" in reply.text
            await fake.wait_for_message(channel=player.channel, contains=TABLE_TITLE)
        for _ in range(3):  # both games under way
            await alice.turn()
            await bob.turn()
        assert not alice.over() and not bob.over() and bob.moves > 0

        # Killed while the table waits for Bob: the restarted process shows the resumed game before anyone
        # moves. (A computer's turn would be played at once on resume, and each move replaces the note.)
        await bob.wait_for_my_turn()
        assert victim.problems() == []
        survivor_pid = survivor.proc.pid if survivor.proc else None
        await victim.kill()
        played = alice.moves
        while alice.moves == played:  # the other shard's game goes on while this one is down
            await alice.turn()

        await victim.start()
        await fake.wait_for(lambda: RESUMED in bob.table().text, what="the resumed note on Card Club's table")
        await asyncio.gather(alice.play_to_the_end(), bob.play_to_the_end())

        # The survivor never noticed: same process, no restart note on its table, nothing wrong in its log.
        assert survivor.proc is not None and survivor.proc.pid == survivor_pid and not survivor.exited()
        assert [i["shard"] for i in fake.identifies] == [[0, 2], [1, 2], [1, 2]], "shard 0 identified once"
        assert not any("restarted" in text for text in alice.table().history)
        assert survivor.problems() == [] and victim.problems() == []
        assert victim.logged("logged in as") and victim.starts == 2
        await check_the_books(store, fake, "den-games", alice.user)
        await check_the_books(store, fake, "games", bob.user)
        assert fake.violations == [] and fake.unknown_routes == []
    finally:
        codes = [await p.stop() for p in processes]
        await store.close()
        await fake.stop()
    assert codes == [0, 0], "both processes stop gracefully on SIGTERM"
