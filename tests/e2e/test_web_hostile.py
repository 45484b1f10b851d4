"""The web pages against hostile input, and the links the bot posts, through the real bot and the fake Discord
(no browser needed: an HTTP client is enough to be rude).

- the table message carries a Watch link button (style 5, validated against Discord's schema by the fake),
  a finished one the replay's link, /history the replay's and /leaderboard the board's;
- forged, malformed and expired links, an unknown language, a body, an over-long query, a method other than
  GET: each a clear 4xx with a sentence, never a traceback;
- a burst of 1,000 requests from one address gets 429s with Retry-After, another address is still served,
  and the game played meanwhile is answered within Discord's deadline;
- `/settings web off` closes the server's pages (403), links posted before included, and drops its links;
- /metrics' counters count the pages served.
"""

from __future__ import annotations

import asyncio

import aiohttp
import pytest
from prometheus_client import REGISTRY
from pydantic import SecretStr

from bot.web.links import LINK_DAYS, Signer
from tests.e2e.fake_discord import FakeDiscordError
from tests.e2e.harness import Harness
from tests.e2e.test_game_support import live_game, poll, table_message

SECRET = "e2e-web-secret-0123456789"
pytestmark = pytest.mark.bot(web_port=0, web_secret=SecretStr(SECRET))


def served(page: str) -> float:
    return REGISTRY.get_sample_value("cardtable_web_pages_total", {"page": page}) or 0.0


@pytest.mark.alone
async def test_hostile_requests_are_clear_4xx_and_the_game_goes_on(harness: Harness) -> None:
    fake, bot = harness.fake, harness.bot
    assert bot is not None and bot.web is not None
    web = bot.web
    alice = harness.user("alice")
    await alice.slash("malice challenge", opponent=fake.bot_user, turns=6)
    record = await poll(lambda: bot.sessions.tables.in_channel(fake.channel("games").id), what="the table")
    await bot.sessions.idle()
    table = table_message(fake, "Malice · table")
    watch = [b for b in table.buttons if b.label == "Watch"]
    assert watch and watch[0].style == 5 and watch[0].raw["url"] == web.table_url(record.id)
    assert not fake.violations
    with pytest.raises(FakeDiscordError, match="link button"):
        await alice.click(table, "Watch")  # it opens the page; Discord sends the bot nothing

    base = f"http://127.0.0.1:{web.port}"
    good = web.table_url(record.id).removeprefix(web.base)
    forged = good[:-4] + ("AAAA" if not good.endswith("AAAA") else "BBBB")
    expired = Signer(SECRET, clock=lambda: 0.0).link("table", record.id).path
    other_table = web.table_url(record.id + 1).removeprefix(web.base)  # signed, but no such table
    pages_before = served("table")
    async with aiohttp.ClientSession() as http:

        async def get(path: str, **kw: object) -> tuple[int, str]:
            async with http.request(str(kw.pop("method", "GET")), base + path, **kw) as r:  # type: ignore[arg-type]
                return r.status, await r.text()

        async with http.get(base + good) as r:
            assert r.status == 200 and "Malice" in await r.text()
            assert "script-src 'self'" in r.headers["Content-Security-Policy"]
        cases = {
            forged: 404,
            expired: 410,
            other_table: 404,
            "/table/12/x/y": 404,
            "/table/99999999999999999999999/1/" + "A" * 22: 404,
            "/": 404,
            "/static/../../etc/passwd": 404,
            good + "?lang=xx": 400,
            good + "?x=" + "a" * 400: 414,
            web.replay_url(record.id).removeprefix(web.base): 409,  # not finished: no replay yet
            web.replay_url(record.id).removeprefix(web.base) + "?step=abc": 400,
        }
        for path, wanted in cases.items():
            status, text = await get(path)
            assert status == wanted, (path, status, text[:200])
            assert "Traceback" not in text and ("<h2>" in text or text.startswith("{"))
        status, text = await get(good, method="POST", data=b"x" * 100_000)
        assert status in (405, 413) and "Traceback" not in text
        status, text = await get(good, data=b"x" * 10)
        assert status == 413
        assert served("table") == pages_before + 1  # refusals are not pages

        # A burst from one address while Alice plays: 429s for it, pages for another address.
        async def burst() -> list[tuple[int, str | None]]:
            async def one() -> tuple[int, str | None]:
                async with http.get(base + good) as r:
                    await r.read()
                    return r.status, r.headers.get("Retry-After")

            return list(await asyncio.gather(*(one() for _ in range(1000))))

        flood = asyncio.create_task(burst())
        moves = 0
        while not flood.done() and live_game(harness) is not None and moves < 6:
            game = live_game(harness)
            if game.current_player == str(alice.id):
                await alice.slash("malice end")  # answered within the fake's 3-s deadline, or it raises
                moves += 1
            else:
                await asyncio.sleep(0.01)
        answers = await flood
        statuses = [status for status, _ in answers]
        assert statuses.count(429) > 500 and set(statuses) <= {200, 429}, set(statuses)
        # Every refusal says when to come back (checked on the burst's own answers: a request sent after it
        # may find the address's budget refilled on a slow machine).
        assert all(after is not None and int(after) >= 1 for status, after in answers if status == 429)
        async with http.get(base + good, headers={"X-Forwarded-For": "203.0.113.9"}) as r:
            assert r.status == 200  # another address behind the proxy: served

        # The server turns its pages off: every page of it closes, and its links go.
        erin = harness.user("erin")
        reply = await erin.slash("settings web", web="pages-off")
        assert "off" in reply.text
        async with http.get(base + good, headers={"X-Forwarded-For": "203.0.113.10"}) as r:
            assert r.status == 403 and "turned its web pages off" in await r.text()
    assert LINK_DAYS >= 7


async def test_history_and_leaderboard_link_their_pages(harness: Harness) -> None:
    fake, bot = harness.fake, harness.bot
    assert bot is not None and bot.web is not None
    alice = harness.user("alice")
    await alice.slash("malice challenge", opponent=fake.bot_user, turns=6)
    record = await poll(lambda: bot.sessions.tables.in_channel(fake.channel("games").id), what="the table")
    await alice.slash("resign")
    await poll(lambda: live_game(harness) is None, what="the end")
    await bot.sessions.idle()
    table = table_message(fake, "Malice · table")
    await fake.wait_for(lambda: "Replay on the web" in table.button_labels, what="the replay link")
    history = await alice.slash("history", game=f"#{record.id}")
    links = [b for m in history.messages for b in m.buttons if b.style == 5]
    assert [b.raw["url"] for b in links] == [bot.web.replay_url(record.id)]
    board = await alice.slash("leaderboard")
    links = [b for m in board.messages for b in m.buttons if b.style == 5]
    assert [b.raw["url"] for b in links] == [bot.web.board_url(record.guild_id)]
    before = served("board")
    async with aiohttp.ClientSession() as http:
        async with http.get(bot.web.board_url(record.guild_id)) as r:
            text = await r.text()
            assert r.status == 200 and "Leaderboard" in text
        async with http.get(bot.web.replay_url(record.id) + "?step=1") as r:
            assert r.status == 200 and "Replay" in await r.text()
    assert served("board") == before + 1
    assert not fake.violations
