"""The store's database on one SQLite file, through aiosqlite: a writer and a reader connection.

SQLite has one writer, so the store serialises writes on purpose: one writer connection, lent to one
transaction at a time, every write transaction opened with `BEGIN IMMEDIATE` (it takes the file's write lock
up front, so it never fails half-way with SQLITE_BUSY on lock upgrade, and it is the row lock of every
transaction: no other process writes until COMMIT). Reads go through the second connection: in WAL mode
they see the last committed state and never wait for the writer.

Every statement is a hop to the connection's thread and back (`storage.sqlite.connection`), so a move sends
few: the sequence check rides in the action's own INSERT (`... SELECT ... WHERE (check) IS ? RETURNING`),
and each table's rows go as one multi-row INSERT. A move that goes on is BEGIN IMMEDIATE, the table's status,
the action, its ledger rows, its balance rows, the table row, COMMIT: seven statements.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any, TypeVar

import aiosqlite

from storage.database import (
    Batch,
    Database,
    Dialect,
    Guard,
    Insert,
    Row,
    Transaction,
    Work,
    committed,
    write_name,
)
from storage.sqlite.connection import Connection

T = TypeVar("T")

# Bound values per statement: SQLite's historical default limit (999), which every build accepts.
MAX_VARIABLES = 999


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


@lru_cache(maxsize=256)
def rows_sql(insert: Insert, count: int) -> str:
    """`count` rows of `insert` in one statement; SQLite inserts a VALUES list in its order."""
    row = f"({', '.join('?' * len(insert.columns))})"
    values = ", ".join([row] * count)
    return f"INSERT INTO {insert.table} ({insert.names}) VALUES {values} {insert.conflict}".rstrip()


@lru_cache(maxsize=64)
def guarded_sql(insert: Insert, guard: str) -> str:
    """One row of `insert` if `guard`'s value is the one expected; it returns a row if it wrote one.
    Parameters: the row's values, the guard's, then the value expected."""
    marks = ", ".join("?" * len(insert.columns))
    return f"INSERT INTO {insert.table} ({insert.names}) SELECT {marks} WHERE ({guard}) IS ? RETURNING 1"


def chunks(insert: Insert, rows: Sequence[tuple[Any, ...]]) -> list[Sequence[tuple[Any, ...]]]:
    per = max(1, MAX_VARIABLES // len(insert.columns))
    return [rows[i : i + per] for i in range(0, len(rows), per)]


class SqliteTransaction(Transaction):
    dialect = DIALECT

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        return [dict(r) for r in await self._conn.execute_fetchall(sql, args)]

    async def execute(self, sql: str, *args: Any) -> int:
        # The cursor is closed on the connection's thread, where its statement lives.
        async with self._conn.execute(sql, args) as cursor:
            return cursor.rowcount

    async def execute_many(self, sql: str, rows: Sequence[tuple[Any, ...]]) -> None:
        async with self._conn.executemany(sql, rows):
            pass

    async def insert(self, insert: Insert, rows: Sequence[tuple[Any, ...]]) -> None:
        """Rows of one table, as few statements as the variable limit allows (one for a move's rows)."""
        for chunk in chunks(insert, rows):
            await self._conn.execute_fetchall(rows_sql(insert, len(chunk)), [v for row in chunk for v in row])

    async def write(self, batch: Batch) -> Any:
        present = [(insert, rows) for insert, rows in batch.rows if rows]
        guard = batch.guard
        if guard is not None:
            first = present[0] if present else None
            if first is not None and len(first[1]) == 1 and not first[0].conflict:
                # The check and the first row in one statement: nothing is written if it finds otherwise.
                del present[0]
                sql = guarded_sql(first[0], guard.sql)
                if not await self._conn.execute_fetchall(sql, (*first[1][0], *guard.args, guard.expected)):
                    return await self._found(guard)
            elif (found := await self._found(guard)) != guard.expected:
                return found
        for insert, rows in present:
            await self.insert(insert, rows)
        await self._conn.execute_fetchall(batch.last, batch.args)
        return None if guard is None else guard.expected

    async def _found(self, guard: Guard) -> Any:
        rows = await self._conn.execute_fetchall(guard.sql, guard.args)
        return next(iter(rows))[0]

    async def schema_version(self) -> int:
        # The write transaction's BEGIN IMMEDIATE is the migration lock.
        return int(await self.value("PRAGMA user_version"))

    async def set_schema_version(self, version: int) -> None:
        await self._conn.execute_fetchall(f"PRAGMA user_version = {int(version)}")


class SqliteDatabase(Database):
    """The writer and reader connections of one database file."""

    dialect = DIALECT

    def __init__(self, path: str, writer: Connection, reader: Connection) -> None:
        self.name = path
        self._writer = writer
        self._reader = reader

    @classmethod
    async def open(cls, path: str) -> SqliteDatabase:
        writer = await Connection.open(path)
        try:
            reader = await Connection.open(path)
        except BaseException:
            await writer.close()
            raise
        return cls(path, writer, reader)

    async def close(self) -> None:
        try:
            await self._reader.close()
        finally:
            await self._writer.close(checkpoint=True)

    async def write(self, work: Work[T]) -> T:
        async with self._writer.transaction("BEGIN IMMEDIATE", commit=True) as conn:
            result = await work(SqliteTransaction(conn))
        # Right after the COMMIT, before this task yields: no later write has begun yet.
        committed(write_name(work))
        return result

    async def read(self, work: Work[T]) -> T:
        async with self._reader.transaction("BEGIN", commit=False) as conn:
            return await work(SqliteTransaction(conn))

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        # One statement is a snapshot of its own: no BEGIN needed.
        async with self._reader.alone() as conn:
            return [dict(r) for r in await conn.execute_fetchall(sql, args)]
