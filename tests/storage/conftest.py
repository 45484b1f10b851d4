"""Fixtures: a Store on each backend (a real SQLite file in a temporary folder, a fresh database on a real
PostgreSQL server: see tests/conftest.py), with a deterministic clock, and raw access behind its back."""

from __future__ import annotations

import itertools
import sqlite3
from collections.abc import AsyncIterator, Callable

import asyncpg
import pytest
from pydantic import BaseModel, ConfigDict

from storage import LedgerIn, SeatIn, Store, is_postgres_url, open_store

GUILD = 1000


def ticking_clock(start: float = 1_700_000_000.0) -> Callable[[], float]:
    """Each call is one second later: times are deterministic and strictly increasing."""
    counter = itertools.count()
    return lambda: start + next(counter)


@pytest.fixture
def db_path(tmp_path) -> str:
    """An SQLite file, for the tests of what only SQLite has (PRAGMAs, files)."""
    return str(tmp_path / "cardtable.sqlite3")


@pytest.fixture
async def store(database) -> AsyncIterator[Store]:
    s = await open_store(database, clock=ticking_clock())
    try:
        yield s
    finally:
        await s.close()


class Doc(BaseModel):
    """Any JSON object, handed to the store as it takes options, meta and display: a model."""

    model_config = ConfigDict(extra="allow")


# A duplicate row (e.g. two results for one player): the driver's own error, on either backend.
DUPLICATE = (sqlite3.IntegrityError, asyncpg.UniqueViolationError)


async def raw_fetch(database: str, sql: str) -> list[tuple]:
    """One statement straight through the driver, behind the store's back (autocommitted)."""
    if is_postgres_url(database):
        conn = await asyncpg.connect(database)
        try:
            return [tuple(r) for r in await conn.fetch(sql)]
        finally:
            await conn.close()
    with sqlite3.connect(database, isolation_level=None) as conn:
        return [tuple(r) for r in conn.execute(sql).fetchall()]


async def running_table(
    store: Store,
    channel: int,
    players: list[str],
    kind: str = "insomnia",
    guild: int = GUILD,
) -> int:
    """A started table with those players seated (user ids for people, None for `ai:` seats)."""
    table = await store.create_table(
        guild, channel, kind, 1, Doc(chips=100), f"seed-{channel}", f"c-{channel}"
    )
    await store.set_seats(
        table,
        [
            SeatIn(seat=i, player=p, user_id=None if p.startswith("ai:") else int(p))
            for i, p in enumerate(players)
        ],
    )
    await store.start_table(table, '{"start": true}')
    return table


def move(src: str, dst: str, amount: int, reason: str = "bid") -> LedgerIn:
    return LedgerIn(from_account=src, to_account=dst, amount=amount, reason=reason)
