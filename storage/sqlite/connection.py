"""One SQLite connection on a thread of its own, and the project's settings for every connection.

SQLite's calls block, so each connection lives on a thread of its own (plain `sqlite3`, created on that
thread and only ever used there); `run(fn)` queues `fn(conn)` for it and awaits the result, so the event loop
never waits on the disk and calls on one connection run one at a time, in order. A whole transaction is one
such call: one hop between the loop and the thread (per statement, the hops were most of a move's time).

The hop is a `queue.SimpleQueue` one way and `loop.call_soon_threadsafe` the other: about half what a
`ThreadPoolExecutor` costs per call (its futures and locks), which is a fifth of a move on SQLite. A call
whose awaiting task is cancelled before the thread takes it up never runs; one already taken up runs to its
end (a transaction ends in COMMIT or ROLLBACK either way).
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import sqlite3
import threading
from collections.abc import Callable
from typing import Any, Generic, TypeVar

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


class _Call(Generic[T]):
    """One queued call and the future its result goes to. Whoever claims it first, the thread (to run it) or
    the cancelled caller (so it never runs), wins: `list.pop` is atomic."""

    __slots__ = ("args", "fn", "future", "loop", "unclaimed")

    def __init__(self, fn: Callable[..., T], args: tuple[Any, ...], loop: asyncio.AbstractEventLoop) -> None:
        self.fn, self.args, self.loop = fn, args, loop
        self.future: asyncio.Future[T] = loop.create_future()
        self.unclaimed = [True]

    def claim(self) -> bool:
        try:
            self.unclaimed.pop()
        except IndexError:
            return False
        return True

    def settle(self, result: T | None, error: BaseException | None) -> None:
        """From the thread: hand the outcome to the loop (which may be gone if nobody closed the store)."""
        with contextlib.suppress(RuntimeError):
            self.loop.call_soon_threadsafe(_settle, self.future, result, error)


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if future.cancelled():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


class Connection:
    """A connection and its thread: `await Connection.open(path, name)`, then `await run(fn, *args)`."""

    def __init__(self) -> None:
        self._calls: queue.SimpleQueue[_Call[Any] | None] = queue.SimpleQueue()

    @classmethod
    async def open(cls, path: str, name: str) -> Connection:
        """Raises what sqlite3 raises for a file that is not a database or is locked past the timeout (the
        thread has ended then)."""
        connection = cls()
        opened = _Call(connect, (path,), asyncio.get_running_loop())
        # A daemon: a store nobody closed does not keep the process alive (SQLite's journal undoes a
        # transaction cut off at exit).
        threading.Thread(target=connection._serve, args=(opened,), name=f"sqlite-{name}", daemon=True).start()
        await opened.future
        return connection

    def _serve(self, opened: _Call[sqlite3.Connection]) -> None:
        try:
            conn = connect(*opened.args)
        except BaseException as e:
            opened.settle(None, e)
            return
        opened.settle(conn, None)
        while (call := self._calls.get()) is not None:
            if not call.claim():
                continue
            try:
                result = call.fn(conn, *call.args)
            except BaseException as e:
                call.settle(None, e)
            else:
                call.settle(result, None)

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """fn(conn, *args) on the connection's thread."""
        call = _Call(fn, args, asyncio.get_running_loop())
        self._calls.put(call)
        try:
            return await call.future
        except asyncio.CancelledError:
            call.claim()  # not taken up yet: it never will be
            raise

    async def close(self, before: Callable[[sqlite3.Connection], None] | None = None) -> None:
        """Close the connection (after `before(conn)`, if given) and end its thread."""
        try:
            if before is not None:
                await self.run(before)
        finally:
            try:
                await self.run(sqlite3.Connection.close)
            finally:
                self._calls.put(None)
