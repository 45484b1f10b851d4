"""One aiosqlite connection with the project's settings, lent to one transaction at a time.

aiosqlite runs each call on the connection's own thread, so the event loop never waits on the disk. A hop
from the loop to that thread and back costs more than a move's statements themselves (a thread's wake-up, a
future, the GIL passed twice), so a whole transaction is one hop (`run`): BEGIN, the work's statements, COMMIT
or ROLLBACK, all on that thread. The connection has a lock besides: one transaction at a time is handed to
it.

A transaction whose awaiting task is cancelled before its work has ended is rolled back, on that thread, in
the same hop; once its work has ended it is committed, and the caller may still hear of the cancellation.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import threading
from collections.abc import AsyncIterator, Callable
from typing import TypeVar

import aiosqlite

T = TypeVar("T")

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
    `await Connection.open(path)`, then `await connection.run("BEGIN IMMEDIATE", work)`."""

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

    async def run(self, begin: str, work: Callable[[sqlite3.Connection], T], *, commit: bool = True) -> T:
        """`work` (plain sqlite3 calls) inside `begin` on the connection's thread, in one hop from the loop:
        committed at its end if `commit` and nothing was raised, rolled back otherwise, all on that thread.
        If the awaiting task is cancelled before the work ends, it is rolled back; once it has ended (its
        COMMIT begun), it stays committed, and the caller hears of the cancellation."""
        called_off = threading.Event()

        def whole(conn: sqlite3.Connection) -> T:
            conn.execute(begin)
            try:
                result = work(conn)
                if commit and not called_off.is_set():
                    conn.commit()
                    return result
            except BaseException:
                conn.rollback()
                raise
            conn.rollback()  # a read ends here (it changed nothing), or a write whose caller gave up
            return result

        async with self._lock:
            # aiosqlite's own queue to its thread (`_execute`): one hop for the whole transaction, in order
            # with every other call on this connection.
            try:
                return await self.conn._execute(whole, self.conn._conn)  # type: ignore[no-untyped-call,no-any-return]
            except asyncio.CancelledError:
                called_off.set()
                raise

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
