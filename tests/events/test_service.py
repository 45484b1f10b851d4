"""The tournament commands' service and the runner with the real session layer and a real store (both
backends), Discord replaced by a recording announcer: every bad input refused with its own sentence; a
Swiss in a server without threads plays its matches one at a time in the channel, each round announced once,
and a restart of the runner in the middle picks the event up where the store has it."""

from __future__ import annotations

import asyncio
import time

from bot.events.runner import Runner
from bot.events.service import Tournaments
from bot.sessions.threads import NO_THREADS
from tests.refusals import refused
from tests.test_sessions import ALICE, BOB, CAROL, CHANNEL, GUILD, manager

DAVE = 104


async def create(events: Tournaments, **given) -> int:
    options = {"kind": "malice", "fmt": "swiss", "rounds": 2, "deadline": 60, "options": None}
    options |= {"starts_at": None, "checkin": None, "room": NO_THREADS, "can_manage": False, "roles": ()}
    said = await events.create(GUILD, CHANNEL, ALICE, **{**options, **given})
    assert said.key == "tournament.created"
    return int(said.params["event"])


async def test_every_bad_input_is_refused_with_its_own_sentence(events, store):
    with refused("Swiss and knockout are for Malice, table rounds for Insomnia"):
        await create(events, kind="insomnia")
    with refused("No tournament is open or running in this channel"):
        await events.join(CHANNEL, BOB, None)
    with refused("could not read the options"):
        await create(events, options="stake two")
    event = await create(events, checkin=15, starts_at=time.time() + 3600)
    await events.join(CHANNEL, BOB, None)
    with refused("already in"):
        await events.join(CHANNEL, BOB, event)
    with refused("Check-in opens <t:"):
        await events.check_in(CHANNEL, BOB, None)
    with refused("not in this tournament"):
        await events.check_in(CHANNEL, CAROL, None)
    with refused("Only its host <@101> or a server manager"):
        await events.start(CHANNEL, BOB, None, can_manage=False, roles=())
    with refused("At least 2 entrants"):  # nobody checked in: nobody plays
        await events.start(CHANNEL, ALICE, None, can_manage=False, roles=())
    with refused("There is no tournament #99"):
        await events.join(CHANNEL, BOB, 99)
    plain = await create(events, rounds=5)
    for who in (ALICE, BOB, CAROL):
        await events.join(CHANNEL, who, plain)
    with refused("at most 2 Swiss rounds"):
        await events.start(CHANNEL, ALICE, plain, can_manage=False, roles=())


async def test_a_swiss_without_threads_plays_one_match_at_a_time_and_survives_a_restart(
    events, store, announcer
):
    event = await create(events, rounds=2)
    for who in (ALICE, BOB, CAROL, DAVE):
        await events.join(CHANNEL, who, event)
    started = await events.start(CHANNEL, BOB, event, can_manage=True, roles=())
    assert started.key == "tournament.started"
    with refused("already started"):
        await events.join(CHANNEL, CAROL, event)
    with refused("use `/tournament drop`"):
        await events.leave(CHANNEL, CAROL, event)
    sessions = events.sessions
    for round_no in (1, 2):
        for _match in range(2):
            table = await wait_for(lambda: (t := sessions.table_in(CHANNEL)) and t.status == "running" and t)
            assert table.kind == "malice"
            row = await store.competition(event)
            assert row.round == round_no
            # One match at a time: the other waits for the channel.
            assert sum(m.table_id is not None and not m.settled for m in row.current()) == 1
            await sessions.life.resign(CHANNEL, int(table.players[1]))
            await wait_for(lambda t=table: sessions.tables.by_id(t.id) is None)
            if round_no == 1 and _match == 0:  # the runner restarts between the round's two matches
                await events.runner.close()
                events.runner = Runner(store, sessions)
                events.runner.start()
                assert await events.runner.resume() == 1
            await events.runner.idle()
    row = await wait_for_status(store, event, "finished")
    assert [m.round for m in row.matches] == [1, 1, 2, 2]
    posts = [s.message.content or "" for s in announcer.log if s.kind == "send" and s.target == CHANNEL]
    heads = [p.split("\n")[0] for p in posts if "Tournament #" in p]
    assert [h.split(" · ")[-1] for h in heads[:2]] == ["Round 1 of 2", "Round 2 of 2"] and len(heads) == 3
    board = await events.show(CHANNEL, event)
    assert board.status == "finished" and [x.points for x in board.lines] == [2.0, 1.0, 1.0, 0.0]


async def wait_for(predicate, timeout: float = 20.0):
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not (found := predicate()):
        assert loop.time() < end, "timed out"
        await asyncio.sleep(0.01)
    return found


async def wait_for_status(store, event: int, status: str):
    loop = asyncio.get_running_loop()
    end = loop.time() + 20
    while (row := await store.competition(event)).status != status:
        assert loop.time() < end, row
        await asyncio.sleep(0.01)
    return row


async def test_a_match_table_left_in_its_lobby_by_a_crash_is_dealt_when_the_runner_comes_back(events, store):
    event = await create(events, rounds=1)
    for who in (ALICE, BOB):
        await events.join(CHANNEL, who, event)
    sessions, runner = events.sessions, events.runner
    await runner.close()  # the runner of the process that crashed: it never took its step
    await events.start(CHANNEL, ALICE, event, can_manage=False, roles=())
    (match,) = (await store.competition(event)).current()
    # What a crash between the lobby's creation (linked to its match) and its deal leaves behind.
    lobby = await sessions.lobbies.open(
        kind="malice",
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=ALICE,
        options={},
        players=list(match.players),
        match=match.id,
        competition=event,
    )
    assert lobby.status == "lobby"
    events.runner = Runner(store, sessions)
    events.runner.start()
    assert await events.runner.resume() == 1
    await events.runner.idle()
    table = await wait_for(lambda: (t := sessions.tables.by_id(lobby.id)) and t.status == "running" and t)
    assert table.players == match.players
    assert (await store.competition(event)).current()[0].table_id == lobby.id, "no second table for the match"


async def test_the_start_time_starts_the_event_with_the_checked_in_after_a_restart(
    store, announcer, monkeypatch
):
    from bot.events import runner as running

    monkeypatch.setattr(running, "WATCH_EVERY", 0.01)  # the watcher looks often; the clock is moved by hand
    now = [1_800_000_000.0]
    sessions = await manager(store, announcer)
    first = Runner(store, sessions, clock=lambda: now[0])
    first.start()
    events = Tournaments(store, sessions, first, clock=lambda: now[0])
    event = await create(events, rounds=1, checkin=15, starts_at=now[0] + 600)
    short = await create(events, rounds=1, starts_at=now[0] + 600)  # nobody joins it but Alice
    for who in (ALICE, BOB, CAROL):
        await events.join(CHANNEL, who, event)
    await events.join(CHANNEL, ALICE, short)
    for who in (ALICE, CAROL):  # Bob never checks in
        await events.check_in(CHANNEL, who, event)
    await first.close()  # a restart before the start time: the next runner finds it in the store
    second = Runner(store, sessions, clock=lambda: now[0])
    second.start()
    try:
        assert await second.resume() == 0  # nothing running yet
        await asyncio.sleep(0.1)  # several looks of the watcher: not yet time
        assert (await store.competition(event)).status == "open"
        now[0] += 601
        row = await wait_for_status(store, event, "running")
        await second.idle()
        assert [e.player for e in row.entrants] == [str(ALICE), str(CAROL)]  # the checked-in alone
        assert [set(m.players) for m in row.current()] == [{str(ALICE), str(CAROL)}]
        await wait_for(lambda: (t := sessions.table_in(CHANNEL)) and t.status == "running")
        posts = [s.message.content or "" for s in announcer.log if s.kind == "send" and s.target == CHANNEL]
        assert any(f"Tournament #{event}" in p and "Round 1 of 1" in p for p in posts)
        told = [p for p in posts if f"Tournament #{short}" in p]
        assert len(told) == 1 and "could not start: At least 2 entrants" in told[0]
        assert (await store.competition(short)).status == "open"  # left to its host
    finally:
        await second.close()
        await sessions.close(flush=0)


async def test_a_round_claimed_by_a_process_killed_before_sending_it_is_announced_once_after_the_lease(
    store, announcer, monkeypatch
):
    """A kill -9 between claiming a round's announcement and sending it: the claim stays in the store,
    unsent. The next runner leaves it alone while its sender might still be on its way, then claims and
    sends it, once."""
    from bot.events import runner as running

    monkeypatch.setattr(running, "WATCH_EVERY", 0.01)
    monkeypatch.setattr(running, "ANNOUNCE_LEASE", 0.5)
    monkeypatch.setattr(running, "REPOST_EVERY", 0.05)
    sessions = await manager(store, announcer)
    dead = Runner(store, sessions)
    events = Tournaments(store, sessions, dead)
    event = await create(events, rounds=1)
    for who in (ALICE, BOB):
        await events.join(CHANNEL, who, event)
    await events.start(CHANNEL, ALICE, event, can_manage=False, roles=())  # its runner never started
    assert await store.claim_announcement(event, 1, lease=0.5), "the killed process's claim"

    def rounds_posted() -> list[str]:
        posts = [s.message.content or "" for s in announcer.log if s.kind == "send" and s.target == CHANNEL]
        return [p for p in posts if f"Tournament #{event}" in p and "Round 1 of 1" in p]

    second = Runner(store, sessions)
    second.start()
    try:
        assert await second.resume() == 1
        await second.idle()
        assert rounds_posted() == [], "claimed a moment ago: its sender may still send it"
        await wait_for(lambda: rounds_posted(), timeout=10)
        await asyncio.sleep(0.7)  # more than a lease later: nothing sent twice
        await second.idle()
        assert len(rounds_posted()) == 1
        assert await store.unposted_announcements(0.0) == []
    finally:
        await second.close()
        await sessions.close(flush=0)
