"""The numbered schema versions of both databases, one history: version n is MIGRATIONS[n - 1].

Each step is a list of statements written once; `{name}` tokens are the column types that differ (see each
backend's dialect): `{id}` an integer primary key the database numbers itself, `{bigint}` a 64-bit
integer, `{real}` a float, `{json}` JSON text, `{flag:column}` a NOT NULL boolean column (0/1 on SQLite,
which has no boolean), `{without_rowid}` SQLite's option for tables keyed by their primary key.
`AppendOnly` items are each database's own triggers; `Only` items the few indexes one database had and the
other never did (the two histories were kept apart until version 6).

The version lives in `PRAGMA user_version` on SQLite and in the one-row table `schema_version` on
PostgreSQL. Every step runs in its own transaction together with the version bump, under the migration lock
(SQLite's write lock, a PostgreSQL advisory lock), so a crash leaves the database at a whole version and two
processes starting at once apply a step once. A database newer than this list is refused with
NewerDatabaseError, untouched.

Append new migrations at the end; never change what an existing one leaves behind.
"""

from __future__ import annotations

from collections.abc import Sequence

from storage.database import AppendOnly, Database, Only, Statement, Transaction
from storage.errors import NewerDatabaseError

# Version 8's season rows of the games finished before it, `{month}` each database's 'YYYY-MM' of a time.
SEASONS_BACKFILL = """
INSERT INTO season_balances (guild_id, season, kind, player, net, games, wins)
SELECT guild_id, season, kind, player, SUM(net), COUNT(*), SUM(won) FROM (
    SELECT r.guild_id, {month} AS season, k.all_kinds, r.player, r.net, CAST(r.won AS INTEGER) AS won,
           CASE WHEN k.all_kinds = 1 THEN '*' ELSE r.kind END AS kind
      FROM results r CROSS JOIN (SELECT 0 AS all_kinds UNION ALL SELECT 1) AS k
     WHERE r.ended_at IS NOT NULL AND substr(r.player, 1, 3) <> 'ai:' AND substr(r.player, 1, 1) <> '@'
) AS finished
GROUP BY guild_id, season, kind, player
"""

MIGRATIONS: list[list[Statement]] = [
    # 1: tables, seats, the action log, the chip ledger, results.
    [
        """
        CREATE TABLE game_tables (
            id          {id},
            guild_id    {bigint} NOT NULL,
            channel_id  {bigint} NOT NULL,
            kind        TEXT    NOT NULL,
            status      TEXT    NOT NULL CHECK (status IN ('lobby', 'running', 'finished', 'cancelled')),
            options     {json}    NOT NULL DEFAULT '{}',
            seed        TEXT    NOT NULL,
            commitment  TEXT    NOT NULL,
            host_id     {bigint} NOT NULL,
            meta        {json}    NOT NULL DEFAULT '{}',
            snapshot    TEXT,
            created_at  {real}    NOT NULL,
            started_at  {real},
            finished_at {real}
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
            id        {id},
            table_id  {bigint} NOT NULL REFERENCES game_tables (id),
            seat      INTEGER NOT NULL,
            player    TEXT    NOT NULL,
            user_id   {bigint},
            joined_at {real}    NOT NULL,
            left_at   {real}
        )
        """,
        # Rows of players who left stay (with left_at) as the record of who sat when.
        "CREATE UNIQUE INDEX seats_current_seat ON seats (table_id, seat) WHERE left_at IS NULL",
        "CREATE UNIQUE INDEX seats_current_player ON seats (table_id, player) WHERE left_at IS NULL",
        """
        CREATE TABLE actions (
            table_id   {bigint} NOT NULL REFERENCES game_tables (id),
            seq        INTEGER NOT NULL CHECK (seq >= 0),
            actor      TEXT,
            action     TEXT    NOT NULL,
            created_at {real}    NOT NULL,
            PRIMARY KEY (table_id, seq)
        ) {without_rowid}
        """,
        # guild_id and kind are copied from the table so the leaderboard never joins game_tables.
        """
        CREATE TABLE ledger (
            id           {id},
            table_id     {bigint} NOT NULL,
            seq          INTEGER NOT NULL,
            guild_id     {bigint} NOT NULL,
            kind         TEXT    NOT NULL,
            from_account TEXT    NOT NULL,
            to_account   TEXT    NOT NULL,
            amount       {bigint} NOT NULL CHECK (amount > 0),
            reason       TEXT    NOT NULL,
            created_at   {real}    NOT NULL,
            CHECK (from_account <> to_account),
            FOREIGN KEY (table_id, seq) REFERENCES actions (table_id, seq)
        )
        """,
        "CREATE INDEX ledger_by_table ON ledger (table_id, seq, id)",
        # Covering indexes SQLite's first leaderboard summed the ledger through (dropped by version 2).
        Only("sqlite", "CREATE INDEX ledger_in ON ledger (guild_id, to_account, kind, amount)"),
        Only("sqlite", "CREATE INDEX ledger_out ON ledger (guild_id, from_account, kind, amount)"),
        """
        CREATE TABLE results (
            table_id    {bigint} NOT NULL REFERENCES game_tables (id),
            player      TEXT    NOT NULL,
            guild_id    {bigint} NOT NULL,
            kind        TEXT    NOT NULL,
            final_chips {bigint},
            net         {bigint} NOT NULL,
            placement   INTEGER NOT NULL,
            {flag:won},
            PRIMARY KEY (table_id, player)
        ) {without_rowid}
        """,
        # SQLite's stats once read the results through it (PostgreSQL's first schema came with the balances).
        Only("sqlite", "CREATE INDEX results_by_player ON results (guild_id, player, kind, net, won)"),
        # The log and the ledger are append-only: the database itself refuses edits and deletions.
        AppendOnly("actions", "the action log"),
        AppendOnly("ledger", "the chip ledger"),
    ],
    # 2: balances kept per (guild, player, kind) in each move's transaction, so the leaderboard and stats read
    # one row per player instead of summing the ledger; kind '*' is the player over all kinds. People only
    # (computer seats and '@' accounts never rank). Backfilled from the ledger and the results.
    [
        """
        CREATE TABLE balances (
            guild_id    {bigint} NOT NULL,
            player      TEXT    NOT NULL,
            kind        TEXT    NOT NULL,
            net         {bigint} NOT NULL DEFAULT 0,
            games       INTEGER NOT NULL DEFAULT 0,
            wins        INTEGER NOT NULL DEFAULT 0,
            biggest_win {bigint},
            PRIMARY KEY (guild_id, player, kind)
        ) {without_rowid}
        """,
        # The leaderboard's order, so a page is read from the index in order, whatever the ledger's size.
        "CREATE INDEX balances_rank ON balances (guild_id, kind, net DESC, wins DESC, games, player)",
        """
        INSERT INTO balances (guild_id, player, kind, net, games, wins, biggest_win)
        SELECT guild_id, player, kind, SUM(net), SUM(games), SUM(wins), MAX(biggest) FROM (
            SELECT guild_id, to_account AS player, kind, amount AS net, 0 AS games, 0 AS wins,
                   CAST(NULL AS {bigint}) AS biggest FROM ledger
            UNION ALL
            SELECT guild_id, from_account, kind, -amount, 0, 0, NULL FROM ledger
            UNION ALL
            SELECT guild_id, player, kind, 0, 1, CAST(won AS INTEGER), CASE WHEN net > 0 THEN net END
              FROM results
        ) AS moves
        WHERE substr(player, 1, 3) <> 'ai:' AND substr(player, 1, 1) <> '@'
        GROUP BY guild_id, player, kind
        """,
        """
        INSERT INTO balances (guild_id, player, kind, net, games, wins, biggest_win)
        SELECT guild_id, player, '*', SUM(net), SUM(games), SUM(wins), MAX(biggest_win) FROM balances
        GROUP BY guild_id, player
        """,
        # The leaderboard no longer sums the ledger: its two covering indexes only cost writes now.
        Only("sqlite", "DROP INDEX ledger_in"),
        Only("sqlite", "DROP INDEX ledger_out"),
    ],
    # 3: per-server settings; `language` is the public messages' language ("en", "de"), NULL: the server's
    # own locale as Discord reports it (`/settings language`).
    [
        """
        CREATE TABLE guild_settings (
            guild_id {bigint} PRIMARY KEY,
            language TEXT CHECK (language IN ('en', 'de'))
        )
        """,
    ],
    # 4: each person's DM channel with the bot (Discord keeps it for good): a hand after a restart is one
    # request, not two (open the channel, then send).
    [
        """
        CREATE TABLE dm_channels (
            user_id    {bigint} PRIMARY KEY,
            channel_id {bigint} NOT NULL
        )
        """,
    ],
    # 5: the presenter's own record of a table (its message ids, what the table message has shown, the DMs
    # it sent), apart from the session's `meta`: each part stores only what it owns.
    [
        "ALTER TABLE game_tables ADD COLUMN display {json} NOT NULL DEFAULT '{}'",
    ],
    # 6: the processes sharing a token's global rate budget (bot.sessions.share): one row per process, its
    # beat counted up at every renewal; `token` is a hash of the bot token, never the token. Only PostgreSQL's
    # rows are used (several processes share a token only there; on SQLite the one process has the whole
    # budget): the table exists on both so that both keep one history.
    [
        """
        CREATE TABLE rate_leases (
            token   TEXT    NOT NULL,
            process TEXT    NOT NULL,
            beat    {bigint} NOT NULL,
            PRIMARY KEY (token, process)
        )
        """,
    ],
    # 7: the rest of a server's settings (`/settings`): `host_role`, a role whose members may open and cancel
    # games besides those with Manage Server (NULL: anyone may open); the channels where games may be opened
    # (no row: every channel); defaults for new tables, one row per game kind and option, its value as JSON
    # (checked by the game's options model before it is stored).
    [
        "ALTER TABLE guild_settings ADD COLUMN host_role {bigint}",
        """
        CREATE TABLE game_channels (
            guild_id   {bigint} NOT NULL,
            channel_id {bigint} NOT NULL,
            PRIMARY KEY (guild_id, channel_id)
        ) {without_rowid}
        """,
        """
        CREATE TABLE table_defaults (
            guild_id {bigint} NOT NULL,
            kind     TEXT    NOT NULL,
            name     TEXT    NOT NULL,
            value    {json}  NOT NULL,
            PRIMARY KEY (guild_id, kind, name)
        ) {without_rowid}
        """,
    ],
    # 8: ratings and seasons. `ratings`: each person's current rating per (guild, game kind), kept by the
    # finishing move's transaction (guild 0: games outside a server); `score` is the conservative number shown
    # and ranked by (the rater computes it: the store keeps numbers). `rating_changes`: one row per person and
    # rated game, its key (table_id, player) making a game's rating happen once. Seasons are calendar months
    # (UTC) of a game's end: `season_balances` and `season_ratings` are the leaderboards of each month, kept
    # in the finishing transaction like the balances (nothing is reset; a new month simply has no rows yet);
    # `results.ended_at` (the table's finished time) lets a person's games be read by time.
    # `guild_settings.seasons`: 'monthly' or 'off' (NULL: monthly).
    [
        "ALTER TABLE guild_settings ADD COLUMN seasons TEXT CHECK (seasons IN ('monthly', 'off'))",
        "ALTER TABLE results ADD COLUMN ended_at {real}",
        "UPDATE results SET ended_at ="
        " (SELECT t.finished_at FROM game_tables t WHERE t.id = results.table_id)",
        "CREATE INDEX results_by_time ON results (guild_id, player, ended_at)",
        """
        CREATE TABLE ratings (
            guild_id {bigint} NOT NULL,
            kind     TEXT    NOT NULL,
            player   TEXT    NOT NULL,
            mu       {real}  NOT NULL,
            sigma    {real}  NOT NULL,
            score    {real}  NOT NULL,
            games    INTEGER NOT NULL,
            PRIMARY KEY (guild_id, kind, player)
        ) {without_rowid}
        """,
        "CREATE INDEX ratings_rank ON ratings (guild_id, kind, score DESC, player)",
        """
        CREATE TABLE rating_changes (
            table_id     {bigint} NOT NULL REFERENCES game_tables (id),
            player       TEXT    NOT NULL,
            guild_id     {bigint} NOT NULL,
            kind         TEXT    NOT NULL,
            ended_at     {real}  NOT NULL,
            rank         INTEGER NOT NULL,
            mu_before    {real}  NOT NULL,
            sigma_before {real}  NOT NULL,
            score_before {real}  NOT NULL,
            mu_after     {real}  NOT NULL,
            sigma_after  {real}  NOT NULL,
            score_after  {real}  NOT NULL,
            games        INTEGER NOT NULL,
            PRIMARY KEY (table_id, player)
        ) {without_rowid}
        """,
        "CREATE INDEX rating_changes_by_player ON rating_changes (guild_id, player, ended_at)",
        """
        CREATE TABLE season_balances (
            guild_id {bigint} NOT NULL,
            season   TEXT    NOT NULL,
            kind     TEXT    NOT NULL,
            player   TEXT    NOT NULL,
            net      {bigint} NOT NULL,
            games    INTEGER NOT NULL,
            wins     INTEGER NOT NULL,
            PRIMARY KEY (guild_id, season, kind, player)
        ) {without_rowid}
        """,
        "CREATE INDEX season_balances_rank ON season_balances (guild_id, season, kind, net DESC, wins DESC,"
        " games, player)",
        """
        CREATE TABLE season_ratings (
            guild_id {bigint} NOT NULL,
            season   TEXT    NOT NULL,
            kind     TEXT    NOT NULL,
            player   TEXT    NOT NULL,
            score    {real}  NOT NULL,
            games    INTEGER NOT NULL,
            played   INTEGER NOT NULL,
            PRIMARY KEY (guild_id, season, kind, player)
        ) {without_rowid}
        """,
        "CREATE INDEX season_ratings_rank ON season_ratings (guild_id, season, kind, score DESC, player)",
        # The months of the games finished before: their season leaderboards by chips (nothing was rated).
        Only("sqlite", SEASONS_BACKFILL.format(month="strftime('%Y-%m', r.ended_at, 'unixepoch')")),
        Only(
            "postgres",
            SEASONS_BACKFILL.format(month="to_char(to_timestamp(r.ended_at) AT TIME ZONE 'UTC', 'YYYY-MM')"),
        ),
    ],
    # 9: a thread per game (`/settings threads`): `threads` on, each game of the server plays in a public
    # thread opened on its lobby message. A table that moved into its thread keeps the channel it was opened
    # in as `home_channel_id` (its `channel_id` is then the thread's: the one-open-table-per-channel index
    # holds per thread, so a channel runs several games at once), and /history finds it from that channel.
    [
        "ALTER TABLE guild_settings ADD COLUMN {flag:threads} DEFAULT FALSE",
        "ALTER TABLE game_tables ADD COLUMN home_channel_id {bigint}",
        """
        CREATE INDEX game_tables_by_home ON game_tables (home_channel_id, kind, id)
            WHERE home_channel_id IS NOT NULL
        """,
    ],
    # 10: competitions (bot/events): a tournament's own records, apart from the tables it opens.
    # `competitions` one row per event, `round` the round in play and `round_done` the last round whose every
    # match is settled (set in the transaction that finishes its last table: the next round is paired once,
    # guarded by both); `announced` the last round whose pairings were announced (claimed before they are
    # sent: never twice). `competition_matches`: one table of one round, its players in seat order as JSON
    # (one player: a bye), `table_id` the game table it plays at (set in the transaction that creates that
    # table), `places` and `forfeits` once settled. Fair play: `moderation` the record of what moderators did
    # (a void of a finished game, a person excluded from or let back onto the leaderboards),
    # `leaderboard_exclusions` who is excluded now, `game_tables.voided_at` when a game was voided (its chips
    # given back by compensating ledger entries appended under the void's own action; its ratings taken out).
    [
        """
        CREATE TABLE competitions (
            id          {id},
            guild_id    {bigint} NOT NULL,
            channel_id  {bigint} NOT NULL,
            kind        TEXT    NOT NULL,
            format      TEXT    NOT NULL CHECK (format IN ('swiss', 'knockout', 'tables')),
            rounds      INTEGER NOT NULL,
            options     {json}  NOT NULL DEFAULT '{}',
            host_id     {bigint} NOT NULL,
            status      TEXT    NOT NULL CHECK (status IN ('open', 'running', 'finished', 'cancelled')),
            round       INTEGER NOT NULL DEFAULT 0,
            round_done  INTEGER NOT NULL DEFAULT 0,
            announced   INTEGER NOT NULL DEFAULT 0,
            deadline    {real},
            starts_at   {real},
            created_at  {real}  NOT NULL,
            finished_at {real}
        )
        """,
        "CREATE INDEX competitions_by_status ON competitions (status, guild_id)",
        """
        CREATE TABLE competition_entrants (
            competition_id {bigint} NOT NULL REFERENCES competitions (id),
            player         TEXT    NOT NULL,
            rating         {real}  NOT NULL,
            joined_at      {real}  NOT NULL,
            checked_in     {real},
            dropped        INTEGER,
            PRIMARY KEY (competition_id, player)
        ) {without_rowid}
        """,
        """
        CREATE TABLE competition_matches (
            id             {id},
            competition_id {bigint} NOT NULL REFERENCES competitions (id),
            round          INTEGER NOT NULL,
            table_no       INTEGER NOT NULL,
            players        {json}  NOT NULL,
            table_id       {bigint} REFERENCES game_tables (id),
            places         {json},
            forfeits       {json}  NOT NULL DEFAULT '[]',
            settled_at     {real},
            UNIQUE (competition_id, round, table_no)
        )
        """,
        "CREATE UNIQUE INDEX competition_matches_by_table ON competition_matches (table_id)"
        " WHERE table_id IS NOT NULL",
        """
        CREATE TABLE moderation (
            id         {id},
            guild_id   {bigint} NOT NULL,
            action     TEXT    NOT NULL CHECK (action IN ('void', 'exclude', 'include')),
            table_id   {bigint} REFERENCES game_tables (id),
            player     TEXT,
            moderator  {bigint} NOT NULL,
            reason     TEXT    NOT NULL DEFAULT '',
            created_at {real}  NOT NULL
        )
        """,
        "CREATE INDEX moderation_by_guild ON moderation (guild_id, id)",
        AppendOnly("moderation", "the moderation record"),
        """
        CREATE TABLE leaderboard_exclusions (
            guild_id {bigint} NOT NULL,
            player   TEXT    NOT NULL,
            PRIMARY KEY (guild_id, player)
        ) {without_rowid}
        """,
        "ALTER TABLE game_tables ADD COLUMN voided_at {real}",
    ],
    # 11: the table on the web
    # (bot/web): `web`, whether the server's pages are served (`/settings web`, on by default), and on
    # PostgreSQL a notification on channel `cardtable_tables` (payload: the table's id) when a table's game,
    # session state or status is stored: delivered at commit to every process listening, whichever process
    # wrote it, so each one's live pages follow every table (the presenter's own `display` column stirs
    # nobody).
    [
        "ALTER TABLE guild_settings ADD COLUMN {flag:web} DEFAULT TRUE",
        Only(
            "postgres",
            """
        CREATE FUNCTION cardtable_table_stored() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM pg_notify('cardtable_tables', NEW.id::text);
            RETURN NULL;
        END
        $$
        """,
        ),
        Only(
            "postgres",
            """
        CREATE TRIGGER game_tables_stored AFTER UPDATE ON game_tables FOR EACH ROW
            WHEN (OLD.snapshot IS DISTINCT FROM NEW.snapshot OR OLD.meta IS DISTINCT FROM NEW.meta
                  OR OLD.status IS DISTINCT FROM NEW.status)
            EXECUTE FUNCTION cardtable_table_stored()
        """,
        ),
    ],
    # 12: a tournament's announcement reaches its channel across a kill: `posted`, the last round whose
    # announcement was sent (every one before this version was); `announce_at`, when round `announced`'s
    # claim was taken. A claim not marked posted long after it was taken is taken again (its sender died
    # between the claim and the send, or Discord refused the send).
    [
        "ALTER TABLE competitions ADD COLUMN posted INTEGER NOT NULL DEFAULT 0",
        "UPDATE competitions SET posted = announced",
        "ALTER TABLE competitions ADD COLUMN announce_at {real}",
    ],
    # 13: the names people go by (issue 39): `display_name`, a seat's and an entrant's name as Discord last
    # showed it (NULL: a computer, or a person the bot has not seen since), written when he sits down or
    # joins and again when an interaction shows him under a new name, so the pictures name him after a
    # restart without waiting for him to click. The index finds a person's seats for that (every table he
    # ever sat at, without it).
    [
        "ALTER TABLE seats ADD COLUMN display_name TEXT",
        "ALTER TABLE competition_entrants ADD COLUMN display_name TEXT",
        "CREATE INDEX seats_by_player ON seats (player) WHERE left_at IS NULL",
    ],
    # 14: a tournament's format is whatever the code's format registry names (`bot.events.formats`): the
    # CHECK that listed the three formats of migration 10 goes, so a new format is a module and a registry
    # line, never a migration. PostgreSQL drops the constraint; SQLite cannot, so the table is rebuilt, in
    # this one transaction: its rows copied aside, the table dropped and made again without the check, the
    # rows put back. The foreign keys of its entrants and matches are deferred to the commit meanwhile
    # (`defer_foreign_keys`: the drop's implicit delete orphans them until the rows are back; the commit
    # checks every one, so a row lost would fail it).
    [
        Only("postgres", "ALTER TABLE competitions DROP CONSTRAINT competitions_format_check"),
        Only("sqlite", "PRAGMA defer_foreign_keys = ON"),
        Only("sqlite", "CREATE TEMP TABLE competitions_kept AS SELECT * FROM competitions"),
        Only("sqlite", "DROP TABLE competitions"),
        Only(
            "sqlite",
            """
        CREATE TABLE competitions (
            id          INTEGER PRIMARY KEY,
            guild_id    INTEGER NOT NULL,
            channel_id  INTEGER NOT NULL,
            kind        TEXT    NOT NULL,
            format      TEXT    NOT NULL,
            rounds      INTEGER NOT NULL,
            options     TEXT    NOT NULL DEFAULT '{}',
            host_id     INTEGER NOT NULL,
            status      TEXT    NOT NULL CHECK (status IN ('open', 'running', 'finished', 'cancelled')),
            round       INTEGER NOT NULL DEFAULT 0,
            round_done  INTEGER NOT NULL DEFAULT 0,
            announced   INTEGER NOT NULL DEFAULT 0,
            deadline    REAL,
            starts_at   REAL,
            created_at  REAL    NOT NULL,
            finished_at REAL,
            posted      INTEGER NOT NULL DEFAULT 0,
            announce_at REAL
        )
        """,
        ),
        Only("sqlite", "INSERT INTO competitions SELECT * FROM competitions_kept"),
        Only("sqlite", "DROP TABLE competitions_kept"),
        Only("sqlite", "CREATE INDEX competitions_by_status ON competitions (status, guild_id)"),
    ],
]

LATEST = len(MIGRATIONS)


async def migrate(db: Database, steps: Sequence[Sequence[Statement]] = MIGRATIONS) -> int:
    """Bring the database up to the latest version, one transaction per step. Returns the final version.

    Raises NewerDatabaseError (touching nothing) if the database is newer than `steps`.
    """
    while True:
        version = await db.write(lambda tx: _step(tx, db.name, steps))
        if version == len(steps):
            return version


async def _step(tx: Transaction, name: str, steps: Sequence[Sequence[Statement]]) -> int:
    """Apply the next step, if any; the version the database is at afterwards."""
    version = await tx.schema_version()
    if version > len(steps):
        raise NewerDatabaseError(name, version, len(steps))
    if version == len(steps):
        return version
    for statement in steps[version]:
        for sql in tx.dialect.render(statement):
            await tx.execute(sql)
    await tx.set_schema_version(version + 1)
    return version + 1
