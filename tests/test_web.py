"""The table on the web through the session layer and a real store (both backends), an HTTP client instead of
a browser (tests/e2e/test_web.py has the browser): what a reader of the pages would notice.

- a player's name is text, never markup: a name made of HTML reaches the page and its live frames escaped;
- a lobby's page follows it live (a computer added shows up in the next frame);
- the page speaks the reader's language: `?lang=`, else the browser's, else the server's;
- a link is for one page kind and one id: a table's signature opens neither another table nor a board;
- a finished table's page links its replay; a running table has no replay (409);
- a tournament's page shows its pairings and bracket in the reader's language, behind its own link only;
- a move has the same number in `/history` and on the replay page (from 1);
- stopping the server ends its live feeds and logs the refusals it had only counted;
- every kind of link a command posts opens its page (the link kinds are data: `bot.web.links.KINDS`).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator

import aiohttp
import pytest

from bot import render
from bot.sessions.replay import Replays
from bot.web.feed import Feed
from bot.web.links import BOARD, KINDS, TABLE, Signer
from bot.web.quiet import REPEATS, WINDOW, RefusalLog
from bot.web.server import WebServer
from bot.web.site import Site
from tests.test_sessions import ALICE, BOT, CHANNEL, GUILD, fixed_seeds, manager  # noqa: F401

SECRET = "unit-web-secret-0123456789"
NASTY = '<img src=x onerror="alert(1)">'


@pytest.fixture
async def site(store, announcer) -> AsyncIterator[tuple]:
    sessions = await manager(store, announcer)
    feed = Feed(store, local=sessions.tables.by_id, deadline=sessions.scheduler.deadline)
    sessions.tables.stored.listen(feed.stored)
    site = Site(
        store,
        feed,
        Replays(store),
        Signer(SECRET),
        host="127.0.0.1",
        port=0,
        public_url=None,
        names=lambda: sessions.readers.names,
    )
    web = WebServer(site)
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
    sessions.languages.saw(ALICE, "en-US", GUILD, "en-US", display_name=NASTY)
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
    forged = web.site.signer.link(EVENT, event + 1).path.split("/")
    async with http.get(web.base + "/".join([*forged[:-1], url.rsplit("/", 1)[1]])) as page:
        assert page.status == 404
    board = web.site.signer.link(BOARD, event).path.replace("/board/", "/event/")
    async with http.get(web.base + board) as page:
        assert page.status == 404
    await store.set_web(GUILD, False)  # the server turned its pages off
    async with http.get(url) as page:
        assert page.status == 403


# ---- hostile input (issue 38): a clear 4xx, a quiet log, a bug still a bug


async def raw(port: int, request: bytes) -> bytes:
    """`request` sent byte for byte (asking to close after it); what came back until the server closed."""
    request = request.replace(b"Host: x\r\n", b"Host: x\r\nConnection: close\r\n", 1)
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(request)
    await writer.drain()
    answer = await reader.read()
    writer.close()
    return answer


async def test_digits_of_other_scripts_and_huge_numbers_are_a_4xx_never_a_500(site, caplog) -> None:
    sessions, web, http = site
    table = await sessions.open_table("malice", GUILD, CHANNEL, ALICE, opponent=BOT, options={"timeout": 300})
    await sessions.idle()
    finished = await sessions.open_table(
        "malice", GUILD, CHANNEL + 1, ALICE, opponent=BOT, options={"timeout": 300}
    )
    await sessions.life.resign(CHANNEL + 1, ALICE)
    await sessions.idle()
    live = web.table_url(table.id)
    ident, until, sig = live.removeprefix(web.base).split("/")[2:]
    replay = web.replay_url(finished.id)
    cases = {
        f"/table/²/{until}/{sig}": 404,
        f"/table/{ident}/²/{sig}": 404,
        f"/table/١/{until}/{sig}": 404,
        f"/table/{'9' * 5000}/{until}/{sig}": 404,
        f"/table/{2**63}/{until}/{sig}": 404,
        f"{live}/picture/².png": 400,
        f"{live}/picture/{'9' * 30}.png": 400,
        f"{replay}/step/²": 400,
        f"{replay}/step/١": 400,
        f"{replay}/picture/².png": 400,
        f"{replay}?step=²": 400,
        f"{replay}?step=-1": 400,
        web.board_url(GUILD) + "?season=２０２６-１１": 400,
        web.board_url(GUILD) + "?season=2026-13": 400,
    }
    with caplog.at_level(logging.INFO, logger="bot.web"):
        for path, status in cases.items():
            url = path if path.startswith("http") else web.base + path
            async with http.get(url) as page:
                text = await page.text()
            assert page.status == status, (path, page.status, text[:200])
            assert "<h2>" in text or "error" in json.loads(text)  # a sentence for the reader
        async with http.get(f"{replay}/step/²", params={"lang": "de"}) as page:
            assert "Diesen Schritt kennt die Seite nicht." in (await page.json())["error"]
        # The live feed's Last-Event-ID is read before its 200: an odd one is a 400, never a broken stream.
        for odd in ("²", "١", "9" * 5000, "-1", "1e3"):
            async with http.get(live + "/live", headers={"Last-Event-ID": odd}) as feed:
                assert feed.status == 400 and "not understood" in (await feed.json())["error"], odd
        (frame,) = await frames(http, live, 1)  # a good one still follows
        assert frame["status"] == "running"
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    refused = [r for r in caplog.records if r.name == "bot.web.access"]
    assert len(refused) == REPEATS  # one address: the rest counted, not logged
    assert refused[0].getMessage().startswith("refused 404 GET /table/%C2%B2/")


async def test_malformed_http_is_a_400_that_echoes_nothing_in_one_log_line(site, caplog) -> None:
    _, web, _ = site
    requests = [
        b"GET /" + b"a" * 20_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",  # an over-long request line
        b"GET /\x00secret HTTP/1.1\r\nHost: x\r\n\r\n",  # a null byte
        b"GET /\xff\xfe<script> HTTP/1.1\r\nHost: x\r\n\r\n",  # not UTF-8
        b"BREW /pot-<script> HTTP/1.1\r\nHost: x\r\n\r\n",  # an unknown method
        b"GET / HTTP/1.1\r\nHost: x\r\nX-Long: " + b"b" * 20_000 + b"\r\n\r\n",  # an over-long header
    ]
    with caplog.at_level(logging.DEBUG):
        for request in requests:
            answer = await raw(web.port, request)
            head, _, body = answer.partition(b"\r\n\r\n")
            assert head.split(b" ")[1] == b"400", answer[:200]
            assert body == b"400 Bad Request\n", body[:200]  # nothing of the request echoed
    ours = [r for r in caplog.records if r.name.startswith(("bot.web", "aiohttp"))]
    assert not [r for r in ours if r.exc_info], [r.getMessage() for r in ours]
    assert [r.name for r in ours] == ["bot.web.access"] * len(requests)
    assert all("malformed HTTP" in r.getMessage() and "\n" not in r.getMessage() for r in ours)


async def test_refusals_are_one_line_each_and_a_repeating_address_is_counted_not_logged(site, caplog) -> None:
    _, web, http = site
    with caplog.at_level(logging.INFO, logger="bot.web.access"):
        for n in range(REPEATS + 15):
            async with http.get(web.base + f"/nothing/{n}", headers={"X-Forwarded-For": "198.51.100.7"}):
                pass
        async with http.get(web.base + "/nothing", headers={"X-Forwarded-For": "198.51.100.8"}):
            pass
    lines = [(r.levelno, r.getMessage()) for r in caplog.records if r.name == "bot.web.access"]
    assert [level for level, _ in lines] == [logging.INFO] * (REPEATS - 1) + [logging.WARNING, logging.INFO]
    assert "198.51.100.7" in lines[REPEATS - 1][1] and "counted, not logged" in lines[REPEATS - 1][1]
    assert "198.51.100.8" in lines[-1][1]  # another address: its own line


async def test_a_bug_is_a_500_with_its_traceback_and_an_error_id_the_reader_is_shown(site, caplog) -> None:
    sessions, web, http = site
    table = await sessions.open_table("malice", GUILD, CHANNEL, ALICE, opponent=BOT, options={"timeout": 300})
    await sessions.idle()

    async def broken(table_id: int) -> None:
        raise RuntimeError("a bug")

    web.site.feed.current = broken
    with caplog.at_level(logging.INFO):
        async with http.get(web.table_url(table.id), params={"lang": "de"}) as page:
            text = await page.text()
    assert page.status == 500
    (failure,) = [r for r in caplog.records if r.exc_info]
    error_id = failure.getMessage().split()[2].rstrip(":")
    assert f"Fehlernummer {error_id}" in text and failure.levelno == logging.ERROR


async def test_every_page_has_a_favicon(site) -> None:
    _, web, http = site
    async with http.get(web.base + "/favicon.ico") as icon:
        assert icon.status == 200 and icon.headers["Content-Type"] == "image/svg+xml"
        assert (await icon.text()).startswith("<svg")
    async with http.get(web.board_url(GUILD)) as page:
        assert '<link rel="icon" href="/static/favicon.svg"' in await page.text()
    async with http.get(web.base + "/static/favicon.svg") as icon:
        assert icon.status == 200


async def test_a_replay_step_is_numbered_as_its_counter_and_speaks_to_a_spectator(site) -> None:
    from bot.games.ai import choose_action

    sessions, web, http = site
    table = await sessions.open_table("malice", GUILD, CHANNEL, ALICE, opponent=BOT, options={"timeout": 300})
    for n in range(6):  # Alice plays as the computer would (it answers at once)
        record = sessions.tables.in_channel(CHANNEL)
        await sessions.moves.act(CHANNEL, ALICE, choose_action(record.playing, str(ALICE), f"replay/{n}"))
        await sessions.idle()
    await sessions.life.resign(CHANNEL, ALICE)
    await sessions.idle()
    for step in (1, 4):
        async with http.get(f"{web.replay_url(table.id)}/step/{step}") as part:
            shown = await part.json()
        counter = f"move {step} of {shown['last']}"
        assert counter in shown["html"], shown["html"][:300]
        assert f"<code>{step:>3}</code>" in shown["html"]  # the step's line: its badge says the same
        assert "your turn" not in shown["html"]  # nobody watching a replay is to move
    assert "is to play" in shown["html"] or "is playing" in shown["html"]


async def test_history_and_the_replay_page_number_a_move_alike_from_one(site) -> None:
    from bot.games.ai import choose_action

    sessions, web, http = site
    table = await sessions.open_table("malice", GUILD, CHANNEL, ALICE, opponent=BOT, options={"timeout": 300})
    for n in range(3):
        record = sessions.tables.in_channel(CHANNEL)
        await sessions.moves.act(CHANNEL, ALICE, choose_action(record.playing, str(ALICE), f"number/{n}"))
        await sessions.idle()
    await sessions.life.resign(CHANNEL, ALICE)
    await sessions.idle()
    row, entries = await sessions.replays.history(CHANNEL, table_id=table.id)
    lines = render.history_pages(row.kind, row.id, row.status, entries)[0].description.splitlines()
    numbered = [line for line in lines if line.startswith("`")]
    assert numbered[0].startswith("`  1` ") and numbered[-1].startswith(f"`{len(entries):>3}` ")
    for step in (1, len(entries)):
        async with http.get(f"{web.replay_url(table.id)}/step/{step}") as part:
            shown = await part.json()
        assert (
            f"<code>{step:>3}</code>" in shown["html"] and f"move {step} of {shown['last']}" in shown["html"]
        )


def test_a_repeating_address_s_count_is_logged_once_its_window_is_over_without_another_refusal(
    caplog,
) -> None:
    now = [0.0]
    log = RefusalLog(clock=lambda: now[0])
    with caplog.at_level(logging.INFO, logger="bot.web.access"):
        for _ in range(REPEATS + 7):
            log.refused("198.51.100.9", 404, "GET", "/nothing", "web.error.not_found")
        log.refused("198.51.100.10", 404, "GET", "/nothing", "web.error.not_found")
        log.flush()  # the window still open: nothing yet
        assert not [r for r in caplog.records if "were not logged" in r.getMessage()]
        now[0] = WINDOW + 1
        log.flush()
        log.flush()  # once only
    summaries = [r.getMessage() for r in caplog.records if "were not logged" in r.getMessage()]
    assert summaries == ["7 more refused requests from 198.51.100.9 were not logged"]


async def test_stopping_the_server_ends_its_live_feeds_and_logs_what_it_only_counted(site, caplog) -> None:
    sessions, web, http = site
    table = await sessions.open_table("malice", GUILD, CHANNEL, ALICE, opponent=BOT, options={"timeout": 300})
    await sessions.idle()
    with caplog.at_level(logging.INFO, logger="bot.web.access"):
        for n in range(REPEATS + 3):
            async with http.get(web.base + f"/nothing/{n}", headers={"X-Forwarded-For": "198.51.100.11"}):
                pass
        async with http.get(web.table_url(table.id) + "/live") as live:
            assert (await live.content.readline()).startswith(b"id: ")  # the feed is on
            await web.close()
            await live.content.read()  # returns: the server ended the feed
            assert live.content.at_eof()
    summaries = [r.getMessage() for r in caplog.records if "were not logged" in r.getMessage()]
    assert summaries == ["3 more refused requests from 198.51.100.11 were not logged"]


async def test_every_kind_of_link_a_command_posts_opens_its_page(site, store) -> None:
    sessions, web, http = site
    table = await sessions.open_table("malice", GUILD, CHANNEL, ALICE, opponent=BOT, options={"timeout": 300})
    await sessions.idle()
    await sessions.life.resign(CHANNEL, ALICE)
    await sessions.idle()
    event = await store.create_competition(GUILD, CHANNEL, "malice", "knockout", 0, {}, host_id=9)
    ids = {"replay": table.id, "board": GUILD, "event": event}
    posted = [kind for kind in KINDS.values() if kind.button is not None]
    assert sorted(k.name for k in posted) == sorted(ids)
    for kind in posted:
        button = await web.link_to(kind.name, ids[kind.name], GUILD, "de")
        assert button is not None and button.style == "link"
        async with http.get(button.url) as page:
            assert page.status == 200, kind.name
        assert await web.link_to(kind.name, ids[kind.name], 0, "de") is None  # outside a server: none
