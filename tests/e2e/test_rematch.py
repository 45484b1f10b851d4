"""Rematch through the real bot and the fake Discord, Discord's rate limits on: a finished table message
carries Rematch for its people; the rematch starts when each of them has clicked (the computer comes along),
with the seats moved one on; it lapses after ten minutes or when another game opens in the channel, and the
message says so; a stranger's click is refused in his language; clicks survive a restart."""

from __future__ import annotations

import asyncio

import pytest

from bot.sessions import rematch
from tests.e2e.fake_discord import FakeMessage
from tests.e2e.harness import Harness
from tests.e2e.test_game_support import live_game, poll

pytestmark = pytest.mark.bot(rate_limits=True)


def table_message_of(harness: Harness, table_id: int) -> FakeMessage | None:
    """The table's message in the channel, as the presenter's own record names it."""
    row = harness.bot.sessions.presenter.message_id(table_id)
    found = [m for m in harness.fake.channel_messages("games") if m.id == row]
    return found[0] if found else None


async def message_of(harness: Harness, table_id: int) -> FakeMessage:
    return await poll(lambda: table_message_of(harness, table_id), what=f"table {table_id}'s message")


async def malice_game(harness: Harness, host, opponent, **options) -> int:
    """A Malice challenge accepted: its table id once the game runs."""
    fake = harness.fake
    await host.slash("malice challenge", opponent=opponent, **options)
    channel = fake.channel("games").id
    table = await poll(lambda: harness.bot.sessions.tables.in_channel(channel), what="the challenge")
    if opponent is not fake.bot_user:
        await opponent.click(await message_of(harness, table.id), "Accept")
    await poll(lambda: live_game(harness) is not None, what="the game to start")
    return table.id


async def finished(harness: Harness, table_id: int) -> FakeMessage:
    """Wait for the table to be finished and its message to offer the rematch."""
    fake = harness.fake
    tables = harness.bot.sessions.tables
    await poll(lambda: tables.in_channel(fake.channel("games").id) is None, what="the game's end")
    message = await message_of(harness, table_id)
    await fake.wait_for(lambda: "Rematch" in message.button_labels, what="the Rematch button")
    return message


async def players_of(harness: Harness, table_id: int) -> list[str]:
    return (await harness.store.get_table(table_id)).players


async def newest_table(harness: Harness) -> int:
    return (await harness.store.last_table(harness.fake.channel("games").id)).id


@pytest.mark.both_backends
async def test_two_people_finish_and_rematch_with_one_click_each(harness: Harness) -> None:
    fake = harness.fake
    alice, bob = harness.user("alice"), harness.user("bob")
    first = await malice_game(harness, alice, bob, stake=2)
    assert await players_of(harness, first) == [str(alice.id), str(bob.id)]
    await alice.slash("resign")
    message = await finished(harness, first)
    assert "Play again?" in message.text
    assert [a["filename"] for a in message.attachments] == ["malice-result.png"], "the result card"
    assert "Ratings:" in message.text
    guild = fake.channel("games").guild_id
    for user in (alice, bob):
        assert len(await harness.store.rating_history(guild, str(user.id), "malice")) == 1, "rated once"

    # The click updates the table message (its own response, or the presenter's edit): who is still to click.
    await alice.click(message, "Rematch")
    await fake.wait_for(lambda: "clicked; still to click" in message.text, what="who has clicked")
    assert f"<@{alice.id}> clicked; still to click: <@{bob.id}>" in message.text
    await alice.click(message, "Rematch")  # a second click counts once
    assert await newest_table(harness) == first, "one click of two starts nothing"

    await bob.click(message, "Rematch")
    second = await poll(lambda: (t := live_game(harness)) is not None and t, what="the rematch")
    second_id = await newest_table(harness)
    assert second_id != first
    assert await players_of(harness, second_id) == [str(bob.id), str(alice.id)], "the seats moved one on"
    row = await harness.store.get_table(second_id)
    assert row.options["stake"] == 2, "the same options"
    await fake.wait_for(lambda: f"rematch started: table #{second_id}" in message.text, what="started line")
    assert "Rematch" not in message.button_labels
    assert second.current_player is not None

    await bob.slash("resign")
    message2 = await finished(harness, second_id)
    assert "Play again?" in message2.text
    results = {r.player: r.won for r in await harness.store.results(second_id)}
    assert results == {str(alice.id): True, str(bob.id): False}
    assert [a["filename"] for a in message2.attachments] == ["malice-result.png"]
    for user in (alice, bob):
        history = await harness.store.rating_history(guild, str(user.id), "malice")
        assert [p.table_id for p in history] == [first, second_id], "each game rated once: twice in all"
    for table in (first, second_id):
        assert len(await harness.store.rating_changes(table)) == 2
    # /stats carries the season's chart of her chips and rating beside its figures.
    stats = await alice.slash("stats")
    (callback,) = [r for r in fake.requests if r.path.startswith(f"/interactions/{stats.interaction.id}/")]
    assert [a["filename"] for a in callback.body["__attachments__"]] == ["stats-chart.png"]
    assert stats.embeds[0]["image"]["url"] == "attachment://stats-chart.png" and "Net chips" in stats.text


async def test_a_stranger_is_refused_in_his_language_and_the_computer_comes_along(harness: Harness) -> None:
    fake = harness.fake
    alice, carol = harness.user("alice"), harness.user("carol")
    first = await malice_game(harness, alice, fake.bot_user)
    await alice.slash("resign")
    message = await finished(harness, first)
    assert await harness.store.rating_changes(first) == [], "Malice against the computer is not rated"
    carol.user.locale = "de"
    refused = await carol.click(message, "Rematch")
    assert refused.ephemeral and "Nur wer dieses Spiel mitgespielt hat" in refused.text
    # Alice alone is every person of the game: her click starts it, the computer seat moved to the first.
    await alice.click(message, "Rematch")
    second = await newest_table(harness)
    assert second != first
    await fake.wait_for(lambda: f"rematch started: table #{second}" in message.text, what="the started line")
    await poll(lambda: live_game(harness) is not None, what="the rematch against the computer")
    assert await players_of(harness, second) == ["ai:1", str(alice.id)]


async def test_the_rematch_lapses_after_ten_minutes(harness: Harness) -> None:
    fake = harness.fake
    alice, bob = harness.user("alice"), harness.user("bob")
    first = await malice_game(harness, alice, bob)
    await alice.slash("resign")
    message = await finished(harness, first)
    await alice.click(message, "Rematch")
    sessions = harness.bot.sessions
    moved = sessions.rematches.clock
    sessions.rematches.clock = lambda: moved() + rematch.LAPSE_AFTER + 1  # the bot's clock, ten minutes on
    await fake.wait_for(lambda: "not everyone clicked within 10 minutes" in message.text, what="the lapse")
    assert "Rematch" not in message.button_labels
    late = await bob.forged_click(f"cardtable:{first}:rematch", message=message)
    assert late.ephemeral and "no longer active" in late.text
    assert await newest_table(harness) == first


async def test_a_click_after_ten_minutes_is_refused_before_the_message_said_so(
    harness: Harness, monkeypatch
) -> None:
    monkeypatch.setattr(rematch, "WATCH_EVERY", 3600.0)  # the watch does not come first: the click does
    fake = harness.fake
    alice, bob = harness.user("alice"), harness.user("bob")
    first = await malice_game(harness, alice, bob)
    await alice.slash("resign")
    message = await finished(harness, first)
    await alice.click(message, "Rematch")
    moved = harness.bot.sessions.rematches.clock
    harness.bot.sessions.rematches.clock = lambda: moved() + rematch.LAPSE_AFTER + 1
    bob.user.locale = "de"
    late = await bob.click(message, "Rematch")
    assert late.ephemeral and "Diese Revanche ist verfallen" in late.text
    await fake.wait_for(lambda: "not everyone clicked within 10 minutes" in message.text, what="the lapse")
    assert await newest_table(harness) == first


async def test_the_rematch_lapses_when_another_game_opens_in_the_channel(harness: Harness) -> None:
    fake = harness.fake
    alice, bob, carol = harness.user("alice"), harness.user("bob"), harness.user("carol")
    first = await malice_game(harness, alice, bob)
    await bob.slash("resign")
    message = await finished(harness, first)
    await carol.slash("insomnia new")
    await fake.wait_for(lambda: "another game opened in this channel" in message.text, what="the lapse")
    assert "Rematch" not in message.button_labels


async def test_clicks_survive_a_restart_and_the_button_still_parses(harness: Harness) -> None:
    fake = harness.fake
    alice, bob = harness.user("alice"), harness.user("bob")
    first = await malice_game(harness, alice, bob, turns=3)
    await alice.slash("resign")
    message = await finished(harness, first)
    await bob.click(message, "Rematch")
    await fake.wait_for(lambda: f"<@{bob.id}> clicked" in message.text, what="Bob's click shown")
    await harness.restart_bot()
    await alice.click(message, "Rematch")
    await poll(lambda: live_game(harness) is not None, what="the rematch after the restart")
    second = await newest_table(harness)
    assert await players_of(harness, second) == [str(bob.id), str(alice.id)]
    assert (await harness.store.get_table(second)).options["turns"] == 3
    await fake.wait_for(lambda: f"table #{second}" in message.text, what="the started line")


async def test_insomnia_seats_rotate_with_each_rematch(harness: Harness) -> None:
    fake = harness.fake
    alice, bob, carol = harness.user("alice"), harness.user("bob"), harness.user("carol")
    await alice.slash("insomnia new", chips=3, deals=1)
    channel = fake.channel("games").id
    table = await poll(lambda: harness.bot.sessions.tables.in_channel(channel), what="the lobby")
    lobby = await message_of(harness, table.id)
    await bob.click(lobby, "Join")
    await carol.click(lobby, "Join")
    await alice.click(lobby, "Add computer")
    await alice.click(lobby, "Start")
    seats = [str(alice.id), str(bob.id), str(carol.id), "ai:1"]
    people = {str(u.id): u for u in (alice, bob, carol)}
    table_id = table.id
    for _ in range(2):
        assert await players_of(harness, table_id) == seats
        await poll(lambda: live_game(harness) is not None, what="the game")
        await people[next(p for p in seats if p in people)].slash("cancel")
        message = await finished(harness, table_id)
        for user in people.values():
            await user.click(message, "Rematch")
        await poll(lambda: harness.bot.sessions.tables.in_channel(channel) is not None, what="the rematch")
        table_id = await newest_table(harness)
        seats = seats[1:] + seats[:1]
    assert await players_of(harness, table_id) == seats


async def test_a_rematch_whose_time_ran_out_while_the_bot_was_away_lapses_when_it_is_back(
    harness: Harness, monkeypatch
) -> None:
    fake = harness.fake
    alice, bob = harness.user("alice"), harness.user("bob")
    first = await malice_game(harness, alice, bob)
    await alice.slash("resign")
    message = await finished(harness, first)
    await harness.stop_bot()
    monkeypatch.setattr(rematch, "LAPSE_AFTER", 0.2)  # its ten minutes pass while the bot is away
    await asyncio.sleep(0.3)
    await harness.start_bot()
    await fake.wait_for(lambda: "Rematch" not in message.button_labels, what="the lapse after the restart")
    assert "The rematch lapsed" in message.text
    assert await newest_table(harness) == first
