"""A game that exists only in the tests (`tests/games/highcard.py`), registered before the bot starts, played
through the real bot and the fake Discord: its `/highcard` commands are built from its presentation like the
real games', so a challenge, moves by slash command and by button, the ledger, /history, the /leaderboard
choices and a restart work with no production file naming it."""

from __future__ import annotations

import pytest

from bot.render.registry import registered
from tests.e2e.harness import Harness
from tests.e2e.test_game_support import ledger_net, live_game, poll, table_message
from tests.games.highcard import SPEC
from tests.games.highcard_render import PRESENTATION


@pytest.fixture(autouse=True)
def highcard():
    # Autouse fixtures come first: the game is registered when the harness starts the bot and loads its cogs.
    with registered(SPEC, PRESENTATION):
        yield SPEC


async def test_a_registered_test_game_plays_end_to_end(harness: Harness, monkeypatch) -> None:
    monkeypatch.setattr("bot.sessions.lobbies.new_seed", lambda: "e2e-highcard-1")
    fake = harness.fake
    alice, bob = harness.user("alice"), harness.user("bob")

    opened = await alice.slash("highcard challenge", opponent=bob, chips=3, rounds=4)
    assert opened.ephemeral and "challenge sent" in opened.text
    challenge = table_message(fake, "challenges")
    assert bob.id in challenge.pinged
    await bob.click(challenge, "Accept")
    await fake.wait_for_message(channel="games", contains="High card · table")

    people = {str(alice.id): alice, str(bob.id): bob}
    for moves in range(40):
        game = live_game(harness)
        if game is None:
            break
        user = people[game.current_player]
        if moves % 2:
            reply = await user.slash("highcard keep")
        else:  # the button of a fresh /hand
            hand = await user.slash("hand")
            assert "It is your turn" in hand.text
            reply = await user.click(hand.message, "Keep")
        assert reply.ephemeral
        if moves == 3:
            await harness.restart_bot()
            await fake.wait_for(
                lambda: any("resumed" in h for h in table_message(fake, "High card · table").history),
                what="the table message saying the game resumed",
            )
    else:
        raise AssertionError("the game did not finish")

    assert harness.bots_started == 2
    await fake.wait_for_message(channel="games", contains="Game over")
    row = await harness.store.last_table(fake.channel("games").id)
    assert row.kind == "highcard" and row.status == "finished"
    net = ledger_net(await harness.store.ledger(row.id))
    results = {r.player: r.net for r in await harness.store.results(row.id)}
    assert {p: net.get(p, 0) for p in results} == results and set(results) == set(people)
    board = await alice.slash("leaderboard", game="highcard")
    assert "Leaderboard: High card" in board.text
    for user in (alice, bob):
        assert f"<@{user.id}>: **{net.get(str(user.id), 0):+d}** chips" in board.text
    history = await bob.slash("history", game="highcard")
    assert "keeps" in history.text and "(finished)" in history.text


async def test_a_test_game_against_the_computer(harness: Harness, monkeypatch) -> None:
    monkeypatch.setattr("bot.sessions.lobbies.new_seed", lambda: "e2e-highcard-2")
    fake = harness.fake
    alice = harness.user("alice")
    reply = await alice.slash("highcard challenge", opponent=fake.bot_user, rounds=2)
    assert "against the computer" in reply.text
    for _ in range(10):
        await poll(
            lambda: (g := live_game(harness)) is None or g.current_player == str(alice.id),
            what="Alice's turn or the end",
        )
        if live_game(harness) is None:
            break
        assert (await alice.slash("highcard swap")).ephemeral
    await fake.wait_for_message(channel="games", contains="Game over")
    row = await harness.store.last_table(fake.channel("games").id)
    assert {a.actor for a in await harness.store.actions(row.id)} == {str(alice.id), "ai:1"}
