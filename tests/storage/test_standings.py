"""Leaderboard and player stats, computed from the ledger and the results of finished tables."""

from __future__ import annotations

import itertools

import pytest

from storage import LedgerIn, ResultIn, Store

from .conftest import GUILD, running_table
from .conftest import move as mv

_channels = itertools.count(1000)


async def finished_game(
    store: Store, kind: str, moves: list[LedgerIn], results: dict[str, tuple[int, bool]], guild: int = GUILD
) -> int:
    """A finished game: one action moving those chips, then the results {player: (net, won)}."""
    table = await running_table(store, next(_channels), list(results), kind=kind, guild=guild)
    ranked = sorted(results.items(), key=lambda kv: -kv[1][0])
    finish = [
        ResultIn(player=p, net=net, placement=i + 1, won=won) for i, (p, (net, won)) in enumerate(ranked)
    ]
    await store.append_action(table, 0, None, '{"kind":"end_game"}', moves, "{}", finish)
    return table


def win(player: str, amount: int, kind_reason: str = "pot_split") -> list[LedgerIn]:
    """A game against a computer seat that the player wins (amount > 0) or loses (amount < 0)."""
    if amount > 0:
        return [mv("ai:1", player, amount, kind_reason)]
    return [mv(player, "ai:1", -amount, kind_reason)]


async def vs_ai(store: Store, kind: str, player: str, amount: int, guild: int = GUILD) -> None:
    await finished_game(
        store,
        kind,
        win(player, amount),
        {player: (amount, amount > 0), "ai:1": (-amount, amount <= 0)},
        guild,
    )


@pytest.fixture
async def league(store) -> Store:
    await vs_ai(store, "insomnia", "23", 6)
    await vs_ai(store, "insomnia", "23", 4)  # 23: net 10, 2 wins, 2 games
    await vs_ai(store, "insomnia", "22", 15)
    await vs_ai(store, "malice", "22", -5)  # 22: net 10, 1 win, 2 games
    await vs_ai(store, "insomnia", "21", 10)  # 21 and 24 tie on everything: player id decides
    await vs_ai(store, "insomnia", "24", 10)
    await vs_ai(store, "insomnia", "26", -3)
    await finished_game(
        store, "insomnia", [], {"25": (0, False), "ai:2": (0, True)}
    )  # played, no chips moved
    await vs_ai(store, "malice", "27", 20)
    await vs_ai(store, "insomnia", "21", 500, guild=GUILD + 1)  # another guild does not count here
    return store


async def test_the_leaderboard_orders_by_net_then_wins_then_fewer_games_then_player(league):
    rows = await league.leaderboard(GUILD, limit=50)
    assert [(r.rank, r.player, r.net, r.wins, r.games) for r in rows] == [
        (1, "27", 20, 1, 1),
        (2, "23", 10, 2, 2),
        (3, "21", 10, 1, 1),
        (4, "24", 10, 1, 1),
        (5, "22", 10, 1, 2),
        (6, "25", 0, 0, 1),
        (7, "26", -3, 0, 1),
    ]


async def test_the_leaderboard_per_game_kind(league):
    insomnia = await league.leaderboard(GUILD, kind="insomnia", limit=50)
    assert [(r.player, r.net, r.games) for r in insomnia] == [
        ("22", 15, 1),
        ("23", 10, 2),
        ("21", 10, 1),
        ("24", 10, 1),
        ("25", 0, 1),
        ("26", -3, 1),
    ]
    malice = await league.leaderboard(GUILD, kind="malice")
    assert [(r.player, r.net, r.wins, r.games) for r in malice] == [("27", 20, 1, 1), ("22", -5, 0, 1)]
    other = await league.leaderboard(GUILD + 1)
    assert [(r.player, r.net) for r in other] == [("21", 500)]


async def test_leaderboard_pages_cover_the_list_once_with_continuous_ranks(league):
    full = await league.leaderboard(GUILD, limit=50)
    pages = [await league.leaderboard(GUILD, limit=3, offset=o) for o in (0, 3, 6, 9)]
    assert [len(p) for p in pages] == [3, 3, 1, 0]
    assert [r for p in pages for r in p] == full
    assert (await league.leaderboard(GUILD))[-1].rank == 7  # default limit 10
    with pytest.raises(ValueError):
        await league.leaderboard(GUILD, limit=-1)


async def test_computer_seats_and_the_pot_never_rank(league):
    players = {r.player for r in await league.leaderboard(GUILD, limit=100)}
    assert not any(p.startswith(("ai:", "@")) for p in players)


async def test_running_games_count_in_net_chips_but_not_in_games(store):
    table = await running_table(store, 1, ["31", "32"])
    await store.append_action(table, 0, "31", "{}", [mv("31", "@pot", 7), mv("32", "@pot", 7)], "{}")
    rows = await store.leaderboard(GUILD)
    assert [(r.player, r.net, r.games) for r in rows] == [("31", -7, 0), ("32", -7, 0)]


async def test_player_stats_overall_and_per_game(league):
    stats = await league.player_stats(GUILD, "22")
    assert (stats.player, stats.games, stats.wins, stats.net, stats.biggest_win) == ("22", 2, 1, 10, 15)
    assert {k: (s.games, s.wins, s.net, s.biggest_win) for k, s in stats.per_game.items()} == {
        "insomnia": (1, 1, 15, 15),
        "malice": (1, 0, -5, None),
    }
    assert (await league.player_stats(GUILD, "23")).biggest_win == 6
    loser = await league.player_stats(GUILD, "26")
    assert (loser.games, loser.wins, loser.net, loser.biggest_win) == (1, 0, -3, None)
    other_guild = await league.player_stats(GUILD + 1, "21")
    assert (other_guild.net, other_guild.games, other_guild.biggest_win) == (500, 1, 500)


async def test_stats_of_someone_who_never_played_are_empty(league):
    stats = await league.player_stats(GUILD, "99")
    assert (stats.games, stats.wins, stats.net, stats.biggest_win, stats.per_game) == (0, 0, 0, None, {})
