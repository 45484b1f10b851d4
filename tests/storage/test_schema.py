"""Opening, migrating and refusing databases, on both backends; the SQLite connection settings."""

from __future__ import annotations

import sqlite3

import asyncpg
import pytest

from storage import NewerDatabaseError, Store, is_postgres_url, migrations, open_store
from storage.postgres.database import PostgresDatabase
from storage.sqlite.database import SqliteDatabase

from .conftest import GUILD, raw_fetch, running_table
from .conftest import move as mv

LATEST = migrations.LATEST
TABLES = {"game_tables", "seats", "actions", "ledger", "results", "balances"}


async def schema_version(database: str) -> int:
    if is_postgres_url(database):
        return (await raw_fetch(database, "SELECT version FROM schema_version"))[0][0]
    return (await raw_fetch(database, "PRAGMA user_version"))[0][0]


async def table_names(database: str) -> set[str]:
    if is_postgres_url(database):
        sql = "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
    else:
        sql = "SELECT name FROM sqlite_master WHERE type = 'table'"
    return {r[0] for r in await raw_fetch(database, sql)}


async def migrate_with(database: str, steps: list[list[str]]) -> None:
    """Run a list of migrations through the one `migrate`, on the backend's database."""
    if is_postgres_url(database):
        db = await PostgresDatabase.open(database, pool_size=1)
    else:
        db = await SqliteDatabase.open(database)
    try:
        await migrations.migrate(db, steps)
    finally:
        await db.close()


async def test_a_new_database_is_migrated_to_the_latest_version(database):
    store = await open_store(database)
    await store.close()
    assert await schema_version(database) == LATEST >= 2
    assert await table_names(database) >= TABLES


async def test_an_sqlite_file_is_in_wal_mode_and_every_connection_has_the_settings(db_path):
    store = await open_store(db_path)
    try:
        for connection in (store._db._writer, store._db._reader):
            async with connection.alone() as conn:
                settings = [
                    (await conn.execute_fetchall(f"PRAGMA {p}"))[0][0]
                    for p in ("foreign_keys", "synchronous", "busy_timeout", "journal_mode")
                ]
            assert settings[:2] == [1, 1] and settings[2] >= 1000 and settings[3] == "wal"  # 1: NORMAL
    finally:
        await store.close()


async def test_closing_an_sqlite_store_folds_the_wal_into_the_file(db_path):
    # So the file alone is a whole copy: a backup, or the source of a move to PostgreSQL.
    store = await open_store(db_path)
    table = await running_table(store, 5, ["11", "12"])
    await store.close()
    with sqlite3.connect(f"file:{db_path}?mode=ro&immutable=1", uri=True) as conn:  # ignores any WAL
        assert conn.execute("SELECT status FROM game_tables WHERE id = ?", (table,)).fetchone() == (
            "running",
        )


async def test_reopening_keeps_the_data_and_the_version(database):
    store = await open_store(database)
    table = await running_table(store, 5, ["11", "12"])
    await store.close()
    store = await Store.open(database)  # the contract's opener is open_store
    try:
        row = await store.get_table(table)
        assert row is not None and row.status == "running" and list(row.players) == ["11", "12"]
    finally:
        await store.close()
    assert await schema_version(database) == LATEST


async def test_a_database_from_a_newer_bot_is_refused_and_left_untouched(database):
    store = await open_store(database)
    await store.close()
    if is_postgres_url(database):
        await raw_fetch(database, f"UPDATE schema_version SET version = {LATEST + 1}")
    else:
        await raw_fetch(database, f"PRAGMA user_version = {LATEST + 1}")
    with pytest.raises(NewerDatabaseError, match=r"schema version \d+.*upgrade the bot") as info:
        await open_store(database)
    assert info.value.found == LATEST + 1 and info.value.known == LATEST
    assert await schema_version(database) == LATEST + 1


async def test_a_failing_migration_leaves_the_database_at_the_previous_version(database):
    steps = [
        ["CREATE TABLE one (x INTEGER)"],
        ["CREATE TABLE two (x INTEGER)", "CREATE TABLE broken (x INTEGER"],  # syntax error half-way
    ]
    with pytest.raises((sqlite3.OperationalError, asyncpg.PostgresSyntaxError)):
        await migrate_with(database, steps)
    assert await schema_version(database) == 1
    names = await table_names(database)
    assert "one" in names and "two" not in names


async def test_the_action_log_and_the_ledger_refuse_edits_and_deletions(store, database):
    table = await running_table(store, 5, ["11", "12"])
    await store.append_action(table, 0, "11", '{"kind":"bid"}', [mv("11", "@pot", 5)], "{}")
    edits = [
        "UPDATE ledger SET amount = 500",
        "DELETE FROM ledger",
        "UPDATE actions SET action = '{}'",
        "DELETE FROM actions",
    ]
    if is_postgres_url(database):
        edits += ["TRUNCATE ledger", "TRUNCATE actions CASCADE"]
    for sql in edits:
        with pytest.raises((sqlite3.IntegrityError, asyncpg.RestrictViolationError), match="append-only"):
            await raw_fetch(database, sql)
    assert [e.amount for e in await store.ledger(table)] == [5]
    assert len(await store.actions(table)) == 1


async def test_the_balances_of_an_older_database_are_built_from_its_ledger_and_results(database):
    # A database of version 1 (before balances) holding a finished game and a running one.
    await migrate_with(database, migrations.MIGRATIONS[:1])
    won = "TRUE" if is_postgres_url(database) else "1"
    lost = "FALSE" if is_postgres_url(database) else "0"
    for sql in [
        "INSERT INTO game_tables (id, guild_id, channel_id, kind, status, seed, commitment, host_id,"
        " created_at)"
        f" VALUES (1, {GUILD}, 1, 'insomnia', 'finished', 's', 'c', 1, 0),"
        f" (2, {GUILD}, 2, 'malice', 'running', 's', 'c', 1, 0)",
        "INSERT INTO actions (table_id, seq, actor, action, created_at) VALUES (1, 0, '11', '{}', 0),"
        " (1, 1, '12', '{}', 0), (2, 0, '11', '{}', 0)",
        "INSERT INTO ledger (table_id, seq, guild_id, kind, from_account, to_account, amount, reason,"
        " created_at)"
        f" VALUES (1, 0, {GUILD}, 'insomnia', '11', '@pot', 5, 'bid', 0),"
        f" (1, 1, {GUILD}, 'insomnia', '@pot', '12', 5, 'pot_split', 0),"
        f" (1, 1, {GUILD}, 'insomnia', 'ai:1', '12', 3, 'stage1_payout', 0),"
        f" (2, 0, {GUILD}, 'malice', '12', '11', 4, 'malice_score', 0)",
        "INSERT INTO results (table_id, player, guild_id, kind, final_chips, net, placement, won) VALUES"
        f" (1, '12', {GUILD}, 'insomnia', 18, 8, 1, {won}), (1, '11', {GUILD}, 'insomnia', 5, -5, 2, {lost}),"
        f" (1, 'ai:1', {GUILD}, 'insomnia', 7, -3, 3, {lost})",
    ]:
        await raw_fetch(database, sql)
    store = await open_store(database)
    try:
        board = await store.leaderboard(GUILD)
        assert [(r.player, r.net, r.games, r.wins) for r in board] == [("12", 4, 1, 1), ("11", -1, 1, 0)]
        stats = await store.player_stats(GUILD, "12")
        assert (stats.net, stats.games, stats.wins, stats.biggest_win) == (4, 1, 1, 8)
        assert {k: (s.net, s.games) for k, s in stats.per_game.items()} == {
            "insomnia": (8, 1),
            "malice": (-4, 0),
        }
        # And kept from there on.
        await store.append_action(2, 1, "12", "{}", [mv("11", "12", 2, "malice_score")], "{}")
        assert (await store.player_stats(GUILD, "12")).per_game["malice"].net == -2
    finally:
        await store.close()


async def test_the_folder_is_created_and_an_in_memory_database_is_refused(tmp_path):
    store = await open_store(str(tmp_path / "data" / "bot.sqlite3"))
    await store.close()
    assert (tmp_path / "data" / "bot.sqlite3").exists()
    with pytest.raises(ValueError, match="database file"):
        await open_store(":memory:")
