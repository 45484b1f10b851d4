"""Two bot processes on one PostgreSQL database (Discord shards 0 and 1 of 2, each a real `cardtable-bot run`
with its web pages on): a person plays Malice against the computer in the guild of shard 1, and the table's
live page is opened on the web server of the process of shard 0, which does not hold the table. That page
follows every move: the stored changes reach it through PostgreSQL's LISTEN/NOTIFY, and each stored move is
on it within a second of its commit.

Skipped with its reason when no PostgreSQL is available (see tests/conftest.py).
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from pathlib import Path

import aiohttp
import pytest

from storage import open_store
from tests.e2e.fake_discord import FakeDiscord, shard_of
from tests.e2e.test_two_processes import TABLE_TITLE, TURNS, BotProcess, Player

SECRET = "e2e-two-processes-web-secret"
LISTENING = re.compile(r"web pages at (http://[0-9.]+:\d+)")


def web_base(process: BotProcess) -> str:
    for record in process.records():
        found = LISTENING.search(str(record.get("message", "")))
        if found:
            return found.group(1)
    raise AssertionError(f"shard {process.shard_id} did not say where its pages are")


@pytest.mark.slow
async def test_the_page_served_by_the_process_not_holding_the_table_follows_it_live(
    pg_url: str, tmp_path: Path
) -> None:
    fake = FakeDiscord(shard_count=2)
    fake.add_guild("Dice Den", ["den-games"])  # shard 0's guild; Card Club (the table's) is on shard 1
    assert shard_of(fake.guild_id, 2) == 1
    await fake.start()
    web = {"WEB_PORT": "0", "WEB_SECRET": SECRET}
    processes = [BotProcess(fake, pg_url, shard, tmp_path, **web) for shard in (0, 1)]
    store = await open_store(pg_url)
    frames: list[tuple[float, dict]] = []
    try:
        for p in processes:
            await p.start()
        watcher = web_base(processes[0])
        bob = Player(fake, fake.user("bob"), "games")
        await bob.user.slash("malice challenge", opponent=fake.bot_user, turns=TURNS, channel="games")
        await fake.wait_for_message(channel="games", contains=TABLE_TITLE)
        await fake.wait_for(lambda: any(b.label == "Watch" for b in bob.table().buttons), what="Watch")
        link = next(b.raw["url"] for b in bob.table().buttons if b.label == "Watch")
        path = "/" + link.split("/", 3)[3]

        async with aiohttp.ClientSession() as http:
            async with http.get(watcher + path) as page:
                assert page.status == 200 and "Malice" in await page.text()

            async def follow() -> None:
                async with http.get(watcher + path + "/live") as live:
                    assert live.status == 200
                    async for raw in live.content:
                        line = raw.decode()
                        if line.startswith("data: "):
                            frame = json.loads(line[6:])
                            frames.append((time.time(), frame))
                            if frame["status"] == "finished":
                                return

            following = asyncio.create_task(follow())
            await bob.play_to_the_end()
            await asyncio.wait_for(following, 10)

        row = await store.last_table(fake.channel("games").id)
        actions = await store.actions(row.id)
        assert row.status == "finished" and frames[-1][1]["seq"] == len(actions)
        assert len(frames) > 3, "the page followed the game, not only its end"
        assert [f["seq"] for _, f in frames] == sorted(f["seq"] for _, f in frames)
        late = []
        for action in actions:
            seq = action.seq + 1
            shown = next(at for at, f in frames if f["seq"] >= seq)
            if shown - action.created_at > 1.0:
                late.append((seq, round(shown - action.created_at, 3)))
        assert not late, f"moves on the other process's page more than 1 s after being stored: {late}"
        assert all(p.problems() == [] for p in processes)
        assert fake.violations == []
    finally:
        codes = [await p.stop() for p in processes]
        await store.close()
        await fake.stop()
    assert codes == [0, 0]
