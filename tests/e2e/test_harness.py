"""The harness itself, through a test-only cog: every response kind, visibility, failures, restarts."""

from __future__ import annotations

import pytest
from discord.http import Route

from tests.e2e.fake_discord import FakeDiscordError
from tests.e2e.harness import Harness

pytestmark = pytest.mark.bot(extra_extensions=["tests.e2e.probe_cog"])


async def test_public_and_ephemeral_answers_are_seen_by_the_right_people(harness: Harness) -> None:
    fake = harness.fake
    alice, bob = harness.user("alice"), harness.user("bob")
    public = await alice.slash("probe say", text="hello all")
    private = await alice.slash("probe say", text="just me", private=True)
    assert public.kind == "message" and not public.ephemeral and public.text == "hello all"
    assert private.kind == "message" and private.ephemeral and private.text == "just me"
    assert [m.text for m in fake.channel_messages("games")] == ["hello all"]
    assert [m.text for m in alice.ephemerals()] == ["just me"]
    assert "just me" not in [m.text for m in bob.seen()]
    assert "hello all" in [m.text for m in bob.seen()]
    with pytest.raises(FakeDiscordError, match="cannot see"):
        await bob.click(private.message, "Count")  # nothing to click there anyway, but he cannot even see it


async def test_deferred_answer_completes_with_the_first_followup(harness: Harness) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    reply = await alice.slash("probe slow", text="x")
    assert reply.kind == "deferred"
    assert reply.message is not None and reply.message.text == "first: x" and not reply.ephemeral
    await harness.fake.wait_for(lambda: len(reply.followups) == 1)
    assert reply.followups[0].text == "second: x" and reply.followups[0].ephemeral
    assert reply.followups[0] in alice.ephemerals() and reply.followups[0] not in bob.seen()


async def test_channel_messages_edits_buttons_and_selects(harness: Harness) -> None:
    fake = harness.fake
    alice, bob = harness.user("alice"), harness.user("bob")
    reply = await alice.slash("probe post", text="table")
    assert reply.ephemeral and reply.text == "posted"
    board = fake.channel_messages("games")[-1]
    assert board.history == ["draft: table", "final: table"]
    assert board.button_labels == ["Count", "Private", "Fail"]
    clicked = await bob.click(board, "Count")
    assert clicked.kind == "update" and clicked.message is board
    assert board.text == "Count: 1" and board.history[-1] == "Count: 1" and len(board.history) == 3
    await alice.click(board, "probe:count")  # by custom_id
    assert board.text == "Count: 2"
    private = await bob.click(board, "Private")
    assert private.ephemeral and private.text == "Only bob sees this." and private.message in bob.ephemerals()
    picked = await bob.select(board, "Pick a fruit", ["banana"])
    assert picked.text == "You picked banana."
    with pytest.raises(FakeDiscordError, match="offers"):
        await bob.select(board, "probe:fruit", ["durian"])
    with pytest.raises(FakeDiscordError, match="no component"):
        await bob.click(board, "Join")


async def test_autocomplete_returns_the_bots_choices(harness: Harness) -> None:
    alice = harness.user("alice")
    assert [c.value for c in await alice.autocomplete("probe fruit", "name", "")] == [
        "apple",
        "banana",
        "cherry",
        "damson",
        "elderberry",
    ]
    choices = await alice.autocomplete("probe fruit", "name", "b", count=2)
    assert [(c.name, c.value) for c in choices] == [("Banana", "banana")]
    with pytest.raises(FakeDiscordError, match="no autocomplete"):
        await alice.autocomplete("probe fruit", "count", "1")


async def test_options_are_checked_as_discord_would(harness: Harness) -> None:
    alice = harness.user("alice")
    with pytest.raises(FakeDiscordError, match="requires the options"):
        await alice.slash("probe say")
    with pytest.raises(FakeDiscordError, match="no option 'loud'"):
        await alice.slash("probe say", text="x", loud=True)
    with pytest.raises(FakeDiscordError, match="whole number"):
        await alice.slash("probe fruit", name="apple", count="two")
    with pytest.raises(FakeDiscordError, match="needs a subcommand"):
        await alice.slash("probe")
    with pytest.raises(FakeDiscordError, match="not synced"):
        await alice.slash("nosuchcommand")


async def test_mentions_ping_only_when_allowed(harness: Harness) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    reply = await alice.slash("probe ping", user=bob)
    await harness.fake.wait_for(lambda: reply.followups)
    assert reply.message is not None and reply.message.text == f"quiet {bob.mention}"
    assert reply.message.pinged == frozenset()
    assert reply.followups[0].pinged == {bob.id}


async def test_dm_and_closed_dms(harness: Harness) -> None:
    fake = harness.fake
    alice, bob = harness.user("alice"), harness.user("bob")
    assert (await alice.slash("probe dm", text="your hand: AS KH")).text == "Sent you a DM."
    assert [m.text for m in alice.dms()] == ["your hand: AS KH"]
    assert all("AS KH" not in m.text for m in bob.seen())
    fake.close_dms(bob)
    reply = await bob.slash("probe dm", text="your hand: QD")
    assert reply.ephemeral and reply.text == "I cannot DM you; use /hand instead."
    assert bob.dms() == []
    refused = [c for c in fake.calls("POST /channels/{channel_id}/messages") if c.status == 403]
    assert len(refused) == 1 and refused[0].body["content"] == "your hand: QD"
    assert (await bob.slash("probe say", text="still here")).text == "still here"


async def test_rate_limit_is_retried_once(harness: Harness) -> None:
    fake = harness.fake
    fake.fail_next("POST /channels/{channel_id}/messages", 429, retry_after=0.05)
    await harness.user("alice").slash("probe post", text="after a 429")
    statuses = [c.status for c in fake.calls("POST /channels/{channel_id}/messages")]
    assert statuses == [429, 200]
    assert [m.text for m in fake.channel_messages("games")] == ["final: after a 429"]


async def test_server_error_is_retried(harness: Harness) -> None:
    fake = harness.fake
    fake.fail_next("PATCH /channels/{channel_id}/messages/{message_id}", 500)
    await harness.user("alice").slash("probe post", text="after a 500")
    assert [c.status for c in fake.calls("PATCH /channels/{channel_id}/messages/{message_id}")] == [500, 200]
    assert fake.channel_messages("games")[-1].history == ["draft: after a 500", "final: after a 500"]


async def test_persistent_button_works_after_a_restart(harness: Harness) -> None:
    alice = harness.user("alice")
    first_bot = harness.bot
    reply = await alice.slash("probe persistent", word="hello")
    assert reply.message is not None
    await harness.restart_bot()
    assert harness.bot is not first_bot and harness.bots_started == 2
    assert first_bot is not None and first_bot.is_closed()
    echoed = await harness.user("bob").click(reply.message, "Echo hello")
    assert echoed.text == "echo hello" and echoed.ephemeral


async def test_unknown_routes_are_reported(harness: Harness) -> None:
    assert harness.bot is not None
    with pytest.raises(Exception, match="404"):
        await harness.bot.http.request(Route("GET", "/users/@me/guilds/{guild_id}/member", guild_id=1))
    assert harness.fake.unknown_routes == ["GET /users/@me/guilds/1/member"]
    assert harness.problems() == [
        "the bot called a route the fake does not know: GET /users/@me/guilds/1/member"
    ]
    harness.fake.unknown_routes.clear()


async def test_a_message_discord_would_refuse_is_a_violation(harness: Harness) -> None:
    reply = await harness.user("alice").slash("probe say", text="x" * 2001)
    # Discord answers 400; the bot reports it like any bug, and the fake keeps the breach for teardown.
    assert reply.ephemeral and reply.text.startswith("Something went wrong (error id ")
    assert harness.fake.violations == [
        "/probe say: POST /interactions/{interaction_id}/{token}/callback (Discord's schema): "
        "data/content is 2001 characters (max 2000)"
    ]
    assert len(harness.take_logged_errors()) == 1
    harness.fake.violations.clear()
