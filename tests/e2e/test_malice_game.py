"""Malice through the real bot and the fake Discord: a whole game between two people played only with slash
commands and buttons to its end by the rules (no turn cap), a restart in the middle, closed DMs, refusals, one
turn message at a time, the leaderboard afterwards; and a game against the computer where a timeout plays the
default."""

from __future__ import annotations

import json

import pytest

from bot.games.ai import choose_action
from tests.e2e.harness import Harness
from tests.e2e.test_game_support import (
    DELETE_ROUTE,
    PublicScanner,
    channel_traffic,
    check_turn_messages,
    hidden_cards,
    ledger_net,
    live_game,
    log_messages,
    log_titles,
    own_cards,
    table_message,
)

# Found offline with the engine and the computer player: with both seats playing the computer player's
# choices, this deal ends with a payoff pile emptied after 218 moves (62 turns).
SEED = "e2e-malice-261"
RULES_ENDINGS = {"payoff_emptied": "played the last payoff card", "stalemate": "stalemate"}


def source_value(action) -> str:
    """What `/malice play card:` takes for this move: the hand card (like 7H), payoff, or side1-side4."""
    return str(action.card) if action.source == "hand" else action.source


async def test_a_malice_game_between_two_people_to_its_end_by_the_rules(
    harness: Harness, monkeypatch
) -> None:
    monkeypatch.setattr("bot.sessions.service.new_seed", lambda: SEED)
    fake = harness.fake
    alice, bob, carol = harness.user("alice"), harness.user("bob"), harness.user("carol")
    fake.close_dms(alice)
    scanner = PublicScanner(fake)

    await alice.slash("malice challenge", opponent=bob, stake=2)
    challenge = table_message(fake, "challenges")
    assert bob.id in challenge.pinged
    wrong = await alice.click(challenge, "Accept")
    assert wrong.ephemeral and "Only the challenged player" in wrong.text
    await bob.click(challenge, "Accept")
    await fake.wait_for_message(channel="games", contains="Malice · table")
    told = await fake.wait_for_message(channel="games", contains="use /hand")
    assert f"<@{alice.id}>" in told.content and bob.dms() and not alice.dms()

    people = {str(alice.id): alice, str(bob.id): bob}
    chosen: list[dict] = []  # every move as the computer player chose it, in order
    mover = None
    refusals = False
    for moves in range(1000):
        game = live_game(harness)
        if game is None:
            break
        scanner.scan(hidden_cards(game))
        player = game.current_player
        user = people[player]
        other = bob if user is alice else alice
        if player != mover:  # the turn passed: /hand tells each of them whose it is
            mover = player
            assert "It is your turn" in (await user.slash("hand")).text
            assert "It is your turn" not in (await other.slash("hand")).text
        if not refusals:
            refusals = True
            assert (await carol.slash("malice end")).text == "You are not playing at this table."
            assert (await other.slash("malice end")).text.startswith("It is not your turn")
            assert await other.autocomplete("malice play", "card", "") == []
            bad = await user.slash("malice play", card="payoff", to="side1")
            assert bad.ephemeral and "payoff card can only go to the centre" in bad.text

        # The person plays what the computer player would, offered by autocomplete, typed as a command.
        action = choose_action(game, player, f"{SEED}/{moves}")
        plays = [a for a in game.legal_actions() if a.kind == "play"]
        cards = await user.autocomplete("malice play", "card", "")
        scanner.scan_choices(cards, own_cards(game, user), hidden_cards(game))
        assert sorted(c.value for c in cards) == sorted({source_value(a) for a in plays})
        chosen.append(action.model_dump(mode="json"))
        seq = harness.bot.sessions.table_in(fake.channel("games").id).seq
        if action.kind == "play":
            card = source_value(action)
            targets = await user.autocomplete("malice play", "to", "", card=card)
            assert sorted(t.value for t in targets) == sorted(
                {a.to for a in plays if source_value(a) == card}
            )
            reply = await user.slash("malice play", card=card, to=action.to)
            assert reply.ephemeral
        else:  # the button of a fresh /hand (it carries the sequence number it was drawn for)
            hand = await user.slash("hand")
            reply = await user.click(hand.message, "End turn")
        table = harness.bot.sessions.table_in(fake.channel("games").id)
        assert table is None or table.seq == seq + 1, reply.text
        if moves == 100:
            await harness.restart_bot()
            assert any("resumed" in h for h in table_message(fake, "Malice · table").history)
    else:
        raise AssertionError("the game did not finish")

    assert harness.bots_started == 2 and refusals
    scanner.scan(set())
    over = await fake.wait_for_message(channel="games", contains="Game over")
    assert "Seed" in over.text
    row = await harness.store.last_table(fake.channel("games").id)
    stored = [(a.actor, json.loads(a.action)) for a in await harness.store.actions(row.id)]
    assert [action for _, action in stored] == chosen, "every move was applied once, as chosen"
    assert {actor for actor, _ in stored} == set(people), "no timeout, no computer: only the two people"
    final = json.loads(row.snapshot)
    result = final["result"]
    assert result["reason"] in RULES_ENDINGS and RULES_ENDINGS[result["reason"]] in over.text
    assert len(chosen) < 400, "the computer player's choices end the game in a reasonable number of moves"

    # One turn message at a time, each deleted when the turn passed; none left after the game.
    turns = check_turn_messages(fake, [alice, bob])
    # A new message per turn (each pings its player), one more after the restart; all deleted by the end.
    assert final["turn"] <= len(turns) <= final["turn"] + 1 and all(m.deleted for m in turns)
    assert any(len(m.versions) > 1 for m in turns), "the same player's turn message is edited in place"
    assert not [m for m in fake.channel_messages("games") if m.text.startswith("➡️")]

    # The public log: one message per turn, edited in place as the moves happen (also across the restart: each
    # turn's title appears once), then the result. Each turn's message holds exactly that turn's moves.
    log = log_messages(fake)
    titles = log_titles(log)
    continued = [t for t in titles if t.endswith("(continued)")]
    turn_titles = [t for t in titles if t not in continued]
    assert [t.split("**")[1] for t in turn_titles] == [f"Turn {n}" for n in range(1, final["turn"] + 1)]
    assert len(log) == final["turn"] + len(continued) + 1 and log[-1].text.startswith("🏁 **Game over**")
    plays_per_turn = [0]
    for action in chosen:
        plays_per_turn[-1] += action["kind"] == "play"
        if action["kind"] == "end_turn" or action["to"].startswith("side"):
            plays_per_turn.append(0)
    logged = []
    for message in log[:-1]:
        lines = message.text.splitlines()
        title = next(line for line in lines if line.startswith("**Turn "))
        mover = title.split(" · ")[1].removesuffix(" (continued)")
        plays = [line for line in lines if " plays " in line]
        assert all(line.startswith(f"{mover} plays ") for line in plays), "a turn's message holds its moves"
        if title in continued:
            logged[-1] += len(plays)
        else:
            logged.append(len(plays))
    assert logged == plays_per_turn[: len(logged)] and sum(logged) == sum(plays_per_turn)
    assert max(logged) >= 5 and any(len(m.versions) > 5 for m in log), "moves are lines of one edited message"
    # Every message the bot posted in the channel: the table, the log messages, the note to Alice (closed
    # DMs) and one turn message per turn (one more after the restart); nothing per move.
    traffic = channel_traffic(fake)
    print(f"Discord traffic, Malice game ({final['turn']} turns, {len(chosen)} moves): {traffic}")
    assert traffic["posts"] == 1 + len(log) + 1 + len(turns)
    net = ledger_net(await harness.store.ledger(row.id))
    results = {r.player: r.net for r in await harness.store.results(row.id)}
    assert {p: net.get(p, 0) for p in results} == results and set(results) == set(people)
    board = await carol.slash("leaderboard", game="malice")
    for user in (alice, bob):
        assert f"<@{user.id}>: **{net.get(str(user.id), 0):+d}** chips" in board.text
        stats = await user.slash("stats")
        assert f"Net chips: **{net.get(str(user.id), 0):+d}**" in stats.text
    history = await alice.slash("history", game="malice")
    assert "plays" in history.text and "(finished)" in history.text


@pytest.mark.bot(turn_timeout_seconds=0.3)
async def test_against_the_computer_a_timeout_plays_the_default(harness: Harness, monkeypatch) -> None:
    monkeypatch.setattr("bot.sessions.service.new_seed", lambda: "e2e-malice-seed-2")
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


async def test_a_turn_message_deleted_by_hand_is_replaced_and_never_missed(
    harness: Harness, monkeypatch
) -> None:
    monkeypatch.setattr("bot.sessions.service.new_seed", lambda: SEED)
    fake = harness.fake
    alice, bob = harness.user("alice"), harness.user("bob")
    await alice.slash("malice challenge", opponent=bob)
    await bob.click(table_message(fake, "challenges"), "Accept")
    people = {str(alice.id): alice, str(bob.id): bob}

    def live_turn() -> list:
        return [m for m in fake.channel_messages("games") if m.text.startswith("➡️")]

    by_hand = []
    # A moderator removes the turn message twice: before a centre play (the turn stays, so the edit finds no
    # message and a new one is posted) and before the end of the turn (the old id is already gone).
    for passes in (False, True):
        (first,) = await fake.wait_for(live_turn, what="a turn message")
        first.deleted = True
        by_hand.append((fake.mark(), first.id))
        game = live_game(harness)
        player = game.current_player
        legal = game.legal_actions()
        if passes:
            assert any(a.kind == "end_turn" for a in legal)
            await people[player].slash("malice end")
        else:
            action = next(a for a in legal if a.kind == "play" and a.to.startswith("centre"))
            await people[player].slash("malice play", card=source_value(action), to=action.to)
        assert (live_game(harness).current_player != player) is passes
        (now,) = live_turn()
        assert now.id != first.id and f"<@{live_game(harness).current_player}>, your turn" in now.text
    assert len(check_turn_messages(fake, [alice, bob], by_hand=tuple(by_hand))) == 3
    # Deleting the already-removed message got Discord's 404, which the bot takes as done (no error logged).
    assert [c.status for c in fake.calls(DELETE_ROUTE)] == [404]
