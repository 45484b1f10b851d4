"""Insomnia through the session layer: lobby, a whole game with a computer seat, privacy, resign, history."""

from __future__ import annotations

from bot import render
from tests.refusals import refused
from tests.test_sessions import (  # noqa: F401 - fixed_seeds is an autouse fixture
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    RecordingAnnouncer,
    fixed_seeds,
    manager,
)


def hidden(game) -> set[str]:
    """Cards nobody but their holder may see now: hands (less a hand the rules made public) and discards."""
    view = game.public_view()
    shown = set(view.shown_hand.cards) if view.shown_hand else set()
    cards = {c for p in view.players for c in game.view(p).hand if c not in shown}
    cards |= set(game.discards)
    return {c.pretty for c in cards} | {str(c) for c in cards}


async def open_three(sessions):
    table = await sessions.open_table(
        "insomnia", GUILD, CHANNEL, ALICE, options={"chips": 5, "deals": 1, "timeout": 300}
    )
    with refused("Only the host"):
        await sessions.lobbies.add_computer(CHANNEL, BOB)
    await sessions.lobbies.join(CHANNEL, BOB)
    with refused("already seated"):
        await sessions.lobbies.join(CHANNEL, BOB)
    await sessions.lobbies.add_computer(CHANNEL, ALICE)
    with refused("Only the host"):
        await sessions.lobbies.start(CHANNEL, BOB)
    await sessions.lobbies.start(CHANNEL, ALICE)
    await sessions.idle()
    return table


async def test_a_whole_insomnia_game_keeps_hands_private_and_settles_the_ledger(store, announcer):
    sessions = await manager(store, announcer)
    table = await open_three(sessions)
    assert list(table.players) == [str(ALICE), str(BOB), "ai:1"]
    assert announcer.dms_to(ALICE) and announcer.dms_to(BOB), "hands go by DM at the deal"
    seen = 0
    for _ in range(500):
        # Everything posted so far is checked against the cards hidden right now.
        secret = hidden(table.game)
        for sent in announcer.public()[seen:]:
            for text in sent.message.texts():
                assert not any(card in text for card in secret if len(card) > 1), text
        seen = len(announcer.public())
        if table.status != "running":
            break
        player = table.game.current_player
        legal = table.game.legal_actions()
        # Exchange once, bid 1 when possible, otherwise the first legal action: exercises every kind.
        choice = next((a for a in legal if a.kind == "bid" and a.amount == 1), legal[0])
        await sessions.moves.act(CHANNEL, int(player), choice)
        await sessions.idle()
    row = await store.get_table(table.id)
    assert row.status == "finished"
    standings = {s.player: s for s in table.game.standings()}
    net: dict[str, int] = {}
    for entry in await store.ledger(table.id):
        net[entry.from_account] = net.get(entry.from_account, 0) - entry.amount
        net[entry.to_account] = net.get(entry.to_account, 0) + entry.amount
    for player, standing in standings.items():
        assert net.get(player, 0) == standing.net == standing.final_chips - 5
    board = {r.player: r.net for r in await store.leaderboard(GUILD)}
    assert board == {p: s.net for p, s in standings.items() if not p.startswith("ai:")}
    texts = announcer.public_texts()
    assert any("Game over" in t for t in texts) and any(table.seed in t for t in texts)


async def test_resign_hands_the_seat_to_a_computer_and_the_result_still_counts(store, announcer):
    sessions = await manager(store, announcer)
    table = await open_three(sessions)
    await sessions.life.resign(CHANNEL, BOB)
    assert str(BOB) in table.session.computer_seats
    with refused("computer player has taken over"):
        await sessions.moves.act(CHANNEL, BOB, {"kind": "pass"})
    for _ in range(300):
        await sessions.idle()
        if table.status != "running":
            break
        assert table.game.current_player == str(ALICE)
        await sessions.moves.act(CHANNEL, ALICE, table.game.default_action())
    await sessions.idle()
    results = {r.player for r in await store.results(table.id)}
    assert str(BOB) in results


async def test_autocomplete_offers_exactly_the_callers_legal_choices(store, announcer):
    sessions = await manager(store, announcer)
    table = await open_three(sessions)
    current = table.game.current_player
    other = str(ALICE) if current == str(BOB) else str(BOB)
    legal = {str(a.card) for a in table.game.legal_actions() if a.kind == "exchange"}
    values = [value for _, value in sessions.choices(CHANNEL, int(current), "exchange", "card", {})]
    # Each value names the move it was offered at, so the same pick sent twice counts once.
    assert all(value.endswith(f"@{table.seq}") for value in values)
    offered = {value.split("@")[0] for value in values}
    assert offered == legal == {str(c) for c in table.game.view(current).hand}
    assert sessions.choices(CHANNEL, int(other), "exchange", "card", {}) == []
    assert sessions.choices(CHANNEL, int(current), "play", "card", {}) == []


async def test_cancel_ends_with_chips_as_they_are_and_history_hides_exchanges(store, announcer):
    sessions = await manager(store, announcer)
    table = await open_three(sessions)
    player = table.game.current_player
    card = table.game.view(player).hand[0]
    await sessions.moves.act(CHANNEL, int(player), {"kind": "exchange", "card": str(card)})
    row, entries = await sessions.replays.history(CHANNEL)
    pages = render.history_pages(row.kind, row.id, row.status, entries)
    assert "exchanges a card" in pages[0].description and card.pretty not in pages[0].description
    await sessions.cancel(CHANNEL, ALICE, can_manage=False)
    assert table.game.is_over and table.game.public_view().over_reason == "ended"
    assert (await store.get_table(table.id)).status == "finished"


async def test_lobby_cancel_closes_the_table(store, announcer):
    sessions = await manager(store, announcer)
    table = await sessions.open_table("insomnia", GUILD, CHANNEL, ALICE, options={"timeout": 300})
    await sessions.lobbies.join(CHANNEL, CAROL)
    with refused("host"):
        await sessions.lobbies.leave(CHANNEL, ALICE)
    await sessions.cancel(CHANNEL, ALICE, can_manage=False)
    assert (await store.get_table(table.id)).status == "cancelled"
    assert sessions.table_in(CHANNEL) is None
    await sessions.idle()  # the closed lobby is edited at the presenter's pace, not inside cancel()
    lobby = announcer.messages[table.message_id]
    assert not lobby.rows, "a closed lobby has no buttons left"


async def test_three_timeouts_in_a_row_give_the_seat_to_a_computer(store, announcer):
    sessions = await manager(store, announcer, timeout=0.5)
    table = await sessions.open_table("insomnia", GUILD, CHANNEL, ALICE, options={"chips": 5, "deals": 1})
    await sessions.lobbies.join(CHANNEL, BOB)
    await sessions.lobbies.start(CHANNEL, ALICE)
    # Bob acts at once whenever it is his turn; Alice never does, so each of her decisions times out.
    for _ in range(200):
        if str(ALICE) in table.session.computer_seats or table.status != "running":
            break
        if table.game.current_player == str(BOB):
            await sessions.moves.act(CHANNEL, BOB, table.game.default_action())
        else:
            before = len(announcer.log)
            await announcer.wait_for(
                lambda s, n=before: (
                    announcer.log.index(s) >= n and any("ran out of time" in t for t in s.message.texts())
                )
            )
    assert str(ALICE) in table.session.computer_seats
    assert sum(f"<@{ALICE}> ran out of time" in line.text for line in table.log_lines()) == 3
    assert any("computer player takes the seat" in t for t in announcer.public_texts())
    # From now on the computer plays Alice's seat; the game still ends with her result stored.
    for _ in range(200):
        await sessions.idle()
        if table.status != "running":
            break
        if table.game.current_player == str(BOB):
            await sessions.moves.act(CHANNEL, BOB, table.game.default_action())
    await sessions.idle()
    assert {r.player for r in await store.results(table.id)} == {str(ALICE), str(BOB)}
    assert (await store.get_table(table.id)).meta["computer_seats"] == [str(ALICE)]
    await sessions.close()
