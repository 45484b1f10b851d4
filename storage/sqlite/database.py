"""The store's database on one SQLite file: a writer and a reader connection, each on its own thread.

SQLite has one writer, so the store serialises writes on purpose: one writer connection, every write
transaction opened with `BEGIN IMMEDIATE` (it takes the write lock up front, so it never fails half-way with
SQLITE_BUSY on lock upgrade, and it is the row lock of every transaction: nobody else writes until COMMIT).
Reads go through the second connection: in WAL mode they see the last committed state and never wait for the
writer.

A transaction's work (an async function, `storage.database.Work`) is created and run whole on the
connection's thread: its statements are plain `sqlite3` calls that never suspend, so the thread drives the
coroutine to its end with one `send` and the transaction costs one hop from the event loop.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Coroutine, Sequence
from typing import Any, TypeVar

from storage.database import Batch, Database, Dialect, Row, Transaction, Work
from storage.sqlite.connection import Connection

T = TypeVar("T")


class SqliteDialect(Dialect):
    name = "sqlite"
    types = {
        "id": "INTEGER PRIMARY KEY",  # the rowid itself: numbered by SQLite
        "bigint": "INTEGER",  # SQLite's integers are all 64-bit
        "real": "REAL",
        "json": "TEXT",
        "flag": "{column} INTEGER NOT NULL CHECK ({column} IN (0, 1))",
        "without_rowid": "WITHOUT ROWID",
    }
    row_lock = ""  # BEGIN IMMEDIATE already holds the database's write lock

    def append_only(self, table: str, what: str) -> list[str]:
        return [
            f"CREATE TRIGGER {table}_append_only_{change.lower()} BEFORE {change} ON {table}"
            f" BEGIN SELECT RAISE(ABORT, '{what} is append-only'); END"
            for change in ("UPDATE", "DELETE")
        ]


DIALECT = SqliteDialect()


class SqliteTransaction(Transaction):
    dialect = DIALECT

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        return [dict(r) for r in self._conn.execute(sql, args)]

    async def execute(self, sql: str, *args: Any) -> int:
        return self._conn.execute(sql, args).rowcount

    async def execute_many(self, sql: str, rows: Sequence[tuple[Any, ...]]) -> None:
        self._conn.executemany(sql, rows)

    async def write(self, batch: Batch) -> Any:
        found = None
        if batch.guard is not None:
            found = self._conn.execute(batch.guard.sql, batch.guard.args).fetchone()[0]
            if found != batch.guard.expected:
                return found
        for insert, rows in batch.rows:
            if len(rows) == 1:
                self._conn.execute(insert.sql, rows[0])
            elif rows:
                self._conn.executemany(insert.sql, rows)
        self._conn.execute(batch.last, batch.args)
        return found

    async def schema_version(self) -> int:
        # The write transaction's BEGIN IMMEDIATE is the migration lock.
        return int(self._conn.execute("PRAGMA user_version").fetchone()[0])

    async def set_schema_version(self, version: int) -> None:
        self._conn.execute(f"PRAGMA user_version = {int(version)}")


def _finish(work: Coroutine[Any, Any, T]) -> T:
    """Run a transaction's coroutine to its end, here and now."""
    try:
        work.send(None)
    except StopIteration as done:
        result: T = done.value
        return result
    work.close()
    raise RuntimeError("a transaction's work awaited something other than its own statements")


def _write(conn: sqlite3.Connection, work: Work[T]) -> T:
    conn.execute("BEGIN IMMEDIATE")
    try:
        result = _finish(work(SqliteTransaction(conn)))
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return result


def _read(conn: sqlite3.Connection, work: Work[T]) -> T:
    conn.execute("BEGIN")
    try:
        return _finish(work(SqliteTransaction(conn)))
    finally:
        if conn.in_transaction:
            conn.execute("ROLLBACK")


def _fetch(conn: sqlite3.Connection, sql: str, args: tuple[Any, ...]) -> list[Row]:
    return [dict(r) for r in conn.execute(sql, args)]


def _checkpoint(conn: sqlite3.Connection) -> None:
    """Fold the WAL into the database file at close, so the file alone is a complete copy (a backup, a move
    to PostgreSQL). Best effort: another process still reading keeps its part of the WAL."""
    with contextlib.suppress(sqlite3.Error):
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")


class SqliteDatabase(Database):
    """The writer and reader connections of one database file."""

    dialect = DIALECT

    def __init__(self, path: str, writer: Connection, reader: Connection) -> None:
        self.name = path
        self._writer = writer
        self._reader = reader

    @classmethod
    async def open(cls, path: str) -> SqliteDatabase:
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

    async def write(self, work: Work[T]) -> T:
        return await self._writer.run(_write, work)

    async def read(self, work: Work[T]) -> T:
        return await self._reader.run(_read, work)

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        return await self._reader.run(_fetch, sql, args)
