"""The lease rows on a real PostgreSQL database (storage/postgres/leases.py) under the share's rules
(bot/sessions/share.py), in real time: alone a process has the whole budget at once; a second process of
the same token waits, then both have half; a process of another token shares with nobody; a process that
stops gives its share back at once, one that is killed within seconds. Skipped without PostgreSQL."""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.sessions.pacing import GLOBAL_REQUESTS
from bot.sessions.share import LIVE, RENEW_EVERY, SETTLE, LeasedShare
from storage import open_store
from storage.postgres.leases import PostgresLeases

HALF = GLOBAL_REQUESTS // 2


async def share_of(url: str, token: str, process: str) -> LeasedShare:
    share = LeasedShare(await PostgresLeases.open(url, token, process))
    await share.start()
    return share


async def until(condition, timeout: float, what: str) -> float:
    started = time.monotonic()
    while not condition():
        assert time.monotonic() - started < timeout, f"{what} did not happen within {timeout} s"
        await asyncio.sleep(0.02)
    return time.monotonic() - started


@pytest.mark.slow
async def test_processes_of_one_token_share_its_budget_through_the_database(pg_url: str) -> None:
    await (await open_store(pg_url)).close()  # migrated: the lease table is there
    first = await share_of(pg_url, "token-a", "first")
    other_bot = await share_of(pg_url, "token-b", "elsewhere")
    second = None
    try:
        assert first.limit() == GLOBAL_REQUESTS, "alone, the whole budget at once"
        second = await share_of(pg_url, "token-a", "second")
        assert second.limit() == 0, "a newcomer sends nothing before the others have shrunk"
        await until(lambda: first.limit() == HALF, 2 * RENEW_EVERY + 0.5, "the first process shrinking")
        await until(lambda: second.limit() == HALF, SETTLE + RENEW_EVERY + 0.5, "the newcomer's share")
        assert other_bot.limit() == GLOBAL_REQUESTS, "another token's budget is its own"
        assert first.processes() == second.processes() == 2

        await second.close()  # a graceful stop: the row goes once its last requests left the window
        second = None
        await until(lambda: first.limit() == GLOBAL_REQUESTS, 2 * RENEW_EVERY + 0.5, "the share coming back")

        third = await share_of(pg_url, "token-a", "third")
        await until(lambda: third.limit() == HALF, SETTLE + 2 * RENEW_EVERY, "the third process's share")
        assert third._task is not None
        third._task.cancel()  # killed: no goodbye, its row stays behind
        await third.leases.close()
        back = LIVE + 3 * RENEW_EVERY
        waited = await until(lambda: first.limit() == GLOBAL_REQUESTS, back, "a killed one's share back")
        assert waited > RENEW_EVERY, "a silent process is taken for dead only once its lease ran out"
    finally:
        for share in (first, second, other_bot):
            if share is not None:
                await share.close()
