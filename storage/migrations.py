"""Numbered schema versions. The version lives in `PRAGMA user_version`; each migration runs in its own
transaction together with the version bump, so a crash leaves the file at a whole version.

Append new migrations at the end; never edit one that has shipped.
"""

from __future__ import annotations

import sqlite3

from storage.errors import NewerDatabaseError

# Version n is MIGRATIONS[n - 1].
MIGRATIONS: list[list[str]] = [
    # 1: tables, seats, the action log, the chip ledger, results.
    [
        """
        CREATE TABLE game_tables (
            id          INTEGER PRIMARY KEY,
            guild_id    INTEGER NOT NULL,
            channel_id  INTEGER NOT NULL,
            kind        TEXT    NOT NULL,
            status      TEXT    NOT NULL CHECK (status IN ('lobby', 'running', 'finished', 'cancelled')),
            options     TEXT    NOT NULL DEFAULT '{}',
            seed        TEXT    NOT NULL,
            commitment  TEXT    NOT NULL,
            host_id     INTEGER NOT NULL,
            meta        TEXT    NOT NULL DEFAULT '{}',
            snapshot    TEXT,
            created_at  REAL    NOT NULL,
            started_at  REAL,
            finished_at REAL
        )
        """,
        # One active game per channel, enforced by the database so two concurrent creates cannot both win.
        """
        CREATE UNIQUE INDEX game_tables_one_active_per_channel
            ON game_tables (channel_id) WHERE status IN ('lobby', 'running')
        """,
        "CREATE INDEX game_tables_open ON game_tables (status) WHERE status IN ('lobby', 'running')",
        "CREATE INDEX game_tables_by_channel ON game_tables (channel_id, kind, id)",
        """
        CREATE TABLE seats (
            id        INTEGER PRIMARY KEY,
            table_id  INTEGER NOT NULL REFERENCES game_tables (id),
            seat      INTEGER NOT NULL,
            player    TEXT    NOT NULL,
            user_id   INTEGER,
            joined_at REAL    NOT NULL,
            left_at   REAL
        )
        """,
        # Rows of players who left stay (with left_at) as the record of who sat when.
        "CREATE UNIQUE INDEX seats_current_seat ON seats (table_id, seat) WHERE left_at IS NULL",
        "CREATE UNIQUE INDEX seats_current_player ON seats (table_id, player) WHERE left_at IS NULL",
        """
        CREATE TABLE actions (
            table_id   INTEGER NOT NULL REFERENCES game_tables (id),
            seq        INTEGER NOT NULL CHECK (seq >= 0),
            actor      TEXT,
            action     TEXT    NOT NULL,
            created_at REAL    NOT NULL,
            PRIMARY KEY (table_id, seq)
        ) WITHOUT ROWID
        """,
        # guild_id and kind are copied from the table so the leaderboard never joins game_tables.
        """
        CREATE TABLE ledger (
            id           INTEGER PRIMARY KEY,
            table_id     INTEGER NOT NULL,
            seq          INTEGER NOT NULL,
            guild_id     INTEGER NOT NULL,
            kind         TEXT    NOT NULL,
            from_account TEXT    NOT NULL,
            to_account   TEXT    NOT NULL,
            amount       INTEGER NOT NULL CHECK (amount > 0),
            reason       TEXT    NOT NULL,
            created_at   REAL    NOT NULL,
            CHECK (from_account <> to_account),
            FOREIGN KEY (table_id, seq) REFERENCES actions (table_id, seq)
        )
        """,
        "CREATE INDEX ledger_by_table ON ledger (table_id, seq, id)",
        # Covering indexes for the leaderboard and stats: a player's net is the sum of what came in minus what
        # went out, read from the index alone (never the table rows), already grouped by account.
        "CREATE INDEX ledger_in ON ledger (guild_id, to_account, kind, amount)",
        "CREATE INDEX ledger_out ON ledger (guild_id, from_account, kind, amount)",
        """
        CREATE TABLE results (
            table_id    INTEGER NOT NULL REFERENCES game_tables (id),
            player      TEXT    NOT NULL,
            guild_id    INTEGER NOT NULL,
            kind        TEXT    NOT NULL,
            final_chips INTEGER,
            net         INTEGER NOT NULL,
            placement   INTEGER NOT NULL,
            won         INTEGER NOT NULL CHECK (won IN (0, 1)),
            PRIMARY KEY (table_id, player)
        ) WITHOUT ROWID
        """,
        "CREATE INDEX results_by_player ON results (guild_id, player, kind, net, won)",
        # The log and the ledger are append-only: the database itself refuses edits and deletions.
        """
        CREATE TRIGGER actions_append_only_update BEFORE UPDATE ON actions
        BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END
        """,
        """
        CREATE TRIGGER actions_append_only_delete BEFORE DELETE ON actions
        BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END
        """,
        """
        CREATE TRIGGER ledger_append_only_update BEFORE UPDATE ON ledger
        BEGIN SELECT RAISE(ABORT, 'the chip ledger is append-only'); END
        """,
        """
        CREATE TRIGGER ledger_append_only_delete BEFORE DELETE ON ledger
        BEGIN SELECT RAISE(ABORT, 'the chip ledger is append-only'); END
        """,
    ],
    # 2: balances kept per (guild, player, kind) in each move's transaction, so the leaderboard and stats read
    # one row per player instead of summing the ledger; kind '*' is the player over all kinds. People only
    # (computer seats and '@' accounts never rank). Backfilled from the ledger and the results.
    [
        """
        CREATE TABLE balances (
            guild_id    INTEGER NOT NULL,
            player      TEXT    NOT NULL,
            kind        TEXT    NOT NULL,
            net         INTEGER NOT NULL DEFAULT 0,
            games       INTEGER NOT NULL DEFAULT 0,
            wins        INTEGER NOT NULL DEFAULT 0,
            biggest_win INTEGER,
            PRIMARY KEY (guild_id, player, kind)
        ) WITHOUT ROWID
        """,
        # The leaderboard's order, so a page is read from the index in order, whatever the ledger's size.
        "CREATE INDEX balances_rank ON balances (guild_id, kind, net DESC, wins DESC, games, player)",
        """
        INSERT INTO balances (guild_id, player, kind, net, games, wins, biggest_win)
        SELECT guild_id, player, kind, SUM(net), SUM(games), SUM(wins), MAX(biggest) FROM (
            SELECT guild_id, to_account AS player, kind, amount AS net, 0 AS games, 0 AS wins,
                   NULL AS biggest FROM ledger
            UNION ALL
            SELECT guild_id, from_account, kind, -amount, 0, 0, NULL FROM ledger
            UNION ALL
            SELECT guild_id, player, kind, 0, 1, won, CASE WHEN net > 0 THEN net END FROM results
        )
        WHERE substr(player, 1, 3) <> 'ai:' AND substr(player, 1, 1) <> '@'
        GROUP BY guild_id, player, kind
        """,
        """
        INSERT INTO balances (guild_id, player, kind, net, games, wins, biggest_win)
        SELECT guild_id, player, '*', SUM(net), SUM(games), SUM(wins), MAX(biggest_win) FROM balances
        GROUP BY guild_id, player
        """,
        # The leaderboard no longer sums the ledger: its two covering indexes only cost writes now.
        "DROP INDEX ledger_in",
        "DROP INDEX ledger_out",
    ],
    # 3: per-server settings; `language` is the public messages' language ("en", "de"), NULL: the server's
    # own locale as Discord reports it (`/settings language`).
    [
        """
        CREATE TABLE guild_settings (
            guild_id INTEGER PRIMARY KEY,
            language TEXT CHECK (language IN ('en', 'de'))
        )
        """,
    ],
    # 4: each person's DM channel with the bot (Discord keeps it for good): a hand after a restart is one
    # request, not two (open the channel, then send).
    [
        """
        CREATE TABLE dm_channels (
            user_id    INTEGER PRIMARY KEY,
            channel_id INTEGER NOT NULL
        )
        """,
    ],
    # 5: the presenter's own record of a table (its message ids, what the table message has shown, the DMs
    # it sent), apart from the session's `meta`: each part stores only what it owns.
    [
        "ALTER TABLE game_tables ADD COLUMN display TEXT NOT NULL DEFAULT '{}'",
    ],
    # 6: the processes sharing a token's global rate budget. Only PostgreSQL's is used (several processes
    # share a token only there; on SQLite the one process has the whole budget): kept for version parity.
    [
        """
        CREATE TABLE rate_leases (
            token   TEXT    NOT NULL,
            process TEXT    NOT NULL,
            beat    INTEGER NOT NULL,
            PRIMARY KEY (token, process)
        )
        """,
    ],
]

LATEST = len(MIGRATIONS)


def schema_version(conn: sqlite3.Connection) -> int:
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def migrate(conn: sqlite3.Connection, path: str, migrations: list[list[str]] = MIGRATIONS) -> int:
    """Bring the database up to the latest version, one transaction per step. Returns the final version.

    Raises NewerDatabaseError (touching nothing) if the file is newer than this code. Blocking: the store
    runs it on its writer's thread.
    """
    while True:
        # BEGIN IMMEDIATE before reading the version: another process migrating at the same moment waits
        # for us instead of applying the same step twice.
        conn.execute("BEGIN IMMEDIATE")
        try:
            version = schema_version(conn)
            if version > len(migrations):
                raise NewerDatabaseError(path, version, len(migrations))
            if version == len(migrations):
                conn.execute("ROLLBACK")
                return version
            for statement in migrations[version]:
                conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {version + 1}")
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
