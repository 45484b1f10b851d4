"""The SQLite backend on aiosqlite (storage/sqlite/): each statement is awaited on the event loop, so what a
player would notice is what the connection's lock and rollback guard: a transaction is whole or absent even
when the task waiting for it is cancelled at any point, the store stays usable after it, and the statements
of two transactions never mix."""

from __future__ import annotations

import asyncio

from storage.database import Transaction
from storage.sqlite.database import SqliteDatabase


async def test_a_write_cancelled_at_any_point_is_whole_or_absent_and_the_next_one_goes_through(tmp_path):
    db = await SqliteDatabase.open(str(tmp_path / "driver.sqlite3"))
    try:
        await db.execute("CREATE TABLE moves (attempt INTEGER, part INTEGER)")

        async def three_parts(tx: Transaction, attempt: int) -> None:
            for part in range(3):
                await tx.execute("INSERT INTO moves VALUES (?, ?)", attempt, part)

        # Cancelled after 0, 1, 2, ... turns of the event loop: before BEGIN, between statements, while a
        # statement or the COMMIT is on the connection's thread, or after the end.
        for attempt in range(40):
            task = asyncio.create_task(db.write(lambda tx, a=attempt: three_parts(tx, a)))
            for _ in range(attempt):
                await asyncio.sleep(0)
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
            parts = await db.fetch("SELECT part FROM moves WHERE attempt = ?", attempt)
            assert len(parts) in (0, 3)
            await db.write(lambda tx: tx.execute("INSERT INTO moves VALUES (-1, -1)"))  # never stuck
        assert len(await db.fetch("SELECT 1 FROM moves WHERE attempt = -1")) == 40
    finally:
        await db.close()


async def test_concurrent_transactions_never_see_each_others_half_written_rows(tmp_path):
    db = await SqliteDatabase.open(str(tmp_path / "driver.sqlite3"))
    try:
        await db.execute("CREATE TABLE counter (n INTEGER)")

        async def next_number(tx: Transaction) -> int:
            n = int(await tx.value("SELECT COALESCE(MAX(n), 0) + 1 FROM counter"))
            await tx.execute("INSERT INTO counter VALUES (?)", n)
            return n

        async def both_ends(tx: Transaction) -> tuple[int, int]:
            low = int(await tx.value("SELECT COUNT(*) FROM counter"))
            high = int(await tx.value("SELECT COUNT(*) FROM counter"))
            return low, high

        taken, seen = await asyncio.gather(
            asyncio.gather(*(db.write(next_number) for _ in range(30))),
            asyncio.gather(*(db.read(both_ends) for _ in range(30))),
        )
        assert sorted(taken) == list(range(1, 31))  # no number handed out twice
        assert all(low == high for low, high in seen)  # a read is one snapshot
    finally:
        await db.close()
