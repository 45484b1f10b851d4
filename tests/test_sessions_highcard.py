"""A game that exists only in the tests (`tests/games/highcard.py`, its presentation `highcard_render.py`),
registered for the test and played through the real session layer, store and renderer: nothing in the session
layer names a game, so registering one is all it takes. Challenge, moves by command and by button, timeouts,
ledger, /history and a restart."""

from __future__ import annotations

import dataclasses

import pytest

from bot import render
from bot.games.registry import REGISTRY
from bot.render.registry import registered
from bot.sessions import NotAllowed
from tests.games.highcard import SPEC
from tests.games.highcard_render import PRESENTATION
from tests.refusals import refused
from tests.test_sessions import (  # noqa: F401 - fixed_seeds is an autouse fixture
    ALICE,
    BOB,
    BOT,
    CHANNEL,
    GUILD,
    fixed_seeds,
    manager,
)


@pytest.fixture(autouse=True)
def highcard():
    with registered(SPEC, PRESENTATION):
        yield SPEC


async def play_out(sessions, table) -> None:
    """Both people move until the game ends: commands and buttons in turn."""
    for step in range(40):
        if table.status != "running":
            return
        player = int(table.game.current_player)
        if step % 2:
            await sessions.moves.command(CHANNEL, player, "highcard", "keep", {})
        else:
            await sessions.click(table.id, player, "keep", table.seq)
    raise AssertionError("the game did not end")


async def test_a_registered_test_game_is_challenged_played_settled_and_logged(store, announcer):
    sessions = await manager(store, announcer)
    table = await sessions.open_table(
        "highcard", GUILD, CHANNEL, ALICE, opponent=BOB, options={"chips": 3, "rounds": 4, "timeout": 300}
    )
    assert table.status == "lobby"
    await sessions.idle()
    assert any("challenges" in t and "High card" in t for t in announcer.public_texts())
    with refused("Only the challenged player"):
        await sessions.lobbies.accept(CHANNEL, ALICE)
    with refused("not started"):
        await sessions.moves.command(CHANNEL, ALICE, "highcard", "keep", {})
    await sessions.lobbies.accept(CHANNEL, BOB)
    assert table.status == "running" and table.game.rounds == 4 and table.game.chips[str(ALICE)] == 3
    await sessions.idle()
    assert announcer.dms_to(ALICE) and announcer.dms_to(BOB), "each gets his card by DM"
    waiting = str(BOB) if table.game.current_player == str(ALICE) else str(ALICE)
    with refused("not your turn"):
        await sessions.moves.command(CHANNEL, int(waiting), "highcard", "swap", {})

    await play_out(sessions, table)
    await sessions.idle()
    row = await store.get_table(table.id)
    assert row.status == "finished"
    # Every chip the game moved is in the ledger, one entry per round won, and settles with the standings.
    ledger = await store.ledger(table.id)
    assert ledger and {e.reason for e in ledger} == {"highcard_round"}
    net: dict[str, int] = {}
    for e in ledger:
        net[e.from_account] = net.get(e.from_account, 0) - e.amount
        net[e.to_account] = net.get(e.to_account, 0) + e.amount
    assert {p: n for p, n in net.items() if n} == {s.player: s.net for s in table.game.standings() if s.net}
    # The log replays from the seed to the stored end; /history tells the moves.
    actions = [a.action for a in await store.actions(table.id)]
    replayed = SPEC.replay(row.players, row.seed, {"chips": 3, "rounds": 4}, actions)
    assert replayed.model_dump_json() == row.snapshot
    _, entries = await sessions.replays.history(CHANNEL, kind="highcard")
    pages = render.history_pages("highcard", table.id, "finished", entries)
    assert "keeps" in pages[0].description and "highcard_round" in pages[0].description
    assert any("Game over" in t for t in announcer.public_texts())
    board = await store.leaderboard(GUILD, "highcard")
    assert {r.player for r in board} == {str(ALICE), str(BOB)}
    await sessions.close()


async def test_a_test_game_against_the_computer_resumes_after_a_restart(store, announcer):
    sessions = await manager(store, announcer)
    table = await sessions.open_table(
        "highcard", GUILD, CHANNEL, ALICE, opponent=BOT, options={"rounds": 6, "chips": 6, "timeout": 300}
    )
    await sessions.idle()
    assert table.status == "running" and "ai:1" in table.players
    if table.game.current_player == str(ALICE):
        await sessions.moves.command(CHANNEL, ALICE, "highcard", "swap", {})
        await sessions.idle()
    seq = table.seq
    await sessions.close()

    again = await manager(store, announcer)
    assert await again.resume_all() == 1
    resumed = again.table_in(CHANNEL)
    assert resumed.kind == "highcard" and resumed.seq == seq
    assert resumed.game.model_dump_json() == table.game.model_dump_json()
    await play_vs_computer(again, resumed)
    assert (await store.get_table(table.id)).status == "finished"
    await again.close()


async def test_the_spec_decides_how_a_table_fills(store, announcer, highcard):
    """The same game described as an open lobby: the session opens a lobby people join and the host starts,
    and refuses the challenge steps; nothing but the spec changed."""
    REGISTRY.unregister(highcard.name)
    try:
        with REGISTRY.registered(dataclasses.replace(highcard, table="lobby")):
            sessions = await manager(store, announcer)
            table = await sessions.open_table("highcard", GUILD, CHANNEL, ALICE, options={"rounds": 2})
            assert list(table.players) == [str(ALICE)]
            with pytest.raises(NotAllowed):
                await sessions.lobbies.accept(CHANNEL, BOB)
            assert (await sessions.lobbies.join(CHANNEL, BOB)).word("en") == "You joined the table."
            with refused("full"):
                await sessions.lobbies.add_computer(CHANNEL, ALICE)
            await sessions.lobbies.start(CHANNEL, ALICE)
            assert table.status == "running" and list(table.players) == [str(ALICE), str(BOB)]
            await play_out(sessions, table)
            assert (await store.get_table(table.id)).status == "finished"
            await sessions.close()
    finally:
        REGISTRY.register(highcard)


async def play_vs_computer(sessions, table) -> None:
    for _ in range(40):
        await sessions.idle()
        if table.status != "running":
            return
        await sessions.moves.command(CHANNEL, ALICE, "highcard", "keep", {})
    raise AssertionError("the game did not end")


async def test_timeouts_and_a_resignation_hand_the_seat_to_the_computer(store, announcer):
    sessions = await manager(store, announcer)
    table = await sessions.open_table("highcard", GUILD, CHANNEL, ALICE, opponent=BOB, options={"rounds": 3})
    await sessions.lobbies.accept(CHANNEL, BOB)
    seq = table.seq
    player = table.game.current_player
    await sessions.life.time_out(table.id, seq)
    assert table.seq == seq + 1, "the timeout played the safe default (keep)"
    assert any("ran out of time: the card was kept for them" in line.text for line in table.log_lines())
    assert (await sessions.life.resign(CHANNEL, int(player))).word("en") == "You resigned."
    assert player in table.session.computer_seats
    await sessions.close()
