"""A new tournament format is a module plus one registry line: a toy format (tests/events/toy_format.py),
registered for this test only, runs an event end to end through the real service, runner, session layer and
store (both backends): the store keeps its name (no CHECK, no migration), the games it may play come from
each game's seats, its pairing opens the tables and its standings end the event."""

from __future__ import annotations

from bot.events.formats import FORMATS, Format
from tests.events import toy_format
from tests.events.test_service import create, wait_for, wait_for_status
from tests.refusals import refused
from tests.test_sessions import ALICE, BOB, CAROL, CHANNEL, fixed_seeds, manager  # noqa: F401  (fixed games)


def test_the_toy_is_a_format():
    fmt: Format = toy_format.FORMAT  # mypy checks the protocol; the registry takes it as any other
    assert fmt.name not in FORMATS


async def test_a_toy_format_registered_in_one_line_plays_an_event(events, store):
    with FORMATS.registered(toy_format.FORMAT):
        with refused("Swiss and knockout are for Malice"):  # a game of many has no two-seat tables
            await create(events, kind="insomnia", fmt="sprint")
        event = await create(events, kind="malice", fmt="sprint")
        for who in (ALICE, BOB, CAROL):
            await events.join(CHANNEL, who, event)
        await events.start(CHANNEL, ALICE, event, can_manage=False, roles=())
        row = await store.competition(event)
        assert row.format == "sprint" and row.rounds == 1
        assert [m.players for m in row.current()] == [(str(ALICE), str(BOB)), (str(CAROL),)]  # in join order
        sessions = events.sessions
        table = await wait_for(lambda: (t := sessions.table_in(CHANNEL)) and t.status == "running" and t)
        await sessions.life.resign(CHANNEL, BOB)
        await events.runner.idle()
        await wait_for_status(store, event, "finished")
        board = await events.show(CHANNEL, event)
        assert table.kind == "malice"
        assert [(line.player, line.points) for line in board.lines] == [
            (str(ALICE), 1.0),
            (str(CAROL), 1.0),
            (str(BOB), 0.0),
        ]
    assert "sprint" not in FORMATS
