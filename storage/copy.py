"""Moving over: copy an SQLite database into an empty PostgreSQL database, and check the copy.

The source is opened with the SQLite store first (so it is at the latest schema, as the bot would leave it,
and its WAL is folded into the file), then read through a read-only connection. The target is migrated to the
same version and must hold no row in any store table. Everything is copied in one PostgreSQL transaction with
COPY, ids included, the identity sequences moved past them; then, still in that transaction, the row counts
and every table's ledger (count, chips moved, each account's net) are compared with the source. Any difference
rolls the whole copy back: the target is left empty, never half full. Stop the bot before copying.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import asyncpg
from pydantic import BaseModel, ConfigDict

from storage.errors import StoreError, TargetNotEmpty
from storage.postgres import PostgresStore
from storage.sqlite import SqliteStore

# In foreign-key order, with the columns copied (the same names on both backends).
TABLES: dict[str, tuple[str, ...]] = {
    "game_tables": (
        "id",
        "guild_id",
        "channel_id",
        "kind",
        "status",
        "options",
        "seed",
        "commitment",
        "host_id",
        "meta",
        "display",
        "snapshot",
        "created_at",
        "started_at",
        "finished_at",
        "home_channel_id",
        "voided_at",
    ),
    "seats": ("id", "table_id", "seat", "player", "user_id", "joined_at", "left_at", "display_name"),
    "actions": ("table_id", "seq", "actor", "action", "created_at"),
    "ledger": (
        "id",
        "table_id",
        "seq",
        "guild_id",
        "kind",
        "from_account",
        "to_account",
        "amount",
        "reason",
        "created_at",
    ),
    "results": (
        "table_id",
        "player",
        "guild_id",
        "kind",
        "final_chips",
        "net",
        "placement",
        "won",
        "ended_at",
    ),
    "balances": ("guild_id", "player", "kind", "net", "games", "wins", "biggest_win"),
    "ratings": ("guild_id", "kind", "player", "mu", "sigma", "score", "games"),
    "rating_changes": (
        "table_id",
        "player",
        "guild_id",
        "kind",
        "ended_at",
        "rank",
        "mu_before",
        "sigma_before",
        "score_before",
        "mu_after",
        "sigma_after",
        "score_after",
        "games",
    ),
    "season_balances": ("guild_id", "season", "kind", "player", "net", "games", "wins"),
    "season_ratings": ("guild_id", "season", "kind", "player", "score", "games", "played"),
    "guild_settings": ("guild_id", "language", "host_role", "threads", "seasons"),
    "game_channels": ("guild_id", "channel_id"),
    "table_defaults": ("guild_id", "kind", "name", "value"),
    "dm_channels": ("user_id", "channel_id"),
    "competitions": (
        "id",
        "guild_id",
        "channel_id",
        "kind",
        "format",
        "rounds",
        "options",
        "host_id",
        "status",
        "round",
        "round_done",
        "announced",
        "deadline",
        "starts_at",
        "created_at",
        "finished_at",
        "posted",
        "announce_at",
    ),
    "competition_entrants": (
        "competition_id",
        "player",
        "rating",
        "joined_at",
        "checked_in",
        "dropped",
        "display_name",
    ),
    "competition_matches": (
        "id",
        "competition_id",
        "round",
        "table_no",
        "players",
        "table_id",
        "places",
        "forfeits",
        "settled_at",
    ),
    "moderation": ("id", "guild_id", "action", "table_id", "player", "moderator", "reason", "created_at"),
    "leaderboard_exclusions": ("guild_id", "player"),
}
ORDER = {
    "actions": "table_id, seq",
    "results": "table_id, player",
    "balances": "guild_id, player, kind",
    "ratings": "guild_id, kind, player",
    "rating_changes": "table_id, player",
    "season_balances": "guild_id, season, kind, player",
    "season_ratings": "guild_id, season, kind, player",
    "guild_settings": "guild_id",
    "game_channels": "guild_id, channel_id",
    "table_defaults": "guild_id, kind, name",
    "dm_channels": "user_id",
    "competition_entrants": "competition_id, player",
    "leaderboard_exclusions": "guild_id, player",
}
ORDER.update((t, "id") for t in TABLES if t not in ORDER)
# Tables whose ids come from a sequence on PostgreSQL.
IDENTITY = ("game_tables", "seats", "ledger", "competitions", "competition_matches", "moderation")
CHUNK = 10_000

# Per table: its entries, the chips they moved, and each account's net. Same SQL on both backends.
LEDGER_CHECK = """
SELECT table_id, account, COUNT(*) AS entries, SUM(moved) AS moved, SUM(net) AS net FROM (
    SELECT table_id, to_account AS account, amount AS moved, amount AS net FROM ledger
    UNION ALL
    SELECT table_id, from_account, 0, -amount FROM ledger
) AS sides
GROUP BY table_id, account
"""


class CopyCheckFailed(StoreError):
    """The copy differs from the source; it was rolled back and the target is empty again."""


class CopyReport(BaseModel):
    model_config = ConfigDict(frozen=True)

    source: str  # the SQLite file
    target: str  # the PostgreSQL URL without its password
    rows: dict[str, int]  # rows copied per table, equal on both sides
    tables_checked: int  # game tables whose ledger was compared entry count, chips and net per account
    chips_moved: int  # the sum of every ledger amount, equal on both sides

    def summary(self) -> str:
        counts = ", ".join(f"{n} {name}" for name, n in self.rows.items())
        return (
            f"copied {self.source} to {self.target}: {counts}; the ledger of {self.tables_checked} tables "
            f"({self.chips_moved} chips moved) checked against the source"
        )


def _read_chunks(path: str, table: str, columns: tuple[str, ...]) -> Iterator[list[tuple[Any, ...]]]:
    # Pulled chunk by chunk from worker threads (never two at once), so the connection may change threads.
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
    try:
        cur = conn.execute(f"SELECT {', '.join(columns)} FROM {table} ORDER BY {ORDER[table]}")
        while rows := cur.fetchmany(CHUNK):
            flag = {"results": "won", "guild_settings": "threads"}.get(table)
            if flag is not None:  # 0/1 in SQLite, a boolean in PostgreSQL
                at = columns.index(flag)
                rows = [(*r[:at], bool(r[at]), *r[at + 1 :]) for r in rows]
            yield rows
    finally:
        conn.close()


def _source_facts(path: str) -> tuple[dict[str, int], dict[tuple[int, str], tuple[int, int, int]]]:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        counts = {t: conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in TABLES}
        ledger = {(r[0], r[1]): tuple(r[2:]) for r in conn.execute(LEDGER_CHECK)}
    finally:
        conn.close()
    return counts, ledger


async def copy_sqlite_to_postgres(sqlite_path: str, url: str) -> CopyReport:
    """Copy the SQLite database at `sqlite_path` into the empty PostgreSQL database at `url` and check it.

    Raises FileNotFoundError if there is no such file (nothing is created), TargetNotEmpty if the target
    holds any row of the store, NewerDatabaseError if either side is newer than this code, StoreUnavailable
    if the server cannot be reached, CopyCheckFailed if the copy differs (then nothing stays copied).
    """
    path = str(sqlite_path)
    if not Path(path).is_file():
        raise FileNotFoundError(f"no SQLite database at {path}")
    # Migrated to the latest version and checkpointed, exactly as the bot would leave it.
    await (await SqliteStore.open(path)).close()
    target = await PostgresStore.open(url)  # migrates the target (an empty database gets the schema)
    name = target.name
    await target.close()

    conn = await asyncpg.connect(url)
    try:
        async with conn.transaction():
            # Nobody writes the target while we check that it is empty and fill it.
            await conn.execute(f"LOCK TABLE {', '.join(TABLES)} IN EXCLUSIVE MODE")
            for table in TABLES:
                if await conn.fetchval(f"SELECT EXISTS (SELECT 1 FROM {table})"):
                    raise TargetNotEmpty(
                        f"{name} already holds data (table {table}): copy into an empty database"
                    )
            for table, columns in TABLES.items():
                chunks = _read_chunks(path, table, columns)
                while rows := await asyncio.to_thread(next, chunks, None):
                    await conn.copy_records_to_table(table, records=rows, columns=columns)
            for table in IDENTITY:
                await conn.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), COALESCE(MAX(id), 0) + 1, false)"
                    f" FROM {table}"
                )
            counts, ledger = await asyncio.to_thread(_source_facts, path)
            copied = {t: await conn.fetchval(f"SELECT COUNT(*) FROM {t}") for t in TABLES}
            if copied != counts:
                raise CopyCheckFailed(f"row counts differ: source {counts}, copy {copied}")
            theirs = {(r[0], r[1]): (r[2], r[3], r[4]) for r in await conn.fetch(LEDGER_CHECK)}
            if theirs != ledger:
                differ = sorted({k[0] for k in set(theirs) | set(ledger) if theirs.get(k) != ledger.get(k)})
                raise CopyCheckFailed(f"the ledger of tables {differ[:10]} differs from the source")
    finally:
        await conn.close()
    return CopyReport(
        source=path,
        target=name,
        rows=counts,
        tables_checked=len({t for t, _a in ledger}),
        chips_moved=sum(moved for _n, moved, _net in ledger.values()),
    )


__all__ = ["CopyCheckFailed", "CopyReport", "copy_sqlite_to_postgres"]
