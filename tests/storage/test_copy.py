"""Moving over: an SQLite database copied into an empty PostgreSQL database reads back the same through the
store, is checked, and a database that already holds data is refused."""

from __future__ import annotations

import random
import sqlite3
from collections import Counter

import pytest

from bot.sessions.rating import rate
from storage import Rated, ResultIn, SeatIn, TargetNotEmpty, open_store
from storage.copy import TABLES, copy_sqlite_to_postgres
from storage.postgres import PostgresStore

from .conftest import GUILD, Doc, running_table
from .conftest import move as mv
from .test_invariants import start


async def fill(path: str) -> list[int]:
    """An SQLite database with every kind of row: random real games (finished and running), a lobby, a
    cancelled table, a player who left his seat, meta, two guilds, one with a chosen language, a host role,
    game channels and table defaults."""
    store = await open_store(path)
    try:
        await store.set_guild_language(GUILD + 1, "de")
        await store.set_host_role(GUILD + 1, 7001)
        await store.set_game_channel(GUILD, 902, True)
        await store.set_table_default(GUILD, "malice", "turns", 40)
        await store.set_table_default(GUILD, "insomnia", "bust", "out")
        await store.remember_dm_channel(31, 8031)
        rng = random.Random("copy")
        tables = [
            await start(store, kind, n, rng) for n, kind in enumerate(["insomnia", "malice", "insomnia"])
        ]
        for t in tables:
            for _ in range(40 if t.kind == "insomnia" else 25):
                if t.game.is_over:
                    break
                await t.step(store, rng, Counter())
        lobby = await store.create_table(GUILD + 1, 900, "insomnia", 11, Doc(chips=5), "s", "c")
        await store.set_seats(lobby, [SeatIn(seat=0, player="11", user_id=11), SeatIn(seat=1, player="12")])
        await store.set_seats(lobby, [SeatIn(seat=0, player="11", user_id=11)])  # 12 left
        await store.update_meta(lobby, Doc(table_message_id=5))
        cancelled = await store.create_table(GUILD, 901, "malice", 11, Doc(), "s", "c")
        await store.cancel_table(cancelled)
        other = await running_table(store, 902, ["31", "32"], guild=GUILD + 1)
        done = [
            ResultIn(player="31", net=4, placement=1, won=True),
            ResultIn(player="32", net=-4, placement=2, won=False),
        ]
        rated = Rated({"31": 1, "32": 2}, rate)
        await store.append_action(
            other, 0, "31", "{}", [mv("32", "31", 4, "malice_score")], "{}", done, rated=rated
        )
        await store.set_seasons(GUILD, "off")
        return [t.id for t in tables] + [lobby, cancelled, other]
    finally:
        await store.close()


async def everything(store, ids: list[int]) -> dict:
    """All the store shows of those tables, their guilds' standings and the people's stats."""
    out = {"open": await store.open_tables()}
    for i in ids:
        out[i] = (await store.get_table(i), await store.history(i), await store.results(i))
    out["dm channels"] = await store.dm_channels()
    for guild in (GUILD, GUILD + 1):
        out[(guild, "language")] = await store.guild_language(guild)
        out[(guild, "settings")] = await store.guild_settings(guild)
        out[guild] = await store.leaderboard(guild, limit=100)
        out[(guild, "insomnia")] = await store.leaderboard(guild, "insomnia", limit=100)
        for season in await store.seasons(guild):
            out[(guild, season)] = await store.leaderboard(guild, limit=100, season=season)
            out[(guild, season, "rating")] = await store.rating_leaderboard(guild, "malice", season=season)
        out[(guild, "rating")] = await store.rating_leaderboard(guild, "malice", limit=100)
        for row in out[guild]:
            out[(guild, row.player)] = await store.player_stats(guild, row.player)
            out[(guild, row.player, "ratings")] = await store.player_ratings(guild, row.player)
            out[(guild, row.player, "chips")] = await store.chip_history(guild, row.player)
    for i in ids:
        out[(i, "rated")] = await store.rating_changes(i)
    return out


async def test_every_table_of_the_store_is_copied(tmp_path):
    path = str(tmp_path / "new.sqlite3")
    await (await open_store(path)).close()
    with sqlite3.connect(path) as conn:
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    # The rate leases are the running processes' (bot.sessions.share), no data to move.
    assert names - {"rate_leases"} == set(TABLES)


async def test_a_copy_reads_back_the_same_and_new_rows_get_new_ids(tmp_path, pg_url):
    path = str(tmp_path / "old.sqlite3")
    ids = await fill(path)
    report = await copy_sqlite_to_postgres(path, pg_url)
    assert (
        report.rows["game_tables"] == len(ids) and report.rows["ledger"] >= 10 and report.rows["balances"] > 0
    )
    assert report.tables_checked >= 3 and report.chips_moved > 0
    assert report.rows["rating_changes"] == 2 and report.rows["ratings"] == 2
    assert "copied" in report.summary() and report.target == pg_url  # no password in this URL

    source, target = await open_store(path), await open_store(pg_url)
    try:
        assert isinstance(target, PostgresStore)
        assert await everything(target, ids) == await everything(source, ids)
        # The copy goes on as the live database: ids continue after the copied ones.
        new = await target.create_table(GUILD, 903, "malice", 1, Doc(), "s", "c")
        assert new > max(ids)
    finally:
        await source.close()
        await target.close()


async def test_a_target_holding_data_is_refused_and_left_as_it_was(tmp_path, pg_url):
    path = str(tmp_path / "old.sqlite3")
    await fill(path)
    target = await open_store(pg_url)
    mine = await target.create_table(GUILD, 1, "insomnia", 1, Doc(), "s", "c")
    await target.close()
    with pytest.raises(TargetNotEmpty, match="empty database"):
        await copy_sqlite_to_postgres(path, pg_url)
    target = await open_store(pg_url)
    try:
        assert [t.id for t in await target.open_tables()] == [mine]
    finally:
        await target.close()


async def test_a_missing_source_is_an_error_and_no_file_is_created(tmp_path, pg_url):
    with pytest.raises(FileNotFoundError):
        await copy_sqlite_to_postgres(str(tmp_path / "nope.sqlite3"), pg_url)
    assert not (tmp_path / "nope.sqlite3").exists()
