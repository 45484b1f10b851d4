"""Opening, migrating and refusing database files."""

from __future__ import annotations

import sqlite3

import pytest

from storage import NewerDatabaseError, Store
from storage.db import connect
from storage.migrations import LATEST, migrate

from .conftest import running_table


def user_version(path: str) -> int:
    with sqlite3.connect(path) as conn:
        return conn.execute("PRAGMA user_version").fetchone()[0]


async def test_a_new_file_is_migrated_to_the_latest_version_with_wal(db_path):
    store = await Store.open(db_path)
    await store.close()
    assert user_version(db_path) == LATEST >= 1
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"game_tables", "seats", "actions", "ledger", "results"} <= tables


async def test_every_connection_has_foreign_keys_synchronous_normal_and_a_busy_timeout(db_path):
    store = await Store.open(db_path)
    try:
        for conn in (store._db._writer, store._db._reader):
            assert (await (await conn.execute("PRAGMA foreign_keys")).fetchone())[0] == 1
            assert (await (await conn.execute("PRAGMA synchronous")).fetchone())[0] == 1  # NORMAL
            assert (await (await conn.execute("PRAGMA busy_timeout")).fetchone())[0] >= 1000
    finally:
        await store.close()


async def test_reopening_keeps_the_data_and_the_version(db_path):
    store = await Store.open(db_path)
    table = await running_table(store, 5, ["11", "12"])
    await store.close()
    store = await Store.open(db_path)
    try:
        row = await store.get_table(table)
        assert row is not None and row.status == "running" and row.players == ["11", "12"]
    finally:
        await store.close()
    assert user_version(db_path) == LATEST


async def test_a_database_from_a_newer_bot_is_refused_and_left_untouched(db_path):
    store = await Store.open(db_path)
    await store.close()
    with sqlite3.connect(db_path) as conn:
        conn.execute(f"PRAGMA user_version = {LATEST + 1}")
    with pytest.raises(NewerDatabaseError, match=r"schema version \d+.*upgrade the bot") as info:
        await Store.open(db_path)
    assert info.value.found == LATEST + 1 and info.value.known == LATEST
    assert user_version(db_path) == LATEST + 1


async def test_a_failing_migration_leaves_the_file_at_the_previous_version(db_path):
    steps = [
        ["CREATE TABLE one (x INTEGER)"],
        ["CREATE TABLE two (x INTEGER)", "CREATE TABLE broken (x INTEGER"],  # syntax error half-way
    ]
    conn = await connect(db_path)
    try:
        with pytest.raises(sqlite3.OperationalError):
            await migrate(conn, db_path, steps)
        assert not conn.in_transaction
    finally:
        await conn.close()
    assert user_version(db_path) == 1
    with sqlite3.connect(db_path) as raw:
        names = {r[0] for r in raw.execute("SELECT name FROM sqlite_master")}
    assert "one" in names and "two" not in names


async def test_the_action_log_and_the_ledger_refuse_edits_and_deletions(store, db_path):
    from .conftest import move

    table = await running_table(store, 5, ["11", "12"])
    await store.append_action(table, 0, "11", '{"kind":"bid"}', [move("11", "@pot", 5)], "{}")
    with sqlite3.connect(db_path) as conn:
        for sql in (
            "UPDATE ledger SET amount = 500",
            "DELETE FROM ledger",
            "UPDATE actions SET action = '{}'",
            "DELETE FROM actions",
        ):
            with pytest.raises(sqlite3.IntegrityError, match="append-only"):
                conn.execute(sql)
    assert [e.amount for e in await store.ledger(table)] == [5]


async def test_the_folder_is_created_and_an_in_memory_database_is_refused(tmp_path):
    store = await Store.open(str(tmp_path / "data" / "bot.sqlite3"))
    await store.close()
    assert (tmp_path / "data" / "bot.sqlite3").exists()
    with pytest.raises(ValueError, match="database file"):
        await Store.open(":memory:")
