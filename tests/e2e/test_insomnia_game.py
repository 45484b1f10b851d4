"""A whole Insomnia game through the real bot and the fake Discord: three seats (one computer), played only
with slash commands and buttons, with a restart in the middle, a player whose DMs are closed, the refusals,
a double click, and every public message and autocomplete answer scanned for hidden cards."""

from __future__ import annotations

import asyncio

import pytest

from bot.i18n import signed
from tests.e2e.harness import Harness
from tests.e2e.test_game_support import (
    PublicScanner,
    announced_log,
    channel_traffic,
    hidden_cards,
    ledger_net,
    live_game,
    my_turn,
    own_cards,
    poll,
    table_message,
)

# The whole game runs on both storage backends: what players see must not depend on the database.
pytestmark = pytest.mark.both_backends


async def test_a_three_seat_insomnia_game_from_lobby_to_leaderboard(harness: Harness, monkeypatch) -> None:
    monkeypatch.setattr("bot.sessions.lobbies.new_seed", lambda: "e2e-insomnia-seed-7")
    fake = harness.fake
    alice, bob, carol = harness.user("alice"), harness.user("bob"), harness.user("carol")
    fake.close_dms(bob)
    scanner = PublicScanner(fake, harness)

    reply = await alice.slash("insomnia new", chips=5, deals=1)
    assert reply.ephemeral and "open" in reply.text
    lobby = table_message(fake, "Insomnia · table")
    await bob.click(lobby, "Join")
    refused = await bob.click(lobby, "Start")
    assert "Only the host" in refused.text and refused.ephemeral
    await alice.click(lobby, "Add computer")
    await alice.click(lobby, "Start")
    assert "Computer 1" in lobby.text and "deal" in lobby.text

    # Bob's DMs are closed: he is told on the table message to use /hand; Alice gets her hand by DM.
    told = await fake.wait_for_message(channel="games", contains="use /hand")
    assert f"<@{bob.id}>" in told.text and told.id == lobby.id
    assert alice.dms() and not bob.dms()

    people = {alice.id: alice, bob.id: bob}
    checked_refusals = double_clicked = restarted = False
    exchanges = rethrows = 0
    for _step in range(400):
        game = live_game(harness)
        if game is None:
            break
        scanner.scan(hidden_cards(game))
        mark = fake.mark()
        turn = None
        for user in people.values():
            reply = await my_turn(user)
            if reply is not None:
                turn = (user, reply)
        if turn is None:  # the computer is moving: wait for its announcement
            if live_game(harness) is not None:
                await fake.wait_for_message(channel="games", since=mark)
            continue
        if double_clicked and not restarted:
            # Mid-game (someone has a decision): a new bot process on the same database takes over.
            restarted = True
            await harness.restart_bot()
            await fake.wait_for(
                lambda: any("resumed" in h for h in table_message(fake, "Insomnia · table").history),
                what="the table message saying the game resumed",
            )
            continue
        user, hand = turn
        other = bob if user is alice else alice
        game = live_game(harness)
        phase = game.public_view().phase

        if not checked_refusals and phase == "exchange":
            checked_refusals = True
            outsider = await carol.slash("insomnia pass")
            assert outsider.ephemeral and outsider.text == "You are not playing at this table."
            early = await other.slash("insomnia pass")
            assert early.ephemeral and early.text.startswith("It is not your turn")
            illegal = await user.slash("insomnia exchange", card="7C")
            assert illegal.ephemeral and "7" in illegal.text and "hold" in illegal.text
            assert await other.autocomplete("insomnia exchange", "card", "") == []

        if not double_clicked and phase == "auction":
            double_clicked = True

            # The table message shows the auction a moment after it began (the presenter's pace). The exchange
            # before it has a Pass button too: wait for the one of the position now (its id carries the seq).
            def with_pass():
                message = table_message(fake, "Insomnia · table")
                now = harness.bot.sessions.tables.in_channel(fake.channel("games").id)
                ids = [c.custom_id or "" for c in message.buttons if c.label and "Pass" in c.label]
                return message if now is not None and any(i.endswith(f":{now.seq}") for i in ids) else None

            table = await fake.wait_for(with_pass, what="the auction's Pass button on the table message")
            seq_before = len(await harness.store.actions(await table_id(harness)))
            first, second = await asyncio.gather(user.click(table, "Pass"), user.click(table, "Pass"))
            texts = [first.text, second.text]
            assert sum("stale" in t for t in texts) == 1, texts
            after = (await harness.store.actions(await table_id(harness)))[seq_before:]
            assert [a.actor for a in after].count(str(user.id)) == 1, "the double click was applied once"
            continue

        if phase == "exchange" and exchanges < 2:
            exchanges += 1
            choices = await user.autocomplete("insomnia exchange", "card", "")
            scanner.scan_choices(choices, own_cards(game, user), hidden_cards(game))
            assert {c.value.split("@")[0] for c in choices} == {str(c) for c in game.view(str(user.id)).hand}
            await user.slash("insomnia exchange", card=choices[0].value)
        elif phase == "auction":
            choices = await user.autocomplete("insomnia bid", "amount", "")
            if choices and choices[0].value.startswith("1@"):
                await user.slash("insomnia bid", amount=choices[0].value)
            else:
                await user.slash("insomnia pass")
        elif phase == "rethrow" and rethrows < 1:
            rethrows += 1
            await user.click(hand.message, hand.message.buttons[0].label or "")
        elif phase == "tricks":
            choices = await user.autocomplete("insomnia play", "card", "")
            scanner.scan_choices(choices, own_cards(game, user), hidden_cards(game))
            await user.slash("insomnia play", card=choices[0].value)
        else:
            # The hand's own buttons: the last is always the "decline" one (no exchange / stop re-throwing).
            await user.click(hand.message, hand.message.buttons[-1].label or "")

    else:
        raise AssertionError("the game did not finish")

    assert checked_refusals and double_clicked and restarted and harness.bots_started == 2
    scanner.scan(set())
    final = await fake.wait_for_message(channel="games", contains="Game over")
    assert "Seed" in final.text or any("Seed" in m.text for m in fake.channel_messages("games"))

    # The channel keeps one message of the game, its table message, which showed every announcement once:
    # each part of the deal under its title, the four tricks, the result and the seed.
    table = table_message(fake, "Insomnia · table")
    assert table.id == lobby.id and [m.id for m in fake.channel_messages("games")] == [table.id]
    log = announced_log(table)
    titles = [line for line in log if line.startswith("**Deal ")]
    assert titles == [
        "**Deal 1 · exchanges (stage 1)**",
        "**Deal 1 · auction (stage 1)**",
        "**Deal 1 · re-throws and payouts (stages 1 and 2)**",
        "**Deal 1 · tricks (stage 3)**",
        "**Deal 1 · second dice round (stage 4)**",
    ]
    for needed in (
        "Seed commitment",
        "throws the dice",
        "exchanges a card",
        "bids",
        "wins the auction",
        "Best hand",
        "Trick 4",
        "the pot",
        "After deal 1",
        "Stage 4 payout",
        "🏁 **Game over**",
        "Seed: `e2e-insomnia-seed-7`",
    ):
        assert sum(needed in line for line in log) >= 1, needed
    assert sum(line.startswith("Trick ") for line in log) == 4
    assert sum(line.startswith("🏁 **Game over**") for line in log) == 1
    row = await harness.store.last_table(fake.channel("games").id)
    moves = len(await harness.store.actions(row.id))
    traffic = channel_traffic(fake)
    print(f"Discord traffic, 3-seat Insomnia game ({moves} moves): {traffic}")
    assert sum(traffic.values()) <= moves, traffic
    tid = await table_id(harness)
    net = ledger_net(await harness.store.ledger(tid))
    board = await alice.slash("leaderboard")
    for user in (alice, bob):
        assert f"<@{user.id}>: **{signed('en', net.get(str(user.id), 0))}** chips" in board.text
        stats = await user.slash("stats")
        assert f"Net chips: **{signed('en', net.get(str(user.id), 0))}**" in stats.text
    assert "ai:" not in board.text
    history = await carol.slash("history")
    assert history.ephemeral and "Insomnia table" in history.text and "(finished)" in history.text
    assert scanner.versions_checked >= 3 and len(scanner.lines_checked) > 20


async def table_id(harness: Harness) -> int:
    """The last table of the games channel, from storage."""
    row = await harness.store.last_table(harness.fake.channel("games").id)
    assert row is not None
    return row.id


@pytest.mark.bot(turn_timeout_seconds=0.6)
async def test_three_timeouts_in_a_row_give_the_seat_to_a_computer_and_the_result_still_counts(
    harness: Harness, monkeypatch
) -> None:
    monkeypatch.setattr("bot.sessions.lobbies.new_seed", lambda: "e2e-insomnia-seed-2")
    fake = harness.fake
    alice, bob = harness.user("alice"), harness.user("bob")
    await alice.slash("insomnia new", chips=5, deals=1)
    lobby = table_message(fake, "Insomnia · table")
    await bob.click(lobby, "Join")
    await alice.click(lobby, "Start")

    # Alice never acts; Bob answers each of his decisions at once, through slash commands.
    def state() -> str | None:
        game = live_game(harness)
        # The engine's state changes before the action is stored and announced: "over" here only ends the
        # loop; what was stored and posted is awaited below, from what the channel shows.
        if game is None or game.is_over:
            return "over"
        return "bob" if game.current_player == str(bob.id) else None

    def taken_over() -> bool:
        table = harness.bot.sessions.tables.in_channel(fake.channel("games").id)
        return table is not None and str(alice.id) in table.session.computer_seats

    bob_moves = 0
    refused = None
    while await poll(state, what="Bob's turn or the end of the game") == "bob":
        game = live_game(harness)
        if refused is None and taken_over():
            refused = await alice.slash("insomnia pass")
        if game.public_view().phase == "tricks":
            choices = await bob.autocomplete("insomnia play", "card", "")
            if not choices:  # Bob's own timer beat him on a slow machine: the default was his move
                continue
            await bob.slash("insomnia play", card=choices[0].value)
        else:
            await bob.slash("insomnia pass")
        bob_moves += 1
    # The last action is often the computer's, still being stored when the engine already says "over": the
    # result is shown only after the store has it.
    await fake.wait_for_message(channel="games", contains="Game over")
    public = announced_log(table_message(fake, "Insomnia · table"))
    timeouts = [i for i, t in enumerate(public) if f"<@{alice.id}> ran out of time" in t]
    # (Only Alice's: on a loaded machine Bob's own timer may beat him too.)
    takeover = [
        i for i, t in enumerate(public) if "a computer player takes the seat" in t and f"<@{alice.id}>" in t
    ]
    assert len(timeouts) == 3 and len(takeover) == 1, public
    assert f"<@{alice.id}> timed out three times in a row" in public[takeover[0]]
    assert takeover[0] == timeouts[-1] + 1, "the seat changes hands with the third timeout"
    assert bob_moves >= 3
    assert refused is not None and refused.ephemeral
    assert refused.text == "A computer player has taken over your seat for the rest of this game."

    # The computer played Alice's seat after the third timeout; the seat's chips are still hers.
    tid = await table_id(harness)
    actors = [a.actor for a in await harness.store.actions(tid)]
    # (Bob answers at once; should a slow machine make him time out too, those are his, not Alice's.)
    assert "ai" in actors and str(alice.id) not in actors
    assert actors[: actors.index("ai")].count("timeout") >= 3

    net = ledger_net(await harness.store.ledger(tid))
    results = {r.player: r.net for r in await harness.store.results(tid)}
    assert results == {p: net.get(p, 0) for p in (str(alice.id), str(bob.id))}
    board = await bob.slash("leaderboard", game="insomnia")
    assert f"<@{alice.id}>: **{signed('en', net.get(str(alice.id), 0))}** chips · 1 game" in board.text
    stats = await bob.slash("stats", user=alice)
    assert (
        f"Net chips: **{signed('en', net.get(str(alice.id), 0))}**" in stats.text
        and "Games: **1**" in stats.text
    )


async def test_the_leaderboard_counts_a_running_games_chips_and_says_so(
    harness: Harness, monkeypatch
) -> None:
    monkeypatch.setattr("bot.sessions.lobbies.new_seed", lambda: "e2e-insomnia-seed-3")
    fake = harness.fake
    alice, bob = harness.user("alice"), harness.user("bob")
    await alice.slash("insomnia new", chips=5)
    lobby = table_message(fake, "Insomnia · table")
    await bob.click(lobby, "Join")
    await alice.click(lobby, "Start")
    tid = await table_id(harness)
    people = {str(alice.id): alice, str(bob.id): bob}
    # Play the safe choices until the first payout has moved chips (the game is still running).
    while not (entries := await harness.store.ledger(tid)):
        game = live_game(harness)
        user = people[game.current_player]
        if game.public_view().phase == "tricks":
            choices = await user.autocomplete("insomnia play", "card", "")
            await user.slash("insomnia play", card=choices[0].value)
        else:
            await user.slash("insomnia pass")
    net = ledger_net(entries)
    assert net.get(str(alice.id)) and (await harness.store.get_table(tid)).status == "running"

    board = await bob.slash("leaderboard", game="insomnia", season="all-time")
    assert f"<@{alice.id}>: **{signed('en', net[str(alice.id)])}** chips · 0 games · 0 wins" in board.text
    assert board.embeds[0]["footer"]["text"] == (
        "Page 1 · net chips from the chip ledger, running games included; games and wins count finished games"
    )
