"""Malice through the real bot and the fake Discord: a whole game between two people played only with slash
commands and buttons (a turn cap keeps it short), a restart in the middle, closed DMs, refusals, the
leaderboard afterwards; and a game against the computer where a timeout plays the default."""

from __future__ import annotations

import pytest

from tests.e2e.harness import Harness
from tests.e2e.test_game_support import (
    PublicScanner,
    hidden_cards,
    ledger_net,
    live_game,
    my_turn,
    own_cards,
    table_message,
)


async def test_a_malice_game_between_two_people_to_the_leaderboard(harness: Harness, monkeypatch) -> None:
    monkeypatch.setattr("bot.sessions.manager.new_seed", lambda: "e2e-malice-seed-1")
    fake = harness.fake
    alice, bob, carol = harness.user("alice"), harness.user("bob"), harness.user("carol")
    fake.close_dms(alice)
    scanner = PublicScanner(fake)

    await alice.slash("malice challenge", opponent=bob, stake=2, turns=8)
    challenge = table_message(fake, "challenges")
    assert bob.id in challenge.pinged
    wrong = await alice.click(challenge, "Accept")
    assert wrong.ephemeral and "Only the challenged player" in wrong.text
    await bob.click(challenge, "Accept")
    await fake.wait_for_message(channel="games", contains="Malice · table")
    told = await fake.wait_for_message(channel="games", contains="use /hand")
    assert f"<@{alice.id}>" in told.content and bob.dms() and not alice.dms()

    people = [alice, bob]
    plays_this_turn = 0
    refusals = restarted = False
    for moves in range(600):
        game = live_game(harness)
        if game is None:
            break
        scanner.scan(hidden_cards(game))
        turn = [(u, r) for u in people if (r := await my_turn(u)) is not None]
        assert len(turn) == 1, "exactly one person has the turn"
        user, hand = turn[0]
        other = bob if user is alice else alice
        if not refusals:
            refusals = True
            assert (await carol.slash("malice end")).text == "You are not playing at this table."
            assert (await other.slash("malice end")).text.startswith("It is not your turn")
            assert await other.autocomplete("malice play", "card", "") == []
            bad = await user.slash("malice play", card="payoff", to="side1")
            assert bad.ephemeral and "payoff card can only go to the centre" in bad.text

        cards = await user.autocomplete("malice play", "card", "")
        scanner.scan_choices(cards, own_cards(game, user), hidden_cards(game))
        move = None
        for card in cards:
            targets = await user.autocomplete("malice play", "to", "", card=card.value)
            centre = [t for t in targets if t.value.startswith("centre")]
            side = [t for t in targets if t.value.startswith("side")]
            if centre and plays_this_turn < 4:
                move = (card.value, centre[0].value)
                break
            if side and move is None:
                move = (card.value, side[0].value)
        if move is not None and (move[1].startswith("centre") or plays_this_turn >= 1 or moves % 2 == 0):
            reply = await user.slash("malice play", card=move[0], to=move[1])
            assert reply.ephemeral
            plays_this_turn = 0 if move[1].startswith("side") else plays_this_turn + 1
        elif "End turn" in hand.message.button_labels:
            await user.click(hand.message, "End turn")
            plays_this_turn = 0
        else:
            await user.slash("malice end")
            plays_this_turn = 0
        if not restarted and moves == 5:
            restarted = True
            await harness.restart_bot()
            assert any("resumed" in h for h in table_message(fake, "Malice · table").history)
    else:
        raise AssertionError("the game did not finish")

    assert restarted and harness.bots_started == 2
    scanner.scan(set())
    over = await fake.wait_for_message(channel="games", contains="Game over")
    assert "Seed" in over.text
    row = await harness.store.last_table(fake.channel("games").id)
    net = ledger_net(await harness.store.ledger(row.id))
    results = {r.player: r.net for r in await harness.store.results(row.id)}
    assert {p: net.get(p, 0) for p in results} == results
    board = await carol.slash("leaderboard", game="malice")
    stats = await bob.slash("stats")
    assert f"Net chips: **{net.get(str(bob.id), 0):+d}**" in stats.text
    if net.get(str(alice.id)):
        assert f"<@{alice.id}>: **{net[str(alice.id)]:+d}** chips" in board.text
    history = await alice.slash("history", game="malice")
    assert "plays" in history.text and "(finished)" in history.text


@pytest.mark.bot(turn_timeout_seconds=0.3)
async def test_against_the_computer_a_timeout_plays_the_default(harness: Harness, monkeypatch) -> None:
    monkeypatch.setattr("bot.sessions.manager.new_seed", lambda: "e2e-malice-seed-2")
    fake = harness.fake
    alice, erin = harness.user("alice"), harness.user("erin")
    mark = fake.mark()
    reply = await alice.slash("malice challenge", opponent=fake.bot_user)
    assert "computer" in reply.text
    timed_out = await fake.wait_for_message(channel="games", contains="ran out of time", since=mark)
    assert f"<@{alice.id}>" in timed_out.text
    row = await harness.store.last_table(fake.channel("games").id)
    actors = [a.actor for a in await harness.store.actions(row.id)]
    assert "timeout" in actors
    if live_game(harness) is not None:
        # Erin manages the server: she may end someone else's game; it is scored as a stalemate.
        ended = await erin.slash("cancel")
        assert ended.ephemeral
    await fake.wait_for_message(channel="games", contains="Game over")
    assert (await harness.store.get_table(row.id)).status == "finished"
