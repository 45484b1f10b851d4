"""One SQLite connection on a thread of its own, and the project's settings for every connection.

SQLite's calls block, so each connection lives on a single-worker thread pool of its own (plain `sqlite3`,
created on that thread and only ever used there); `run(fn)` queues `fn(conn)` on it and awaits the result, so
the event loop never waits on the disk and calls on one connection run one at a time, in order. A whole
transaction is one such call (one hop between the loop and the thread; per statement, the hops were most of
a move's time). A call, once started, runs to its end even if the awaiting task is cancelled.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

BUSY_TIMEOUT_MS = 5000

T = TypeVar("T")


def configure(conn: sqlite3.Connection) -> None:
    """The project's settings on a new connection, opened with `isolation_level=None`: we issue BEGIN and
    COMMIT ourselves."""
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
    """A connection and its thread: `await Connection.open(path, name)`, then `await run(fn, *args)`."""

    def __init__(self, thread: ThreadPoolExecutor, conn: sqlite3.Connection) -> None:
        self._thread = thread
        self._conn = conn

    @classmethod
    async def open(cls, path: str, name: str) -> Connection:
        thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"sqlite-{name}")
        try:
            conn = await asyncio.get_running_loop().run_in_executor(thread, connect, path)
        except BaseException:
            # A file that is not a database, or locked past the timeout: no thread is left behind.
            thread.shutdown(wait=False)
            raise
        return cls(thread, conn)

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """fn(conn, *args) on the connection's thread."""
        return await asyncio.get_running_loop().run_in_executor(self._thread, fn, self._conn, *args)

    async def close(self, before: Callable[[sqlite3.Connection], None] | None = None) -> None:
        """Close the connection (after `before(conn)`, if given) and end its thread."""
        try:
            if before is not None:
                await self.run(before)
        finally:
            try:
                await self.run(sqlite3.Connection.close)
            finally:
                self._thread.shutdown(wait=False)
