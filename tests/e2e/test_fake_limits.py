"""The fake Discord holds a client to Discord's limits: rate limits (when switched on), interaction deadlines,
the edit allowance of old messages and Discord's own request schemas. Each limit is shown with a real client:
raw aiohttp for the exact answers, discord.py (the bot's own HTTP client) for the headers it acts on."""

from __future__ import annotations

import asyncio
import io
import json
from collections import Counter
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest
from discord.http import Route

from tests.e2e.fake_discord import (
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    THREAD_PERMISSIONS,
    FakeDiscord,
    FakeDiscordError,
    RestCall,
    RestStats,
    body_routes,
)
from tests.e2e.harness import Harness

PROBE = "tests.e2e.probe_cog"
CREATE = "POST /channels/{channel_id}/messages"


@pytest.fixture
async def api(fake_server: FakeDiscord) -> AsyncIterator[Client]:
    """A plain HTTP client with the bot's token against a fake Discord that has no bot connected."""
    async with aiohttp.ClientSession() as session:
        yield Client(fake_server, session)


class Client:
    def __init__(self, fake: FakeDiscord, session: aiohttp.ClientSession) -> None:
        self.fake = fake
        self.session = session

    async def call(
        self, method: str, path: str, body: Any = None, *, auth: bool = True, **kwargs: Any
    ) -> tuple[int, Any, Any]:
        """(status, JSON answer or None, headers)."""
        headers = {"Authorization": f"Bot {self.fake.token}"} if auth else {}
        async with self.session.request(
            method, self.fake.api_base + path, json=body, headers=headers, **kwargs
        ) as response:
            text = await response.text()
            return response.status, json.loads(text) if text else None, response.headers

    def channel(self, name: str) -> int:
        return self.fake.channel(name).id


# ---- rate limits


async def test_sixth_message_write_in_a_window_is_refused_while_another_channel_is_not(api: Client) -> None:
    fake = api.fake
    fake.rate_limits = True
    games, lounge = api.channel("games"), api.channel("lounge")
    answers = []
    for i in range(3):
        answers.append(await api.call("POST", f"/channels/{games}/messages", {"content": f"m{i}"}))
    first = answers[0][1]["id"]
    # Edits and deletes spend the same bucket as sends.
    answers.append(await api.call("PATCH", f"/channels/{games}/messages/{first}", {"content": "edited"}))
    answers.append(await api.call("DELETE", f"/channels/{games}/messages/{answers[1][1]['id']}"))
    status, body, headers = await api.call("POST", f"/channels/{games}/messages", {"content": "one too many"})

    assert [a[0] for a in answers] == [200, 200, 200, 200, 204]
    remaining = [int(h["X-RateLimit-Remaining"]) for _, _, h in answers]
    assert remaining == [4, 3, 2, 1, 0]
    assert {h["X-RateLimit-Limit"] for _, _, h in answers} == {"5"}
    assert len({h["X-RateLimit-Bucket"] for _, _, h in answers}) == 1  # one bucket for send, edit, delete
    for _, _, h in answers:
        assert 0 < float(h["X-RateLimit-Reset-After"]) <= 5.0
        assert float(h["X-RateLimit-Reset"]) > 1_700_000_000
    assert status == 429
    assert body["global"] is False and 0 < body["retry_after"] <= 5.0
    assert headers["X-RateLimit-Scope"] == "user" and headers["Via"] and int(headers["Retry-After"]) >= 1
    assert headers["X-RateLimit-Remaining"] == "0"
    assert "one too many" not in [m.text for m in fake.channel_messages("games")]

    status, _, headers = await api.call("POST", f"/channels/{lounge}/messages", {"content": "elsewhere"})
    assert status == 200 and headers["X-RateLimit-Remaining"] == "4"

    fake.advance(body["retry_after"])  # the window is over: the channel takes writes again
    later = fake.now()
    status, _, headers = await api.call("POST", f"/channels/{games}/messages", {"content": "later"})
    assert status == 200 and headers["X-RateLimit-Remaining"] == "4"
    assert [c.route for c in fake.rest_stats(since=later).calls] == [CREATE]

    stats = fake.rest_stats()
    assert stats.sent_429 == 1 and stats.global_429 == 0
    assert stats.by_route()[CREATE] == 6 and stats.total == 8
    assert stats.answers_429[0].bucket == f"message writes {games}"
    assert stats.times(CREATE) == sorted(stats.times(CREATE))


async def test_a_dm_channel_has_its_own_bucket(api: Client) -> None:
    api.fake.rate_limits = True
    alice = api.fake.user("alice")
    status, dm, _ = await api.call("POST", "/users/@me/channels", {"recipient_id": str(alice.id)})
    assert status == 200
    path = f"/channels/{dm['id']}/messages"
    statuses = [(await api.call("POST", path, {"content": f"hand {i}"}))[0] for i in range(6)]
    assert statuses == [200] * 5 + [429]
    assert (await api.call("POST", f"/channels/{api.channel('games')}/messages", {"content": "x"}))[0] == 200
    assert [m.text for m in alice.dms()] == [f"hand {i}" for i in range(5)]


async def test_global_limit_of_50_requests_a_second_spares_interaction_webhooks(api: Client) -> None:
    fake = api.fake
    fake.rate_limits = True
    answers = await asyncio.gather(*(api.call("GET", "/users/@me") for _ in range(60)))
    statuses = [a[0] for a in answers]
    # The window may only reset in between (never shrink), so the first 50 always pass.
    assert statuses.count(200) >= 50 and statuses.count(200) <= 59
    limited = [a for a in answers if a[0] == 429]
    assert limited
    for _, body, headers in limited:
        assert body["global"] is True and body["retry_after"] <= 1.0
        assert headers["X-RateLimit-Global"] == "true" and headers["X-RateLimit-Scope"] == "global"
    assert fake.rest_stats().global_429 == len(limited)
    # Interaction webhooks are outside the global limit: the answer is the route's own (an unknown token).
    status, body, _ = await api.call(
        "GET", f"/webhooks/{fake.application_id}/no-such-token/messages/@original", auth=False
    )
    assert status == 404 and body["code"] == 10008
    assert fake.rest_stats().total == 60  # the webhook call is not a rate-limited REST call


async def test_limits_are_off_unless_switched_on(api: Client) -> None:
    games = api.channel("games")
    answers = [await api.call("POST", f"/channels/{games}/messages", {"content": str(i)}) for i in range(8)]
    assert [a[0] for a in answers] == [200] * 8
    assert all("X-RateLimit-Remaining" not in h for _, _, h in answers)
    assert api.fake.rest_stats().total == 8  # counted all the same, for benchmarks without limits


@pytest.mark.bot(extra_extensions=[PROBE], rate_limits=True)
async def test_discord_py_reads_the_headers_and_waits_instead_of_hitting_429(harness: Harness) -> None:
    fake = harness.fake
    alice = harness.user("alice")
    # Each /probe post sends a message and edits it: three of them are six writes on one channel.
    for word in ("one", "two", "three"):
        reply = await alice.slash("probe post", text=word)
        assert reply.text == "posted"
    assert [m.text for m in fake.channel_messages("games")] == ["final: one", "final: two", "final: three"]
    stats = fake.rest_stats()
    games = fake.channel("games").id
    writes = [c for c in stats.calls if c.bucket == f"message writes {games}"]
    assert [c.status for c in writes] == [200] * 6
    assert stats.sent_429 == 0
    # The sixth write waited for the window the headers announced instead of being refused.
    assert writes[5].at - writes[0].at >= 5.0


# ---- interaction deadlines


@pytest.mark.bot(extra_extensions=[PROBE])
async def test_a_first_callback_later_than_3_seconds_is_an_unknown_interaction(
    harness: Harness, caplog
) -> None:
    fake = harness.fake
    # /probe dm sends the DM before it answers; a 429 on the DM holds the answer back while 4 s pass.
    fake.fail_next(CREATE, 429, retry_after=0.2)
    answer = asyncio.create_task(harness.user("alice").slash("probe dm", text="your hand"))
    await fake.wait_for(lambda: [c for c in fake.calls(CREATE) if c.status == 429])
    fake.advance(4.0)
    with pytest.raises(FakeDiscordError, match=r"10062"):
        await answer
    assert fake.rest_stats().error_codes[10062] == 1
    # Nothing reaches the user any more and no code is at fault: a warning naming the command, no error id.
    assert harness.take_logged_errors() == []
    late = [r.getMessage() for r in caplog.records if "came too late" in r.getMessage()]
    assert late and "/probe dm" in late[0] and "10062" in late[0], late
    # In time, the same command is answered.
    assert (await harness.user("bob").slash("probe dm", text="x")).text == "Sent you a DM."


@pytest.mark.bot(extra_extensions=[PROBE])
async def test_a_followup_token_expires_after_15_minutes(harness: Harness, api: Client) -> None:
    fake = harness.fake
    reply = await harness.user("alice").slash("probe say", text="hello")
    path = f"/webhooks/{fake.application_id}/{reply.interaction.token}/messages/@original"
    status, _, _ = await api.call("PATCH", path, {"content": "edited in time"}, auth=False)
    assert status == 200 and reply.text == "edited in time"
    fake.advance(15 * 60 + 1)
    status, body, _ = await api.call("PATCH", path, {"content": "too late"}, auth=False)
    assert status == 401 and body["code"] == 50027
    status, body, _ = await api.call(
        "POST", f"/webhooks/{fake.application_id}/{reply.interaction.token}", {"content": "x"}, auth=False
    )
    assert status == 401 and body["code"] == 50027
    assert reply.text == "edited in time"


# ---- old messages


@pytest.mark.bot(extra_extensions=[PROBE])
async def test_an_hour_old_message_takes_three_more_edits_then_30046(harness: Harness) -> None:
    fake = harness.fake
    bot = harness.bot
    assert bot is not None
    await harness.user("alice").slash("probe post", text="table")
    board = fake.channel_messages("games")[-1]
    channel = bot.get_channel(board.channel_id)
    assert isinstance(channel, discord.TextChannel)
    message = await channel.fetch_message(board.id)
    for i in range(4):  # a young message takes any number of edits
        await message.edit(content=f"young {i}")
    fake.advance(3601)
    for i in range(3):
        await message.edit(content=f"old {i}")
    with pytest.raises(discord.HTTPException) as refused:
        await message.edit(content="one edit too many")
    assert refused.value.status == 400 and refused.value.code == 30046
    assert board.text == "old 2"
    assert fake.rest_stats().error_codes[30046] == 1


# ---- request bodies against Discord's schemas


async def test_unknown_field_and_too_long_content_are_violations(api: Client) -> None:
    fake = api.fake
    games = api.channel("games")
    status, body, _ = await api.call("POST", f"/channels/{games}/messages", {"content": "hi", "colour": 3})
    assert status == 400 and body["code"] == 50035 and "'colour' was unexpected" in body["message"]
    status, body, _ = await api.call("POST", f"/channels/{games}/messages", {"content": "x" * 2001})
    assert status == 400 and body["code"] == 50035
    embed = {"title": "t" * 257}
    status, _, _ = await api.call("POST", f"/channels/{games}/messages", {"embeds": [embed]})
    assert status == 400
    # Deep inside a union (a row holds buttons or selects) the answer still names the field.
    button = {"type": 2, "style": 1, "label": "Join", "custom_id": "join", "colour": "red"}
    row = {"type": 1, "components": [button]}
    status, _, _ = await api.call("POST", f"/channels/{games}/messages", {"components": [row]})
    assert status == 400
    assert fake.violations == [
        f"{CREATE} (Discord's schema): the body: "
        "Additional properties are not allowed ('colour' was unexpected)",
        "message to games: content is 2001 characters (max 2000)",
        f"{CREATE} (Discord's schema): embeds/0/title is 257 characters (max 256)",
        f"{CREATE} (Discord's schema): components/0/components/0: "
        "Additional properties are not allowed ('colour' was unexpected)",
    ]
    assert fake.channel_messages("games") == []
    fake.violations.clear()


async def test_multipart_payload_json_is_validated(api: Client) -> None:
    fake = api.fake
    games = api.channel("games")

    def form(payload: dict[str, Any]) -> aiohttp.FormData:
        data = aiohttp.FormData(quote_fields=False)
        data.add_field("payload_json", json.dumps(payload), content_type="application/json")
        data.add_field("files[0]", io.BytesIO(b"AS KH"), filename="hand.txt")
        return data

    good = {"content": "with a file", "attachments": [{"id": 0, "filename": "hand.txt"}]}
    status, _, _ = await api.call("POST", f"/channels/{games}/messages", data=form(good))
    assert status == 200 and fake.channel_messages("games")[0].attachments[0]["filename"] == "hand.txt"
    status, _, _ = await api.call("POST", f"/channels/{games}/messages", data=form({**good, "sticker": 1}))
    assert status == 400 and len(fake.violations) == 1 and "'sticker' was unexpected" in fake.violations[0]
    fake.violations.clear()


@pytest.mark.bot(extra_extensions=[PROBE])
async def test_the_bots_own_http_client_is_held_to_the_schema(harness: Harness) -> None:
    bot = harness.bot
    assert bot is not None
    games = harness.fake.channel("games").id
    # Integer ids, as discord.py sends them, pass where Discord types a snowflake string.
    await bot.http.request(
        Route("POST", "/channels/{channel_id}/messages", channel_id=games),
        json={"content": "hi", "allowed_mentions": {"users": [harness.user("bob").id]}},
    )
    with pytest.raises(discord.HTTPException) as refused:
        await bot.http.request(
            Route("POST", "/channels/{channel_id}/messages", channel_id=games),
            json={"content": "hi", "allowed_mentions": {"users": ["bob"]}},
        )
    assert refused.value.code == 50035
    assert harness.fake.violations == [
        f"{CREATE} (Discord's schema): allowed_mentions/users/0: 'bob' does not match '^(0|[1-9][0-9]*)$'"
    ]
    harness.fake.violations.clear()


def test_peak_counts_the_busiest_window() -> None:
    calls = [RestCall(at, CREATE, 200, "b") for at in (0.0, 0.2, 0.5, 0.9, 1.0, 1.95, 3.0)]
    stats = RestStats(calls=calls, answers_429=[], error_codes=Counter())
    assert stats.peak(1.0) == 4  # 0.0-0.9; 1.0 already starts the next second
    assert stats.peak(2.0) == 6 and stats.total == 7


def test_the_extract_covers_every_route_of_the_fake_that_takes_a_body() -> None:
    takes_body = {r for r in FakeDiscord.route_templates() if r.split(" ", 1)[0] in ("POST", "PUT", "PATCH")}
    assert body_routes() == takes_body


# ---- threads: channels of their own


async def test_a_thread_has_its_own_message_bucket(api: Client) -> None:
    fake = api.fake
    fake.rate_limits = True
    fake.bot_permissions |= THREAD_PERMISSIONS | CREATE_PRIVATE_THREADS
    games = api.channel("games")
    for i in range(5):
        assert (await api.call("POST", f"/channels/{games}/messages", {"content": f"table {i}"}))[0] == 200
    status, thread, _ = await api.call("POST", f"/channels/{games}/threads", {"name": "moves", "type": 11})
    assert status == 200 and thread["parent_id"] == str(games)
    statuses = [
        (await api.call("POST", f"/channels/{thread['id']}/messages", {"content": f"move {i}"}))[0]
        for i in range(6)
    ]
    assert statuses == [200] * 5 + [429]
    assert (await api.call("POST", f"/channels/{games}/messages", {"content": "table 5"}))[0] == 429
    assert [m.text for m in fake.channel_messages("moves")] == [f"move {i}" for i in range(5)]
    assert len(fake.channel_messages("games")) == 5


@pytest.mark.bot(extra_extensions=[PROBE])
async def test_the_bot_can_open_write_and_close_threads(harness: Harness) -> None:
    fake = harness.fake
    bot = harness.bot
    assert bot is not None
    games = bot.get_channel(fake.channel("games").id)
    assert isinstance(games, discord.TextChannel)
    table = await games.send("table")
    # Without Create Public Threads (the invite link's minimal permissions) Discord refuses a thread.
    with pytest.raises(discord.Forbidden) as refused:
        await table.create_thread(name="Insomnia 1 log")
    assert refused.value.code == 50013
    fake.bot_permissions |= THREAD_PERMISSIONS
    log = await table.create_thread(name="Insomnia 1 log")
    assert log.id == table.id, "a thread opened on a message has the message's id"
    with pytest.raises(discord.HTTPException) as refused:
        await table.create_thread(name="again")
    assert refused.value.code == 160004
    side = await games.create_thread(name="Insomnia 1 talk", type=discord.ChannelType.public_thread)
    await log.send("Deal 1: alice exchanges one card.")
    # Discord announced the threads on the gateway, so the bot knows them without asking.
    assert await fake.wait_for(lambda: bot.get_channel(log.id) and bot.get_channel(side.id))
    assert [m.text for m in fake.channel_messages("Insomnia 1 log")] == ["Deal 1: alice exchanges one card."]
    assert [m.text for m in fake.channel_messages("games")] == ["table"]
    # People use commands inside a thread like anywhere else.
    reply = await harness.user("alice").slash("probe say", text="in the thread", channel="Insomnia 1 talk")
    assert reply.message is not None and reply.message.channel_id == side.id

    await log.edit(archived=True, locked=True)
    assert fake.threads[log.id].archived and fake.threads[log.id].locked
    with pytest.raises(discord.HTTPException) as refused:
        await log.send("too late")
    assert refused.value.code == 50083
    await harness.restart_bot()
    assert harness.bot is not None
    assert harness.bot.get_channel(side.id) is not None  # an active thread comes back with the guild
    assert harness.bot.get_channel(log.id) is None  # an archived one does not


async def test_threads_are_as_strict_as_discord(api: Client) -> None:
    fake = api.fake
    games = api.channel("games")
    _, lobby, _ = await api.call("POST", f"/channels/{games}/messages", {"content": "lobby"})
    start = f"/channels/{games}/messages/{lobby['id']}/threads"
    body = {"name": "Malice · table #1", "auto_archive_duration": 1440}
    status, refused, _ = await api.call("POST", start, body)
    assert (status, refused["code"]) == (403, 50013), "no Create Public Threads in the minimal permissions"
    fake.bot_permissions |= CREATE_PUBLIC_THREADS & THREAD_PERMISSIONS
    status, thread, _ = await api.call("POST", start, body)
    assert status == 200 and thread["id"] == lobby["id"] and thread["parent_id"] == str(games)
    assert (await api.call("POST", start, body))[1]["code"] == 160004
    assert (await api.call("GET", f"/channels/{thread['id']}"))[1]["thread_metadata"]["archived"] is False
    status, refused, _ = await api.call("POST", f"/channels/{thread['id']}/messages", {"content": "table"})
    assert (status, refused["code"]) == (403, 50013), "no Send Messages in Threads yet"
    fake.bot_permissions |= THREAD_PERMISSIONS
    _, table, _ = await api.call("POST", f"/channels/{thread['id']}/messages", {"content": "table"})
    message = f"/channels/{thread['id']}/messages/{table['id']}"

    fake.archive_thread(int(thread["id"]))  # idle past its archive duration
    status, refused, _ = await api.call("PATCH", message, {"content": "move 1"})
    assert (status, refused["code"], refused["message"]) == (400, 50083, "Thread is archived")
    assert (await api.call("DELETE", message))[1]["code"] == 50083
    assert (await api.call("PATCH", f"/channels/{thread['id']}", {"name": "x"}))[1]["code"] == 50083
    assert (await api.call("PATCH", f"/channels/{thread['id']}", {"archived": False}))[0] == 200
    assert (await api.call("PATCH", message, {"content": "move 1"}))[0] == 200
    fake.archive_thread(int(thread["id"]))
    assert (await api.call("POST", f"/channels/{thread['id']}/messages", {"content": "ping"}))[0] == 200
    assert not fake.threads[int(thread["id"])].archived, "a new message revives an unlocked thread"
    # A wrong archive duration is refused by Discord's schema (a violation the test takes back).
    _, other, _ = await api.call("POST", f"/channels/{games}/messages", {"content": "other"})
    bad = {"name": "t", "auto_archive_duration": 30}
    assert (await api.call("POST", f"/channels/{games}/messages/{other['id']}/threads", bad))[0] == 400
    assert fake.violations and "auto_archive_duration" in fake.violations[-1]
    fake.violations.clear()
