"""What an operator sees of a running bot, end to end: the bot as `cardtable-bot run` in a process of its own
with METRICS_PORT set, against the fake Discord. /metrics counts a person's move (stored, answered, shown),
the requests and the 429s by route; /healthz is 200 while the gateway is connected and the database answers,
503 while the gateway is away and 200 again once the bot reconnected. A 503 and a 429 from Discord, both
retried, are one warning line each in the log, no traceback."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.cli.helpers import clean_env
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.test_two_processes import TABLE_TITLE, TURNS, BotProcess, Player
from tests.pg import free_port

EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"


async def health_command(port: int, folder: Path) -> tuple[int, str]:
    """`cardtable-bot health` as the container's health check runs it: exit code, and what it said."""
    env = clean_env(METRICS_PORT=str(port))
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "health",
        cwd=folder,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    out, _ = await proc.communicate()
    assert proc.returncode is not None
    return proc.returncode, out.decode()


async def get(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        return response.status, await response.text()


def samples(text: str) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    """Every sample of a /metrics page: (name, labels) -> value."""
    return {
        (s.name, frozenset(s.labels.items())): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def value(page: dict, name: str, **labels: str) -> float:
    return page.get((name, frozenset(labels.items())), 0.0)


@pytest.mark.slow
async def test_metrics_count_a_move_and_health_follows_the_gateway(tmp_path: Path) -> None:
    fake = FakeDiscord()
    await fake.start()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    bot = BotProcess(
        fake,
        "",
        0,
        tmp_path,
        DATABASE_URL="",
        SHARD_COUNT="",
        SHARD_IDS="",
        DATABASE_PATH=str(tmp_path / "bot.sqlite3"),
        METRICS_PORT=str(port),
    )
    try:
        await bot.start()
        await fake.wait_for(lambda: bot.logged("metrics at http://127.0.0.1"), what="the metrics server")
        status, text = await get(f"{base}/healthz")
        assert (status, text.strip()) == (200, "ok")
        assert await health_command(port, tmp_path) == (0, "cardtable-bot: healthy (ok).\n")
        before = samples((await get(f"{base}/metrics"))[1])
        assert value(before, "cardtable_rate_share") == 48, "alone on SQLite: the whole budget"
        assert value(before, "cardtable_moves_total", game="malice") == 0

        alice = Player(fake, fake.user("alice"), "games")
        reply = await alice.user.slash(
            "malice challenge", opponent=fake.bot_user, turns=TURNS, channel="games"
        )
        assert "the game against the computer started" in reply.text
        await fake.wait_for_message(channel="games", contains=TABLE_TITLE)
        # Discord unwell for the next two edits of the table message: a 503, then a 429; both retried.
        fake.fail_next(EDIT, 503)
        await alice.turn()
        await fake.wait_for(lambda: bot.logged("writing to Discord failed (503"), what="the 503 retried")
        fake.fail_next(EDIT, 429, retry_after=0.05)
        await alice.turn()
        await fake.wait_for(lambda: bot.logged("rate limited"), what="the 429 retried")
        await alice.turn()

        async def counted() -> dict:
            return samples((await get(f"{base}/metrics"))[1])

        page = await counted()
        for _ in range(100):  # the table message is edited at the presenter's pace: until it is counted
            if value(page, "cardtable_discord_requests_total", route=EDIT, status="200") > 0:
                break
            await asyncio.sleep(0.1)
            page = await counted()
        assert value(page, "cardtable_moves_total", game="malice") >= alice.moves > 0
        assert value(page, "cardtable_answer_seconds_count", kind="command") >= alice.moves
        assert value(page, "cardtable_db_seconds_count", operation="append_action") >= alice.moves
        assert value(page, "cardtable_discord_requests_total", route=EDIT, status="200") > 0
        assert value(page, "cardtable_discord_requests_total", route=EDIT, status="503") == 1
        assert value(page, "cardtable_discord_429_total", route=EDIT, scope="user") == 1
        assert value(page, "cardtable_tables", status="running") == 1
        assert ("cardtable_shard_latency_seconds", frozenset({("shard", "0")})) in page
        assert ("cardtable_presenter_waiting_tables", frozenset()) in page

        # One warning line for each retried failure, no traceback.
        retried = [
            r
            for r in bot.records()
            if "writing to Discord failed" in str(r.get("message")) or "rate limited" in str(r.get("message"))
        ]
        assert retried and all(r["level"] == "WARNING" and "exception" not in r for r in retried), retried
        assert bot.problems() == []

        await fake.drop_gateway()
        await wait_for_health(base, 503, "gateway not connected")
        code, said = await health_command(port, tmp_path)
        assert code == 1 and "not healthy: gateway not connected" in said, said
        fake.restore_gateway()
        await wait_for_health(base, 200, "ok")
        # The reconnect, retried by discord.py on its own, is a warning line too.
        reconnects = [r for r in bot.records() if "Attempting a reconnect" in str(r.get("message"))]
        assert reconnects and all(r["level"] == "WARNING" and "exception" not in r for r in reconnects)
        assert bot.problems() == []
    finally:
        code = await bot.stop()
        await fake.stop()
    assert code == 0
    assert fake.violations == [] and fake.unknown_routes == []


async def wait_for_health(base: str, status: int, says: str, timeout: float = 30.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    seen: tuple[int, str] = (0, "")
    while loop.time() < deadline:
        seen = await get(f"{base}/healthz")
        if seen[0] == status and says in seen[1]:
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"/healthz never answered {status} {says!r}; last {seen}")
