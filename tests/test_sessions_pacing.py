"""Discord's budget as the bot keeps it (bot/sessions/pacing.py): however long requests take and however
their latency jitters, no window as Discord counts it holds more than the limit; and a table that waited for
its turn in the budget shows every move made meanwhile, in one write. Real engines, a real Store on a tmp
file, a recording Announcer."""

from __future__ import annotations

import asyncio
import random
import time

from bot import render, warmup
from bot.games.ai import choose_action
from bot.games.registry import REGISTRY
from bot.render.registry import PRESENTATIONS
from bot.sessions.pacing import Budget, Pacer, after_request, before_request
from tests.live import TestSessions
from tests.recording import RecordingAnnouncer
from tests.test_sessions import ALICE, BOB, BOT, CHANNEL, GUILD, best_malice_move, fixed_seeds  # noqa: F401


async def test_no_window_as_the_server_counts_it_holds_more_than_the_limit_whatever_the_latency():
    limit, period = 5, 0.2
    budget = Budget(limit, period)
    rng = random.Random(3)
    stamps: list[float] = []  # when the "server" counted each request: anywhere between leaving and answer

    async def request() -> None:
        async with budget.queue:
            await budget.wait()
            budget.leave()
        left = time.monotonic()
        latency = rng.choice([0.0, 0.001, 0.02, 0.06])  # mostly quick, now and then slow: jitter
        await asyncio.sleep(latency)
        stamps.append(left + rng.random() * latency)
        budget.back()

    started = time.monotonic()
    await asyncio.gather(*(request() for _ in range(40)))
    elapsed = time.monotonic() - started
    stamps.sort()
    for i, first in enumerate(stamps):
        inside = [s for s in stamps[i:] if s < first + period]
        assert len(inside) <= limit, f"{len(inside)} counted within {period} s of {first - started:.3f}"
    # And it is a budget, not a brake: 40 requests at 5 per 0.2 s take about 1.6 s (the last answers count
    # for a period each), not the 40 x 0.2 s a request-at-a-time pace would.
    assert elapsed < 40 / limit * period + 1.0


async def test_a_table_waiting_for_its_turn_shows_the_moves_made_meanwhile_in_one_write(store, monkeypatch):
    # One write per second in this channel: the first move is written at once, the next moves wait.
    monkeypatch.setattr("bot.sessions.pacing.CHANNEL_WRITES", 1)
    monkeypatch.setattr("bot.sessions.pacing.CHANNEL_PERIOD", 1.0)
    announcer = RecordingAnnouncer()
    sessions = TestSessions(
        store, announcer, default_timeout=300.0, bot_user_id=BOT, coalesce=0.0, pacing=True
    )
    table = await sessions.open_table(
        "malice", GUILD, CHANNEL, ALICE, opponent=BOB, options={"stake": 1, "timeout": 300, "turns": 40}
    )
    await sessions.lobbies.accept(CHANNEL, BOB)
    await sessions.idle()
    await asyncio.sleep(1.05)  # the game's first write has left the window
    before = len(announcer.log)
    await sessions.moves.act(CHANNEL, int(table.game.current_player), best_malice_move(table.game))
    await asyncio.sleep(0.05)  # its write goes at once (the window had room)...
    for _ in range(3):  # ...and these three come while the channel has none
        await sessions.moves.act(CHANNEL, int(table.game.current_player), best_malice_move(table.game))
    await sessions.idle()
    writes = [w for w in announcer.log[before:] if w.kind == "edit"]
    assert len(writes) == 2, "the three moves made while the table waited became one write"
    shown = "\n".join(writes[-1].message.texts())
    for line in table.log_lines()[-3:]:
        assert line.text in shown
    await sessions.close()


async def test_the_table_picture_drawn_in_a_thread_is_the_one_drawn_in_place(store):
    sessions = TestSessions(
        store, RecordingAnnouncer(), default_timeout=300.0, bot_user_id=BOT, coalesce=0.0, pacing=False
    )
    table = await sessions.open_table("malice", GUILD, CHANNEL, ALICE, opponent=BOB, options={"timeout": 300})
    await sessions.lobbies.accept(CHANNEL, BOB)
    for _ in range(3):
        table = sessions.table_in(CHANNEL)
        await sessions.moves.act(CHANNEL, int(table.game.current_player), best_malice_move(table.game))
    message_id = sessions.presenter.message_id(table.id)
    async with sessions.presenter.answers.update(table.id, message_id) as in_place:
        threaded = await sessions.presenter.drawn(table.id)
    # A click's answer carries the new picture itself (no token edit follows it with the picture): the same
    # message as a write of the table message.
    assert in_place.picture is not None and threaded.picture is not None
    assert in_place.picture.data == threaded.picture.data
    assert in_place.picture.filename == threaded.picture.filename
    assert list(threaded.texts()) == list(in_place.texts())
    await sessions.close()


def test_the_warm_up_plays_and_renders_every_game_with_a_table():
    played = warmup.warm_up()
    games = {spec.name for spec in REGISTRY if spec.name in PRESENTATIONS}
    assert set(played) == games
    assert all(moves > 0 for moves in played.values()), played


async def test_a_new_deal_is_dmed_to_everyone_but_the_person_whose_move_dealt_it(store):
    """His answer to that move is his new hand already: a DM would repeat it and spend a request."""
    announcer = RecordingAnnouncer()
    sessions = TestSessions(
        store, announcer, default_timeout=300.0, bot_user_id=BOT, coalesce=0.0, pacing=False
    )
    table = await sessions.open_table("insomnia", GUILD, CHANNEL, ALICE, options={"deals": 4})
    await sessions.lobbies.join(CHANNEL, BOB)
    await sessions.lobbies.start(CHANNEL, ALICE)
    await sessions.idle()
    checked = 0
    for step in range(400):
        if table.status != "running":
            break
        mover = table.game.current_player
        deal = table.game.deal
        dms_before = {p: len(announcer.dms_to(p)) for p in (ALICE, BOB)}
        answer = await sessions.moves.act(CHANNEL, int(mover), choose_action(table.game, mover, f"t{step}"))
        await sessions.idle()
        if table.status == "running" and table.game.deal != deal:
            other = BOB if int(mover) == ALICE else ALICE
            assert len(announcer.dms_to(int(mover))) == dms_before[int(mover)], "no DM for the mover"
            assert len(announcer.dms_to(other)) == dms_before[other] + 1, "the other gets his new hand"
            hand = render.hand_message(table.info(), table.game, mover, dm=False, picture=False)
            said, shown = list(answer.texts()), list(hand.texts())
            # The mover's answer is his new hand, led by the move he made.
            assert said[0].startswith("✅") and said[0].endswith(shown[0]) and said[1:] == shown[1:], said
            checked += 1
    assert checked >= 2, "the game dealt again after people's moves"
    await sessions.close()


async def test_the_door_follows_its_share_and_counts_what_the_slots_did_not():
    # The share is read at every look: 0 holds requests back until it grows; a shrink holds the next ones.
    share = [0]
    door = Budget(lambda: share[0], 5.0)  # long: what was answered stays in the window
    waiting = asyncio.ensure_future(before_request(door))
    await asyncio.sleep(0.1)
    assert not waiting.done(), "no share, no request"
    share[0] = 2
    assert await asyncio.wait_for(waiting, 1.0) is True and door.used() == 1
    after_request(door)
    # Inside a slot, the slot's own request is counted already; a second one (a retry) waits and counts.
    pacer = Pacer(door)
    async with pacer.write(CHANNEL) as slot, slot.request():
        assert door.used() == 2  # the one answered before, and the slot's
        assert await before_request(door) is False
        assert door.used() == 2
        share[0] = 3
        assert await before_request(door) is True and door.used() == 3
        after_request(door)
