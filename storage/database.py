"""What the one store (`storage.contract.Store`) needs from a database, and how the two databases' SQL
differs.

The store's SQL is written once, with `?` placeholders, in `storage.writes`, `storage.reads` and
`storage.migrations`. Each backend (`storage/sqlite/`, `storage/postgres/`) supplies three things:

- a `Database`, which runs one transaction (`write`, `read`) as an async function of a `Transaction`, each
  statement awaited on the event loop: SQLite's through aiosqlite, on its writer's (or reader's) connection,
  lent to one transaction at a time (`storage.sqlite`); PostgreSQL's inside `asyncpg`'s transaction. A
  transaction's function awaits nothing but its own statements: on SQLite it holds the one writer meanwhile;
- a `Transaction`, which runs statements: `fetch` and `execute` (and `execute_many`), `write(Batch)` for
  everything a move writes with its sequence check (one statement on PostgreSQL, where a move's rows go as
  arrays through data-modifying CTEs; on SQLite the check inside the first row's INSERT, then a multi-row
  INSERT per table: every statement is a hop to aiosqlite's thread and back), and the schema version
  (`PRAGMA user_version` on SQLite, the `schema_version` table on PostgreSQL);
- a `Dialect`: its column types for the shared migrations (`{bigint}` and the like), its row-lock clause
  (`FOR UPDATE`; nothing on SQLite, whose write transactions hold the file's write lock from their BEGIN),
  and its append-only triggers.

What both accept alike is written plainly and not abstracted: `INSERT ... ON CONFLICT ... DO UPDATE` (upsert),
`RETURNING id`, JSON kept as TEXT and parsed by the store (`{json}` is TEXT on both).
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, TypeVar

T = TypeVar("T")
Row = dict[str, Any]
# One transaction's work: an async function of its Transaction, awaiting nothing but the transaction's calls.
Work = Callable[["Transaction"], Coroutine[Any, Any, T]]

_TOKEN = re.compile(r"\{(\w+)(?::(\w+))?\}")


@dataclass(frozen=True)
class AppendOnly:
    """A migration step's item: the database refuses to change or delete the rows of `table` (`what` names
    it in the refusal: "the action log is append-only")."""

    table: str
    what: str


@dataclass(frozen=True)
class Only:
    """A migration step's item for one database alone (`dialect` is its name): what the two schemas never
    shared, kept as each database had it."""

    dialect: str
    sql: str


Statement = str | AppendOnly | Only


@dataclass(frozen=True)
class Insert:
    """Rows of one table written in a `Batch`: its columns with their portable types (`bigint`, `int`, `text`,
    `real`, `bool`: what PostgreSQL casts its parameters to), an optional `ON CONFLICT` clause (the same on
    both databases), and the columns whose value is the same in every row of one batch (the move's table,
    seq, time: PostgreSQL takes them once, from the first row)."""

    table: str
    columns: tuple[tuple[str, str], ...]
    conflict: str = ""
    same: tuple[str, ...] = ()

    @cached_property
    def names(self) -> str:
        return ", ".join(name for name, _type in self.columns)

    @cached_property
    def sql(self) -> str:
        """One row's INSERT, `?` for each column."""
        marks = ", ".join("?" * len(self.columns))
        return f"INSERT INTO {self.table} ({self.names}) VALUES ({marks}) {self.conflict}".rstrip()


@dataclass(frozen=True)
class Guard:
    """A batch's condition: `sql` (one value, `?` for each of `args`) must find `expected`."""

    sql: str
    args: tuple[Any, ...]
    expected: Any


@dataclass(frozen=True)
class Batch:
    """Everything a move writes after its checks: rows for several tables in order (tables without rows are
    skipped), then `last` with `args` (an UPDATE whose WHERE clause ends it). Written as a whole, and only if
    the guard (if any) finds what it expects: on PostgreSQL the guard is read in the batch's own statement,
    so it sees what was committed before the statement began."""

    rows: Sequence[tuple[Insert, Sequence[tuple[Any, ...]]]]
    last: str
    args: tuple[Any, ...]
    guard: Guard | None = None


# Called with a write's name right after each write transaction of any store in this process commits (on the
# thread that committed it: SQLite's writer thread, or the event loop). Empty in the bot: a test arms it to
# count, name and crash after the writes the storage layer makes (tests/crash/), so the enumeration of
# writes comes from the store itself, never from a hand-kept list. A hook must not raise.
COMMITTED: list[Callable[[str], None]] = []


def committed(name: str) -> None:
    """Tell the hooks that the write `name` (`write_name`) committed."""
    for hook in COMMITTED:
        hook(name)


def write_name(work: Callable[..., Any]) -> str:
    """A write transaction's name: the store method it was built in (`Store.append_action`), or the work's
    own function (`storage.migrations._step`)."""
    qualname = getattr(work, "__qualname__", type(work).__name__)
    return qualname.split(".<locals>.", 1)[0]


def statement_name(sql: str) -> str:
    """A single-statement write's name: its first words (`UPDATE game_tables SET display`)."""
    return "sql: " + " ".join(sql.split()[:4])


class Dialect(ABC):
    """How one database's SQL differs from the other's, for what the store writes once."""

    name: str
    types: Mapping[str, str]  # portable type -> this database's column type
    row_lock: str  # appended to a SELECT whose rows the transaction must hold until it ends

    def render(self, statement: Statement) -> list[str]:
        """A migration item as this database's statements: `{type}` and `{type:column}` tokens replaced."""
        if isinstance(statement, AppendOnly):
            return self.append_only(statement.table, statement.what)
        if isinstance(statement, Only):
            return [statement.sql] if statement.dialect == self.name else []

        def token(match: re.Match[str]) -> str:
            return self.types[match[1]].format(column=match[2])

        return [_TOKEN.sub(token, statement)]

    @abstractmethod
    def append_only(self, table: str, what: str) -> list[str]:
        """The statements that make the database refuse UPDATE and DELETE (and TRUNCATE where it has it)."""


class Transaction(ABC):
    """One open transaction. Every call is awaited in order; a function given to `Database.write` or `read`
    awaits nothing else (on SQLite it holds the file's one writer, or the one reader, until it ends)."""

    dialect: Dialect

    @abstractmethod
    async def fetch(self, sql: str, *args: Any) -> list[Row]: ...

    @abstractmethod
    async def execute(self, sql: str, *args: Any) -> int:
        """Run one statement; returns the number of rows it changed."""

    @abstractmethod
    async def execute_many(self, sql: str, rows: Sequence[tuple[Any, ...]]) -> None: ...

    @abstractmethod
    async def write(self, batch: Batch) -> Any:
        """Write the batch if its guard finds what it expects; returns what the guard found (None without
        one). Nothing is written when the guard finds anything else."""

    @abstractmethod
    async def schema_version(self) -> int:
        """The database's schema version (0 when empty), holding the migration lock until the transaction ends
        so two processes starting at once never apply a step twice."""

    @abstractmethod
    async def set_schema_version(self, version: int) -> None: ...

    async def one(self, sql: str, *args: Any) -> Row | None:
        rows = await self.fetch(sql, *args)
        return rows[0] if rows else None

    async def value(self, sql: str, *args: Any) -> Any:
        """The first column of the first row, None if there is no row."""
        row = await self.one(sql, *args)
        return None if row is None else next(iter(row.values()))


class Database(ABC):
    """One database, open: transactions of the store's work on it."""

    dialect: Dialect
    name: str  # for messages: the file's path, or the URL without its password

    @abstractmethod
    async def write(self, work: Work[T]) -> T:
        """`work` in one write transaction: committed if it returns, rolled back if it raises. Once begun it
        always ends in COMMIT or ROLLBACK, even if the awaiting task is cancelled."""

    @abstractmethod
    async def read(self, work: Work[T]) -> T:
        """`work` in one read-only transaction: every statement sees the same committed state."""

    @abstractmethod
    async def close(self) -> None: ...

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        """One query on its own."""
        return await self.read(lambda tx: tx.fetch(sql, *args))

    async def execute(self, sql: str, *args: Any) -> int:
        """One statement committed on its own; returns the number of rows it changed."""
        return await self.write(_Statement(sql, args))


class _Statement:
    """A one-statement write as a transaction's work, named by its statement (`statement_name`)."""

    def __init__(self, sql: str, args: tuple[Any, ...]) -> None:
        self.sql = sql
        self.args = args
        self.__qualname__ = statement_name(sql)

    async def __call__(self, tx: Transaction) -> int:
        return await tx.execute(self.sql, *self.args)
