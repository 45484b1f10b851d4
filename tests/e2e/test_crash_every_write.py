"""A kill -9 right after every write (issue 37): the bot as a real process (`tests.e2e.crash_process`, i.e.
`cardtable-bot run`) against the fake Discord, killed with SIGKILL right after each write the storage layer
commits, and started again at once; the people go on clicking as they would. Both backends.

How the writes are enumerated: not by hand. The storage layer calls its `COMMITTED` hooks right after every
write transaction commits (`storage.database`: SQLite's writer thread, PostgreSQL's connection), with the
write's name (the store method it ran in: `Store.append_action`, `Competitions.claim_announcement`, ...).
A first run without a kill records every write of the scenario that way; each write is then `<name>#<k>`,
the k-th write of that name. The crash run arms them (all, or a bounded choice: see Cost below): the
process dies right after the write
that is the k-th of its name counted over all the process's lives (the count goes on in the log file after a
restart, so one run walks through every crash point, one kill each, without replaying the scenario before
it). A restarted process's own writes (its migration check, its resume) are counted like any other, so a
crash also comes in the middle of a resume.

The scenario, what a community does with a table and with a tournament:
- a table's life in #games: `/insomnia new` (open), Bob clicks Join, Alice clicks Start (the deal), both
  resign so the computer plays their seats (moves) to the end (the finish: results, ratings, standings), both
  click Rematch (the rematch opens and deals), both resign again, the rematch finishes;
- a tournament in #lounge: created, joined by two, started (round one paired and its match table opened,
  seated and dealt; the round's announcement claimed and posted), the match ends (Alice resigns: the match
  settled in the finishing transaction), the event finishes and its final standings are claimed and posted.

After the last kill: every table finished, every action stored once and in order, every ledger sums to zero
and the results are what it says, nothing announced twice and the final standings once (a round's pairings
whose sender was killed go out again, unless the final standings came first and stand for them), both
channels free
(a new game opens in each), and no run logged an error.

Turn timeouts write through the same entry point as any move (`Store.append_action`, the session state's
timeouts with it); a table's turn takes 10 s at least, so they are not in this scenario: a timer after a
restart, and one that meets a table another process moved, are tests/e2e/test_stale_path.py's.

Cost: one process start per kill (about 2 s on SQLite, 3 s on PostgreSQL on an idle machine; the restarted
process's wait for its share of the token's budget is cut, `crash_process.quicker`). CI arms the first and
the last write of each kind (about 25 kills); CRASH_EVERY_WRITE=1 arms every write (about 45).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from storage import Store, open_store
from tests import pg
from tests.e2e.crash_process import AFTER_ENV, WRITES_ENV
from tests.e2e.fake_discord import FakeDiscord, FakeDiscordError, FakeMessage
from tests.e2e.test_game_support import ledger_net
from tests.e2e.test_two_processes import BotProcess

STEPS = 400  # user steps of one run: bounded, never reached
WAIT = 60.0  # seconds a state may take to come (a restart, the computer's moves): only reached when broken


def crash_points(n: int) -> list[int]:
    """Which of the `n` writes of one name the process dies after: every one with CRASH_EVERY_WRITE=1 (by
    hand: a kill per write, 2 to 6 s each), else the first and the last (CI: every kind of write, early and
    late in the scenario, for a bounded cost: about 25 kills)."""
    if os.environ.get("CRASH_EVERY_WRITE"):
        return list(range(1, n + 1))
    return sorted({1, n})


class Crashing(BotProcess):
    """The bot as a process that kills itself after the armed writes, and is started again as often."""

    module = "tests.e2e.crash_process"

    def __init__(self, fake: FakeDiscord, database: str, folder: Path, after: set[str]) -> None:
        self.log = folder / "writes.log"
        more = {WRITES_ENV: str(self.log), AFTER_ENV: ",".join(sorted(after)), "SHARD_COUNT": ""}
        more["SHARD_IDS"] = ""  # one process, all of the bot
        if not database.startswith("postgres"):
            more.update(DATABASE_URL="", DATABASE_PATH=database)
        super().__init__(fake, database, 0, folder, **more)
        self.kills = 0
        self.problems_seen: list[str] = []
        self.steps = folder / "steps.log"  # what the people did and waited for, when: to read a failure

    def note(self, text: str) -> None:
        with self.steps.open("a") as out:
            out.write(f"{time.strftime('%H:%M:%S')}.{int(time.time() * 1000) % 1000:03d} {text}\n")

    def writes(self) -> list[str]:
        """Every committed write so far, in order, by name."""
        if not self.log.exists():
            return []
        return [line.split(" ", 1)[1] for line in self.log.read_text().splitlines()]

    async def up(self) -> None:
        """The bot running: started again (as often as it dies on the way) if it is not."""
        while self.proc is None or self.exited():
            if self.proc is not None:
                assert self._reader is not None
                await self._reader
                assert self.proc.returncode == -signal.SIGKILL, f"the bot exited: {self.lines[-20:]}"
                self.kills += 1
                self.problems_seen += self.problems()
                await self.fake.wait_for(lambda: 0 not in self.fake.connected_shards(), what="the gateway")
            self.note("start")
            with contextlib.suppress(AssertionError):  # it died while starting: an armed write of its resume
                await self.start()
            self.note("started" if not self.exited() else "died starting")

    async def act(self, step: Callable[[], Awaitable[Any]]) -> Any:
        """One user action; None if the bot died before answering it (it is then running again)."""
        await self.up()
        assert self.proc is not None
        self.note(f"act {getattr(step, 'what', '')}")
        action = asyncio.ensure_future(step())
        death = asyncio.ensure_future(self.proc.wait())
        await asyncio.wait({action, death}, return_when=asyncio.FIRST_COMPLETED)
        death.cancel()
        self.note(f"acted: done {action.done()}, exited {self.exited()}")
        if not action.done():
            # Not awaited: the fake's wait may swallow the cancel (Python 3.11's wait_for) and run out its
            # time; its end, whatever it is, is of a bot that is gone.
            action.cancel()
            action.add_done_callback(lambda done: done.cancelled() or done.exception())
        elif action.exception() is None:
            return action.result()
        elif not (isinstance(action.exception(), FakeDiscordError) and self.exited()):
            action.result()  # raises what went wrong
        await self.up()
        return None

    async def settle(self, changed: Callable[[], Awaitable[bool]], what: str) -> None:
        """Wait until `changed()` (the store's state) says the bot did its part, restarting it as needed."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + WAIT
        self.note(f"wait for {what}")
        while not await changed():
            assert loop.time() < deadline, f"{what} never came"
            await self.up()
            await asyncio.sleep(0.05)


class Community:
    """Alice, Bob and Erin using the bot as the scenario says, step by step from the stored state."""

    def __init__(self, fake: FakeDiscord, bot: Crashing, store: Store) -> None:
        self.fake, self.bot, self.store = fake, bot, store
        self.alice, self.bob, self.erin = fake.user("alice"), fake.user("bob"), fake.user("erin")
        self.people = {str(u.id): u for u in (self.alice, self.bob)}

    async def tables(self, channel: str) -> list[Any]:
        cid = self.fake.channel(channel).id
        rows = await self.store._db.fetch(
            "SELECT id FROM game_tables WHERE channel_id = ? OR home_channel_id = ? ORDER BY id", cid, cid
        )
        return [await self.store.get_table(int(r["id"])) for r in rows]

    def button(self, channel: str, label: str) -> FakeMessage | None:
        found = [m for m in self.fake.channel_messages(channel) if label in m.button_labels]
        return found[-1] if found else None

    async def click(self, channel: str, user: Any, label: str) -> None:
        await self.bot.up()
        try:
            await self.fake.wait_for(lambda: self.button(channel, label) or self.bot.exited(), what=label)
        except FakeDiscordError:
            texts = [(m.text[:80], m.button_labels) for m in self.fake.channel_messages(channel)]
            raise AssertionError(f"no {label} button in #{channel}: {texts}") from None
        message = self.button(channel, label)
        if message is not None:
            await self.bot.act(lambda: user.click(message, label))

    async def resign_all(self, row: Any, channel: str) -> bool:
        """The next person still at the table resigns (Insomnia: the computer plays on); False: none left."""
        computer = (row.meta or {}).get("computer_seats", [])
        left = [self.people[p] for p in row.players if p in self.people and p not in computer]
        if left:
            user = left[0]
            await self.bot.act(lambda: user.slash("resign", channel=channel))
        return bool(left)

    async def table_step(self) -> bool:
        """The next step of the table's life in #games; True once the rematch finished."""
        tables = await self.tables("games")
        if not tables:
            await self.bot.act(lambda: self.alice.slash("insomnia new", chips=2, deals=1, channel="games"))
            return False
        row = tables[-1]
        if row.status == "lobby":
            host = self.people[str(row.host_id)]
            if len(row.players) < 2:
                await self.click("games", self.bob, "Join")
            else:
                await self.click("games", host, "Start")
            return False
        if row.status == "running":
            if not await self.resign_all(row, "games"):
                await self.bot.settle(lambda: self.changed("games", row), "the computer's moves to the end")
            return False
        assert row.status == "finished", f"table {row.id} is {row.status}"
        if len(tables) >= 2:
            return True
        clicked = ((row.meta or {}).get("rematch") or {}).get("clicked", [])
        for p, user in self.people.items():
            if p not in clicked:
                await self.click("games", user, "Rematch")
                return False
        await self.bot.settle(lambda: self.more_tables("games", len(tables)), "the rematch")
        return False

    async def changed(self, channel: str, row: Any) -> bool:
        now = (await self.tables(channel))[-1]
        return now.status != row.status or now.next_seq != row.next_seq or now.meta != row.meta

    async def more_tables(self, channel: str, had: int) -> bool:
        return len(await self.tables(channel)) > had

    async def event(self) -> Any:
        ids = await self.store.competitions_in(self.fake.channel("lounge").id)
        return None if not ids else await self.store.competition(ids[0])

    async def event_step(self) -> bool:
        """The next step of the tournament in #lounge; True once it finished."""
        event = await self.event()
        if event is None:
            await self.bot.act(
                lambda: self.erin.slash(
                    "tournament create", game="malice", format="swiss", rounds=1, channel="lounge"
                )
            )
            return False
        if event.status == "open":
            entrants = {e.player for e in event.entrants}
            for p, user in self.people.items():
                if p not in entrants:
                    await self.bot.act(lambda u=user: u.slash("tournament join", channel="lounge"))
                    return False
            await self.bot.act(lambda: self.erin.slash("tournament start", channel="lounge"))
            return False
        if event.status == "finished":
            return True
        assert event.status == "running", f"the event is {event.status}"
        match = event.matches[0]
        row = None if match.table_id is None else await self.store.get_table(match.table_id)
        if row is not None and row.status == "running" and str(self.alice.id) in row.players:
            where = self.fake.channel(row.channel_id).name
            await self.bot.act(lambda: self.alice.slash("resign", channel=where))
        await self.bot.settle(lambda: self.event_changed(event), "the tournament's next step")
        return False

    async def event_changed(self, before: Any) -> bool:
        now = await self.event()
        if now is None or now != before:
            return True
        match = now.matches[0]
        row = None if match.table_id is None else await self.store.get_table(match.table_id)
        return row is not None and row.status == "running"

    def announcements(self, event: int) -> list[str]:
        return [m.text for m in self.fake.channel_messages("lounge") if f"Tournament #{event}:" in m.text]


async def play(fake: FakeDiscord, bot: Crashing, database: str) -> dict[str, Any]:
    """The scenario to its end, whatever the kills; what the checks need."""
    await bot.up()
    store = await open_store(database)
    try:
        people = Community(fake, bot, store)
        table_done = event_done = False
        for _ in range(STEPS):
            if not table_done:
                table_done = await people.table_step()
            if not event_done:
                event_done = await people.event_step()
            if table_done and event_done:
                break
        assert table_done and event_done, "the scenario did not end"
        await bot.up()
        event = await people.event()
        assert event is not None
        # What the books say: every table finished, every move stored once, the ledger closed.
        tables = [*await people.tables("games"), *await people.tables("lounge")]
        for row in tables:
            assert row.status == "finished", f"table {row.id} is {row.status}"
            actions = await store.actions(row.id)
            assert [a.seq for a in actions] == list(range(len(actions))), "every move stored once, in order"
            net = ledger_net(await store.ledger(row.id))
            assert sum(net.values()) == 0, f"table {row.id}: the ledger does not sum to zero: {net}"
            results = {r.player: r.net for r in await store.results(row.id)}
            assert {p: net.get(p, 0) for p in results} == results, "the results are what the ledger says"
        assert len(await people.tables("games")) == 2, "one game and its rematch"
        assert all(m.settled for m in event.matches) and event.round_done == 1

        async def final() -> bool:
            return any("The winner" in text for text in people.announcements(event.id))

        await bot.settle(final, "the final standings")
        said = people.announcements(event.id)
        scenario = len(bot.writes())
        # Both channels free: a new game opens in each (the bot's own challenge: it starts at once).
        last = max(row.id for row in tables)
        for channel in ("games", "lounge"):
            cid = fake.channel(channel).id
            while (now := await store.active_table(cid)) is None or now.id <= last:
                assert now is None, f"#{channel} is still held by table {now.id} ({now.status})"
                reply = await bot.act(
                    lambda c=channel, a=people.alice: a.slash(
                        "malice challenge", opponent=fake.bot_user, channel=c
                    )
                )  # None: a kill before the answer, the challenge maybe stored: the store says
                assert reply is None or "the game against the computer started" in reply.text, reply.text
        return {"announcements": said, "tables": len(tables), "writes": scenario}
    finally:
        await store.close()


@pytest.fixture(params=["sqlite", "postgres"])
async def new_database(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    """`await new_database()`: a fresh database of the test's backend (an SQLite path, a PostgreSQL URL)."""
    made: list[str] = []
    admin = None if request.param == "sqlite" else request.getfixturevalue("pg_admin_url")

    async def new() -> str:
        if admin is None:
            made.append(str(tmp_path / f"bot{len(made)}.sqlite3"))
        else:
            made.append(await pg.create_database(admin))
        return made[-1]

    yield new
    if admin is not None:
        for url in made:
            await pg.drop_database(admin, url)


async def run(database: str, folder: Path, after: set[str]) -> tuple[Crashing, dict[str, Any], FakeDiscord]:
    folder.mkdir()
    fake = FakeDiscord()
    await fake.start()
    bot = Crashing(fake, database, folder, after)
    try:
        seen = await play(fake, bot, database)
        assert fake.violations == [] and fake.unknown_routes == []
    finally:
        await bot.stop()
        await fake.stop()
    return bot, seen, fake


@pytest.mark.slow
async def test_a_kill_right_after_any_write_loses_nothing_and_blocks_nothing(
    new_database: Callable[[], Awaitable[str]], tmp_path: Path
) -> None:
    calm, seen, _ = await run(await new_database(), tmp_path / "calm", set())
    assert calm.kills == 0 and calm.problems_seen == [] and calm.problems() == []
    # The scenario's writes, those of the first start's migrations left out (tests/storage tests them).
    writes = [w for w in calm.writes()[: seen["writes"]] if w != "migrate"]
    counts = Counter(writes)
    points = {f"{name}#{k}" for name, n in counts.items() for k in crash_points(n)}
    assert {"Store.create_table", "Store.append_action", "Store.start_table"} <= set(counts)
    assert {"Store.set_seats", "sql: UPDATE game_tables SET meta"} <= set(counts)
    assert {"Competitions.create_match_table", "Competitions.claim_announcement"} <= set(counts)

    crashed, said, _ = await run(await new_database(), tmp_path / "crashed", points)
    assert crashed.problems_seen == [] and crashed.problems() == [], "a restart answered nobody with an error"
    # Nothing announced twice; the final standings once, as without a kill (a round's pairings whose sender
    # died are sent again unless the final standings came first and stand in for them). By headline: a
    # round's announcement names its deadline, a time.
    heads, calm_heads = (
        [a.splitlines()[:2] for a in said["announcements"]],
        [a.splitlines()[:2] for a in seen["announcements"]],
    )
    assert len({tuple(h) for h in heads}) == len(heads), f"announced twice: {heads}"
    assert heads[-1] == calm_heads[-1] and all(h in calm_heads for h in heads), (heads, calm_heads)
    fired, nth = set(), Counter[str]()
    for name in crashed.writes():
        nth[name] += 1
        if f"{name}#{nth[name]}" in points:
            fired.add(name)
    # Every kind of write was crashed after; a DM channel is remembered once, whenever the first DM goes out,
    # which a kill may move before or after the scenario's end.
    assert set(counts) - fired <= {"sql: INSERT INTO dm_channels (user_id,"}, set(counts) - fired
    assert crashed.kills >= len(fired)
    print(json.dumps({"writes": len(writes), "points": len(points), "kills": crashed.kills}))
