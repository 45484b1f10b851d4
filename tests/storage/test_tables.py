"""Table life cycle, seats, one active table per channel, the resume list and metadata."""

from __future__ import annotations

import asyncio

import pytest

from storage import ChannelBusy, ResultIn, SeatIn, SeatsChanged, TableNotFound, TableStateError

from .conftest import GUILD, Doc, running_table


async def test_a_table_goes_from_lobby_to_running_to_finished(store):
    table = await store.create_table(GUILD, 5, "malice", 42, Doc(stake=10), "s33d", "commit")
    row = await store.get_table(table)
    assert (row.status, row.kind, row.options, row.seed, row.commitment, row.host_id) == (
        "lobby",
        "malice",
        {"stake": 10},
        "s33d",
        "commit",
        42,
    )
    assert row.started_at is None and row.snapshot is None and row.next_seq == 0 and row.meta == {}

    await store.set_seats(table, [SeatIn(seat=0, player="42", user_id=42), SeatIn(seat=1, player="ai:1")])
    await store.start_table(table, '{"game": 0}')
    row = await store.get_table(table)
    assert row.status == "running" and row.snapshot == '{"game": 0}' and row.started_at > row.created_at
    assert [(s.seat, s.player, s.user_id) for s in row.seats] == [(0, "42", 42), (1, "ai:1", None)]

    finish = [
        ResultIn(player="42", net=0, placement=1, won=True),
        ResultIn(player="ai:1", net=0, placement=2, won=False),
    ]
    assert await store.append_action(table, 0, "42", '{"kind":"end_turn"}', [], '{"game": 1}', finish) == 0
    row = await store.get_table(table)
    assert row.status == "finished" and row.snapshot == '{"game": 1}' and row.next_seq == 1
    assert row.finished_at > row.started_at
    assert [(r.player, r.placement, r.won) for r in await store.results(table)] == [
        ("42", 1, True),
        ("ai:1", 2, False),
    ]


async def test_unknown_tables(store):
    assert await store.get_table(999) is None
    with pytest.raises(TableNotFound):
        await store.start_table(999, "{}")
    with pytest.raises(TableNotFound):
        await store.append_action(999, 0, "1", "{}", [], "{}")
    with pytest.raises(TableNotFound):
        await store.update_meta(999, Doc())


async def test_a_second_table_in_the_same_channel_is_refused_while_one_is_active(store):
    first = await store.create_table(GUILD, 5, "insomnia", 1, Doc(), "a", "ca")
    with pytest.raises(ChannelBusy) as info:
        await store.create_table(GUILD, 5, "malice", 2, Doc(), "b", "cb")
    assert info.value.table_id == first
    await store.create_table(GUILD, 6, "malice", 2, Doc(), "b", "cb")  # another channel is free
    await store.cancel_table(first)
    again = await store.create_table(GUILD, 5, "malice", 2, Doc(), "c", "cc")  # free again once closed
    assert (await store.active_table(5)).id == again


async def test_concurrent_creates_in_one_channel_let_exactly_one_win(store):
    outcomes = await asyncio.gather(
        *(store.create_table(GUILD, 7, "insomnia", h, Doc(), f"s{h}", f"c{h}") for h in range(10)),
        return_exceptions=True,
    )
    winners = [o for o in outcomes if isinstance(o, int)]
    assert len(winners) == 1
    assert all(isinstance(o, ChannelBusy) for o in outcomes if not isinstance(o, int))
    assert (await store.active_table(7)).id == winners[0]


async def test_open_tables_lists_lobbies_and_running_games_to_resume(store):
    lobby = await store.create_table(GUILD, 1, "insomnia", 1, Doc(), "a", "ca")
    running = await running_table(store, 2, ["11", "12"])
    cancelled = await store.create_table(GUILD, 3, "malice", 1, Doc(), "b", "cb")
    await store.cancel_table(cancelled)
    finished = await running_table(store, 4, ["11", "12"], kind="malice")
    done = [ResultIn(player=p, net=0, placement=1, won=False) for p in ("11", "12")]
    await store.append_action(finished, 0, None, '{"kind":"end_game"}', [], "{}", done)

    assert [t.id for t in await store.open_tables()] == [lobby, running]
    assert (await store.active_table(2)).id == running
    assert await store.active_table(3) is None and await store.active_table(4) is None
    assert (await store.last_table(4)).id == finished
    assert (await store.last_table(3, kind="malice")).status == "cancelled"
    assert await store.last_table(3, kind="insomnia") is None


async def test_status_changes_out_of_order_are_refused(store):
    table = await running_table(store, 5, ["11", "12"])
    with pytest.raises(TableStateError):
        await store.start_table(table, "{}")
    await store.append_action(table, 0, "11", "{}", [], "{}")
    with pytest.raises(TableStateError, match="cancel"):
        await store.cancel_table(table)  # chips may have moved: the game must end through end_game
    lobby = await store.create_table(GUILD, 6, "insomnia", 1, Doc(), "a", "ca")
    with pytest.raises(TableStateError, match="lobby"):
        await store.append_action(lobby, 0, "11", "{}", [], "{}")


async def test_a_started_game_without_actions_can_still_be_cancelled(store):
    table = await running_table(store, 5, ["11", "12"])
    await store.cancel_table(table)
    assert (await store.get_table(table)).status == "cancelled"
    assert await store.open_tables() == []


async def test_set_seats_replaces_the_seats_and_keeps_who_stayed(store):
    table = await store.create_table(GUILD, 5, "insomnia", 1, Doc(), "a", "ca")
    await store.set_seats(
        table, [SeatIn(seat=0, player="11", user_id=11), SeatIn(seat=1, player="12", user_id=12)]
    )
    joined = {s.player: s.joined_at for s in (await store.get_table(table)).seats}
    # 12 moves to seat 0, 11 leaves, an AI takes seat 1.
    await store.set_seats(table, [SeatIn(seat=0, player="12", user_id=12), SeatIn(seat=1, player="ai:1")])
    seats = (await store.get_table(table)).seats
    assert [(s.seat, s.player) for s in seats] == [(0, "12"), (1, "ai:1")]
    assert seats[0].joined_at == joined["12"]
    # 11 comes back: a fresh seat row.
    await store.set_seats(
        table, [SeatIn(seat=0, player="11", user_id=11), SeatIn(seat=1, player="12", user_id=12)]
    )
    assert (await store.get_table(table)).players == ["11", "12"]


async def test_a_seat_change_over_seats_another_writer_changed_is_refused_and_writes_nothing(store):
    first = [SeatIn(seat=0, player="1")]
    table = await store.create_table(GUILD, 5, "insomnia", 1, Doc(), "a", "ca", seats=first)
    await store.set_seats(table, [SeatIn(seat=0, player="1"), SeatIn(seat=1, player="2")], expected=["1"])
    with pytest.raises(SeatsChanged):  # a writer that still saw only "1" adds "3"
        await store.set_seats(table, [SeatIn(seat=0, player="1"), SeatIn(seat=1, player="3")], expected=["1"])
    assert (await store.get_table(table)).players == ["1", "2"]


async def test_meta_is_replaced_and_kept_in_any_status(store):
    table = await running_table(store, 5, ["11", "12"])
    await store.update_meta(table, Doc(message_id=123, closed_dms=["11"]))
    await store.update_meta(table, Doc(message_id=456))
    assert (await store.get_table(table)).meta == {"message_id": 456}


# ---- a thread per game (migration 9)


async def test_a_game_moved_into_its_thread_frees_its_channel_and_history_finds_it_there(store):
    first = await store.create_table(GUILD, 5, "malice", 1, Doc(), "a", "ca")
    await store.start_table(first, '{"game": 0}', thread_id=9001)
    row = await store.get_table(first)
    assert (row.status, row.channel_id, row.home_channel_id) == ("running", 9001, 5)
    # The channel takes the next lobby while the first game runs in its thread; the thread takes none.
    second = await store.create_table(GUILD, 5, "malice", 2, Doc(), "b", "cb")
    with pytest.raises(ChannelBusy):
        await store.create_table(GUILD, 9001, "malice", 3, Doc(), "c", "cc")
    await store.start_table(second, '{"game": 0}', thread_id=9002)
    assert (await store.active_table(9001)).id == first
    assert (await store.active_table(9002)).id == second
    assert await store.active_table(5) is None
    # /history in the channel: its newest game, wherever it played; in a thread: that thread's.
    assert (await store.last_table(5)).id == second
    assert (await store.last_table(5, "malice")).id == second
    assert (await store.last_table(9001)).id == first
    assert {r.id for r in await store.open_tables()} == {first, second}
    # A game started without a thread stays where it was opened and has no home of its own.
    third = await store.create_table(GUILD, 6, "malice", 1, Doc(), "d", "cd")
    await store.start_table(third, '{"game": 0}')
    row = await store.get_table(third)
    assert (row.channel_id, row.home_channel_id) == (6, None)
