"""A tournament's no-show, with the real session layer and a real store (both backends): a player without a
move of his own (every turn of his timed out) scores nothing, as a forfeit, also when his game ends before
the round's deadline (README, Tournaments: the deadline)."""

from __future__ import annotations

from tests.events.test_service import create, wait_for, wait_for_status
from tests.test_sessions import ALICE, BOB, CHANNEL, fixed_seeds, manager  # noqa: F401  (fixed games)


async def test_a_no_show_forfeits_a_game_that_ends_before_the_deadline(events, store):
    # A turn cap of 2 (one turn each): the game ends by its rules within the round's 60 minutes.
    event = await create(events, rounds=1, options="turns=2")
    for who in (ALICE, BOB):
        await events.join(CHANNEL, who, event)
    await events.start(CHANNEL, ALICE, event, can_manage=False, roles=())
    sessions = events.sessions
    table = await wait_for(lambda: (t := sessions.table_in(CHANNEL)) and t.status == "running" and t)
    while table.status == "running":  # Bob ends his own turn; Alice's times out (the timer's idle turn)
        if table.game.current_player == str(BOB):
            legal = table.game.legal_actions()
            await sessions.moves.act(CHANNEL, BOB, next((a for a in legal if a.kind == "end_turn"), legal[0]))
        else:
            await sessions.life.time_out(table.id, table.seq)
    # The board says Alice did not lose (two idle turns: a draw; or the timer played her payoff ace) ...
    assert {s.player: s.placement for s in table.game.standings()}[str(ALICE)] == 1
    await events.runner.idle()
    row = await wait_for_status(store, event, "finished")
    (match,) = row.matches
    # ... but she never moved: a forfeit, as at the deadline. Bob wins the match and the event.
    assert match.forfeits == (str(ALICE),)
    board = await events.show(CHANNEL, event)
    assert [(line.player, line.points) for line in board.lines] == [(str(BOB), 1.0), (str(ALICE), 0.0)]
