"""The SQLite backend of the store: the embedded default, one file, one bot process."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from storage.contract import Store
from storage.sqlite.database import SqliteDatabase


class SqliteStore(Store):
    """The store on one SQLite file. Open with `await SqliteStore.open(path)`; `await store.close()`."""

    @classmethod
    async def open(cls, url_or_path: str, clock: Callable[[], float] = time.time) -> SqliteStore:
        """Connect to the SQLite file at `url_or_path` (created with its folder if missing) and migrate it to
        the latest version. Raises NewerDatabaseError if the file comes from a newer version of the bot."""
        path = str(url_or_path)
        if path == ":memory:" or path.startswith("file::memory:"):
            # The reader and the writer are two connections: they must share a file.
            raise ValueError("the store needs a database file, not an in-memory database")
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        return await cls._migrated(await SqliteDatabase.open(path), clock)


__all__ = ["SqliteStore"]
