"""Ratings and seasons in the store, on both backends: a game rated once in its finishing transaction, the
leaderboards by rating and by chips per season (a clock moved across a month's end), the histories and the
head-to-head record. The rater is the bot's own (`bot.sessions.rating.rate`, OpenSkill)."""

from __future__ import annotations

import asyncio
import itertools
import os
import subprocess
import sys
import time
from datetime import UTC, datetime

import pytest

from bot.sessions.rating import rate
from storage import (
    LedgerIn,
    Rated,
    ResultIn,
    SequenceConflict,
    Store,
    TableStateError,
    is_postgres_url,
    open_store,
)

from .conftest import GUILD, raw_fetch, running_table
from .conftest import move as mv

_channels = itertools.count(5000)
NOV_30 = datetime(2026, 11, 30, 23, 0, tzinfo=UTC).timestamp()
DEC_1 = datetime(2026, 12, 1, 0, 30, tzinfo=UTC).timestamp()


class Clock:
    """A clock the test moves: each reading one second later than the last, from wherever it was set."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        self.now += 1
        return self.now


@pytest.fixture
async def clocked(database):
    clock = Clock(NOV_30)
    s = await open_store(database, clock=clock)
    try:
        yield s, clock
    finally:
        await s.close()


async def finish(
    store: Store,
    places: dict[str, int],
    *,
    kind: str = "malice",
    rated: bool = True,
    chips: list[LedgerIn] = (),
    guild: int = GUILD,
    table: int | None = None,
) -> int:
    """A game played to its end in one action: `places` {player: placement}, rated among the people."""
    if table is None:
        table = await running_table(store, next(_channels), list(places), kind=kind, guild=guild)
    nets: dict[str, int] = dict.fromkeys(places, 0)
    for e in chips:
        nets[e.to_account] = nets.get(e.to_account, 0) + e.amount
        nets[e.from_account] = nets.get(e.from_account, 0) - e.amount
    results = [ResultIn(player=p, net=nets[p], placement=n, won=n == 1) for p, n in places.items()]
    people = {p: n for p, n in places.items() if not p.startswith("ai:")}
    order = sorted(set(people.values()))
    people = {p: order.index(n) + 1 for p, n in people.items()}  # among the people, as the session ranks
    ask = Rated(ranks=people, rate=rate) if rated else None
    await store.append_action(table, 0, None, '{"kind":"x"}', list(chips), "{}", results, rated=ask)
    return table


async def test_a_finished_game_is_rated_once_in_its_own_transaction(store):
    table = await finish(store, {"11": 1, "12": 2}, chips=[mv("12", "11", 7)])
    changes = await store.rating_changes(table)
    assert [(c.player, c.rank, c.games) for c in changes] == [("11", 1, 1), ("12", 2, 1)]
    winner, loser = changes
    assert winner.score_before == loser.score_before == pytest.approx(1000.0)
    assert winner.score_after > 1000 > loser.score_after
    assert winner.mu_after > winner.mu_before and winner.sigma_after < winner.sigma_before
    # A second finishing attempt (a replayed move, a stale writer) is refused and changes nothing.
    with pytest.raises((TableStateError, SequenceConflict)):
        await store.append_action(table, 1, None, "{}", [], "{}", [], rated=Rated({"11": 1, "12": 2}, rate))
    with pytest.raises(SequenceConflict):
        await store.append_action(table, 0, None, "{}", [], "{}", [], rated=Rated({"11": 1, "12": 2}, rate))
    assert await store.rating_changes(table) == changes
    mine = {r.kind: r for r in await store.player_ratings(GUILD, "11")}
    assert mine["malice"].games == 1 and mine["malice"].score == pytest.approx(winner.score_after)
    assert mine["malice"].last_change == pytest.approx(winner.change)


async def test_the_next_game_starts_from_the_last_rating(store):
    first = await store.rating_changes(await finish(store, {"11": 1, "12": 2}))
    second = await store.rating_changes(await finish(store, {"11": 2, "12": 1}))
    assert [c.games for c in second] == [2, 2]
    after_first = {c.player: (c.mu_after, c.sigma_after) for c in first}
    assert {c.player: (c.mu_before, c.sigma_before) for c in second} == after_first


async def test_fewer_than_two_people_or_no_rating_asked_is_not_rated(store):
    alone = await finish(store, {"11": 1, "ai:1": 2})  # Malice against the computer
    cancelled = await finish(store, {"11": 1, "12": 1}, rated=False)  # /cancel: the session asks nothing
    assert await store.rating_changes(alone) == []
    assert await store.rating_changes(cancelled) == []
    assert await store.player_ratings(GUILD, "11") == []
    # Results and chips count as ever.
    assert (await store.player_stats(GUILD, "11")).games == 2


async def test_people_are_rated_by_their_order_among_themselves(store):
    table = await finish(store, {"ai:1": 1, "11": 2, "12": 3, "13": 3}, kind="insomnia")
    changes = {c.player: c for c in await store.rating_changes(table)}
    assert sorted(changes) == ["11", "12", "13"]
    assert changes["11"].rank == 1 and changes["12"].rank == changes["13"].rank == 2
    assert changes["11"].score_after > changes["12"].score_after == pytest.approx(changes["13"].score_after)


async def test_a_rater_that_fails_leaves_the_move_unwritten(store):
    table = await running_table(store, next(_channels), ["11", "12"], kind="malice")
    results = [
        ResultIn(player="11", net=0, placement=1, won=True),
        ResultIn(player="12", net=0, placement=2, won=False),
    ]

    def broken(people):
        raise RuntimeError("rater down")

    with pytest.raises(RuntimeError):
        await store.append_action(
            table, 0, None, "{}", [], "{}", results, rated=Rated({"11": 1, "12": 2}, broken)
        )
    row = await store.get_table(table)
    assert row.status == "running" and row.next_seq == 0
    assert await store.results(table) == []


async def test_a_season_counts_the_games_that_ended_in_it(clocked):
    store, clock = clocked
    assert store.current_season() == "2026-11"
    await finish(store, {"11": 1, "12": 2}, chips=[mv("12", "11", 5)])
    clock.now = DEC_1  # past the month's end: nothing runs, the next game simply lands in December
    assert store.current_season() == "2026-12"
    await finish(store, {"12": 1, "13": 2}, chips=[mv("13", "12", 9)])

    def board(rows):
        return [(r.player, r.net, r.games) for r in rows]

    assert board(await store.leaderboard(GUILD, season="2026-11")) == [("11", 5, 1), ("12", -5, 1)]
    assert board(await store.leaderboard(GUILD, "malice", season="2026-12")) == [("12", 9, 1), ("13", -9, 1)]
    assert board(await store.leaderboard(GUILD)) == [("11", 5, 1), ("12", 4, 2), ("13", -9, 1)]
    assert board(await store.leaderboard(GUILD, season="all-time")) == board(await store.leaderboard(GUILD))
    assert await store.seasons(GUILD) == ["2026-12", "2026-11"]

    november = await store.rating_leaderboard(GUILD, "malice", season="2026-11")
    december = await store.rating_leaderboard(GUILD, "malice", season="2026-12")
    always = await store.rating_leaderboard(GUILD, "malice")
    assert [r.player for r in november] == ["11", "12"]
    assert [r.player for r in december] == ["12", "13"]
    assert sorted(r.player for r in always) == ["11", "12", "13"]
    # 12's November number is the one after his November game; all-time is his newest.
    twelve = {r.player: r for r in always}["12"]
    assert twelve.games == 2 and twelve.played == 2
    assert {r.player: r for r in december}["12"].score == pytest.approx(twelve.score)
    assert {r.player: r for r in november}["12"].score < twelve.score
    assert {r.player: r for r in december}["12"].played == 1
    with pytest.raises(ValueError):
        await store.leaderboard(GUILD, season="November")


async def test_histories_by_time_and_kind(clocked):
    store, clock = clocked
    await finish(store, {"11": 1, "12": 2}, chips=[mv("12", "11", 5)])
    clock.now = DEC_1
    await finish(store, {"11": 2, "12": 1}, chips=[mv("11", "12", 3)], kind="insomnia")
    ratings = await store.rating_history(GUILD, "11")
    assert [(p.kind, p.games) for p in ratings] == [("malice", 1), ("insomnia", 1)]
    assert ratings[0].ended_at < DEC_1 <= ratings[1].ended_at
    assert [p.kind for p in await store.rating_history(GUILD, "11", "insomnia")] == ["insomnia"]
    assert [p.net for p in await store.chip_history(GUILD, "11")] == [5, -3]
    assert [p.net for p in await store.chip_history(GUILD, "11", since=DEC_1)] == [-3]
    assert await store.chip_history(GUILD, "11", "malice", since=DEC_1) == []


async def test_head_to_head(store):
    await finish(store, {"11": 1, "12": 2}, chips=[mv("12", "11", 5)])
    await finish(store, {"11": 1, "12": 1})  # a draw
    # An Insomnia game of three: 11 paid 12 two chips straight; the pot is nobody's chips between them.
    await finish(
        store,
        {"12": 1, "11": 2, "13": 3},
        kind="insomnia",
        chips=[mv("11", "12", 2), mv("13", "@pot", 4), mv("@pot", "12", 4)],
    )
    await finish(store, {"11": 1, "13": 2})  # 12 not there
    record = await store.head_to_head(GUILD, "11", "12")
    total, malice, insomnia = record["*"], record["malice"], record["insomnia"]
    assert (total.games, total.wins, total.draws, total.losses, total.net) == (3, 1, 1, 1, 3)
    assert (malice.games, malice.net) == (2, 5)
    assert (insomnia.games, insomnia.losses, insomnia.net) == (1, 1, -2)
    assert (await store.head_to_head(GUILD, "12", "11"))["*"].net == -3
    assert await store.head_to_head(GUILD, "12", "99") == {}


async def test_games_outside_a_server_keep_ratings_of_their_own(store):
    """Guild 0 is the scope of games played outside a server (DMs): rated and counted apart."""
    await finish(store, {"11": 1, "12": 2}, guild=0)
    await finish(store, {"11": 2, "12": 1})
    assert [r.games for r in await store.player_ratings(0, "11")] == [1]
    assert [r.player for r in await store.rating_leaderboard(0, "malice")] == ["11", "12"]
    assert [r.player for r in await store.rating_leaderboard(GUILD, "malice")] == ["12", "11"]
    assert (await store.head_to_head(0, "11", "12"))["*"].wins == 1
    assert (await store.head_to_head(GUILD, "11", "12"))["*"].losses == 1


async def test_the_seasons_setting(store):
    assert (await store.guild_settings(GUILD)).seasons == "monthly"
    await store.set_seasons(GUILD, "off")
    assert (await store.guild_settings(GUILD)).seasons == "off"
    await store.set_seasons(GUILD, None)
    assert (await store.guild_settings(GUILD)).seasons == "monthly"
    with pytest.raises(ValueError):
        await store.set_seasons(GUILD, "weekly")


async def test_two_stores_finishing_games_of_the_same_people_at_once_lose_no_update(database):
    """Two connections (pools) finishing ten games of the same two people at once: every rating update
    starts from the one before it (the rows are locked from read to commit), none is lost."""
    first, second = await open_store(database), await open_store(database)
    try:
        tables = [await running_table(first, next(_channels), ["11", "12"], kind="malice") for _ in range(10)]
        await asyncio.gather(
            *(
                finish(first if i % 2 else second, {"11": 1 + i % 2, "12": 2 - i % 2}, table=t)
                for i, t in enumerate(tables)
            )
        )
        changes = sorted(
            [c for t in tables for c in await first.rating_changes(t) if c.player == "11"],
            key=lambda c: c.games,
        )
        assert [c.games for c in changes] == list(range(1, 11))
        for earlier, later in itertools.pairwise(changes):
            assert later.mu_before == earlier.mu_after and later.sigma_before == earlier.sigma_after
    finally:
        await first.close()
        await second.close()


FINISHER = """
import asyncio, sys, time
from bot.sessions.rating import rate
from storage import Rated, ResultIn, SequenceConflict, TableStateError, open_store

async def main(url, table, at):
    store = await open_store(url)
    results = [ResultIn(player="11", net=0, placement=1, won=True),
               ResultIn(player="12", net=0, placement=2, won=False)]
    await asyncio.sleep(max(0.0, at - time.time()))
    try:
        rated = Rated({"11": 1, "12": 2}, rate)
        await store.append_action(table, 0, None, "{}", [], "{}", results, rated=rated)
        print("finished")
    except (SequenceConflict, TableStateError):
        print("refused")
    await store.close()

asyncio.run(main(sys.argv[1], int(sys.argv[2]), float(sys.argv[3])))
"""


async def test_two_processes_finishing_one_game_rate_it_once(database, tmp_path):
    if not is_postgres_url(database):
        pytest.skip("several processes share a database on PostgreSQL only")
    store = await open_store(database)
    try:
        table = await running_table(store, next(_channels), ["11", "12"], kind="malice")
        at = str(time.time() + 3)
        env = {**os.environ, "PYTHONPATH": os.getcwd()}
        runs = [
            subprocess.Popen(
                [sys.executable, "-c", FINISHER, database, str(table), at],
                stdout=subprocess.PIPE,
                text=True,
                env=env,
            )
            for _ in range(2)
        ]
        said = sorted([(await asyncio.to_thread(p.communicate, timeout=60))[0].strip() for p in runs])
        assert said == ["finished", "refused"]
        assert [c.games for c in await store.rating_changes(table)] == [1, 1]
        rows = await raw_fetch(database, f"SELECT COUNT(*) FROM rating_changes WHERE table_id = {table}")
        assert rows == [(2,)]
    finally:
        await store.close()
