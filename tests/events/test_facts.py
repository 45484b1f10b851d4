"""The stored signal's typed facts (bot/sessions/facts.py), with the real session layer, the runner and a real
store (both backends): a table's end is heard once, as `TableFinished`, naming the event whose match it
played (None for an ordinary table), and the runner learns the event from the fact: it asks the store
nothing per finished table, and keeps nothing per table it heard."""

from __future__ import annotations

import pytest

from bot.sessions.facts import GameChanged, LobbyChanged, TableFinished
from bot.sessions.threads import NO_THREADS
from tests.events.test_service import create, wait_for, wait_for_status
from tests.test_sessions import ALICE, BOB, CHANNEL, GUILD, fixed_seeds, manager  # noqa: F401  (fixed games)


@pytest.fixture
def heard(events):
    facts: list = []
    events.sessions.tables.stored.listen(facts.append)
    return facts


@pytest.fixture
def no_table_lookups(store, monkeypatch):
    """The store's per-table question the runner once asked at every finished table: asked now, it fails."""

    async def asked(table_id: int) -> None:
        raise AssertionError(f"the store was asked for table {table_id}'s competition")

    monkeypatch.setattr(store, "competition_of_table", asked)


async def test_an_ordinary_table_is_heard_finished_once_naming_no_event(events, heard, no_table_lookups):
    sessions = events.sessions
    table = await sessions.open_table("malice", GUILD, CHANNEL, ALICE, opponent=BOB)
    await sessions.lobbies.accept(CHANNEL, BOB, NO_THREADS)
    await sessions.life.resign(CHANNEL, BOB)
    await sessions.idle()
    await events.runner.idle()
    mine = [f for f in heard if f.record.id == table.id]
    assert isinstance(mine[0], LobbyChanged) and any(isinstance(f, GameChanged) for f in mine)
    finished = [f for f in mine if isinstance(f, TableFinished)]
    assert len(finished) == 1 and finished[0].competition is None
    assert not vars(events.runner).get("_finished")  # nothing kept per table heard


async def test_a_match_table_names_its_event_and_the_round_advances_from_the_fact(
    events, heard, store, no_table_lookups
):
    event = await create(events, rounds=1)
    for who in (ALICE, BOB):
        await events.join(CHANNEL, who, event)
    await events.start(CHANNEL, ALICE, event, can_manage=False, roles=())
    sessions = events.sessions
    table = await wait_for(lambda: (t := sessions.table_in(CHANNEL)) and t.status == "running" and t)
    assert table.record.competition == event
    # What a restart reads back: the table's row names its event too.
    assert (await store.get_table(table.id)).competition_id == event
    await sessions.life.resign(CHANNEL, int(table.players[1]))
    await events.runner.idle()
    await wait_for_status(store, event, "finished")
    finished = [f for f in heard if isinstance(f, TableFinished)]
    assert [(f.record.id, f.competition) for f in finished] == [(table.id, event)]
