"""SQLite connections and transactions, each transaction run whole in its connection's own thread.

SQLite has one writer, so the store serialises writes on purpose: one writer connection on one thread, every
write transaction opened with `BEGIN IMMEDIATE` (it takes the write lock up front, so it never fails half-way
with SQLITE_BUSY on lock upgrade). Reads go through a second connection on a second thread: in WAL mode they
see the last committed state and never wait for the writer.

A transaction is one plain function of a `sqlite3.Connection`, handed to the connection's thread in one call:
a move costs one hop between the event loop and the thread instead of one per statement (aiosqlite's model,
where those hops were most of a move's time). The thread runs one job at a time in order, which is the write
serialisation; a job, once started, always ends in COMMIT or ROLLBACK even if the awaiting task is cancelled.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

BUSY_TIMEOUT_MS = 5000

T = TypeVar("T")


def connect(path: str) -> sqlite3.Connection:
    """A connection with the project's settings. `isolation_level=None`: we issue BEGIN/COMMIT ourselves."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.row_factory = sqlite3.Row
        # busy_timeout first: setting WAL itself needs a lock another process may hold.
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("PRAGMA foreign_keys = ON")
    except BaseException:
        # A file that is not a database (or is locked past the timeout): do not leak the open handle.
        conn.close()
        raise
    return conn


class Connection:
    """One sqlite3 connection living on its own thread; `run(fn)` calls fn(conn) there."""

    def __init__(self, executor: ThreadPoolExecutor, conn: sqlite3.Connection) -> None:
        self._executor = executor
        self.conn = conn

    @classmethod
    async def open(cls, path: str, name: str) -> Connection:
        executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"sqlite-{name}")
        try:
            conn = await asyncio.get_running_loop().run_in_executor(executor, connect, path)
        except BaseException:
            executor.shutdown(wait=False)
            raise
        return cls(executor, conn)

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._executor, fn, self.conn, *args)

    async def close(self, before: Callable[[sqlite3.Connection], None] | None = None) -> None:
        def closing(conn: sqlite3.Connection) -> None:
            try:
                if before is not None:
                    before(conn)
            finally:
                conn.close()

        try:
            await self.run(closing)
        finally:
            self._executor.shutdown(wait=False)


def _checkpoint(conn: sqlite3.Connection) -> None:
    """Fold the WAL into the database file at close, so the file alone is a complete copy (a backup, a move
    to PostgreSQL). Best effort: another process still reading keeps its part of the WAL."""
    with contextlib.suppress(sqlite3.Error):
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def _write(conn: sqlite3.Connection, fn: Callable[..., T], *args: Any) -> T:
    conn.execute("BEGIN IMMEDIATE")
    try:
        result = fn(conn, *args)
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return result


def _read(conn: sqlite3.Connection, fn: Callable[..., T], *args: Any) -> T:
    conn.execute("BEGIN")
    try:
        return fn(conn, *args)
    finally:
        if conn.in_transaction:
            conn.execute("ROLLBACK")


class Database:
    """The writer and reader connections of one database file."""

    def __init__(self, path: str, writer: Connection, reader: Connection) -> None:
        self.path = path
        self._writer = writer
        self._reader = reader

    @classmethod
    async def open(cls, path: str) -> Database:
        writer = await Connection.open(path, "writer")
        try:
            reader = await Connection.open(path, "reader")
        except BaseException:
            await writer.close()
            raise
        return cls(path, writer, reader)

    async def close(self) -> None:
        try:
            await self._reader.close()
        finally:
            await self._writer.close(before=_checkpoint)

    async def write(self, fn: Callable[..., T], *args: Any) -> T:
        """fn(conn, *args) in one write transaction: committed if it returns, rolled back if it raises."""
        return await self._writer.run(_write, fn, *args)

    async def read(self, fn: Callable[..., T], *args: Any) -> T:
        """fn(conn, *args) in one read transaction: every statement sees the same committed state."""
        return await self._reader.run(_read, fn, *args)

    async def run_writer(self, fn: Callable[..., T], *args: Any) -> T:
        """fn(conn, *args) on the writer's thread, outside any transaction (migrations open their own)."""
        return await self._writer.run(fn, *args)
