"""SQLite connections and transactions, each transaction run whole on its connection's own thread.

SQLite has one writer, so the store serialises writes on purpose: one writer connection, every write
transaction opened with `BEGIN IMMEDIATE` (it takes the write lock up front, so it never fails half-way with
SQLITE_BUSY on lock upgrade). Reads go through a second connection: in WAL mode they see the last committed
state and never wait for the writer.

The connections are aiosqlite's: each lives on a thread of its own that runs queued calls in order, which is
the write serialisation. A transaction is one plain function of the `sqlite3.Connection`, queued on that
thread in one call, so a move costs one hop between the event loop and the thread instead of one per
statement (per statement, those hops were most of a move's time). aiosqlite has no public call for "run this
function on your thread"; `_execute` is how its own methods do it (pinned in pyproject.toml and checked by
tests/storage/test_driver.py). A job, once started, always ends in COMMIT or ROLLBACK even if the awaiting
task is cancelled.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Callable
from typing import Any, TypeVar

import aiosqlite

BUSY_TIMEOUT_MS = 5000

T = TypeVar("T")


def configure(conn: sqlite3.Connection) -> None:
    """The project's settings on a new connection. aiosqlite opens it with `isolation_level=None`: we issue
    BEGIN/COMMIT ourselves."""
    conn.row_factory = sqlite3.Row
    # busy_timeout first: setting WAL itself needs a lock another process may hold.
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = NORMAL")
    conn.execute("PRAGMA foreign_keys = ON")


def connect(path: str) -> sqlite3.Connection:
    """A plain connection with the project's settings (tools and tests that need no event loop)."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        configure(conn)
    except BaseException:
        conn.close()
        raise
    return conn


class Connection:
    """One aiosqlite connection; `run(fn)` calls fn(conn) on its thread."""

    def __init__(self, aio: aiosqlite.Connection) -> None:
        self._aio = aio

    @classmethod
    async def open(cls, path: str, name: str) -> Connection:
        aio = await aiosqlite.connect(path, isolation_level=None)
        connection = cls(aio)
        try:
            await connection.run(configure)
        except BaseException:
            # A file that is not a database (or is locked past the timeout): close it, or aiosqlite's thread
            # would keep the process alive.
            await aio.close()
            raise
        return connection

    @property
    def conn(self) -> sqlite3.Connection:
        return self._aio._conn

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        result: T = await self._aio._execute(fn, self._aio._conn, *args)  # type: ignore[no-untyped-call]
        return result

    async def close(self, before: Callable[[sqlite3.Connection], None] | None = None) -> None:
        try:
            if before is not None:
                await self.run(before)
        finally:
            await self._aio.close()


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
