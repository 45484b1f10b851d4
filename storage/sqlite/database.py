"""The store's database on one SQLite file, through aiosqlite: a writer and a reader connection.

SQLite has one writer, so the store serialises writes on purpose: one writer connection, lent to one
transaction at a time, every write transaction opened with `BEGIN IMMEDIATE` (it takes the file's write lock
up front, so it never fails half-way with SQLITE_BUSY on lock upgrade, and it is the row lock of every
transaction: no other process writes until COMMIT). Reads go through the second connection: in WAL mode
they see the last committed state and never wait for the writer.

A transaction is one hop to the writer's thread and back (`Connection.run`): the store's work runs there
from its BEGIN to its COMMIT (its transaction's methods never suspend), so a move's seven statements (BEGIN
IMMEDIATE, the table's status, the action with the sequence check in its INSERT, its ledger rows, its balance
rows, the table row, COMMIT) cost one wake-up of that thread, not seven (measured: bench_discord, issue 42).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Coroutine, Sequence
from functools import lru_cache
from typing import Any, TypeVar

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
    """A transaction run on the connection's own thread, in one hop from the event loop (`Connection.run`):
    its methods are coroutines, as the store's work expects, but each runs its statement at once and never
    suspends, so the work runs from its first statement to its last without returning to the loop."""

    dialect = DIALECT

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    async def _all(self, sql: str, args: Sequence[Any]) -> list[sqlite3.Row]:
        return self._conn.execute(sql, args).fetchall()

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        return [dict(r) for r in self._conn.execute(sql, args).fetchall()]

    async def execute(self, sql: str, *args: Any) -> int:
        return self._conn.execute(sql, args).rowcount

    async def execute_many(self, sql: str, rows: Sequence[tuple[Any, ...]]) -> None:
        self._conn.executemany(sql, rows)

    async def insert(self, insert: Insert, rows: Sequence[tuple[Any, ...]]) -> None:
        """Rows of one table, as few statements as the variable limit allows (one for a move's rows)."""
        for chunk in chunks(insert, rows):
            await self._all(rows_sql(insert, len(chunk)), [v for row in chunk for v in row])

    async def write(self, batch: Batch) -> Any:
        present = [(insert, rows) for insert, rows in batch.rows if rows]
        guard = batch.guard
        if guard is not None:
            first = present[0] if present else None
            if first is not None and len(first[1]) == 1 and not first[0].conflict:
                # The check and the first row in one statement: nothing is written if it finds otherwise.
                del present[0]
                sql = guarded_sql(first[0], guard.sql)
                if not await self._all(sql, (*first[1][0], *guard.args, guard.expected)):
                    return await self._found(guard)
            elif (found := await self._found(guard)) != guard.expected:
                return found
        for insert, rows in present:
            await self.insert(insert, rows)
        await self._all(batch.last, batch.args)
        return None if guard is None else guard.expected

    async def _found(self, guard: Guard) -> Any:
        rows = await self._all(guard.sql, guard.args)
        return next(iter(rows))[0]

    async def schema_version(self) -> int:
        # The write transaction's BEGIN IMMEDIATE is the migration lock.
        return int(await self.value("PRAGMA user_version"))

    async def set_schema_version(self, version: int) -> None:
        await self._all(f"PRAGMA user_version = {int(version)}", ())


def done(work: Coroutine[Any, Any, T]) -> T:
    """The store's work run to its end on the connection's thread: it awaits only its transaction's
    methods (`Transaction`'s contract), which never suspend here."""
    try:
        work.send(None)
    except StopIteration as finished:
        return finished.value  # type: ignore[no-any-return]
    work.close()
    raise RuntimeError("a transaction's work awaited something other than its transaction")


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
        result = await self._writer.run("BEGIN IMMEDIATE", lambda conn: done(work(SqliteTransaction(conn))))
        # Right after the COMMIT, before this task yields: no later write has begun yet.
        committed(write_name(work))
        return result

    async def read(self, work: Work[T]) -> T:
        return await self._reader.run("BEGIN", lambda conn: done(work(SqliteTransaction(conn))), commit=False)

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        # One statement is a snapshot of its own: no BEGIN needed.
        async with self._reader.alone() as conn:
            return [dict(r) for r in await conn.execute_fetchall(sql, args)]
