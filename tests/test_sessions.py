"""The session layer with the real engines and a real Store on a tmp file, seen through a recording Announcer
(`tests.recording`; the `store` and `announcer` fixtures are in tests/conftest.py).

Other session tests import the ids, `manager` and the `fixed_seeds` autouse fixture from here.
"""

from __future__ import annotations

import asyncio
import json

import pytest

from bot.sessions import NotAllowed, SessionManager
from storage import Store
from tests.engines import engine
from tests.live import TestSessions
from tests.recording import RecordingAnnouncer
from tests.refusals import english, refused

CHANNEL = 500
GUILD = 1
ALICE, BOB, CAROL = 101, 102, 103
BOT = 999


async def manager(store: Store, announcer: RecordingAnnouncer, timeout: float = 300.0) -> SessionManager:
    return TestSessions(
        store, announcer, default_timeout=timeout, bot_user_id=BOT, coalesce=0.0, pacing=False
    )


async def started_insomnia(sessions: SessionManager, *, computer: bool = False, **options):
    """Alice's Insomnia table with Bob seated (and a computer seat if asked), started; computer moves done."""
    table = await sessions.open_table("insomnia", GUILD, CHANNEL, ALICE, options=options)
    await sessions.lobbies.join(CHANNEL, BOB)
    if computer:
        await sessions.lobbies.add_computer(CHANNEL, ALICE)
    await sessions.lobbies.start(CHANNEL, ALICE)
    await sessions.idle()
    return table


@pytest.fixture(autouse=True)
def fixed_seeds(monkeypatch):
    """Fixed games: the session's seeds come from a counter instead of `secrets`."""
    counter = iter(range(1, 1000))
    monkeypatch.setattr("bot.sessions.lobbies.new_seed", lambda: f"session-test-seed-{next(counter)}")


def hidden_cards_of(game, players) -> dict[str, set[str]]:
    """Every player's hidden hand, in the forms a message could show it (pretty and short)."""
    out = {}
    for p in players:
        cards = game.view(p).hand
        out[p] = {c.pretty for c in cards}
    return out


def assert_no_hidden_card(texts: list[str], hidden: set[str]) -> None:
    for text in texts:
        for card in hidden:
            assert card not in text, f"hidden card {card} in public text {text!r}"


async def play_malice_human(sessions, table, user: int, turns_guard: int = 400) -> None:
    """Drive one human through a Malice game: centre plays first, else end the turn."""
    for _ in range(turns_guard):
        await sessions.idle()
        if table.status != "running":
            return
        game = table.game
        assert game.current_player == str(user)
        centre = [a for a in game.legal_actions() if a.kind == "play" and a.to.startswith("centre")]
        if centre:
            await sessions.moves.act(CHANNEL, user, centre[0])
        else:
            await sessions.moves.act(CHANNEL, user, {"kind": "end_turn"})
    raise AssertionError("the game did not end")


async def test_malice_against_the_computer_is_stored_before_announced_and_settles_the_ledger(
    store, announcer
):
    sessions = await manager(store, announcer)
    table = await sessions.open_table(
        "malice", GUILD, CHANNEL, ALICE, opponent=BOT, options={"stake": 2, "timeout": 300}
    )
    table.options["turns"] = table.options.get("turns")  # default cap: the game runs to a real end
    await sessions.idle()
    assert table.status == "running"
    # The seed commitment is public from the start; the seed itself only at the end.
    assert any(table.commitment in t for t in announcer.public_texts())
    assert not any(table.seed in t for t in announcer.public_texts())
    assert announcer.dms_to(ALICE), "Alice gets her hand by DM at the start"
    await play_malice_human(sessions, table, ALICE)
    await sessions.idle()
    row = await store.get_table(table.id)
    assert row.status == "finished"
    ledger = await store.ledger(table.id)
    result = table.game.public_view().result
    net = {}
    for entry in ledger:
        net[entry.from_account] = net.get(entry.from_account, 0) - entry.amount
        net[entry.to_account] = net.get(entry.to_account, 0) + entry.amount
    standings = {s.player: s.net for s in table.game.standings()}
    assert net.get(str(ALICE), 0) == standings[str(ALICE)]
    if result.winner is not None:
        assert abs(standings[str(ALICE)]) == result.score * 2
    # Replaying the stored action log from the seed gives exactly the stored final state.
    game = engine("malice").new_game(row.players, row.seed, stake=2)
    for action in await store.actions(table.id):
        game.apply(json.loads(action.action))
    assert game.model_dump_json() == row.snapshot
    assert any(table.seed in t for t in announcer.public_texts()), "the seed is revealed at the end"
    assert sessions.table_in(CHANNEL) is None


async def test_who_may_act_gets_one_sentence_each(store, announcer):
    sessions = await manager(store, announcer)
    table = await sessions.open_table("malice", GUILD, CHANNEL, ALICE, opponent=BOB, options={"timeout": 300})
    with refused("not started"):
        await sessions.moves.act(CHANNEL, ALICE, {"kind": "end_turn"})
    with refused("Only the challenged player"):
        await sessions.lobbies.accept(CHANNEL, ALICE)
    await sessions.lobbies.accept(CHANNEL, BOB)
    current = int(table.game.current_player)
    other = ALICE if current == BOB else BOB
    with refused("not playing"):
        await sessions.moves.act(CHANNEL, CAROL, {"kind": "end_turn"})
    with refused("not your turn"):
        await sessions.moves.act(CHANNEL, other, {"kind": "end_turn"})
    seq = table.seq
    # An ace can never go on a side stack: the engine's sentence comes back, nothing is stored.
    with pytest.raises(NotAllowed):
        await sessions.moves.act(CHANNEL, current, {"kind": "play", "source": "payoff", "to": "side1"})
    assert table.seq == seq and (await store.get_table(table.id)).next_seq == seq
    with refused("already has a game"):
        await sessions.open_table("insomnia", GUILD, CHANNEL, CAROL)


async def test_stale_and_double_clicks_change_nothing(store, announcer):
    sessions = await manager(store, announcer)
    table = await sessions.open_table("malice", GUILD, CHANNEL, ALICE, opponent=BOB, options={"timeout": 300})
    await sessions.click(table.id, BOB, "accept", None)
    current = int(table.game.current_player)
    seq = table.seq
    action = table.game.legal_actions()[0]
    from bot import render

    token = render.token("malice", action)
    first, second = await asyncio.gather(
        sessions.click(table.id, current, token, seq),
        sessions.click(table.id, current, token, seq),
        return_exceptions=True,
    )
    outcomes = [first, second]
    stale = [o for o in outcomes if isinstance(o, NotAllowed)]
    assert len(stale) == 1 and "stale" in english(stale[0])
    assert table.seq == seq + 1
    assert len(await store.actions(table.id)) == seq + 1


async def test_restart_resumes_the_game_and_a_new_manager_finishes_it(store, announcer):
    sessions = await manager(store, announcer)
    table = await sessions.open_table(
        "malice", GUILD, CHANNEL, ALICE, opponent=BOB, options={"stake": 1, "timeout": 300, "turns": 30}
    )
    await sessions.lobbies.accept(CHANNEL, BOB)
    for _ in range(3):
        await sessions.moves.act(CHANNEL, int(table.game.current_player), best_malice_move(table.game))
    seq = table.seq
    await sessions.close()

    later = RecordingAnnouncer(messages=dict(announcer.messages), _next_id=announcer._next_id)
    # As the bot does: resume first, present once the gateway is ready (else the presenter's refresh could
    # come while resume_all still awaits the store, and the check below would race it).
    resumed = TestSessions(
        store, later, default_timeout=300.0, bot_user_id=BOT, coalesce=0.0, pacing=False, present_now=False
    )
    assert await resumed.resume_all() == 1
    table2 = resumed.table_in(CHANNEL)
    assert table2.seq == seq and table2.game.model_dump_json() == table.game.model_dump_json()
    assert later.log == [], "resuming reads the store only: Discord is written by the presenter afterwards"
    resumed.presenter.start()
    await resumed.idle()
    edits = [s for s in later.log if s.kind == "edit" and s.message_id == table2.message_id]
    assert any("resumed" in t for s in edits for t in s.message.texts())
    for _ in range(2000):
        if table2.status != "running":
            break
        await resumed.moves.act(CHANNEL, int(table2.game.current_player), best_malice_move(table2.game))
    assert (await store.get_table(table.id)).status == "finished"
    await resumed.close()


def best_malice_move(game):
    """Centre plays first, then a side play (it moves a card, so no stalemate), else the end of the turn."""
    plays = [a for a in game.legal_actions() if a.kind == "play"]
    centre = [a for a in plays if a.to.startswith("centre")]
    return (centre or plays or [{"kind": "end_turn"}])[0]


async def test_closed_dms_are_told_once_and_remembered(store, announcer):
    announcer.closed_dms.add(BOB)
    sessions = await manager(store, announcer)
    table = await sessions.open_table("malice", GUILD, CHANNEL, ALICE, opponent=BOB, options={"timeout": 300})
    await sessions.lobbies.accept(CHANNEL, BOB)
    for _ in range(4):
        player = int(table.game.current_player)
        await sessions.moves.act(CHANNEL, player, best_malice_move(table.game))
    await sessions.idle()
    # Told on the table message (no message of its own), naming Bob.
    told = [s for s in announcer.public() if any("use /hand" in t for t in s.message.texts())]
    assert told and {s.message_id for s in told} == {table.message_id}
    assert all(f"<@{BOB}>" in t for s in told for t in s.message.texts() if "use /hand" in t)
    assert (await store.get_table(table.id)).display["dm_closed"] == [str(BOB)]
    assert announcer.dms_to(ALICE) and not announcer.dms_to(BOB)
    hand = sessions.hand(CHANNEL, BOB)
    assert "Your hand" in hand.content
    await sessions.close()


async def test_timeouts_apply_the_default_and_three_in_a_row_forfeit_malice(store, announcer):
    sessions = await manager(store, announcer, timeout=0.5)
    table = await sessions.open_table("malice", GUILD, CHANNEL, ALICE, opponent=BOB)
    await sessions.lobbies.accept(CHANNEL, BOB)
    # Bob moves at once on each of his turns; Alice never does, so her timer runs out each time.
    for _ in range(50):
        if table.status != "running":
            break
        if table.game.current_player == str(BOB):
            game = table.game
            moves = [a for a in game.legal_actions() if a.kind == "play"]
            side = [a for a in moves if a.to.startswith("side")]
            try:
                await sessions.moves.act(CHANNEL, BOB, (side or moves or [{"kind": "end_turn"}])[0])
            except NotAllowed:  # Alice's third timeout ended the game while Bob's move waited for the table
                assert table.status == "finished"
        else:
            before = len(announcer.log)
            await announcer.wait_for(
                lambda s, n=before: (
                    announcer.log.index(s) >= n and any("ran out of time" in t for t in s.message.texts())
                )
            )
    await sessions.idle()
    timeouts = [line for line in table.log_lines() if f"<@{ALICE}> ran out of time" in line.text]
    assert len(timeouts) == 3
    assert any("forfeits" in t for t in announcer.public_texts())
    row = await store.get_table(table.id)
    assert row.status == "finished"
    assert table.game.public_view().result.reason == "resign"
    assert table.game.public_view().result.winner == str(BOB)
    await sessions.close()


async def test_cancel_needs_the_host_and_settles_as_a_stalemate(store, announcer):
    sessions = await manager(store, announcer)
    table = await sessions.open_table("malice", GUILD, CHANNEL, ALICE, opponent=BOB, options={"timeout": 300})
    await sessions.lobbies.accept(CHANNEL, BOB)
    with refused("Only the host"):
        await sessions.cancel(CHANNEL, BOB, can_manage=False)
    await sessions.cancel(CHANNEL, CAROL, can_manage=True)
    assert table.game.public_view().result.reason == "cancelled"
    assert (await store.get_table(table.id)).status == "finished"
    assert sessions.table_in(CHANNEL) is None
