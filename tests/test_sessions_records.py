"""The session's records, one owner each: the log stored as facts and worded when shown, the presenter's own
record of what it showed, and a move that fails to store changing nothing anybody else wrote."""

from __future__ import annotations

import asyncio

import pytest

from bot.discord_out import discord_words
from bot.sessions import NotAllowed
from bot.sessions.display import Display
from tests.recording import RecordingAnnouncer
from tests.test_sessions import ALICE, BOB, CHANNEL, GUILD, best_malice_move, fixed_seeds, manager  # noqa: F401


def table_text(announcer: RecordingAnnouncer, message_id: int) -> str:
    return "\n".join(announcer.messages[message_id].texts())


async def test_switching_the_language_rewords_the_older_log_lines_of_a_running_table(store, announcer):
    sessions = await manager(store, announcer)
    table = await sessions.open_table("malice", GUILD, CHANNEL, ALICE, opponent=BOB, options={"timeout": 300})
    await sessions.lobbies.accept(CHANNEL, BOB)
    for _ in range(4):
        await sessions.moves.act(CHANNEL, int(table.game.current_player), best_malice_move(table.game))
    await sessions.idle()
    english = table_text(announcer, table.message_id)
    assert " plays " in english and "**Turn 2**" in english, english

    assert await sessions.languages.choose(GUILD, "de") == "de"
    await sessions.idle()
    german = table_text(announcer, table.message_id)
    # The same moves, all of them in German now: no English line stays beside the German ones.
    assert " legt " in german and "**Zug 2**" in german, german
    assert " plays " not in german and "Turn 2" not in german, german
    # Nothing worded is stored: the session keeps facts, the presenter what it showed.
    row = await store.get_table(table.id)
    assert "recent" not in row.meta and "note" not in row.meta
    assert " plays " not in str(row.meta) and " legt " not in str(row.meta)
    await sessions.close()


class FailingOnce:
    """The real store, whose next move transaction waits until the presenter has written, then fails."""

    def __init__(self, store, wrote: asyncio.Event) -> None:
        self._store = store
        self.wrote = wrote
        self.fail_next = False

    def __getattr__(self, name):
        return getattr(self._store, name)

    async def append_action(self, *args, **kwargs):
        if self.fail_next:
            self.fail_next = False
            await asyncio.wait_for(self.wrote.wait(), 5)
            raise ConnectionError("the database went away mid-move")
        return await self._store.append_action(*args, **kwargs)


class LosingMessages(RecordingAnnouncer):
    """Discord forgets the table message (someone deleted it): the presenter posts a fresh one."""

    def __init__(self, wrote: asyncio.Event) -> None:
        super().__init__()
        self.wrote = wrote

    async def send(self, channel_id, message):
        sent = await super().send(channel_id, message)
        self.wrote.set()
        return sent


async def test_a_move_that_fails_to_store_rolls_back_nothing_the_presenter_wrote_meanwhile(store):
    wrote = asyncio.Event()
    failing = FailingOnce(store, wrote)
    announcer = LosingMessages(wrote)
    sessions = await manager(failing, announcer)
    table = await sessions.open_table("malice", GUILD, CHANNEL, ALICE, opponent=BOB, options={"timeout": 300})
    await sessions.lobbies.accept(CHANNEL, BOB)
    await sessions.idle()
    first = table.message_id
    seq = table.seq
    mover = int(table.game.current_player)
    shown_before = table_text(announcer, first)

    # The table message disappears; while the presenter posts its replacement, a move's transaction fails.
    del announcer.messages[first]
    wrote.clear()
    failing.fail_next = True
    sessions.presenter.changed(table.record.evolve())  # the channel is looked at again: a write is due
    with pytest.raises(ConnectionError):
        await sessions.moves.act(CHANNEL, mover, best_malice_move(table.game))
    await sessions.idle()

    second = sessions.presenter.message_id(table.id)
    assert second is not None and second != first
    row = await store.get_table(table.id)
    assert Display.model_validate(row.display).table_message_id == second, "the new message id is kept"
    assert row.next_seq == seq and table.seq == seq, "the failed move changed nothing"
    assert table_text(announcer, second).count(" plays ") == shown_before.count(" plays "), (
        "the channel never showed the move that was not stored"
    )
    # The game goes on from what was stored.
    await sessions.moves.act(CHANNEL, mover, best_malice_move(table.game))
    assert table.seq == seq + 1
    await sessions.close()


class Outage(RecordingAnnouncer):
    """Discord refuses every edit and post while `down` (5xx): the presenter retries with growing pauses."""

    down = False

    async def edit(self, channel_id, message_id, message):
        if self.down:
            raise RuntimeError("503 Service Unavailable")
        return await super().edit(channel_id, message_id, message)

    async def send(self, channel_id, message):
        if self.down:
            raise RuntimeError("503 Service Unavailable")
        return await super().send(channel_id, message)


async def test_every_move_stored_during_an_outage_and_a_restart_is_shown_after_it(store):
    announcer = Outage()
    sessions = await manager(store, announcer)
    table = await sessions.open_table("malice", GUILD, CHANNEL, ALICE, opponent=BOB, options={"timeout": 300})
    await sessions.lobbies.accept(CHANNEL, BOB)
    await sessions.idle()
    announcer.down = True
    # Far more moves than one table message holds, and than the records keep in memory.
    for _ in range(60):
        if table.status != "running":
            break
        await sessions.moves.act(CHANNEL, int(table.game.current_player), best_malice_move(table.game))
    stored = table.seq
    await sessions.close(flush=0)

    announcer.down = False
    later = RecordingAnnouncer(messages=dict(announcer.messages), _next_id=announcer._next_id)
    resumed = await manager(store, later)
    assert await resumed.resume_all() == 1
    await resumed.idle()
    # Every stored move's lines appear in some write of the table message: several edits catch up in order.
    from bot.sessions.resume import replay_facts
    from bot.sessions.rows import record_from_row
    from bot.sessions.view import log_of

    row = await store.get_table(table.id)
    record = record_from_row(row)
    expected = log_of(record, replay_facts(record, await store.actions(row.id)), locale="en")
    written = [s for s in later.log if s.kind in ("edit", "send") and s.target == CHANNEL]
    shown = "\n".join(t for s in written for t in s.message.texts())
    missing = [line.text for line in expected if line.count > 0 and discord_words(line.text) not in shown]
    assert not missing, missing[:5]
    assert len(written) >= 2, "more than one message's worth of moves took more than one edit"
    assert Display.model_validate(row.display).shown_seq == stored
    await resumed.close()


async def test_a_refused_move_publishes_nothing(store, announcer):
    sessions = await manager(store, announcer)
    table = await sessions.open_table("malice", GUILD, CHANNEL, ALICE, opponent=BOB, options={"timeout": 300})
    await sessions.lobbies.accept(CHANNEL, BOB)
    before = table.record
    mover = int(table.game.current_player)
    with pytest.raises(NotAllowed):
        await sessions.moves.act(CHANNEL, mover, {"kind": "play", "source": "payoff", "to": "side1"})
    assert table.record is before, "a refusal leaves the published record as it was"
    await sessions.close()
