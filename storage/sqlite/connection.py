"""One aiosqlite connection with the project's settings, lent to one transaction at a time.

aiosqlite runs each call on the connection's own thread, so the event loop never waits on the disk; every
statement is one hop from the loop to that thread and back (a few tens of microseconds), which is why the
store's transactions send few statements (`storage.sqlite.database`). Between two statements of one
transaction the loop runs other tasks, so the connection has a lock: the statements of two transactions
never interleave on it.

A transaction whose awaiting task is cancelled is rolled back: the rollback is queued behind whatever the
connection's thread still has to run (a statement already handed to it runs to its end), and shielded, so
a second cancellation cannot skip it. Once COMMIT is queued it runs; the caller may still hear of the
cancellation.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator

import aiosqlite

BUSY_TIMEOUT_MS = 5000
# busy_timeout first: setting WAL itself needs a lock another process may hold.
PRAGMAS = (
    f"busy_timeout = {BUSY_TIMEOUT_MS}",
    "journal_mode = WAL",
    "synchronous = NORMAL",
    "foreign_keys = ON",
)


class Connection:
    """An aiosqlite connection and the lock that gives it to one transaction at a time:
    `await Connection.open(path)`, then `async with connection.transaction("BEGIN IMMEDIATE") as conn`."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str) -> Connection:
        """Raises what sqlite3 raises for a file that is not a database or is locked past the timeout."""
        # isolation_level=None: sqlite3 issues no BEGIN of its own; the store says BEGIN and COMMIT.
        conn = await aiosqlite.connect(path, isolation_level=None)
        try:
            conn.row_factory = sqlite3.Row
            for pragma in PRAGMAS:
                await conn.execute_fetchall(f"PRAGMA {pragma}")
        except BaseException:
            await conn.close()
            raise
        return cls(conn)

    @contextlib.asynccontextmanager
    async def transaction(self, begin: str, *, commit: bool) -> AsyncIterator[aiosqlite.Connection]:
        """The connection inside `begin` (BEGIN IMMEDIATE for a write, BEGIN for a read), held by this task
        alone; committed at the end if `commit` and nothing was raised, rolled back otherwise."""
        async with self._lock:
            try:
                await self.conn.execute_fetchall(begin)
                yield self.conn
                if commit:
                    await self.conn.commit()
                    return
            except BaseException:
                # sqlite3's rollback is a no-op outside a transaction (a BEGIN that failed, a COMMIT done).
                await asyncio.shield(self.conn.rollback())
                raise
            await asyncio.shield(self.conn.rollback())  # a read ends here: it changed nothing

    @contextlib.asynccontextmanager
    async def alone(self) -> AsyncIterator[aiosqlite.Connection]:
        """The connection for statements outside a transaction (each its own), no other task's between."""
        async with self._lock:
            yield self.conn

    async def close(self, *, checkpoint: bool = False) -> None:
        """Close the connection once the transaction holding it (if any) has ended; with `checkpoint`, fold
        the WAL into the database file first, so the file alone is a complete copy (a backup, a move to
        PostgreSQL). Best effort: another process still reading keeps its part of the WAL."""
        async with self._lock:
            try:
                if checkpoint:
                    with contextlib.suppress(sqlite3.Error):
                        await self.conn.execute_fetchall("PRAGMA wal_checkpoint(TRUNCATE)")
            finally:
                await self.conn.close()
