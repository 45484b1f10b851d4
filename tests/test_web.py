"""The table on the web through the session layer and a real store (both backends), an HTTP client instead of
a browser (tests/e2e/test_web.py has the browser): what a reader of the pages would notice.

- a player's name is text, never markup: a name made of HTML reaches the page and its live frames escaped;
- a lobby's page follows it live (a computer added shows up in the next frame);
- the page speaks the reader's language: `?lang=`, else the browser's, else the server's;
- a link is for one page kind and one id: a table's signature opens neither another table nor a board;
- a finished table's page links its replay; a running table has no replay (409);
- a tournament's page shows its pairings and bracket in the reader's language, behind its own link only.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import aiohttp
import pytest

from bot.sessions.replay import Replays
from bot.web.feed import Feed
from bot.web.links import BOARD, TABLE, Signer
from bot.web.server import WebServer
from tests.test_sessions import ALICE, BOT, CHANNEL, GUILD, fixed_seeds, manager  # noqa: F401

SECRET = "unit-web-secret-0123456789"
NASTY = '<img src=x onerror="alert(1)">'


@pytest.fixture
async def site(store, announcer) -> AsyncIterator[tuple]:
    sessions = await manager(store, announcer)
    feed = Feed(store, local=sessions.tables.by_id, deadline=sessions.scheduler.deadline)
    sessions.tables.stored.listen(feed.stored)
    web = WebServer(store, feed, Replays(store), Signer(SECRET), host="127.0.0.1", port=0, public_url=None,
                    names=lambda: sessions.readers.names)  # fmt: skip
    await web.start()
    async with aiohttp.ClientSession() as http:
        yield sessions, web, http
    await web.close()
    await sessions.close()


async def frames(http: aiohttp.ClientSession, url: str, count: int) -> list[dict]:
    """The first `count` frames of a live feed."""
    got: list[dict] = []
    async with http.get(url + "/live") as live:
        assert live.status == 200 and live.headers["Content-Type"].startswith("text/event-stream")
        async for raw in live.content:
            if raw.startswith(b"data: "):
                got.append(json.loads(raw[6:]))
                if len(got) == count:
                    return got
    return got


async def test_a_name_made_of_html_is_shown_as_text_on_the_page_and_in_its_frames(site) -> None:
    sessions, web, http = site
    sessions.saw(ALICE, "en-US", GUILD, "en-US", display_name=NASTY)
    table = await sessions.open_table("malice", GUILD, CHANNEL, ALICE, opponent=BOT, options={"timeout": 300})
    await sessions.idle()
    async with http.get(web.table_url(table.id)) as page:
        text = await page.text()
    assert NASTY not in text and "&lt;img src=x onerror=" in text
    (frame,) = await frames(http, web.table_url(table.id), 1)
    assert NASTY not in frame["html"] and "&lt;img src=x onerror=" in frame["html"]


async def test_a_lobby_page_follows_the_lobby_live(site) -> None:
    sessions, web, http = site
    table = await sessions.open_table("insomnia", GUILD, CHANNEL, ALICE, options={"timeout": 300})
    url = web.table_url(table.id)
    async with http.get(url + "/live") as live:
        seen: list[dict] = []
        async for raw in live.content:
            if not raw.startswith(b"data: "):
                continue
            seen.append(json.loads(raw[6:]))
            if len(seen) == 1:
                assert "Computer 1" not in seen[0]["html"]
                await sessions.lobbies.add_computer(CHANNEL, ALICE)
            elif "Computer 1" in seen[-1]["html"]:
                break
    assert seen[-1]["status"] == "lobby" and len(seen) >= 2


async def test_the_page_speaks_the_readers_language(site) -> None:
    sessions, web, http = site
    table = await sessions.open_table("malice", GUILD, CHANNEL, ALICE, opponent=BOT, options={"timeout": 300})
    await sessions.idle()
    url = web.table_url(table.id)

    async def lang(**headers: str) -> str:
        async with http.get(url.split("?")[0] + headers.pop("query", ""), headers=headers) as page:
            text = await page.text()
        return text.split('<html lang="', 1)[1][:2]

    assert await lang() == "en"  # the server's (the table's public language)
    assert await lang(**{"Accept-Language": "de-AT,de;q=0.9,en;q=0.5"}) == "de"
    assert await lang(**{"Accept-Language": "fr-FR, en;q=0.3"}) == "en"
    assert await lang(query="?lang=de", **{"Accept-Language": "en"}) == "de"


async def test_a_link_opens_only_its_own_kind_and_id(site) -> None:
    sessions, web, http = site
    table = await sessions.open_table("malice", GUILD, CHANNEL, ALICE, opponent=BOT, options={"timeout": 300})
    await sessions.idle()
    link = Signer(SECRET).link(TABLE, table.id)
    base = web.base
    other_id = f"{base}/table/{table.id + 1}/{link.until}/{link.signature}"
    as_board = f"{base}/board/{table.id}/{link.until}/{link.signature}"
    other_secret = base + Signer("another-secret-0123456789").link(TABLE, table.id).path
    for url in (other_id, as_board, other_secret):
        async with http.get(url) as page:
            assert page.status == 404, url
    async with http.get(base + Signer(SECRET).link(BOARD, GUILD).path) as page:
        assert page.status == 200


async def test_a_running_game_has_no_replay_and_a_finished_one_links_it(site) -> None:
    sessions, web, http = site
    table = await sessions.open_table("malice", GUILD, CHANNEL, ALICE, opponent=BOT, options={"timeout": 300})
    await sessions.idle()
    async with http.get(web.replay_url(table.id)) as page:
        assert page.status == 409 and "Only a finished game can be replayed." in await page.text()
    await sessions.life.resign(CHANNEL, ALICE)
    await sessions.idle()
    async with http.get(web.table_url(table.id)) as page:
        text = await page.text()
    assert web.replay_url(table.id) in text
    async with http.get(web.replay_url(table.id) + "?step=99999") as page:
        assert page.status == 200  # a step past the end shows the end


async def test_a_tournament_has_a_page_with_its_pairings_and_bracket_in_the_readers_language(
    site, store
) -> None:
    from bot.web.links import EVENT
    from tests.storage.test_competitions import finish, match_table

    _, web, http = site
    players = ["11", "12", "13", "14"]
    event = await store.create_competition(GUILD, CHANNEL, "malice", "knockout", 0, {}, host_id=9)
    for i, p in enumerate(players):
        await store.join_competition(event, p, rating=float(10 - i))
    await store.start_competition(event, players, [("11", "14"), ("12", "13")], deadline=None)
    first = (await store.competition(event)).current()[0]
    await finish(store, await match_table(store, first.id, first.players), "14", "11")
    url = web.event_url(event)
    async with http.get(url, params={"lang": "de"}) as page:
        assert page.status == 200
        text = await page.text()
    assert f"Turnier #{event}: Malice, K.-o.-System" in text and "Runde 1 von 2" in text
    who = '<span class="who">Spieler …{}</span>'
    assert f"Tisch 1: {who.format(11)} gegen {who.format(14)}" in text  # the round's pairings
    assert f"Tisch 2: {who.format(12)} gegen {who.format(13)}" in text and "Table" not in text
    assert 'alt="Der Turnierbaum von' in text
    async with http.get(url + "/picture.png", params={"lang": "de"}) as picture:
        assert picture.status == 200 and picture.headers["Content-Type"] == "image/png"
        assert (await picture.read())[:8] == b"\x89PNG\r\n\x1a\n"  # the bracket
    async with http.get(url, params={"lang": "en"}) as page:
        assert f"Tournament #{event}" in await page.text()
    # The link opens this event's page only: not another event's, not the server's board with its number.
    forged = web.signer.link(EVENT, event + 1).path.split("/")
    async with http.get(web.base + "/".join([*forged[:-1], url.rsplit("/", 1)[1]])) as page:
        assert page.status == 404
    board = web.signer.link(BOARD, event).path.replace("/board/", "/event/")
    async with http.get(web.base + board) as page:
        assert page.status == 404
    await store.set_web(GUILD, False)  # the server turned its pages off
    async with http.get(url) as page:
        assert page.status == 403
