"""The Store: the durable record of tables, seats, the action log, the chip ledger and results.

The action log is the source of truth for a game (replayed from the seed); the snapshot beside it only makes
loading fast. The ledger is the truth for chips: every leaderboard figure is computed from it.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import aiosqlite

from storage import queries
from storage.db import Database
from storage.errors import ChannelBusy, SequenceConflict, TableNotFound, TableStateError
from storage.migrations import migrate
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

_TABLE_COLUMNS = (
    "t.id, t.guild_id, t.channel_id, t.kind, t.status, t.options, t.seed, t.commitment, t.host_id, t.meta, "
    "t.snapshot, t.created_at, t.started_at, t.finished_at, "
    "(SELECT COALESCE(MAX(a.seq) + 1, 0) FROM actions a WHERE a.table_id = t.id) AS next_seq"
)


_SELECT_ACTIONS = (
    "SELECT table_id, seq, actor, action, created_at FROM actions WHERE table_id = ? ORDER BY seq"
)
_SELECT_LEDGER = (
    "SELECT id, table_id, seq, from_account, to_account, amount, reason, created_at FROM ledger"
    " WHERE table_id = ? ORDER BY seq, id"
)
_INSERT_LEDGER = (
    "INSERT INTO ledger (table_id, seq, guild_id, kind, from_account, to_account, amount, reason, created_at)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_INSERT_SEAT = "INSERT INTO seats (table_id, seat, player, user_id, joined_at) VALUES (?, ?, ?, ?, ?)"


def _dumps(data: dict) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


class Store:
    """All methods are coroutines; open with `await Store.open(path)` and `await store.close()`."""

    def __init__(self, db: Database, clock: Callable[[], float] = time.time) -> None:
        self._db = db
        self._clock = clock

    @classmethod
    async def open(cls, path: str, clock: Callable[[], float] = time.time) -> Store:
        """Connect to the SQLite file at `path` (created if missing) and migrate it to the latest version.

        Raises NewerDatabaseError if the file comes from a newer version of the bot.
        """
        path = str(path)
        if path == ":memory:" or path.startswith("file::memory:"):
            # The reader and the writer are two connections: they must share a file.
            raise ValueError("the store needs a database file, not an in-memory database")
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        db = await Database.open(path)
        try:
            await migrate(db._writer, path)
        except BaseException:
            await db.close()
            raise
        return cls(db, clock)

    async def close(self) -> None:
        await self._db.close()

    async def __aenter__(self) -> Store:
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
        options: dict,
        seed: str,
        commitment: str,
    ) -> int:
        """A new table in `lobby`. Raises ChannelBusy if the channel already has a lobby or running table."""
        try:
            async with self._db.write() as db:
                cur = await db.execute(
                    "INSERT INTO game_tables (guild_id, channel_id, kind, status, options, seed, commitment,"
                    " host_id, created_at) VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?)",
                    (guild_id, channel_id, kind, _dumps(options), seed, commitment, host_id, self._clock()),
                )
                return int(cur.lastrowid)
        except sqlite3.IntegrityError as e:
            if "game_tables.channel_id" not in str(e):
                raise
            active = await self.active_table(channel_id)
            raise ChannelBusy(channel_id, active.id if active else None) from e

    async def set_seats(self, table_id: int, players: Sequence[SeatIn]) -> None:
        """Replace the table's seats. Players no longer listed are marked as left (their row stays); players
        still listed keep their joined time. Allowed while the table is in the lobby or running."""
        now = self._clock()
        async with self._db.write() as db:
            await self._require_status(db, table_id, ("lobby", "running"), "change seats")
            async with db.execute(
                "SELECT id, player FROM seats WHERE table_id = ? AND left_at IS NULL", (table_id,)
            ) as cur:
                current = {r["player"]: r["id"] for r in await cur.fetchall()}
            wanted = {s.player for s in players}
            # Free every current seat number first so players can swap seats past the unique index.
            await db.execute(
                "UPDATE seats SET seat = -1 - id WHERE table_id = ? AND left_at IS NULL", (table_id,)
            )
            for player, seat_row in current.items():
                if player not in wanted:
                    await db.execute("UPDATE seats SET left_at = ? WHERE id = ?", (now, seat_row))
            for s in players:
                if s.player in current:
                    await db.execute(
                        "UPDATE seats SET seat = ?, user_id = ? WHERE id = ?",
                        (s.seat, s.user_id, current[s.player]),
                    )
                else:
                    await db.execute(
                        _INSERT_SEAT,
                        (table_id, s.seat, s.player, s.user_id, now),
                    )

    async def start_table(self, table_id: int, snapshot_json: str, meta: dict | None = None) -> None:
        """Lobby -> running: the started time, the first snapshot (the new game's JSON) and, if given, the
        table's meta (the hands to DM, the opening lines), in one transaction."""
        async with self._db.write() as db:
            await self._require_status(db, table_id, ("lobby",), "start")
            await db.execute(
                "UPDATE game_tables SET status = 'running', started_at = ?, snapshot = ? WHERE id = ?",
                (self._clock(), snapshot_json, table_id),
            )
            if meta is not None:
                await db.execute("UPDATE game_tables SET meta = ? WHERE id = ?", (_dumps(meta), table_id))

    async def append_action(
        self,
        table_id: int,
        expected_seq: int,
        actor: str | None,
        action_json: str,
        ledger: Sequence[LedgerIn],
        snapshot_json: str,
        finish: Sequence[ResultIn] | None = None,
        meta: dict | None = None,
    ) -> int:
        """Store one applied action in one transaction and return its seq (== expected_seq).

        Written together or not at all: the action row, its ledger entries (in order), the new snapshot,
        the table's meta if given (seat control, timeout counts, presentation state: what the move changed
        besides the game) and, if `finish` is given, the results with status `finished` and the finished
        time. The first action of a
        table has seq 0. Raises SequenceConflict if `expected_seq` is not the table's next seq (a stale
        writer), TableStateError if the table is not running; nothing is written then.
        """
        now = self._clock()
        async with self._db.write() as db:
            async with db.execute(
                "SELECT t.status, t.guild_id, t.kind,"
                " (SELECT COALESCE(MAX(seq) + 1, 0) FROM actions WHERE table_id = t.id) AS next_seq"
                " FROM game_tables t WHERE t.id = ?",
                (table_id,),
            ) as cur:
                row = await cur.fetchone()
            if row is None:
                raise TableNotFound(table_id)
            if row["next_seq"] != expected_seq:
                raise SequenceConflict(table_id, expected_seq, row["next_seq"])
            if row["status"] != "running":
                raise TableStateError(table_id, row["status"], "record an action")
            guild_id, kind = row["guild_id"], row["kind"]
            await db.execute(
                "INSERT INTO actions (table_id, seq, actor, action, created_at) VALUES (?, ?, ?, ?, ?)",
                (table_id, expected_seq, actor, action_json, now),
            )
            if ledger:
                await db.executemany(
                    _INSERT_LEDGER,
                    [
                        (
                            table_id,
                            expected_seq,
                            guild_id,
                            kind,
                            e.from_account,
                            e.to_account,
                            e.amount,
                            e.reason,
                            now,
                        )
                        for e in ledger
                    ],
                )
            if meta is not None:
                await db.execute("UPDATE game_tables SET meta = ? WHERE id = ?", (_dumps(meta), table_id))
            if finish is None:
                await db.execute(
                    "UPDATE game_tables SET snapshot = ? WHERE id = ?", (snapshot_json, table_id)
                )
            else:
                await db.executemany(
                    "INSERT INTO results (table_id, player, guild_id, kind, final_chips, net, placement, won)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    [
                        (table_id, r.player, guild_id, kind, r.final_chips, r.net, r.placement, int(r.won))
                        for r in finish
                    ],
                )
                await db.execute(
                    "UPDATE game_tables SET snapshot = ?, status = 'finished', finished_at = ? WHERE id = ?",
                    (snapshot_json, now, table_id),
                )
            return expected_seq

    async def cancel_table(self, table_id: int) -> None:
        """Close a table on which no action was played (a lobby, or a game that failed to start): `cancelled`.

        A game in progress ends through its `end_game` action instead, so its chips settle in the ledger.
        """
        async with self._db.write() as db:
            status = await self._require_status(db, table_id, ("lobby", "running"), "cancel")
            if status == "running":
                async with db.execute("SELECT 1 FROM actions WHERE table_id = ? LIMIT 1", (table_id,)) as cur:
                    if await cur.fetchone() is not None:
                        raise TableStateError(
                            table_id, "running with actions played", "cancel (end the game)"
                        )
            await db.execute(
                "UPDATE game_tables SET status = 'cancelled', finished_at = ? WHERE id = ?",
                (self._clock(), table_id),
            )

    async def update_meta(self, table_id: int, meta: dict) -> None:
        """Replace the table's presentation state (message ids, closed DMs, seat controllers). Any status."""
        async with self._db.write() as db:
            cur = await db.execute("UPDATE game_tables SET meta = ? WHERE id = ?", (_dumps(meta), table_id))
            if cur.rowcount == 0:
                raise TableNotFound(table_id)

    @staticmethod
    async def _require_status(
        db: aiosqlite.Connection, table_id: int, allowed: tuple[str, ...], op: str
    ) -> str:
        async with db.execute("SELECT status FROM game_tables WHERE id = ?", (table_id,)) as cur:
            row = await cur.fetchone()
        if row is None:
            raise TableNotFound(table_id)
        if row["status"] not in allowed:
            raise TableStateError(table_id, row["status"], op)
        return row["status"]

    # ---- tables -------------------------------------------------------------------------------------------

    async def get_table(self, table_id: int) -> TableRow | None:
        return await self._one_table("t.id = ?", (table_id,))

    async def active_table(self, channel_id: int) -> TableRow | None:
        """The channel's table in the lobby or running, if any (there is at most one)."""
        return await self._one_table("t.channel_id = ? AND t.status IN ('lobby', 'running')", (channel_id,))

    async def last_table(self, channel_id: int, kind: str | None = None) -> TableRow | None:
        """The channel's most recently created table of any status (of that game kind if given)."""
        if kind is None:
            return await self._one_table("t.channel_id = ?", (channel_id,), order="t.id DESC")
        return await self._one_table("t.channel_id = ? AND t.kind = ?", (channel_id, kind), order="t.id DESC")

    async def open_tables(self) -> list[TableRow]:
        """Tables in the lobby or running, oldest first: what to resume after a restart."""
        return await self._tables("t.status IN ('lobby', 'running')", (), order="t.id")

    async def _one_table(self, where: str, params: tuple, order: str = "t.id") -> TableRow | None:
        rows = await self._tables(where, params, order=order, limit=1)
        return rows[0] if rows else None

    async def _tables(
        self, where: str, params: tuple, order: str, limit: int | None = None
    ) -> list[TableRow]:
        sql = f"SELECT {_TABLE_COLUMNS} FROM game_tables t WHERE {where} ORDER BY {order}"
        if limit is not None:
            sql += f" LIMIT {int(limit)}"
        async with self._db.read() as db:
            async with db.execute(sql, params) as cur:
                rows = await cur.fetchall()
            seats: dict[int, list[dict[str, Any]]] = {r["id"]: [] for r in rows}
            if rows:
                marks = ",".join("?" * len(seats))
                async with db.execute(
                    f"SELECT table_id, seat, player, user_id, joined_at FROM seats"
                    f" WHERE table_id IN ({marks}) AND left_at IS NULL ORDER BY table_id, seat",
                    tuple(seats),
                ) as cur:
                    for s in await cur.fetchall():
                        seats[s["table_id"]].append(dict(s))
        return [
            TableRow(
                **{**r, "options": json.loads(r["options"]), "meta": json.loads(r["meta"])},
                seats=seats[r["id"]],
            )
            for r in map(dict, rows)
        ]

    # ---- log and ledger -----------------------------------------------------------------------------------

    async def actions(self, table_id: int) -> list[ActionRow]:
        """The action log in seq order."""
        async with (
            self._db.read() as db,
            db.execute(
                _SELECT_ACTIONS,
                (table_id,),
            ) as cur,
        ):
            return [ActionRow(**dict(r)) for r in await cur.fetchall()]

    async def ledger(self, table_id: int) -> list[LedgerRow]:
        """The table's chip movements by seq, then entry order."""
        async with (
            self._db.read() as db,
            db.execute(
                _SELECT_LEDGER,
                (table_id,),
            ) as cur,
        ):
            return [LedgerRow(**dict(r)) for r in await cur.fetchall()]

    async def history(self, table_id: int) -> list[HistoryEntry]:
        """Every action in seq order, each with the chip movements it caused in entry order."""
        async with self._db.read() as db:
            async with db.execute(
                _SELECT_ACTIONS,
                (table_id,),
            ) as cur:
                acts = [dict(r) for r in await cur.fetchall()]
            async with db.execute(
                _SELECT_LEDGER,
                (table_id,),
            ) as cur:
                moves = [LedgerRow(**dict(r)) for r in await cur.fetchall()]
        by_seq: dict[int, list[LedgerRow]] = {}
        for m in moves:
            by_seq.setdefault(m.seq, []).append(m)
        return [HistoryEntry(**a, ledger=by_seq.get(a["seq"], [])) for a in acts]

    async def results(self, table_id: int) -> list[ResultRow]:
        """A finished table's results by placement, then player."""
        async with (
            self._db.read() as db,
            db.execute(
                "SELECT table_id, kind, player, final_chips, net, placement, won FROM results"
                " WHERE table_id = ? ORDER BY placement, player",
                (table_id,),
            ) as cur,
        ):
            return [ResultRow(**dict(r)) for r in await cur.fetchall()]

    # ---- standings ----------------------------------------------------------------------------------------

    async def leaderboard(
        self, guild_id: int, kind: str | None = None, limit: int = 10, offset: int = 0
    ) -> list[LeaderboardRow]:
        """Players of the guild (overall or for one game kind): net chips from the ledger, games and wins from
        finished tables. Order: net desc, wins desc, games asc, player asc. Computer seats are left out."""
        async with self._db.read() as db:
            return await queries.leaderboard(db, guild_id, kind, limit, offset)

    async def player_stats(self, guild_id: int, player: str) -> PlayerStats:
        """A player's games, wins, net chips and biggest single win in the guild, overall and per kind."""
        async with self._db.read() as db:
            return await queries.player_stats(db, guild_id, player)
