"""A table names its seats after a restart (issue 39): the names the players' interactions showed are stored
with their seats as they sit down, so a new process names them before anyone clicks, even in a lobby that
stored nothing else since; a new name an interaction shows reaches the stored seat without a move."""

from __future__ import annotations

from bot.sessions.rows import record_from_row
from tests.test_sessions import ALICE, BOB, CHANNEL, GUILD, manager

JOSE, DIMA, DIMA_AGAIN = "José Ñúñez-Çağlar Ørsted", "Дмитрий Шостакович", "Дима"


async def test_a_lobby_names_its_seats_after_a_restart_and_takes_a_new_name_without_a_move(store, announcer):
    sessions = await manager(store, announcer)
    sessions.languages.saw(ALICE, "en-US", display_name=JOSE)
    sessions.languages.saw(BOB, "en-US", display_name=DIMA)
    await sessions.open_table("insomnia", GUILD, CHANNEL, ALICE)
    await sessions.lobbies.join(CHANNEL, BOB)  # stores his seat, not the session state
    await sessions.close()

    again = await manager(store, announcer)  # a new process: it has seen nobody
    await again.resume_all()
    record = again.tables.in_channel(CHANNEL)
    assert record is not None and record.session.names == {str(ALICE): JOSE, str(BOB): DIMA}

    again.languages.saw(BOB, "de", display_name=DIMA_AGAIN)  # renamed and clicked: nothing else happens
    await again.close()  # the name is stored in the background: closing waits for it
    row = await store.active_table(CHANNEL)
    assert row is not None and {s.player: s.display_name for s in row.seats} == {
        str(ALICE): JOSE,
        str(BOB): DIMA_AGAIN,
    }
    assert record_from_row(row).session.names[str(BOB)] == DIMA_AGAIN
