"""Connections and transactions.

SQLite has one writer, so the store serialises writes on purpose: a single writer connection guarded by an
`asyncio.Lock`, every write transaction opened with `BEGIN IMMEDIATE` (it takes the write lock up front, so it
never fails half-way with SQLITE_BUSY on lock upgrade). Reads go through a second connection: in WAL mode they
see the last committed state and never wait for the writer.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import aiosqlite

BUSY_TIMEOUT_MS = 5000


async def connect(path: str) -> aiosqlite.Connection:
    """A connection with the project's settings. `isolation_level=None`: we issue BEGIN/COMMIT ourselves."""
    conn = await aiosqlite.connect(path, isolation_level=None)
    try:
        conn.row_factory = aiosqlite.Row
        # busy_timeout first: setting WAL itself needs a lock another process may hold.
        await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        await conn.execute("PRAGMA journal_mode = WAL")
        await conn.execute("PRAGMA synchronous = NORMAL")
        await conn.execute("PRAGMA foreign_keys = ON")
    except BaseException:
        # A file that is not a database fails here; aiosqlite's thread would keep the process alive forever
        # unless the connection is closed.
        await conn.close()
        raise
    return conn


class Database:
    """The writer and reader connections of one database file."""

    def __init__(self, path: str, writer: aiosqlite.Connection, reader: aiosqlite.Connection) -> None:
        self.path = path
        self._writer = writer
        self._reader = reader
        self._write_lock = asyncio.Lock()
        # aiosqlite runs one connection's statements in order on one thread; the lock keeps one task's
        # multi-statement read (a table and its seats) from interleaving with another's transaction.
        self._read_lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str) -> Database:
        writer = await connect(path)
        try:
            reader = await connect(path)
        except BaseException:
            await writer.close()
            raise
        return cls(path, writer, reader)

    async def close(self) -> None:
        async with self._write_lock:
            # Fold the WAL back into the database file, so a copy of the file alone holds everything.
            with contextlib.suppress(sqlite3.Error):
                await self._writer.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            await self._writer.close()
        async with self._read_lock:
            await self._reader.close()

    @asynccontextmanager
    async def write(self) -> AsyncIterator[aiosqlite.Connection]:
        """One write transaction: committed if the block ends normally, rolled back on any error."""
        async with self._write_lock:
            await self._writer.execute("BEGIN IMMEDIATE")
            try:
                yield self._writer
                await self._writer.execute("COMMIT")
            except BaseException:
                # BaseException too: a task cancelled mid-transaction must not leave it open.
                if self._writer.in_transaction:
                    await self._writer.execute("ROLLBACK")
                raise

    @asynccontextmanager
    async def read(self) -> AsyncIterator[aiosqlite.Connection]:
        """One read transaction: every statement in the block sees the same committed state."""
        async with self._read_lock:
            await self._reader.execute("BEGIN")
            try:
                yield self._reader
            finally:
                if self._reader.in_transaction:
                    await self._reader.execute("ROLLBACK")
