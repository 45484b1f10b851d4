"""The names people go by, kept with the table and the event (migration 13): a seat and an entry hold the
display name Discord showed, a new name reaches every seat at an open table and every entry of an event not
over, and a finished table or event keeps the name it was played under. Both backends."""

from __future__ import annotations

from storage import SeatIn, Store

from .conftest import GUILD, Doc

CRUZ, ROSA = "José María Fernández de la Cruz", "Дмитрий Шостакович"


async def names_at(store: Store, table: int) -> dict[str, str | None]:
    row = await store.get_table(table)
    assert row is not None
    return {s.player: s.display_name for s in row.seats}


async def test_a_seat_keeps_the_name_it_was_taken_with_and_a_new_name_reaches_open_tables_only(store):
    table = await store.create_table(GUILD, 10, "insomnia", 1, Doc(chips=100), "seed", "c")
    await store.set_seats(
        table, [SeatIn(seat=0, player="1", user_id=1, name=CRUZ), SeatIn(seat=1, player="ai:1")]
    )
    assert await names_at(store, table) == {"1": CRUZ, "ai:1": None}
    # Reseated without a name known (a lobby's reshuffle): the stored one stays.
    await store.set_seats(table, [SeatIn(seat=0, player="ai:1"), SeatIn(seat=1, player="1", user_id=1)])
    assert await names_at(store, table) == {"1": CRUZ, "ai:1": None}

    old = await store.create_table(GUILD, 11, "insomnia", 1, Doc(chips=100), "seed2", "c2")
    await store.set_seats(old, [SeatIn(seat=0, player="1", user_id=1, name=CRUZ)])
    await store.cancel_table(old)
    assert await store.rename("1", ROSA) == 1  # the open table's seat; the cancelled one is history
    assert await store.rename("1", ROSA) == 0  # nothing differs: nothing written
    assert await names_at(store, table) == {"1": ROSA, "ai:1": None}
    assert (await names_at(store, old))["1"] == CRUZ


async def test_an_entry_keeps_its_name_and_takes_a_new_one_while_the_event_is_not_over(store):
    event = await store.create_competition(GUILD, 20, "malice", "knockout", 0, {}, 1)
    assert await store.join_competition(event, "1", 0.0, CRUZ)
    assert await store.join_competition(event, "2", 0.0)  # not seen under a name yet
    row = await store.competition(event)
    assert row is not None and {e.player: e.display_name for e in row.entrants} == {"1": CRUZ, "2": None}
    assert await store.rename("2", "ẞtraßenbahn") == 1
    row = await store.competition(event)
    assert row is not None and [e.display_name for e in row.entrants] == [CRUZ, "ẞtraßenbahn"]
    await store.cancel_competition(event)
    assert await store.rename("2", "Ωmega") == 0  # over: it keeps the name it was played under
