"""Fair play in the store, on both backends: a voided game's chips given back by compensating ledger entries
(the ledger only grows, and still sums to nothing), the leaderboards, stats and ratings as if the game had
not counted; a person excluded from the server's leaderboards and let back; both on the moderation record."""

from __future__ import annotations

import itertools

import pytest

from bot.sessions.rating import rate
from storage import LedgerIn, Rated, ResultIn, Store
from storage.fairplay import FairPlayError

from .conftest import move as mv
from .conftest import raw_fetch, running_table

_channels = itertools.count(9000)
VOIDED, CLEAN = 501, 502  # the same games in two servers: one of them voided in the first


async def play(store: Store, guild: int, places: dict[str, int], chips: list[LedgerIn]) -> int:
    table = await running_table(store, next(_channels), list(places), kind="malice", guild=guild)
    nets: dict[str, int] = dict.fromkeys(places, 0)
    for e in chips:
        nets[e.to_account] += e.amount
        nets[e.from_account] -= e.amount
    results = [ResultIn(player=p, net=nets[p], placement=n, won=n == 1) for p, n in places.items()]
    await store.append_action(table, 0, "11", '{"kind":"x"}', chips, "{}", results, rated=Rated(places, rate))
    return table


GAMES = [
    ({"11": 1, "12": 2}, [mv("12", "11", 30)]),
    ({"12": 1, "13": 2}, [mv("13", "12", 50)]),  # the farmed game
    ({"13": 1, "11": 2}, [mv("11", "13", 20)]),
    ({"12": 1, "11": 2}, [mv("11", "12", 5)]),
]


async def test_a_voided_game_counts_as_if_never_played(store, database):
    tables = [await play(store, VOIDED, places, chips) for places, chips in GAMES]
    for i, (places, chips) in enumerate(GAMES):
        if i != 1:
            await play(store, CLEAN, places, chips)
    before = await store.ledger(tables[1])
    assert await store.void_table(tables[1], moderator=77, reason="farmed", rate=rate) == VOIDED
    with pytest.raises(FairPlayError):
        await store.void_table(tables[1], moderator=77, reason="twice", rate=rate)
    # The ledger only grew: the old entries as they were, then one compensating entry each, the other way.
    after = await store.ledger(tables[1])
    assert after[: len(before)] == before
    back = after[len(before) :]
    assert [(e.from_account, e.to_account, e.amount) for e in back] == [("12", "13", 50)]
    assert back[0].seq == before[-1].seq + 1
    sums = await raw_fetch(
        database,
        "SELECT acct, SUM(amount) FROM (SELECT to_account AS acct, amount FROM ledger"
        f" WHERE guild_id = {VOIDED} UNION ALL SELECT from_account, -amount FROM ledger"
        f" WHERE guild_id = {VOIDED}) AS m GROUP BY acct ORDER BY acct",
    )
    assert sum(s for _a, s in sums) == 0  # zero-sum, the compensations included
    # Leaderboards, stats and ratings: the same as the server where the game was never played.
    for kind in (None, "malice"):
        assert [r.model_dump(exclude={"rank"}) for r in await store.leaderboard(VOIDED, kind)] == [
            r.model_dump(exclude={"rank"}) for r in await store.leaderboard(CLEAN, kind)
        ]
    assert await store.leaderboard(VOIDED, season=store.current_season()) == await store.leaderboard(
        CLEAN, season=store.current_season()
    )
    for p in ("11", "12", "13"):
        assert await store.player_stats(VOIDED, p) == await store.player_stats(CLEAN, p)
    board = await store.rating_leaderboard(VOIDED, "malice")
    clean = await store.rating_leaderboard(CLEAN, "malice")
    assert [(r.player, r.games) for r in board] == [(r.player, r.games) for r in clean]
    assert [r.score for r in board] == pytest.approx([r.score for r in clean])
    assert await store.rating_changes(tables[1]) == []
    later = await store.rating_changes(tables[2])
    assert {c.player: c.games for c in later} == {"13": 1, "11": 2}
    # The game's log still replays: the void's entry is no move of it.
    assert [a.seq for a in await store.actions(tables[1])] == [0]
    assert [h.actor for h in await store.history(tables[1])] == ["11", "void"]
    (record,) = await store.moderation(VOIDED)
    assert (record.action, record.table_id, record.moderator, record.reason) == (
        "void",
        tables[1],
        77,
        "farmed",
    )
    assert await store.voided_at(tables[1]) is not None and await store.voided_at(tables[0]) is None


async def test_a_person_whose_only_game_is_voided_is_on_no_leaderboard(store):
    table = await play(store, VOIDED, {"11": 1, "14": 2}, [mv("14", "11", 9)])
    await play(store, VOIDED, {"11": 1, "12": 2}, [mv("12", "11", 3)])
    await store.void_table(table, moderator=77, reason="", rate=rate)
    for board in (
        await store.leaderboard(VOIDED),
        await store.leaderboard(VOIDED, season=store.current_season()),
    ):
        assert [(r.player, r.net, r.games) for r in board] == [("11", 3, 1), ("12", -3, 1)]
    assert [r.player for r in await store.rating_leaderboard(VOIDED, "malice")] == ["11", "12"]


async def test_an_unfinished_game_cannot_be_voided(store):
    table = await running_table(store, next(_channels), ["11", "12"], kind="malice", guild=VOIDED)
    with pytest.raises(FairPlayError):
        await store.void_table(table, moderator=77, reason="", rate=rate)


async def test_an_excluded_player_is_on_no_leaderboard_until_let_back(store):
    for places, chips in GAMES:
        await play(store, VOIDED, places, chips)
    assert await store.exclude_player(VOIDED, "12", moderator=77, reason="cheating")
    assert not await store.exclude_player(VOIDED, "12", moderator=77, reason="again")
    season = store.current_season()
    assert "12" not in [r.player for r in await store.leaderboard(VOIDED)]
    assert "12" not in [r.player for r in await store.leaderboard(VOIDED, season=season)]
    assert "12" not in [r.player for r in await store.rating_leaderboard(VOIDED, "malice")]
    assert "12" not in [r.player for r in await store.rating_leaderboard(VOIDED, "malice", season=season)]
    assert await store.excluded(VOIDED) == ["12"]
    assert (await store.player_stats(VOIDED, "12")).games == 3  # his own record is his
    assert await store.exclude_player(VOIDED, "12", moderator=78, reason="appeal", on=False)
    assert "12" in [r.player for r in await store.leaderboard(VOIDED)]
    assert [(r.action, r.player) for r in await store.moderation(VOIDED)] == [
        ("include", "12"),
        ("exclude", "12"),
    ]
