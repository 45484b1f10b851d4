"""The SQLite backend runs each transaction on its connection's own thread in one call (see
storage/sqlite/connection.py): a function queued on the connection runs on its thread (not the event loop's),
in order, with the real sqlite3 connection."""

from __future__ import annotations

import asyncio
import sqlite3
import threading

from storage.sqlite.connection import Connection


async def test_a_queued_function_runs_on_the_connections_own_thread_in_order(tmp_path):
    connection = await Connection.open(str(tmp_path / "driver.sqlite3"), "test")
    try:
        seen = []

        def job(conn: sqlite3.Connection, n: int) -> str:
            assert isinstance(conn, sqlite3.Connection)
            seen.append(n)
            return threading.current_thread().name

        names = {await connection.run(job, n) for n in range(5)}
        assert seen == list(range(5))
        assert threading.current_thread().name not in names and len(names) == 1
        assert (await connection.run(lambda conn: conn.execute("PRAGMA journal_mode").fetchone()[0])) == "wal"
    finally:
        await connection.close()


async def test_a_cancelled_call_runs_to_its_end_once_begun_and_never_if_still_queued(tmp_path):
    connection = await Connection.open(str(tmp_path / "driver.sqlite3"), "test")
    try:
        started, release, ran = threading.Event(), threading.Event(), []

        def slow(conn: sqlite3.Connection) -> None:
            started.set()
            release.wait(5)
            ran.append("slow")

        begun = asyncio.create_task(connection.run(slow))
        queued = asyncio.create_task(connection.run(lambda conn: ran.append("queued")))
        await asyncio.to_thread(started.wait, 5)
        begun.cancel()
        queued.cancel()
        await asyncio.gather(begun, queued, return_exceptions=True)  # both callers gave up
        release.set()
        assert await connection.run(lambda conn: ran.append("after") or ran) == ["slow", "after"]
        assert begun.cancelled() and queued.cancelled()
    finally:
        await connection.close()
