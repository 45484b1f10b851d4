"""Fixtures shared by the test suite: the database backends and a recording announcer.

`database` is parametrized over both backends: an SQLite file in tmp_path, or a fresh empty database on a
real PostgreSQL server (a throwaway one started once per session by `tests.pg`, or the server of
TEST_DATABASE_URL). Without PostgreSQL binaries and without TEST_DATABASE_URL the PostgreSQL runs are
SKIPPED with the reason, never passed. `store` (used by the session tests, tests/test_sessions*.py) opens it;
tests/storage has its own `store` with a ticking clock; the end-to-end tests use neither.
"""

from __future__ import annotations

import os
import re
import sqlite3

import asyncpg
import pytest

from storage import is_postgres_url, open_store
from tests import parallel, pg
from tests.parallel import (  # noqa: F401 (hooks: parallel runs, see tests/parallel.py)
    pytest_configure,
    pytest_configure_node,
    pytest_runtest_protocol,
    pytest_unconfigure,
)
from tests.recording import RecordingAnnouncer

BACKENDS = ["sqlite", "postgres"]


@pytest.fixture(scope="session")
def pg_admin_url():
    """A URL on a PostgreSQL server where the tests may create databases."""
    url = os.environ.get(pg.ENV_URL)
    if url:
        yield url
        return
    bin_dir = pg.find_bin_dir()
    if bin_dir is None:
        pytest.skip(
            "PostgreSQL tests skipped: no PostgreSQL binaries (initdb, pg_ctl) found and TEST_DATABASE_URL "
            "is not set; install the Debian `postgresql` package or run under scripts/with_postgres.sh"
        )
    server = pg.ThrowawayServer.start(bin_dir)
    try:
        yield server.url
    finally:
        server.stop()


@pytest.fixture
async def pg_url(pg_admin_url):
    """A fresh, empty PostgreSQL database for one test, dropped after it."""
    url = await pg.create_database(pg_admin_url)
    try:
        yield url
    finally:
        await pg.drop_database(pg_admin_url, url)


@pytest.fixture(params=BACKENDS)
def backend(request) -> str:
    return request.param


@pytest.fixture
def database(backend, request, tmp_path) -> str:
    """What `open_store` takes: an SQLite file path, or the URL of a fresh PostgreSQL database."""
    if backend == "sqlite":
        return str(tmp_path / "cards.sqlite3")
    return request.getfixturevalue("pg_url")


@pytest.fixture
async def store(database):
    store = await open_store(database)
    yield store
    await store.close()


@pytest.fixture
def behind_the_store(database):
    """`await behind_the_store(sql, *params)`: one statement (`?` placeholders) run on the `store` fixture's
    database through the bare driver, as damage done behind the store's back would be."""

    async def run(sql: str, *params: object) -> None:
        if is_postgres_url(database):
            numbered = iter(range(1, sql.count("?") + 1))
            conn = await asyncpg.connect(database)
            try:
                await conn.execute(re.sub(r"\?", lambda _m: f"${next(numbered)}", sql), *params)
            finally:
                await conn.close()
        else:
            with sqlite3.connect(database) as conn:
                conn.execute(sql, params)

    return run


@pytest.fixture
def announcer():
    return RecordingAnnouncer()


def pytest_collection_modifyitems(config, items):
    parallel.order(items)
    # This one session test damages the snapshot by writing the SQLite file behind the store's back; on
    # PostgreSQL there is no file to write. Skipped there, visibly, until it uses `behind_the_store`.
    for item in items:
        if item.name == "test_a_damaged_snapshot_is_rebuilt_from_the_log_on_resume[postgres]":
            item.add_marker(
                pytest.mark.skip(reason="writes the SQLite file directly (no file on PostgreSQL)")
            )
