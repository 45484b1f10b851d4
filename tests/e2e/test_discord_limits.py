"""Whole games at Discord's real limits (issue 10): the fake Discord enforces 5 message writes per 5 s per
channel, 50 requests per second in all and the 3-second answer deadline; a Malice game against the computer
and a four-seat Insomnia game with a computer seat, each with a kill -9 restart, through the real bot.

Every move is announced exactly once on the table message, the bot never collects a 429 nor misses an answer
deadline (10062), spends at most one rate-limited call per move, and leaves its table message alone in the
channel."""

from __future__ import annotations

import pytest

from tests.e2e.harness import Harness
from tests.e2e.test_faults import Player, check_announced_and_settled, play_all

pytestmark = pytest.mark.bot(rate_limits=True)


async def check_budget(harness: Harness, players: list[Player]) -> None:
    fake = harness.fake
    stats = fake.rest_stats()
    assert stats.sent_429 == 0, f"429s: {stats.answers_429}"
    assert 10062 not in stats.error_codes, "an answer missed Discord's 3-second deadline"
    moves = 0
    for player in players:
        assert player.table_id is not None
        moves += len(await harness.store.actions(player.table_id))
        bot_messages = [m for m in fake.channel_messages(player.channel) if m.author.bot]
        assert len(bot_messages) <= 3 and len(bot_messages) == 1, [m.text[:60] for m in bot_messages]
    # What the moves cost: message writes and DMs (logging in, syncing the commands and finding the gateway
    # are the process's own, once per start).
    spent = sum(
        n for route, n in stats.by_route().items() if "/messages" in route or route.endswith("/channels")
    )
    print(f"rate-limited calls for the moves {spent} for {moves} moves; by route {dict(stats.by_route())}")
    assert spent <= moves, f"{spent} rate-limited calls for {moves} moves"
    # A person's DM channel is opened once per process (each game here has one restart): later hands are
    # one request each.
    people = sum(len(player.by_id) for player in players)
    opened = stats.by_route().get("POST /users/@me/channels", 0)
    assert opened <= 2 * people, f"{opened} DM channels opened for {people} people in two processes"


@pytest.mark.slow
@pytest.mark.both_backends  # the rating (or none) is made in the finishing transaction of each store
async def test_malice_against_the_computer_with_a_kill_at_discords_limits(
    harness: Harness, monkeypatch
) -> None:
    monkeypatch.setattr("bot.sessions.lobbies.new_seed", lambda: "limits-malice-1")
    alice = harness.user("alice")
    await alice.slash("malice challenge", opponent=harness.fake.bot_user, stake=1, turns=60)
    players = [Player(harness, "games", [alice], seed=11)]
    done = await play_all(harness, players, {12: "crash"})
    assert done["crash"] == 1
    await harness.bot.sessions.idle()
    await check_announced_and_settled(harness, players[0])
    await check_budget(harness, players)
    assert players[0].table_id is not None
    assert await harness.store.rating_changes(players[0].table_id) == [], "against the computer: not rated"


@pytest.mark.slow
@pytest.mark.both_backends  # the rating (or none) is made in the finishing transaction of each store
async def test_four_seat_insomnia_with_a_computer_and_a_kill_at_discords_limits(
    harness: Harness, monkeypatch
) -> None:
    monkeypatch.setattr("bot.sessions.lobbies.new_seed", lambda: "limits-insomnia-1")
    bob, carol, dave = harness.user("bob"), harness.user("carol"), harness.user("dave")
    await bob.slash("insomnia new", chips=10, deals=3)
    await carol.slash("insomnia join")
    await dave.slash("insomnia join")
    await bob.slash("insomnia addbot")
    await bob.slash("insomnia start")
    players = [Player(harness, "games", [bob, carol, dave], seed=12)]
    done = await play_all(harness, players, {10: "crash"})
    assert done["crash"] == 1
    await harness.bot.sessions.idle()
    await check_announced_and_settled(harness, players[0])
    await check_budget(harness, players)
    # Rated once among its three people by their order among themselves; the computer seat is left out.
    table_id = players[0].table_id
    assert table_id is not None
    people = {str(u.id) for u in (bob, carol, dave)}
    results = {r.player: r.placement for r in await harness.store.results(table_id)}
    changes = await harness.store.rating_changes(table_id)
    assert {c.player for c in changes} == people and all(c.games == 1 for c in changes)
    places = sorted({results[p] for p in people})  # the computer's place is skipped; ties share a rank
    assert {c.player: c.rank for c in changes} == {p: places.index(results[p]) + 1 for p in people}
