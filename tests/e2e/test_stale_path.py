"""Two bot processes overlapping on one PostgreSQL database, as in a rolling restart (issue 37): the old
process still holds the tables in memory when the new one takes over, stores moves, and is killed (kill -9);
the old one then meets tables another process moved. Each real processes (`python -m tests.e2e.bot_process`,
i.e. `cardtable-bot run`) against one fake Discord.

The old process is paused (SIGSTOP: a process that stalls, as the old one of a rolling restart may, or whose
host is slow) while the new one starts on the same shard (Discord ends the old session), resumes both
tables, and Alice and Bob each play a turn through it; then the new process is killed and the old one goes
on (SIGCONT) with its tables one move behind the store:
- Bob's turn timer (a 10 s table) runs out in the old process: its timeout meets the newer move, takes the
  stale path (the table reloaded from the store), and a new timer starts from the stored turn, which then
  times out as any would;
- Alice sends `/malice end` to the old process: she is answered with a sentence (the table changed: look
  again), not an error id, and her next `/malice end` is played on the stored game.
Both games are then played to their end: every move stored once, each ledger sums to zero, and neither
process logged an error.

Skipped with its reason when no PostgreSQL is available (see tests/conftest.py).
"""

from __future__ import annotations

import asyncio
import signal
import time
from pathlib import Path

import pytest

from storage import open_store
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.test_two_processes import TABLE_TITLE, BotProcess, Player, check_the_books

TURNS = 14
TIMER = 10  # Bob's table's turn time, the shortest a table may have


def process(fake: FakeDiscord, url: str, folder: Path) -> BotProcess:
    folder.mkdir()
    # One shard for both, as two processes of one bot are during a rolling restart.
    return BotProcess(fake, url, 0, folder, SHARD_COUNT="", SHARD_IDS="")


@pytest.mark.slow
async def test_a_process_behind_the_store_recovers_and_answers(pg_url: str, tmp_path: Path) -> None:
    fake = FakeDiscord()
    await fake.start()
    old, new = process(fake, pg_url, tmp_path / "old"), process(fake, pg_url, tmp_path / "new")
    store = await open_store(pg_url)
    try:
        await old.start()
        alice = Player(fake, fake.user("alice"), "games")
        bob = Player(fake, fake.user("bob"), "lounge")
        for player, more in ((alice, {}), (bob, {"timeout": TIMER})):
            reply = await player.user.slash(
                "malice challenge", opponent=fake.bot_user, turns=TURNS, channel=player.channel, values=more
            )
            assert "the game against the computer started" in reply.text, reply.text
            await fake.wait_for_message(channel=player.channel, contains=TABLE_TITLE)
        await alice.turn()
        await alice.wait_for_my_turn()
        await bob.wait_for_my_turn()
        timer_set = time.monotonic()  # about when the old process's timer for Bob's turn began (or later)

        assert old.proc is not None
        old.proc.send_signal(signal.SIGSTOP)
        identified = len(fake.identifies)
        await new.start()
        assert len(fake.identifies) == identified + 1
        await bob.turn()  # each moves once through the new process: the store is ahead of the old one
        await alice.turn()
        await alice.wait_for_my_turn()
        await new.kill()
        assert new.problems() == []

        # The old process's timer for Bob is due: it fires as soon as the process runs again.
        await asyncio.sleep(max(0.0, timer_set + TIMER + 1 - time.monotonic()))
        old.proc.send_signal(signal.SIGCONT)
        await fake.wait_for(lambda: 0 in fake.connected_shards(), what="the old process back on the gateway")
        await fake.wait_for(lambda: old.logged("reloaded"), what="the old process's timer on the stale path")

        stale = await alice.user.slash("malice end", channel=alice.channel)
        assert "The table changed while you acted: look again and retry." in stale.text, stale.text
        assert stale.ephemeral and "went wrong" not in stale.text
        again = await alice.user.slash("malice end", channel=alice.channel)
        assert "changed" not in again.text and "went wrong" not in again.text, again.text
        alice.moves += 1

        # Bob's new timer (the stored turn's) times out as any would, and his game goes on.
        await fake.wait_for(
            lambda: "ran out of time" in bob.table().text, timeout=3 * TIMER, what="Bob's timeout"
        )
        await asyncio.gather(alice.play_to_the_end(), bob.play_to_the_end())
        assert [r for r in old.records() if "reloaded" in str(r.get("message"))], "the stale path was taken"
        assert old.problems() == [], old.problems()
        await check_the_books(store, fake, "games", alice.user)
        await check_the_books(store, fake, "lounge", bob.user)
        assert fake.violations == [] and fake.unknown_routes == []
    finally:
        if old.proc is not None and old.proc.returncode is None:
            old.proc.send_signal(signal.SIGCONT)
        codes = [await p.stop() for p in (old, new)]
        await store.close()
        await fake.stop()
    assert codes[0] == 0, "the old process stops gracefully on SIGTERM"
