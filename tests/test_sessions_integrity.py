"""A table's seams (issue 37): a table is opened with its seats in one transaction, a lobby left without seats
by an older bot is closed on resume and frees its channel, and the stale path (another process stored a move
first) reloads the table and answers the player with a sentence. Real engines, a real store, both backends.
"""

from __future__ import annotations

from bot.sessions import NotAllowed
from bot.sessions.records import SessionState
from storage import Store
from tests.live import TestSessions
from tests.recording import RecordingAnnouncer
from tests.test_sessions import ALICE, BOB, BOT, CHANNEL, GUILD, best_malice_move, manager
from tests.test_sessions import fixed_seeds as fixed_seeds  # the autouse fixture


def resumed_manager(store: Store, announcer: RecordingAnnouncer) -> TestSessions:
    later = RecordingAnnouncer(messages=dict(announcer.messages), _next_id=announcer._next_id)
    return TestSessions(
        store, later, default_timeout=300.0, bot_user_id=BOT, coalesce=0.0, pacing=False, present_now=False
    )


async def test_a_table_is_stored_with_its_seats_and_languages_from_its_first_write(store, announcer):
    sessions = await manager(store, announcer)
    sessions.languages.saw(BOB, "de", "Bob")
    table = await sessions.open_table("malice", GUILD, CHANNEL, ALICE, opponent=BOB)
    row = await store.get_table(table.id)
    assert row is not None and row.status == "lobby"
    assert list(row.players) == [str(ALICE), str(BOB)], "the seats come with the table, never after it"
    assert (row.meta or {}).get("locales", {}).get(str(BOB)) == "de"
    # A crash right after the opening: the next process finds a challenge Bob can accept.
    later = resumed_manager(store, announcer)
    assert await later.resume_all() == 1
    await later.lobbies.accept(CHANNEL, BOB)
    assert later.table_in(CHANNEL).status == "running"
    await later.close()


async def test_a_lobby_without_seats_is_closed_on_resume_and_its_channel_is_free(store, announcer):
    # What a bot killed between its two writes (the table, then its seats) left in the database.
    from bot.sessions.lobbies import StoredOptions

    lone = await store.create_table(GUILD, CHANNEL, "malice", ALICE, StoredOptions(timeout=300), "s", "c")
    event = await store.create_competition(GUILD, CHANNEL + 1, "malice", "swiss", 1, {}, host_id=ALICE)
    await store.join_competition(event, str(ALICE), 1000.0)
    await store.join_competition(event, str(BOB), 1000.0)
    await store.start_competition(event, [str(ALICE), str(BOB)], [(str(ALICE), str(BOB))], deadline=None)
    match = (await store.competition(event)).matches[0]
    orphan = await store.create_match_table(
        match.id, GUILD, CHANNEL + 1, "malice", ALICE, StoredOptions(timeout=300), "s", "c"
    )

    sessions = resumed_manager(store, announcer)
    assert await sessions.resume_all() == 0, "nothing to resume: neither lobby can ever start"
    assert (await store.get_table(lone)).status == "cancelled"
    assert (await store.get_table(orphan)).status == "cancelled"
    assert (await store.competition(event)).matches[0].table_id is None, "the match is free to open again"
    # The channels take new games.
    table = await sessions.open_table("malice", GUILD, CHANNEL, ALICE, opponent=BOB)
    assert table.status == "lobby" and table.players == (str(ALICE), str(BOB))
    await sessions.close()


async def test_a_move_another_process_stored_first_is_answered_and_the_table_plays_on(store, announcer):
    """Two managers on one database, as two processes overlapping in a rolling restart: the second stores a
    move; the first, still holding the older table, takes the stale path: its player is told the table
    changed (a sentence, no error), the table is reloaded, and his next try plays on the stored truth."""
    old = await manager(store, announcer)
    table = await old.open_table(
        "malice", GUILD, CHANNEL, ALICE, opponent=BOB, options={"stake": 1, "timeout": 300, "turns": 30}
    )
    await old.lobbies.accept(CHANNEL, BOB)
    new = resumed_manager(store, announcer)
    assert await new.resume_all() == 1
    moved = new.table_in(CHANNEL)
    await new.moves.act(CHANNEL, int(moved.game.current_player), best_malice_move(moved.game))
    stored = new.table_in(CHANNEL)

    stale = old.tables.in_channel(CHANNEL)
    assert stale is not None and stale.seq == stored.seq - 1
    try:
        await old.moves.act(CHANNEL, int(stale.playing.current_player), best_malice_move(stale.playing))
        raise AssertionError("a stale move was stored")
    except NotAllowed as refusal:
        assert refusal.key == "table.changed"
    fresh = old.tables.in_channel(CHANNEL)
    assert fresh is not None and fresh.seq == stored.seq and fresh.snapshot == stored.snapshot
    assert fresh.revision > stale.revision, "the reloaded table replaces the stale one for the presenter"
    await old.moves.act(CHANNEL, int(fresh.playing.current_player), best_malice_move(fresh.playing))
    assert len(await store.actions(table.id)) == stored.seq + 1
    await new.close()
    await old.close()


async def test_a_refusal_judged_on_a_table_behind_the_store_takes_the_stale_path(store, announcer):
    """The second process plays a whole turn, so the turn is the other player's; his move reaches the first
    process, where (on its older table) it is not his turn: he is told the table changed, never "it is not
    your turn", and his retry plays on the stored game."""
    old = await manager(store, announcer)
    table = await old.open_table(
        "malice", GUILD, CHANNEL, ALICE, opponent=BOB, options={"stake": 1, "timeout": 300, "turns": 30}
    )
    await old.lobbies.accept(CHANNEL, BOB)
    new = resumed_manager(store, announcer)
    assert await new.resume_all() == 1
    first = new.table_in(CHANNEL).game.current_player
    while (moved := new.table_in(CHANNEL)).game.current_player == first:
        await new.moves.act(CHANNEL, int(first), best_malice_move(moved.game))
    mover = int(new.table_in(CHANNEL).game.current_player)
    stale = old.tables.in_channel(CHANNEL)
    assert stale is not None and stale.playing.current_player == first, "the first process is behind"
    try:
        await old.moves.act(CHANNEL, mover, best_malice_move(new.table_in(CHANNEL).game))
        raise AssertionError("a move was judged on the older table")
    except NotAllowed as refusal:
        assert refusal.key == "table.changed", refusal.key
    fresh = old.tables.in_channel(CHANNEL)
    assert fresh is not None and fresh.seq == new.table_in(CHANNEL).seq
    await old.moves.act(CHANNEL, mover, best_malice_move(fresh.playing))
    assert len(await store.actions(table.id)) == fresh.seq + 1
    await new.close()
    await old.close()


async def test_a_rematch_all_clicked_is_dealt_after_a_kill_before_its_outcome_is_stored(store, announcer):
    from bot.sessions.lobbies import StoredOptions
    from bot.sessions.records import RematchState
    from bot.sessions.rematch import rotated
    from storage import SeatIn

    sessions = await manager(store, announcer)
    table = await sessions.open_table("malice", GUILD, CHANNEL, ALICE, opponent=BOB)
    await sessions.lobbies.accept(CHANNEL, BOB)
    await sessions.life.resign(CHANNEL, ALICE)
    first = await store.get_table(table.id)
    assert first.status == "finished"
    await sessions.rematches.click(table.id, ALICE)
    # Bob's click, as far as a process killed in its middle got: the rematch's table opened (its seats moved
    # on), the outcome not yet stored with the finished table.
    finished = await store.get_table(table.id)
    session = SessionState.model_validate(finished.meta)
    clicked = session.rematch.model_copy(update={"clicked": (str(ALICE), str(BOB))})
    await store.update_meta(table.id, session.model_copy(update={"rematch": clicked}))
    players = rotated(first.players)
    seats = [SeatIn(seat=i, player=p, user_id=int(p)) for i, p in enumerate(players)]
    options = StoredOptions(**first.options)
    meta = SessionState()
    await store.create_table(GUILD, CHANNEL, "malice", BOB, options, "s", "c", seats=seats, meta=meta)

    later = resumed_manager(store, announcer)
    await later.resume_all()
    rematch = later.tables.in_channel(CHANNEL)
    assert rematch is not None and rematch.status == "running", "the rematch everyone agreed to is dealt"
    assert rematch.players == players
    state = RematchState.model_validate((await store.get_table(table.id)).meta["rematch"])
    assert state.outcome == "started" and state.table == rematch.id, "its message says it started, not lapsed"
    await later.close()


async def test_a_session_state_from_an_older_table_is_refused_and_nothing_is_lost(store):
    from bot.sessions.lobbies import StoredOptions
    from storage import SequenceConflict

    table = await store.create_table(GUILD, CHANNEL, "malice", ALICE, StoredOptions(timeout=300), "s", "c")
    await store.start_table(table, "{}")
    await store.append_action(table, 0, str(ALICE), "{}", [], "{}", meta=SessionState(timeouts={"1": 1}))
    try:
        await store.update_meta(table, SessionState(language="de"), seq=0)
        raise AssertionError("a stale session state was stored")
    except SequenceConflict:
        pass
    assert (await store.get_table(table)).meta["timeouts"] == {"1": 1}, "the newer state stands"
    await store.update_meta(table, SessionState(language="de"), seq=1)
    assert (await store.get_table(table)).meta["language"] == "de"


async def test_a_lobby_another_process_started_is_reloaded_and_answered(store, announcer):
    old = await manager(store, announcer)
    await old.open_table("insomnia", GUILD, CHANNEL, ALICE)
    await old.lobbies.join(CHANNEL, BOB)
    new = resumed_manager(store, announcer)
    await new.resume_all()
    await new.lobbies.start(CHANNEL, ALICE)
    try:
        await old.lobbies.start(CHANNEL, ALICE)  # a click that reached the process behind
        raise AssertionError("the lobby was dealt twice")
    except NotAllowed as refusal:
        assert refusal.key == "table.changed"
    reloaded = old.tables.in_channel(CHANNEL)
    assert reloaded is not None and reloaded.status == "running"
    assert reloaded.snapshot == new.tables.in_channel(CHANNEL).snapshot, "one deal, the stored one"
    await new.close()
    await old.close()


async def test_a_join_another_process_stored_first_is_not_overwritten(store, announcer):
    """A rolling restart's overlap: Bob joins through the new process, Carol's click reaches the old one,
    which has not seen Bob: her join must not write the seats over his."""
    carol = BOB + 1
    old = await manager(store, announcer)
    table = await old.open_table("insomnia", GUILD, CHANNEL, ALICE)
    new = resumed_manager(store, announcer)
    await new.resume_all()
    await new.lobbies.join(CHANNEL, BOB)
    try:
        await old.lobbies.join(CHANNEL, carol)
        raise AssertionError("the old process wrote its seats over the new one's")
    except NotAllowed as refusal:
        assert refusal.key == "table.changed"
    seated = list((await store.get_table(table.id)).players)
    assert seated == [str(ALICE), str(BOB)], "Bob's seat kept, nothing written for the stale click"
    reloaded = old.tables.in_channel(CHANNEL)
    assert reloaded is not None and reloaded.players == (str(ALICE), str(BOB)), "the old process sees Bob now"
    await old.lobbies.join(CHANNEL, carol)  # Carol's retry, on the table as stored
    assert list((await store.get_table(table.id)).players) == [str(ALICE), str(BOB), str(carol)]
    await new.close()
    await old.close()


async def test_a_game_whose_end_was_stored_but_never_shown_shows_it_after_a_restart(store, announcer):
    from bot.sessions.display import Display

    sessions = await manager(store, announcer)
    table = await sessions.open_table("malice", GUILD, CHANNEL, ALICE, opponent=BOB)
    await sessions.lobbies.accept(CHANNEL, BOB)
    await sessions.idle()
    message = table.message_id
    await sessions.life.resign(CHANNEL, ALICE)
    await sessions.close()  # this process writes nothing more
    # The process died between the finishing transaction and the message's edit: the presenter's record
    # still shows the game before its end.
    row = await store.get_table(table.id)
    assert row.status == "finished"
    behind = Display.of_row(row).model_copy(update={"shown_seq": row.next_seq - 1})
    await store.update_display(table.id, behind)

    later = resumed_manager(store, announcer)
    assert await later.resume_all() == 0
    later.presenter.start()
    await later.idle()
    edits = [s for s in later.presenter.announcer.log if s.kind == "edit" and s.message_id == message]
    assert edits and "Rematch" in str(edits[-1].message), "the result and the rematch button are shown"
    await later.close()
