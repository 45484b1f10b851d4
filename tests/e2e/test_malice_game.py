"""Malice through the real bot and the fake Discord: a whole game between two people played only with slash
commands and buttons to its end by the rules (no turn cap), a restart in the middle, closed DMs, refusals,
every move announced once on the one table message, the leaderboard afterwards; and a game against the
computer where a timeout plays the default."""

from __future__ import annotations

import asyncio
import json

import pytest

from bot.games.ai import choose_action
from tests.e2e.harness import Harness
from tests.e2e.test_game_support import (
    PublicScanner,
    announced_log,
    channel_traffic,
    hidden_cards,
    ledger_net,
    live_game,
    own_cards,
    poll,
    table_message,
)

# The whole game runs on both storage backends: what players see must not depend on the database.
pytestmark = pytest.mark.both_backends

# Found offline with the engine and the computer player: with both seats playing the computer player's
# choices, this deal ends with a payoff pile emptied after 218 moves (62 turns).
SEED = "e2e-malice-261"
RULES_ENDINGS = {"payoff_emptied": "played the last payoff card", "stalemate": "stalemate"}


def source_value(action) -> str:
    """What `/malice play card:` takes for this move: the hand card (like 7H), payoff, or side1-side4."""
    return str(action.card) if action.source == "hand" else action.source


@pytest.mark.slow
async def test_a_malice_game_between_two_people_to_its_end_by_the_rules(
    harness: Harness, monkeypatch
) -> None:
    monkeypatch.setattr("bot.sessions.lobbies.new_seed", lambda: SEED)
    fake = harness.fake
    alice, bob, carol = harness.user("alice"), harness.user("bob"), harness.user("carol")
    fake.close_dms(alice)
    scanner = PublicScanner(fake, harness)

    await alice.slash("malice challenge", opponent=bob, stake=2)
    challenge = table_message(fake, "challenges")
    assert bob.id in challenge.pinged
    wrong = await alice.click(challenge, "Accept")
    assert wrong.ephemeral and "Only the challenged player" in wrong.text
    await bob.click(challenge, "Accept")
    await fake.wait_for_message(channel="games", contains="Malice · table")
    told = await fake.wait_for_message(channel="games", contains="use /hand")
    assert f"<@{alice.id}>" in told.text and bob.dms() and not alice.dms()
    assert told.id == challenge.id, "told on the table message, not in a message of its own"

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

        # The person plays what the computer player would, as offered by autocomplete (each value names the
        # move it was offered at: `7H@12`), or typed (every other move: typed values work as well).
        action = choose_action(game, player, f"{SEED}/{moves}")
        plays = [a for a in game.legal_actions() if a.kind == "play"]
        seq = harness.bot.sessions.tables.in_channel(fake.channel("games").id).seq
        cards = await user.autocomplete("malice play", "card", "")
        scanner.scan_choices(cards, own_cards(game, user), hidden_cards(game))
        offered = {c.value.split("@")[0]: c.value for c in cards}
        assert sorted(offered) == sorted({source_value(a) for a in plays})
        assert all(value.endswith(f"@{seq}") for value in offered.values())
        chosen.append(action.model_dump(mode="json"))
        if action.kind == "play":
            card = source_value(action)
            targets = await user.autocomplete("malice play", "to", "", card=offered[card])
            to = {t.value.split("@")[0]: t.value for t in targets}
            assert sorted(to) == sorted({a.to for a in plays if source_value(a) == card})
            if moves % 2:
                reply = await user.slash("malice play", card=card, to=action.to)
            else:
                reply = await user.slash("malice play", card=offered[card], to=to[action.to])
            assert reply.ephemeral
        else:  # the button of a fresh /hand (it carries the sequence number it was drawn for)
            hand = await user.slash("hand")
            reply = await user.click(hand.message, "End turn")
        table = harness.bot.sessions.tables.in_channel(fake.channel("games").id)
        assert table is None or table.seq == seq + 1, reply.text
        if moves % 15 == 14:
            # Now and then the players look at the table (a people's pace would let it catch up every move).
            await harness.bot.sessions.idle()
        if moves == 100:
            await harness.restart_bot()
            await fake.wait_for(
                lambda: any("resumed" in h for h in table_message(fake, "Malice · table").history),
                what="the table message saying the game resumed",
            )
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

    # The channel keeps one message of the game, its table message, and it showed every move exactly once:
    # each play, each turn's title, the result.
    table = table_message(fake, "Malice · table")
    assert table.id == challenge.id and [m.id for m in fake.channel_messages("games")] == [table.id]
    log = announced_log(table)
    plays = [line for line in log if " plays " in line]
    assert len(plays) == sum(a["kind"] == "play" for a in chosen), "every play shown once"
    titles = [line.split("**")[1] for line in log if line.startswith("**Turn ")]
    assert titles == [f"Turn {n}" for n in range(1, final["turn"] + 1)], "every turn shown once, in order"
    assert log[-3].startswith("🏁 **Game over**") and log[-1].startswith("🔑 Seed")
    assert log[-2].startswith("📈 Ratings: "), "a game between two people is rated"
    # Discord's budget: at most one rate-limited call (post, edit, delete, DM) per move on average.
    traffic = channel_traffic(fake)
    calls = sum(traffic.values())
    print(f"Discord traffic, Malice game ({final['turn']} turns, {len(chosen)} moves): {traffic}")
    assert calls <= len(chosen), traffic
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
    monkeypatch.setattr("bot.sessions.lobbies.new_seed", lambda: "e2e-malice-seed-2")
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


async def test_a_table_message_deleted_by_hand_is_posted_again_with_the_newest_state(
    harness: Harness, monkeypatch
) -> None:
    monkeypatch.setattr("bot.sessions.lobbies.new_seed", lambda: SEED)
    fake = harness.fake
    alice, bob = harness.user("alice"), harness.user("bob")
    await alice.slash("malice challenge", opponent=bob)
    first = table_message(fake, "challenges")
    await bob.click(first, "Accept")
    await fake.wait_for(lambda: "Malice · table" in first.text, what="the game on the table message")
    first.deleted = True  # a moderator removes it
    game = live_game(harness)
    player = {str(alice.id): alice, str(bob.id): bob}[game.current_player]
    action = next(a for a in game.legal_actions() if a.kind == "play" or a.kind == "end_turn")
    if action.kind == "play":
        await player.slash("malice play", card=source_value(action), to=action.to)
    else:
        await player.slash("malice end")
    again = await fake.wait_for_message(channel="games", contains="Malice · table")
    assert again.id != first.id and not again.deleted
    assert live_game(harness).public_view().current_player is not None


async def test_a_move_sent_twice_at_once_from_autocomplete_is_stored_once(
    harness: Harness, monkeypatch
) -> None:
    monkeypatch.setattr("bot.sessions.lobbies.new_seed", lambda: SEED)
    fake = harness.fake
    alice = harness.user("alice")
    await alice.slash("malice challenge", opponent=fake.bot_user)
    game = await poll(
        lambda: (g := live_game(harness)) is not None and g.current_player == str(alice.id) and g,
        what="Alice's turn against the computer",
    )
    seq = harness.bot.sessions.tables.in_channel(fake.channel("games").id).seq
    plays = [a for a in game.legal_actions() if a.kind == "play"]
    # A centre play keeps the turn (the copies could still be legal); else a side play, which ends it.
    play = sorted(plays, key=lambda a: not a.to.startswith("centre"))[0]
    card = next(
        c.value
        for c in await alice.autocomplete("malice play", "card", "")
        if c.value.startswith(f"{source_value(play)}@")
    )
    to = next(
        t.value
        for t in await alice.autocomplete("malice play", "to", "", card=card)
        if t.value.startswith(f"{play.to}@")
    )
    replies = await asyncio.gather(*(alice.slash("malice play", card=card, to=to) for _ in range(3)))
    refused = [r.text for r in replies if "moved on" in r.text or "not your turn" in r.text]
    assert len(refused) == 2, [r.text for r in replies]
    row = await harness.store.last_table(fake.channel("games").id)
    mine = [a for a in (await harness.store.actions(row.id))[seq:] if a.actor == str(alice.id)]
    assert len(mine) == 1, "the move was stored once"
