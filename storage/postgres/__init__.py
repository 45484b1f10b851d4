"""The PostgreSQL backend of the store, through asyncpg: one database shared by several processes."""

from __future__ import annotations

import time
from collections.abc import Callable

from storage.contract import Store, TableChanges
from storage.postgres.changes import PostgresTableChanges
from storage.postgres.database import PostgresDatabase

POOL_SIZE = 10


class PostgresStore(Store):
    """The store on a PostgreSQL database: `await PostgresStore.open(url)`, then `await store.close()`."""

    @classmethod
    async def open(
        cls, url_or_path: str, clock: Callable[[], float] = time.time, *, pool_size: int = POOL_SIZE
    ) -> PostgresStore:
        """Connect to `postgresql://user:password@host:port/database` and migrate it to the latest version.

        Raises NewerDatabaseError if the database comes from a newer version of the bot, StoreUnavailable if
        the server cannot be reached or refuses the login (the message names it without the password).
        """
        store = await cls._migrated(await PostgresDatabase.open(url_or_path, pool_size), clock)
        store._url = url_or_path
        return store

    _url: str = ""

    async def table_changes(self, changed: Callable[[int], None]) -> TableChanges | None:
        """LISTEN on the tables' notifications (`storage.postgres.changes`): every process's commits."""
        return await PostgresTableChanges.open(self._url, changed)


__all__ = ["PostgresStore"]
