"""Which games the session rates and among whom, on the real engines and both backends: people only, by
their order among themselves; Malice against the computer, a cancelled game and a seat the computer took
over are not rated; the result lines show each person's new number and change."""

from __future__ import annotations

import itertools

from bot.sessions.rating import people_ranks
from tests.test_sessions import (  # noqa: F401 - fixed_seeds is an autouse fixture
    ALICE,
    BOB,
    BOT,
    CAROL,
    CHANNEL,
    GUILD,
    fixed_seeds,
    manager,
    play_malice_human,
)

DAVE = 104


async def play_out(sessions, table, guard: int = 3000) -> None:
    """Every person plays his first legal action (a bid of 1 where he may) until the game ends."""
    for _ in range(guard):
        await sessions.idle()
        if table.status != "running":
            return
        legal = table.game.legal_actions()
        choice = next((a for a in legal if a.kind == "bid" and a.amount == 1), legal[0])
        await sessions.moves.act(CHANNEL, int(table.game.current_player), choice)
    raise AssertionError("the game did not end")


async def insomnia_of(sessions, people, *, computer: bool = True):
    table = await sessions.open_table(
        "insomnia", GUILD, CHANNEL, people[0], options={"chips": 4, "deals": 2, "timeout": 300}
    )
    for person in people[1:]:
        await sessions.lobbies.join(CHANNEL, person)
    if computer:
        await sessions.lobbies.add_computer(CHANNEL, people[0])
    await sessions.lobbies.start(CHANNEL, people[0])
    await sessions.idle()
    return table


async def test_an_insomnia_game_of_three_people_and_a_computer_rates_the_three_among_themselves(
    store, announcer
):
    sessions = await manager(store, announcer)
    table = await insomnia_of(sessions, [ALICE, BOB, CAROL])
    await play_out(sessions, table)
    standings = {s.player: s.placement for s in table.game.standings()}
    changes = await store.rating_changes(table.id)
    assert sorted(c.player for c in changes) == sorted(str(p) for p in (ALICE, BOB, CAROL))
    people = {p: n for p, n in standings.items() if not p.startswith("ai:")}
    places = sorted(set(people.values()))
    assert {c.player: c.rank for c in changes} == {p: places.index(n) + 1 for p, n in people.items()}
    # Better placed among the people: a higher number after (all started equal).
    by_rank = sorted(changes, key=lambda c: c.rank)
    assert all(a.score_after >= b.score_after for a, b in itertools.pairwise(by_rank))
    assert [c.games for c in changes] == [1, 1, 1]
    # The record carries them, and the table message's result says them.
    assert [c.player for c in table.ratings] == [c.player for c in changes]
    result = [line.text for line in table.log_lines() if "Ratings:" in line.text]
    assert len(result) == 1 and "provisional" in result[0]
    assert all(f"<@{c.player}>" in result[0] for c in changes)


async def test_malice_against_the_computer_is_not_rated(store, announcer):
    sessions = await manager(store, announcer)
    table = await sessions.open_table("malice", GUILD, CHANNEL, ALICE, opponent=BOT, options={"timeout": 300})
    await sessions.idle()
    await play_malice_human(sessions, table, ALICE)
    assert (await store.get_table(table.id)).status == "finished"
    assert await store.rating_changes(table.id) == []
    assert await store.player_ratings(GUILD, str(ALICE)) == []
    assert not any("Ratings:" in line.text for line in table.log_lines())


async def test_a_cancelled_game_is_not_rated(store, announcer):
    sessions = await manager(store, announcer)
    table = await sessions.open_table("malice", GUILD, CHANNEL, ALICE, opponent=BOB, options={"timeout": 300})
    await sessions.lobbies.accept(CHANNEL, BOB)
    await sessions.idle()
    await sessions.moves.act(CHANNEL, int(table.game.current_player), {"kind": "end_turn"})
    await sessions.cancel(CHANNEL, ALICE, can_manage=False)
    assert (await store.get_table(table.id)).status == "finished"
    assert await store.rating_changes(table.id) == []


async def test_a_resigned_malice_game_is_rated_and_a_seat_the_computer_took_is_left_out(store, announcer):
    sessions = await manager(store, announcer)
    duel = await sessions.open_table("malice", GUILD, CHANNEL, ALICE, opponent=BOB, options={"timeout": 300})
    await sessions.lobbies.accept(CHANNEL, BOB)
    await sessions.life.resign(CHANNEL, BOB)
    changes = {c.player: c for c in await store.rating_changes(duel.id)}
    assert changes[str(ALICE)].rank == 1 and changes[str(BOB)].rank == 2
    assert changes[str(ALICE)].change > 0 > changes[str(BOB)].change

    table = await insomnia_of(sessions, [ALICE, BOB, CAROL], computer=False)
    await sessions.life.resign(CHANNEL, CAROL)  # a computer plays Carol's seat to the end
    await play_out(sessions, table)
    rated = sorted(c.player for c in await store.rating_changes(table.id))
    assert rated == sorted([str(ALICE), str(BOB)])
    assert [r.games for r in await store.player_ratings(GUILD, str(ALICE))] == [1, 1]  # insomnia, malice


def test_people_ranks_share_ties_and_skip_computers():
    class Game:
        def standings(self):
            class S:
                def __init__(self, player, placement):
                    self.player, self.placement = player, placement

            return [S("ai:1", 1), S("1", 2), S("2", 2), S("3", 4), S("4", 5)]

    assert people_ranks(Game(), unscored={"4"}) == {"1": 1, "2": 1, "3": 2}
