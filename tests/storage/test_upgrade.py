"""Databases made by the store of schema version 5, the code before the one SQL layer (dumped in
tests/storage/fixtures/ by scripts/make_upgrade_fixtures.py, filled by fixtures/fill_version5.py), opened by
today's store: migrated in place to the latest version with every row kept as it was, the schema then the
same as a new database's, and read back through the store, on SQLite and on PostgreSQL."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import asyncpg
import pytest

from storage import LedgerIn, is_postgres_url, migrations, open_store, season_of
from storage.copy import ORDER, TABLES
from tests import pg

from .conftest import GUILD, Doc, raw_fetch
from .test_copy import everything

FIXTURES = Path(__file__).parent / "fixtures"
VERSION = 5
IDS = [1, 2, 3, 4, 5]  # the filler's tables: finished, running, lobby, cancelled, started without a move
# The copied tables and columns version 5 has: migration 7 added the server settings' (`host_role`,
# `game_channels`, `table_defaults`), migration 8 the ratings and seasons', migration 9 the thread per
# game's (`threads`, `home_channel_id`), migration 10 the competitions' and fair play's, migration 13 the
# seats' display names.
LATER = {
    "guild_settings": ("host_role", "seasons", "threads"),
    "game_channels": None,
    "table_defaults": None,
    "results": ("ended_at",),
    "ratings": None,
    "rating_changes": None,
    "season_balances": None,
    "season_ratings": None,
    "game_tables": ("home_channel_id", "voided_at"),
    "competitions": None,
    "seats": ("display_name",),
    "competition_entrants": None,
    "competition_matches": None,
    "moderation": None,
    "leaderboard_exclusions": None,
}
VERSION_5_TABLES = {
    table: tuple(c for c in columns if c not in (LATER.get(table) or ()))
    for table, columns in TABLES.items()
    if table not in LATER or LATER[table] is not None
}

# What PostgreSQL's catalogue says of a schema: columns, constraints, indexes, triggers, functions.
PG_SCHEMA = [
    "SELECT table_name, column_name, ordinal_position, data_type, is_nullable, column_default, is_identity,"
    " identity_generation FROM information_schema.columns WHERE table_schema = 'public' ORDER BY 1, 3",
    "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) FROM pg_constraint"
    " WHERE connamespace = 'public'::regnamespace ORDER BY 1, 2",
    "SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1, 2",
    "SELECT tgrelid::regclass::text, tgname, pg_get_triggerdef(oid) FROM pg_trigger WHERE NOT tgisinternal"
    " ORDER BY 1, 2",
    "SELECT proname, pg_get_functiondef(oid) FROM pg_proc WHERE pronamespace = 'public'::regnamespace",
]


async def load_version_5(database: str) -> None:
    """The fixture's database, as the old code left it, into the empty `database`."""
    if is_postgres_url(database):
        conn = await asyncpg.connect(database)
        try:
            await conn.execute((FIXTURES / f"version{VERSION}.postgres.sql").read_text())
        finally:
            await conn.close()  # the dump empties its session's search_path
        return
    with sqlite3.connect(database) as conn:
        conn.executescript((FIXTURES / f"version{VERSION}.sqlite.sql").read_text())
    conn.close()


async def version(database: str) -> int:
    sql = "SELECT version FROM schema_version" if is_postgres_url(database) else "PRAGMA user_version"
    return (await raw_fetch(database, sql))[0][0]


async def every_row(database: str) -> dict[str, list[tuple]]:
    """Every row of every table version 5 has, in key order."""
    return {
        table: await raw_fetch(database, f"SELECT {', '.join(columns)} FROM {table} ORDER BY {ORDER[table]}")
        for table, columns in VERSION_5_TABLES.items()
    }


async def schema(database: str) -> list[tuple]:
    """The whole schema as the database describes it (SQLite: its CREATE statements, white space aside)."""
    if is_postgres_url(database):
        return [row for sql in PG_SCHEMA for row in await raw_fetch(database, sql)]
    rows = await raw_fetch(database, "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY 1, 2")
    return [(kind, name, table, sql and " ".join(sql.split())) for kind, name, table, sql in rows]


@pytest.fixture
async def another(database, request, tmp_path):
    """A second empty database of the same kind."""
    if not is_postgres_url(database):
        yield str(tmp_path / "new.sqlite3")
        return
    admin = request.getfixturevalue("pg_admin_url")
    url = await pg.create_database(admin)
    try:
        yield url
    finally:
        await pg.drop_database(admin, url)


async def test_a_version_5_database_is_upgraded_with_every_row_kept(database):
    await load_version_5(database)
    before = await every_row(database)
    assert await version(database) == VERSION
    assert {t: len(rows) for t, rows in before.items()} == {
        "game_tables": 5,
        "seats": 11,
        "actions": 6,
        "ledger": 6,
        "results": 3,
        "balances": 8,
        "guild_settings": 2,
        "dm_channels": 2,
    }

    await (await open_store(database)).close()

    assert await version(database) == migrations.LATEST > VERSION
    assert await every_row(database) == before
    assert await raw_fetch(database, "SELECT COUNT(*) FROM rate_leases") == [(0,)]


async def test_an_upgraded_database_has_the_schema_of_a_new_one(database, another):
    await load_version_5(database)
    await (await open_store(database)).close()
    await (await open_store(another)).close()
    assert await schema(database) == await schema(another)


async def test_the_store_reads_an_upgraded_database_and_goes_on_writing(database):
    await load_version_5(database)
    store = await open_store(database)
    try:
        done, running, lobby, cancelled, fresh = [await store.get_table(i) for i in IDS]
        assert [t.status for t in (done, running, lobby, cancelled, fresh)] == [
            "finished",
            "running",
            "lobby",
            "cancelled",
            "running",
        ]
        assert done.options == {"chips": 20, "timeout": 60} and done.next_seq == 3
        assert done.meta == {"language": "en", "notes": [{"key": "table.finished", "at": 3}]}
        assert done.display == {"table_message_id": 5001, "shown_seq": 3}
        assert running.players == ["22", "21"] and running.meta["timeouts"] == {"21": 2}
        assert lobby.players == ["11", "ai:1"] and lobby.display == {} and cancelled.seats == []
        assert [t.id for t in await store.open_tables()] == [2, 3, 5]
        history = [
            (h.seq, h.actor, [(e.from_account, e.to_account, e.amount) for e in h.ledger])
            for h in await store.history(done.id)
        ]
        assert history == [
            (0, "11", [("11", "@pot", 5)]),
            (1, "ai:1", [("ai:1", "@pot", 3)]),
            (2, None, [("@pot", "12", 6), ("@pot", "11", 2)]),
        ]
        assert [(r.player, r.placement, r.won) for r in await store.results(done.id)] == [
            ("12", 1, True),
            ("11", 2, False),
            ("ai:1", 3, False),
        ]
        board = await store.leaderboard(GUILD)
        assert [(r.player, r.net, r.games, r.wins) for r in board] == [("12", 6, 1, 1), ("11", -3, 1, 0)]
        assert (await store.player_stats(GUILD, "12")).biggest_win == 6
        # Version 8 put the finished game into the season (month) it ended in, by its results; nothing of
        # it is rated (ratings start with the games finished after the upgrade).
        season = season_of(done.finished_at)
        in_season = await store.leaderboard(GUILD, season=season)
        assert [(r.player, r.net, r.games, r.wins) for r in in_season] == [("12", 6, 1, 1), ("11", -3, 1, 0)]
        assert await store.seasons(GUILD) == [season]
        assert [(p.table_id, p.ended_at) for p in await store.chip_history(GUILD, "12")] == [
            (done.id, done.finished_at)
        ]
        assert await store.rating_changes(done.id) == [] and await store.player_ratings(GUILD, "12") == []
        malice = await store.leaderboard(GUILD + 1, "malice")
        assert [(r.player, r.net) for r in malice] == [("22", 5), ("21", -5)]
        assert await store.guild_language(GUILD + 1) == "de" and await store.guild_language(GUILD) is None
        assert await store.dm_channels() == {11: 8011, 12: 8012}

        # And the upgraded database goes on: the next move, the next table.
        move = LedgerIn(from_account="22", to_account="21", amount=2, reason="malice_score")
        assert await store.append_action(running.id, 3, "22", "{}", [move], "{}") == 3
        assert [(r.player, r.net) for r in await store.leaderboard(GUILD + 1)] == [("22", 3), ("21", -3)]
        assert await store.create_table(GUILD, 6, "insomnia", 11, Doc(chips=20), "s6", "c6") == 6
    finally:
        await store.close()


async def test_both_kinds_of_upgraded_database_read_back_the_same(tmp_path, pg_url):
    path = str(tmp_path / "old.sqlite3")
    await load_version_5(path)
    await load_version_5(pg_url)
    sqlite, postgres = await open_store(path), await open_store(pg_url)
    try:
        assert await everything(postgres, IDS) == await everything(sqlite, IDS)
    finally:
        await sqlite.close()
        await postgres.close()


async def test_migration_14_takes_the_format_check_away_and_keeps_every_event(database):
    # A database of version 13 (the format CHECK of migration 10) holding a running event: its entrants and
    # its matches refer to it. Rebuilding the table on SQLite keeps them all, their references intact.
    from tests.storage.test_schema import migrate_with

    await migrate_with(database, migrations.MIGRATIONS[:13])
    for sql in [
        "INSERT INTO competitions (id, guild_id, channel_id, kind, format, rounds, options, host_id, status,"
        " round, created_at, posted) VALUES"
        f" (7, {GUILD}, 5, 'malice', 'swiss', 3, '{{}}', 1, 'running', 1, 100, 1),"
        f" (8, {GUILD}, 6, 'insomnia', 'tables', 2, '{{}}', 1, 'open', 0, 101, 0)",
        "INSERT INTO competition_entrants (competition_id, player, rating, joined_at) VALUES"
        " (7, '11', 0, 100), (7, '12', 0, 100)",
        "INSERT INTO competition_matches (competition_id, round, table_no, players) VALUES"
        ' (7, 1, 1, \'["11", "12"]\')',
    ]:
        await raw_fetch(database, sql)
    before = await raw_fetch(database, "SELECT * FROM competitions ORDER BY id")
    store = await open_store(database)  # migrates to the latest version
    try:
        row = await store.competition(7)
        assert row is not None and row.format == "swiss" and [e.player for e in row.entrants] == ["11", "12"]
        assert [m.players for m in row.matches] == [("11", "12")]
        # A format the code registers later is stored as it is: no migration for a new format.
        event = await store.create_competition(GUILD, 9, "malice", "round-robin", 1, {}, 1)
        assert (await store.competition(event)).format == "round-robin"
    finally:
        await store.close()
    assert await raw_fetch(database, "SELECT * FROM competitions WHERE id IN (7, 8) ORDER BY id") == before
    if not is_postgres_url(database):
        assert await raw_fetch(database, "PRAGMA foreign_key_check") == []
