"""A competition's records in the store, on both backends: entrants, rounds and matches; the one fact a
competition hears of its tables ("table N finished", in the finishing transaction) settles the match and
marks the round done; the next round is paired once however often it is asked, also by two processes
finishing the round's last two games at the same moment (PostgreSQL)."""

from __future__ import annotations

import asyncio
import itertools
import os
import subprocess
import sys
import time

import pytest

from storage import ChannelBusy, ResultIn, Store, is_postgres_url, open_store
from storage.competitions import CompetitionError

from .conftest import GUILD, Doc, raw_fetch

_channels = itertools.count(7000)


async def match_table(store: Store, match_id: int, players: tuple[str, ...]) -> int:
    from storage import SeatIn

    channel = next(_channels)
    table = await store.create_match_table(match_id, GUILD, channel, "malice", 1, Doc(), f"s{channel}", "c")
    await store.set_seats(table, [SeatIn(seat=i, player=p, user_id=int(p)) for i, p in enumerate(players)])
    await store.start_table(table, "{}")
    return table


async def finish(store: Store, table: int, winner: str, loser: str) -> None:
    results = [
        ResultIn(player=winner, net=0, placement=1, won=True),
        ResultIn(player=loser, net=0, placement=2, won=False),
    ]
    await store.append_action(table, 0, None, '{"kind":"x"}', [], "{}", results)


async def started(store: Store, players: list[str], tables: list[tuple[str, ...]]) -> int:
    event = await store.create_competition(GUILD, 1, "malice", "swiss", 2, {"deadline": 60}, host_id=9)
    for i, p in enumerate(players):
        assert await store.join_competition(event, p, rating=float(10 - i))
    await store.start_competition(event, players, tables, deadline=None)
    return event


async def test_entrants_join_once_and_not_after_the_start(store):
    event = await store.create_competition(GUILD, 1, "malice", "swiss", 3, {}, host_id=9)
    assert await store.join_competition(event, "11", 5.0)
    assert not await store.join_competition(event, "11", 5.0)
    assert await store.join_competition(event, "12", 0.0)
    assert await store.check_in(event, "11") and not await store.check_in(event, "11")
    assert await store.leave_competition(event, "12")
    await store.start_competition(event, ["11"], [("11",)], deadline=None)
    with pytest.raises(CompetitionError):
        await store.join_competition(event, "13", 0.0)
    row = await store.competition(event)
    assert row is not None and [e.player for e in row.entrants] == ["11"] and row.status == "running"


async def test_the_last_finished_table_marks_the_round_done_and_it_advances_once(store):
    event = await started(store, ["11", "12", "13", "14", "15"], [("11", "13"), ("12", "14"), ("15",)])
    row = await store.competition(event)
    assert row is not None and row.round == 1 and row.round_done == 0
    first, second, bye = row.current()
    assert bye.settled and not first.settled
    t1 = await match_table(store, first.id, first.players)
    with pytest.raises(CompetitionError):  # a second table for one match is never made
        await match_table(store, first.id, first.players)
    t2 = await match_table(store, second.id, second.players)
    await finish(store, t1, "13", "11")
    row = await store.competition(event)
    assert row is not None and row.round_done == 0 and row.current()[0].places == (2, 1)
    assert not await store.advance_competition(event, 1, [("11", "12")], None)  # not done yet
    await finish(store, t2, "12", "14")
    row = await store.competition(event)
    assert row is not None and row.round_done == 1
    assert await store.advance_competition(event, 1, [("13", "12"), ("11", "15"), ("14",)], deadline=99.0)
    assert not await store.advance_competition(event, 1, [("13", "12"), ("11", "15"), ("14",)], None)
    row = await store.competition(event)
    assert row is not None and row.round == 2 and row.deadline == 99.0
    assert [m.players for m in row.current()] == [("13", "12"), ("11", "15"), ("14",)]
    assert await store.claim_announcement(event, 2) and not await store.claim_announcement(event, 2)


async def test_a_match_settled_without_its_table_and_the_end(store):
    event = await started(store, ["11", "12"], [("11", "12")])
    row = await store.competition(event)
    assert row is not None
    (match,) = row.current()
    await store.settle_match(match.id, [1, 1], ["11", "12"])  # both absent
    row = await store.competition(event)
    assert row is not None and row.round_done == 1 and row.current()[0].forfeits == ("11", "12")
    assert await store.advance_competition(event, 1, None, None)
    row = await store.competition(event)
    assert row is not None and row.status == "finished"
    with pytest.raises(CompetitionError):
        await store.drop_out(event, "11")


async def test_a_match_table_in_a_busy_channel_is_not_linked(store):
    from .conftest import running_table

    channel = next(_channels)
    other = await running_table(store, channel, ["21", "22"], kind="malice")
    await finish(store, other, "21", "22")  # a table of no competition finishes as ever
    await running_table(store, channel, ["21", "22"], kind="malice")
    event = await started(store, ["11", "12"], [("11", "12")])
    (match,) = (await store.competition(event)).current()
    with pytest.raises(ChannelBusy):
        await store.create_match_table(match.id, GUILD, channel, "malice", 1, Doc(), "s", "c")
    assert (await store.competition(event)).current()[0].table_id is None


FINISHER = """
import asyncio, sys, time
from bot.events.formats import FORMATS
from bot.events.model import Entrant, Match
from storage import ResultIn, open_store

async def main(url, event, table, winner, loser, at):
    store = await open_store(url)
    results = [ResultIn(player=winner, net=0, placement=1, won=True),
               ResultIn(player=loser, net=0, placement=2, won=False)]
    await asyncio.sleep(max(0.0, at - time.time()))
    await store.append_action(table, 0, None, "{}", [], "{}", results)
    row = await store.competition(event)
    said = "waiting"
    if row.round_done == row.round:
        entrants = [Entrant(e.player, e.rating, i) for i, e in enumerate(row.entrants)]
        matches = [Match(m.round, m.table_no, m.players, m.places, m.forfeits) for m in row.matches]
        tables = FORMATS["swiss"].pair(row.rounds, entrants, matches, row.round + 1)
        said = "paired" if await store.advance_competition(event, row.round, tables, None) else "late"
    print(said)
    await store.close()

asyncio.run(main(sys.argv[1], *map(int, sys.argv[2:4]), sys.argv[4], sys.argv[5], float(sys.argv[6])))
"""


async def test_two_processes_finishing_the_rounds_last_two_games_pair_the_next_round_once(database):
    if not is_postgres_url(database):
        pytest.skip("several processes share a database on PostgreSQL only")
    store = await open_store(database)
    try:
        event = await started(store, ["11", "12", "13", "14"], [("11", "13"), ("12", "14")])
        row = await store.competition(event)
        tables = [await match_table(store, m.id, m.players) for m in row.current()]
        at = str(time.time() + 3)
        env = {**os.environ, "PYTHONPATH": os.getcwd()}
        runs = [
            subprocess.Popen(
                [sys.executable, "-c", FINISHER, database, str(event), str(t), w, lo, at],
                stdout=subprocess.PIPE,
                text=True,
                env=env,
            )
            for t, (w, lo) in zip(tables, [("11", "13"), ("12", "14")], strict=True)
        ]
        said = sorted([(await asyncio.to_thread(p.communicate, timeout=60))[0].strip() for p in runs])
        # Either the second to finish paired the round (the first found it not done yet), or both found it
        # done and one of them paired it: never two pairings.
        assert said in (["paired", "waiting"], ["late", "paired"])
        counts = await raw_fetch(
            database,
            f"SELECT round, COUNT(*) FROM competition_matches WHERE competition_id = {event}"
            " GROUP BY round ORDER BY round",
        )
        assert counts == [(1, 2), (2, 2)]
        row = await store.competition(event)
        assert row.round == 2 and row.round_done == 1
        assert {m.players for m in row.current()} == {("11", "12"), ("13", "14")} or all(
            frozenset(m.players) not in ({"11", "13"}, {"12", "14"}) for m in row.current()
        )
    finally:
        await store.close()


async def test_a_seat_the_computer_played_scores_nothing(store):
    event = await started(store, ["11", "12"], [("11", "12")])
    (match,) = (await store.competition(event)).current()
    table = await match_table(store, match.id, match.players)
    results = [
        ResultIn(player="11", net=0, placement=1, won=True),
        ResultIn(player="12", net=0, placement=2, won=False),
    ]
    await store.append_action(table, 0, None, '{"kind":"x"}', [], "{}", results, taken_over=["11"])
    (settled,) = (await store.competition(event)).current()
    assert settled.places == (1, 2) and settled.forfeits == ("11",)


async def test_a_voided_match_leaves_the_standings_and_the_rounds_stand(store):
    from bot.events import plan
    from bot.sessions.rating import rate

    event = await started(store, ["11", "12", "13", "14"], [("11", "13"), ("12", "14")])
    row = await store.competition(event)
    assert row is not None
    first, second = row.current()
    t1 = await match_table(store, first.id, first.players)
    t2 = await match_table(store, second.id, second.players)
    await finish(store, t1, "13", "11")
    await finish(store, t2, "12", "14")
    row = await store.competition(event)
    assert row is not None
    assert {s.player: s.points for s in plan.standings(row)} == {"11": 0.0, "12": 1.0, "13": 1.0, "14": 0.0}
    assert await store.advance_competition(event, 1, [("13", "12"), ("11", "14")], None)
    await store.void_table(t1, moderator=77, reason="farmed", rate=rate)  # 13 beat 11 by arrangement
    row = await store.competition(event)
    assert row is not None
    voided = next(m for m in row.matches if m.table_id == t1)
    assert voided.forfeits == ("11", "13") and voided.places == (2, 1) and voided.settled
    # Out of the standings: 13 has no point from it (12's win still counts), and nobody scores from it.
    got = plan.standings(row)
    assert {s.player: s.points for s in got} == {"11": 0.0, "12": 1.0, "13": 0.0, "14": 0.0}
    assert got[0].player == "12"
    # The rounds already paired stand: round two as it was, nothing paired again.
    assert row.round == 2 and [m.players for m in row.current()] == [("13", "12"), ("11", "14")]
    other = next(m for m in row.matches if m.table_id == t2)
    assert other.forfeits == ()  # the other match untouched


async def test_an_announcement_claimed_by_a_sender_that_died_is_owed_again_after_its_lease(database):
    """Claimed before it is sent, so no two processes send it; marked posted once sent. A claim never
    marked posted (a kill -9 between the claim and the send, or Discord refusing it) is owed again once
    the lease is over, and only then; a posted one never."""
    now = [1_800_000_000.0]
    store = await open_store(database, clock=lambda: now[0])
    try:
        event = await started(store, ["11", "12"], [("11", "12")])
        assert await store.unposted_announcements(60) == [event], "round 1 paired and never claimed"
        assert await store.claim_announcement(event, 1, lease=60)
        assert not await store.claim_announcement(event, 1, lease=60), "claimed: nobody else sends it"
        assert await store.unposted_announcements(60) == [], "its sender may still be on its way"
        now[0] += 59
        assert not await store.claim_announcement(event, 1, lease=60)
        now[0] += 2  # the sender died: the claim is taken again, once
        assert await store.unposted_announcements(60) == [event]
        assert await store.claim_announcement(event, 1, lease=60)
        assert not await store.claim_announcement(event, 1, lease=60)
        await store.announcement_posted(event, 1)
        now[0] += 3600
        assert await store.unposted_announcements(60) == []
        assert not await store.claim_announcement(event, 1, lease=60), "posted: never again"
    finally:
        await store.close()
