"""The PostgreSQL store: the store contract (`storage.contract.Store`) on a server several processes share.

Writers on other processes are serialised by the database itself: a move locks its table's row
(`SELECT ... FOR UPDATE`) before the sequence check, so two processes appending to one table queue up and the
later one gets SequenceConflict; balance rows are upserted in one fixed order (`balance_changes`) so moves of
different tables never deadlock. A move costs five round trips: BEGIN, the lock, the sequence read (a
statement of its own, so it sees what the writer we waited for committed), one statement writing the action,
the ledger, the balances, the results and the table row together, COMMIT.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from typing import Any

import asyncpg

from storage.common import ALL_KINDS, balance_changes, check_language, dumps, redact, stats_from_balances
from storage.errors import ChannelBusy, SequenceConflict, StoreUnavailable, TableNotFound, TableStateError
from storage.models import (
    ActionRow,
    HistoryEntry,
    LeaderboardRow,
    LedgerIn,
    LedgerRow,
    PlayerStats,
    ResultIn,
    ResultRow,
    SeatIn,
    TableRow,
)
from storage.postgres.migrations import migrate

CONNECT_TIMEOUT = 10.0
POOL_SIZE = 10

_TABLE_COLUMNS = (
    "t.id, t.guild_id, t.channel_id, t.kind, t.status, t.options, t.seed, t.commitment, t.host_id, t.meta, "
    "t.display, t.snapshot, t.created_at, t.started_at, t.finished_at, "
    "(SELECT COALESCE(MAX(a.seq) + 1, 0) FROM actions a WHERE a.table_id = t.id) AS next_seq"
)
_SELECT_ACTIONS = (
    "SELECT table_id, seq, actor, action, created_at FROM actions WHERE table_id = $1 ORDER BY seq"
)
_SELECT_LEDGER = (
    "SELECT id, table_id, seq, from_account, to_account, amount, reason, created_at FROM ledger"
    " WHERE table_id = $1 ORDER BY seq, id"
)

# Everything a move writes after the checks, in one statement. Ledger ids follow the entry order (ORDER BY
# the position in the array); balances arrive sorted by (player, kind), the lock order of every writer.
_WRITE_MOVE = """
WITH act AS (
    INSERT INTO actions (table_id, seq, actor, action, created_at) VALUES ($1, $2, $3, $4, $5)
), led AS (
    INSERT INTO ledger (table_id, seq, guild_id, kind, from_account, to_account, amount, reason, created_at)
    SELECT $1, $2, $6, $7, l.f, l.t, l.a, l.r, $5
      FROM unnest($8::text[], $9::text[], $10::bigint[], $11::text[]) WITH ORDINALITY AS l(f, t, a, r, n)
     ORDER BY l.n
), bal AS (
    INSERT INTO balances (guild_id, player, kind, net, games, wins, biggest_win)
    SELECT $6, b.p, b.k, b.n, b.g, b.w, b.big
      FROM unnest($12::text[], $13::text[], $14::bigint[], $15::int[], $16::int[], $17::bigint[])
           WITH ORDINALITY AS b(p, k, n, g, w, big, i)
     ORDER BY b.i
    ON CONFLICT (guild_id, player, kind) DO UPDATE SET
        net = balances.net + EXCLUDED.net,
        games = balances.games + EXCLUDED.games,
        wins = balances.wins + EXCLUDED.wins,
        biggest_win = GREATEST(balances.biggest_win, EXCLUDED.biggest_win)
), res AS (
    INSERT INTO results (table_id, player, guild_id, kind, final_chips, net, placement, won)
    SELECT $1, r.p, $6, $7, r.c, r.n, r.pl, r.w
      FROM unnest($18::text[], $19::bigint[], $20::bigint[], $21::int[], $22::bool[]) AS r(p, c, n, pl, w)
)
UPDATE game_tables SET
    snapshot = $23,
    meta = COALESCE($24::text, meta),
    status = CASE WHEN $25::bool THEN 'finished' ELSE status END,
    finished_at = CASE WHEN $25::bool THEN $5 ELSE finished_at END
 WHERE id = $1
"""


def _table_row(r: asyncpg.Record, seats: list[dict[str, Any]]) -> TableRow:
    d = dict(r)
    data = {**d, "options": json.loads(d["options"]), "meta": json.loads(d["meta"]),
            "display": json.loads(d["display"]), "seats": seats}
    return TableRow.model_validate(data)


async def _require_status(conn: asyncpg.Connection, table_id: int, allowed: tuple[str, ...], op: str) -> str:
    status = await conn.fetchval("SELECT status FROM game_tables WHERE id = $1 FOR UPDATE", table_id)
    if status is None:
        raise TableNotFound(table_id)
    if status not in allowed:
        raise TableStateError(table_id, status, op)
    return str(status)


class PostgresStore:
    """The store on a PostgreSQL database: `await PostgresStore.open(url)`, then `await store.close()`."""

    def __init__(self, pool: asyncpg.Pool, name: str, clock: Callable[[], float] = time.time) -> None:
        self._pool = pool
        self.name = name  # the URL without its password
        self._clock = clock

    @classmethod
    async def open(
        cls, url: str, clock: Callable[[], float] = time.time, *, pool_size: int = POOL_SIZE
    ) -> PostgresStore:
        """Connect to `postgresql://user:password@host:port/database` and migrate it to the latest version.

        Raises NewerDatabaseError if the database comes from a newer version of the bot, StoreUnavailable if
        the server cannot be reached or refuses the login (the message names it without the password).
        """
        name = redact(url)
        try:
            pool = await asyncpg.create_pool(url, min_size=1, max_size=pool_size, timeout=CONNECT_TIMEOUT)
        except (TimeoutError, OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as e:
            raise StoreUnavailable(f"cannot connect to {name}: {e}") from e
        try:
            async with pool.acquire() as conn:
                await migrate(conn, name)
        except BaseException:
            await pool.close()
            raise
        return cls(pool, name, clock)

    async def close(self) -> None:
        await self._pool.close()

    async def __aenter__(self) -> PostgresStore:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # ---- writes -------------------------------------------------------------------------------------------

    async def create_table(
        self,
        guild_id: int,
        channel_id: int,
        kind: str,
        host_id: int,
        options: dict[str, Any],
        seed: str,
        commitment: str,
    ) -> int:
        """A new table in `lobby`. Raises ChannelBusy if the channel already has a lobby or running table."""
        async with self._pool.acquire() as conn:
            try:
                table_id = await conn.fetchval(
                    "INSERT INTO game_tables (guild_id, channel_id, kind, status, options, seed, commitment,"
                    " host_id, created_at) VALUES ($1, $2, $3, 'lobby', $4, $5, $6, $7, $8) RETURNING id",
                    guild_id, channel_id, kind, dumps(options), seed, commitment, host_id, self._clock(),
                )  # fmt: skip
                return int(table_id)
            except asyncpg.UniqueViolationError as e:
                if e.constraint_name != "game_tables_one_active_per_channel":
                    raise
                active = await conn.fetchval(
                    "SELECT id FROM game_tables WHERE channel_id = $1 AND status IN ('lobby', 'running')",
                    channel_id,
                )
                raise ChannelBusy(channel_id, active) from e

    async def set_seats(self, table_id: int, players: Sequence[SeatIn]) -> None:
        """Replace the table's seats. Players no longer listed are marked as left (their row stays); players
        still listed keep their joined time. Allowed while the table is in the lobby or running."""
        now = self._clock()
        async with self._pool.acquire() as conn, conn.transaction():
            await _require_status(conn, table_id, ("lobby", "running"), "change seats")
            current = {
                r["player"]: r["id"]
                for r in await conn.fetch(
                    "SELECT id, player FROM seats WHERE table_id = $1 AND left_at IS NULL", table_id
                )
            }
            wanted = {s.player for s in players}
            # Free every current seat number first so players can swap seats past the unique index.
            await conn.execute(
                "UPDATE seats SET seat = -1 - id WHERE table_id = $1 AND left_at IS NULL", table_id
            )
            gone = [seat_row for player, seat_row in current.items() if player not in wanted]
            if gone:
                await conn.execute("UPDATE seats SET left_at = $1 WHERE id = ANY($2::bigint[])", now, gone)
            stay = [(s.seat, s.user_id, current[s.player]) for s in players if s.player in current]
            if stay:
                await conn.executemany("UPDATE seats SET seat = $1, user_id = $2 WHERE id = $3", stay)
            new = [(table_id, s.seat, s.player, s.user_id, now) for s in players if s.player not in current]
            if new:
                await conn.executemany(
                    "INSERT INTO seats (table_id, seat, player, user_id, joined_at)"
                    " VALUES ($1, $2, $3, $4, $5)",
                    new,
                )

    async def start_table(
        self, table_id: int, snapshot_json: str, meta: dict[str, Any] | None = None
    ) -> None:
        """Lobby -> running: the started time, the first snapshot and, if given, the meta, in one
        transaction."""
        now = self._clock()
        async with self._pool.acquire() as conn, conn.transaction():
            await _require_status(conn, table_id, ("lobby",), "start")
            await conn.execute(
                "UPDATE game_tables SET status = 'running', started_at = $1, snapshot = $2 WHERE id = $3",
                now, snapshot_json, table_id,
            )  # fmt: skip
            if meta is not None:
                await conn.execute("UPDATE game_tables SET meta = $1 WHERE id = $2", dumps(meta), table_id)

    async def append_action(
        self,
        table_id: int,
        expected_seq: int,
        actor: str | None,
        action_json: str,
        ledger: Sequence[LedgerIn],
        snapshot_json: str,
        finish: Sequence[ResultIn] | None = None,
        meta: dict[str, Any] | None = None,
    ) -> int:
        """Store one applied action in one transaction and return its seq (== expected_seq): see the
        contract (`storage.contract.Store.append_action`)."""
        now = self._clock()
        async with self._pool.acquire() as conn, conn.transaction():
            row = await conn.fetchrow(
                "SELECT status, guild_id, kind FROM game_tables WHERE id = $1 FOR UPDATE", table_id
            )
            if row is None:
                raise TableNotFound(table_id)
            next_seq = await conn.fetchval(
                "SELECT COALESCE(MAX(seq) + 1, 0) FROM actions WHERE table_id = $1", table_id
            )
            if next_seq != expected_seq:
                raise SequenceConflict(table_id, expected_seq, next_seq)
            if row["status"] != "running":
                raise TableStateError(table_id, row["status"], "record an action")
            kind = row["kind"]
            changes = balance_changes(kind, ledger, finish)
            results = finish or ()
            await conn.execute(
                _WRITE_MOVE,
                table_id, expected_seq, actor, action_json, now, row["guild_id"], kind,
                [e.from_account for e in ledger], [e.to_account for e in ledger],
                [e.amount for e in ledger], [e.reason for e in ledger],
                [c.player for c in changes], [c.kind for c in changes], [c.net for c in changes],
                [c.games for c in changes], [c.wins for c in changes], [c.biggest_win for c in changes],
                [r.player for r in results], [r.final_chips for r in results], [r.net for r in results],
                [r.placement for r in results], [r.won for r in results],
                snapshot_json, None if meta is None else dumps(meta), finish is not None,
            )  # fmt: skip
        return expected_seq

    async def cancel_table(self, table_id: int) -> None:
        """Close a table on which no action was played (a lobby, or a game that failed to start): `cancelled`.

        A game in progress ends through its `end_game` action instead, so its chips settle in the ledger.
        """
        now = self._clock()
        async with self._pool.acquire() as conn, conn.transaction():
            status = await _require_status(conn, table_id, ("lobby", "running"), "cancel")
            played = await conn.fetchval("SELECT 1 FROM actions WHERE table_id = $1 LIMIT 1", table_id)
            if status == "running" and played is not None:
                raise TableStateError(table_id, "running with actions played", "cancel (end the game)")
            await conn.execute(
                "UPDATE game_tables SET status = 'cancelled', finished_at = $1 WHERE id = $2", now, table_id
            )

    async def update_meta(self, table_id: int, meta: dict[str, Any]) -> None:
        """Replace the table's presentation state (message ids, closed DMs, seat controllers). Any status."""
        async with self._pool.acquire() as conn:
            done = await conn.execute("UPDATE game_tables SET meta = $1 WHERE id = $2", dumps(meta), table_id)
        if done == "UPDATE 0":
            raise TableNotFound(table_id)

    async def update_display(self, table_id: int, display: dict[str, Any]) -> None:
        """Replace the presenter's record of the table (message ids, what was shown). Any status."""
        async with self._pool.acquire() as conn:
            done = await conn.execute(
                "UPDATE game_tables SET display = $1 WHERE id = $2", dumps(display), table_id
            )
        if done == "UPDATE 0":
            raise TableNotFound(table_id)

    # ---- tables -------------------------------------------------------------------------------------------

    async def get_table(self, table_id: int) -> TableRow | None:
        return await self._one_table("t.id = $1", (table_id,))

    async def active_table(self, channel_id: int) -> TableRow | None:
        """The channel's table in the lobby or running, if any (there is at most one)."""
        return await self._one_table("t.channel_id = $1 AND t.status IN ('lobby', 'running')", (channel_id,))

    async def last_table(self, channel_id: int, kind: str | None = None) -> TableRow | None:
        """The channel's most recently created table of any status (of that game kind if given)."""
        if kind is None:
            return await self._one_table("t.channel_id = $1", (channel_id,), order="t.id DESC")
        return await self._one_table(
            "t.channel_id = $1 AND t.kind = $2", (channel_id, kind), order="t.id DESC"
        )

    async def open_tables(self) -> list[TableRow]:
        """Tables in the lobby or running, oldest first: what to resume after a restart."""
        return await self._tables("t.status IN ('lobby', 'running')", (), order="t.id")

    async def _one_table(self, where: str, params: tuple[Any, ...], order: str = "t.id") -> TableRow | None:
        rows = await self._tables(where, params, order=order, limit=1)
        return rows[0] if rows else None

    async def _tables(
        self, where: str, params: tuple[Any, ...], order: str, limit: int | None = None
    ) -> list[TableRow]:
        sql = f"SELECT {_TABLE_COLUMNS} FROM game_tables t WHERE {where} ORDER BY {order}"
        if limit is not None:
            sql += f" LIMIT {int(limit)}"
        # One snapshot for the tables and their seats (a concurrent set_seats is seen whole or not at all).
        async with self._pool.acquire() as conn, conn.transaction(isolation="repeatable_read", readonly=True):
            rows = await conn.fetch(sql, *params)
            seats: dict[int, list[dict[str, Any]]] = {r["id"]: [] for r in rows}
            if rows:
                for s in await conn.fetch(
                    "SELECT table_id, seat, player, user_id, joined_at FROM seats"
                    " WHERE table_id = ANY($1::bigint[]) AND left_at IS NULL ORDER BY table_id, seat",
                    list(seats),
                ):
                    seats[s["table_id"]].append(dict(s))
        return [_table_row(r, seats[r["id"]]) for r in rows]

    # ---- log and ledger -----------------------------------------------------------------------------------

    async def actions(self, table_id: int) -> list[ActionRow]:
        """The action log in seq order."""
        async with self._pool.acquire() as conn:
            return [ActionRow(**dict(r)) for r in await conn.fetch(_SELECT_ACTIONS, table_id)]

    async def ledger(self, table_id: int) -> list[LedgerRow]:
        """The table's chip movements by seq, then entry order."""
        async with self._pool.acquire() as conn:
            return [LedgerRow(**dict(r)) for r in await conn.fetch(_SELECT_LEDGER, table_id)]

    async def history(self, table_id: int) -> list[HistoryEntry]:
        """Every action in seq order, each with the chip movements it caused in entry order."""
        async with self._pool.acquire() as conn, conn.transaction(isolation="repeatable_read", readonly=True):
            acts = [dict(r) for r in await conn.fetch(_SELECT_ACTIONS, table_id)]
            moves = [LedgerRow(**dict(r)) for r in await conn.fetch(_SELECT_LEDGER, table_id)]
        by_seq: dict[int, list[LedgerRow]] = {}
        for m in moves:
            by_seq.setdefault(m.seq, []).append(m)
        return [HistoryEntry(**a, ledger=by_seq.get(a["seq"], [])) for a in acts]

    async def results(self, table_id: int) -> list[ResultRow]:
        """A finished table's results by placement, then player."""
        async with self._pool.acquire() as conn:
            rows = await conn.fetch(
                "SELECT table_id, kind, player, final_chips, net, placement, won FROM results"
                " WHERE table_id = $1 ORDER BY placement, player",
                table_id,
            )
        return [ResultRow(**dict(r)) for r in rows]

    # ---- standings ----------------------------------------------------------------------------------------

    async def leaderboard(
        self, guild_id: int, kind: str | None = None, limit: int = 10, offset: int = 0
    ) -> list[LeaderboardRow]:
        """People of the guild (overall or for one game kind) by their kept balance: net chips of the ledger
        (running games included), games and wins of finished tables. Order: net desc, wins desc, games asc,
        player asc. Computer seats and table accounts keep no balance, so they never appear."""
        if limit < 0 or offset < 0:
            raise ValueError("limit and offset must not be negative")
        async with self._pool.acquire() as conn:
            rows = await conn.fetch(
                "SELECT player, net, games, wins FROM balances WHERE guild_id = $1 AND kind = $2"
                " ORDER BY net DESC, wins DESC, games ASC, player ASC LIMIT $3 OFFSET $4",
                guild_id, kind or ALL_KINDS, limit, offset,
            )  # fmt: skip
        return [LeaderboardRow(rank=offset + i + 1, **dict(r)) for i, r in enumerate(rows)]

    async def player_stats(self, guild_id: int, player: str) -> PlayerStats:
        """A player's games, wins, net chips and biggest single win in the guild, overall and per kind."""
        async with self._pool.acquire() as conn:
            rows = await conn.fetch(
                "SELECT kind, net, games, wins, biggest_win FROM balances"
                " WHERE guild_id = $1 AND player = $2",
                guild_id, player,
            )  # fmt: skip
        return stats_from_balances(player, [tuple(r) for r in rows])

    # ---- server settings ----------------------------------------------------------------------------------

    async def guild_language(self, guild_id: int) -> str | None:
        async with self._pool.acquire() as conn:
            query = "SELECT language FROM guild_settings WHERE guild_id = $1"
            language = await conn.fetchval(query, guild_id)
            return None if language is None else str(language)

    async def set_guild_language(self, guild_id: int, language: str | None) -> None:
        check_language(language)
        async with self._pool.acquire() as conn:
            await conn.execute(
                "INSERT INTO guild_settings (guild_id, language) VALUES ($1, $2)"
                " ON CONFLICT (guild_id) DO UPDATE SET language = EXCLUDED.language",
                guild_id,
                language,
            )

    # ---- DM channels ---------------------------------------------------------------------------------------

    async def dm_channels(self) -> dict[int, int]:
        async with self._pool.acquire() as conn:
            rows = await conn.fetch("SELECT user_id, channel_id FROM dm_channels")
        return {int(r["user_id"]): int(r["channel_id"]) for r in rows}

    async def remember_dm_channel(self, user_id: int, channel_id: int) -> None:
        async with self._pool.acquire() as conn:
            await conn.execute(
                "INSERT INTO dm_channels (user_id, channel_id) VALUES ($1, $2)"
                " ON CONFLICT (user_id) DO UPDATE SET channel_id = EXCLUDED.channel_id",
                user_id,
                channel_id,
            )
