"""The action transaction: sequence numbers, conflicts, rollback, history and concurrent writers."""

from __future__ import annotations

import asyncio

import pytest

from storage import ResultIn, SequenceConflict, Store, TableStateError, open_store

from .conftest import DUPLICATE, Doc, running_table
from .conftest import move as mv


async def test_actions_get_consecutive_sequence_numbers_from_zero(store):
    table = await running_table(store, 5, ["11", "12"])
    for seq in range(3):
        assert await store.append_action(table, seq, "11", f'{{"n":{seq}}}', [], f'{{"after":{seq}}}') == seq
    row = await store.get_table(table)
    assert row.next_seq == 3 and row.snapshot == '{"after":2}'
    assert [(a.seq, a.action) for a in await store.actions(table)] == [
        (0, '{"n":0}'),
        (1, '{"n":1}'),
        (2, '{"n":2}'),
    ]


async def test_a_stale_sequence_is_a_conflict_and_writes_nothing(store):
    table = await running_table(store, 5, ["11", "12"])
    await store.append_action(table, 0, "11", '{"first":1}', [mv("11", "@pot", 5)], '{"s":1}')
    for stale in (0, 2, -1):
        with pytest.raises(SequenceConflict) as info:
            await store.append_action(table, stale, "12", '{"late":1}', [mv("12", "@pot", 9)], '{"s":"bad"}')
        assert (info.value.expected, info.value.actual) == (stale, 1)
    row = await store.get_table(table)
    assert row.snapshot == '{"s":1}' and row.next_seq == 1
    assert [a.action for a in await store.actions(table)] == ['{"first":1}']
    assert [(e.from_account, e.amount) for e in await store.ledger(table)] == [("11", 5)]


async def test_an_error_half_way_through_an_action_rolls_all_of_it_back(store):
    table = await running_table(store, 5, ["11", "12"])
    await store.append_action(table, 0, "11", '{"a":0}', [mv("11", "@pot", 5)], '{"s":0}')
    # The results come last in the transaction; a duplicate player fails there, after the action, the ledger
    # entries and the snapshot were already written inside it.
    twice = [ResultIn(player="11", net=5, placement=1, won=True)] * 2
    with pytest.raises(DUPLICATE):
        await store.append_action(
            table, 1, "12", '{"a":1}', [mv("@pot", "11", 5, "pot_split")], '{"s":1}', twice
        )
    row = await store.get_table(table)
    assert (row.status, row.snapshot, row.next_seq, row.finished_at) == ("running", '{"s":0}', 1, None)
    assert len(await store.ledger(table)) == 1 and await store.results(table) == []
    # The table is intact: the same action, done right, goes through.
    fine = [
        ResultIn(player="11", net=0, placement=1, won=True),
        ResultIn(player="12", net=0, placement=1, won=True),
    ]
    await store.append_action(table, 1, "12", '{"a":1}', [mv("@pot", "11", 5, "pot_split")], '{"s":1}', fine)
    assert (await store.get_table(table)).status == "finished"


async def test_a_finished_table_takes_no_more_actions(store):
    table = await running_table(store, 5, ["11", "12"])
    done = [ResultIn(player=p, net=0, placement=1, won=False) for p in ("11", "12")]
    await store.append_action(table, 0, None, '{"kind":"end_game"}', [], "{}", done)
    with pytest.raises(TableStateError, match="finished"):
        await store.append_action(table, 1, "11", "{}", [], "{}")


async def test_history_lists_actions_with_their_chip_movements_in_order(store):
    table = await running_table(store, 5, ["11", "12"])
    await store.append_action(table, 0, "11", '{"kind":"bid"}', [mv("11", "@pot", 3)], "{}")
    await store.append_action(table, 1, "12", '{"kind":"pass"}', [], "{}")
    payouts = [
        mv("@pot", "11", 2, "pot_split"),
        mv("@pot", "12", 1, "pot_split"),
        mv("12", "11", 4, "stage1_payout"),
    ]
    await store.append_action(table, 2, "11", '{"kind":"play"}', payouts, "{}")

    history = await store.history(table)
    assert [(h.seq, h.actor, h.action) for h in history] == [
        (0, "11", '{"kind":"bid"}'),
        (1, "12", '{"kind":"pass"}'),
        (2, "11", '{"kind":"play"}'),
    ]
    assert [[(m.from_account, m.to_account, m.amount, m.reason) for m in h.ledger] for h in history] == [
        [("11", "@pot", 3, "bid")],
        [],
        [("@pot", "11", 2, "pot_split"), ("@pot", "12", 1, "pot_split"), ("12", "11", 4, "stage1_payout")],
    ]
    assert [m.id for m in await store.ledger(table)] == sorted(m.id for h in history for m in h.ledger)


async def test_concurrent_writers_lose_nothing_and_conflict_only_on_the_same_sequence(store):
    tables = [await running_table(store, 100 + i, ["11", "12"]) for i in range(6)]

    async def play(table: int, n: int) -> None:
        for seq in range(n):
            await store.append_action(
                table, seq, "11", f'{{"seq":{seq}}}', [mv("11", "12", 1 + seq)], f'"{seq}"'
            )

    # Six tables written at once: every action and entry lands, in order.
    await asyncio.gather(*(play(t, 15) for t in tables))
    for t in tables:
        assert [a.seq for a in await store.actions(t)] == list(range(15))
        assert [e.amount for e in await store.ledger(t)] == [1 + s for s in range(15)]
        assert (await store.get_table(t)).snapshot == '"14"'

    # Eight writers race for the same next action of one table: exactly one wins, the rest conflict.
    racing = tables[0]
    outcomes = await asyncio.gather(
        *(
            store.append_action(racing, 15, str(w), f'{{"w":{w}}}', [mv("12", "11", 1)], f'"w{w}"')
            for w in range(8)
        ),
        return_exceptions=True,
    )
    winners = [w for w, o in enumerate(outcomes) if o == 15]
    assert len(winners) == 1
    assert all(isinstance(o, SequenceConflict) for w, o in enumerate(outcomes) if w not in winners)
    actions = await store.actions(racing)
    assert len(actions) == 16 and actions[-1].actor == str(winners[0])
    assert len(await store.ledger(racing)) == 16
    assert (await store.get_table(racing)).snapshot == f'"w{winners[0]}"'

    # Readers during a storm of writes always see whole actions: ledger entries never outnumber actions.
    async def read_many() -> None:
        for _ in range(20):
            h = await store.history(tables[1])
            assert all(len(x.ledger) == 1 for x in h)

    await asyncio.gather(play(await running_table(store, 200, ["11", "12"]), 20), read_many())


async def test_two_stores_on_one_database_wait_for_each_other_instead_of_failing(store, database):
    # A second process (or a second Store) on the same database: on SQLite BEGIN IMMEDIATE plus the busy
    # timeout, on PostgreSQL the table row's lock, make the writers queue up; the sequence check still catches
    # the stale one.
    other = await open_store(database)
    try:
        a = await running_table(store, 1, ["11", "12"])
        b = await running_table(other, 2, ["11", "12"])

        async def play(s: Store, table: int) -> None:
            for seq in range(25):
                await s.append_action(table, seq, "11", "{}", [mv("11", "12", 1)], f'"{seq}"')

        await asyncio.gather(play(store, a), play(other, b))
        for s, t in ((other, a), (store, b)):  # each sees what the other wrote
            assert len(await s.actions(t)) == 25 and len(await s.ledger(t)) == 25
        with pytest.raises(SequenceConflict):
            await other.append_action(a, 24, "12", "{}", [], "{}")
        # Both stores race for the same next action, many times: each time exactly one of them writes it.
        for seq in range(25, 45):
            outcomes = await asyncio.gather(
                store.append_action(a, seq, "11", '"mine"', [mv("11", "12", 1)], "{}"),
                other.append_action(a, seq, "12", '"theirs"', [mv("12", "11", 1)], "{}"),
                return_exceptions=True,
            )
            assert sorted(type(o).__name__ for o in outcomes) == ["SequenceConflict", "int"]
        assert [x.seq for x in await other.actions(a)] == list(range(45))
        assert len(await store.ledger(a)) == 45
    finally:
        await other.close()


async def test_the_meta_is_written_in_the_moves_transaction_or_not_at_all(store):
    table = await running_table(store, 5, ["11", "12"])
    await store.append_action(table, 0, "11", '{"a":0}', [], '{"s":0}', meta=Doc(computer_seats=["11"]))
    assert (await store.get_table(table)).meta == {"computer_seats": ["11"]}
    with pytest.raises(SequenceConflict):
        await store.append_action(table, 0, "12", '{"a":1}', [], '{"s":1}', meta=Doc(computer_seats=[]))
    assert (await store.get_table(table)).meta == {"computer_seats": ["11"]}
