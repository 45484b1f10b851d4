"""The SQLite store: the embedded default backend of the store contract (`storage.contract.Store`).

The action log is the source of truth for a game (replayed from the seed); the snapshot beside it only makes
loading fast. The ledger is the truth for chips; the balances beside it are kept in the same transactions so
the leaderboard reads one row per player. Every method hands one plain function to the database's writer or
reader thread (`storage.db`), so a whole transaction costs one hop from the event loop.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from storage.common import ALL_KINDS, balance_changes, check_language, dumps, stats_from_balances
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
    "t.display, t.snapshot, t.created_at, t.started_at, t.finished_at, "
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
_INSERT_RESULT = (
    "INSERT INTO results (table_id, player, guild_id, kind, final_chips, net, placement, won)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)
# SQLite's two-argument MAX() is NULL when either side is: COALESCE keeps the one that is set.
UPSERT_BALANCE = (
    "INSERT INTO balances (guild_id, player, kind, net, games, wins, biggest_win)"
    " VALUES (?, ?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (guild_id, player, kind) DO UPDATE SET net = net + excluded.net,"
    " games = games + excluded.games, wins = wins + excluded.wins,"
    " biggest_win = COALESCE(MAX(biggest_win, excluded.biggest_win), biggest_win, excluded.biggest_win)"
)
_LEADERBOARD = (
    "SELECT player, net, games, wins FROM balances WHERE guild_id = ? AND kind = ?"
    " ORDER BY net DESC, wins DESC, games ASC, player ASC LIMIT ? OFFSET ?"
)


def _require_status(db: sqlite3.Connection, table_id: int, allowed: tuple[str, ...], op: str) -> str:
    row = db.execute("SELECT status FROM game_tables WHERE id = ?", (table_id,)).fetchone()
    if row is None:
        raise TableNotFound(table_id)
    if row["status"] not in allowed:
        raise TableStateError(table_id, row["status"], op)
    return str(row["status"])


def _append(
    db: sqlite3.Connection,
    now: float,
    table_id: int,
    seq: int,
    actor: str | None,
    action_json: str,
    ledger: Sequence[LedgerIn],
    snapshot_json: str,
    finish: Sequence[ResultIn] | None,
    meta: dict[str, Any] | None,
) -> int:
    row = db.execute(
        "SELECT t.status, t.guild_id, t.kind,"
        " (SELECT COALESCE(MAX(seq) + 1, 0) FROM actions WHERE table_id = t.id) AS next_seq"
        " FROM game_tables t WHERE t.id = ?",
        (table_id,),
    ).fetchone()
    if row is None:
        raise TableNotFound(table_id)
    if row["next_seq"] != seq:
        raise SequenceConflict(table_id, seq, row["next_seq"])
    if row["status"] != "running":
        raise TableStateError(table_id, row["status"], "record an action")
    guild, kind = row["guild_id"], row["kind"]
    db.execute(
        "INSERT INTO actions (table_id, seq, actor, action, created_at) VALUES (?, ?, ?, ?, ?)",
        (table_id, seq, actor, action_json, now),
    )
    if ledger:
        db.executemany(
            _INSERT_LEDGER,
            [
                (table_id, seq, guild, kind, e.from_account, e.to_account, e.amount, e.reason, now)
                for e in ledger
            ],
        )
    changes = balance_changes(kind, ledger, finish)
    if changes:
        db.executemany(UPSERT_BALANCE, [(guild, *c) for c in changes])
    if meta is not None:
        db.execute("UPDATE game_tables SET meta = ? WHERE id = ?", (dumps(meta), table_id))
    if finish is None:
        db.execute("UPDATE game_tables SET snapshot = ? WHERE id = ?", (snapshot_json, table_id))
    else:
        db.executemany(
            _INSERT_RESULT,
            [
                (table_id, r.player, guild, kind, r.final_chips, r.net, r.placement, int(r.won))
                for r in finish
            ],
        )
        db.execute(
            "UPDATE game_tables SET snapshot = ?, status = 'finished', finished_at = ? WHERE id = ?",
            (snapshot_json, now, table_id),
        )
    return seq


def _set_seats(db: sqlite3.Connection, now: float, table_id: int, players: Sequence[SeatIn]) -> None:
    _require_status(db, table_id, ("lobby", "running"), "change seats")
    current = {
        r["player"]: r["id"]
        for r in db.execute(
            "SELECT id, player FROM seats WHERE table_id = ? AND left_at IS NULL", (table_id,)
        )
    }
    wanted = {s.player for s in players}
    # Free every current seat number first so players can swap seats past the unique index.
    db.execute("UPDATE seats SET seat = -1 - id WHERE table_id = ? AND left_at IS NULL", (table_id,))
    for player, seat_row in current.items():
        if player not in wanted:
            db.execute("UPDATE seats SET left_at = ? WHERE id = ?", (now, seat_row))
    for s in players:
        if s.player in current:
            db.execute(
                "UPDATE seats SET seat = ?, user_id = ? WHERE id = ?", (s.seat, s.user_id, current[s.player])
            )
        else:
            db.execute(_INSERT_SEAT, (table_id, s.seat, s.player, s.user_id, now))


def _tables(
    db: sqlite3.Connection, where: str, params: tuple[Any, ...], order: str, limit: int | None
) -> list[TableRow]:
    sql = f"SELECT {_TABLE_COLUMNS} FROM game_tables t WHERE {where} ORDER BY {order}"
    if limit is not None:
        sql += f" LIMIT {int(limit)}"
    rows = [dict(r) for r in db.execute(sql, params)]
    seats: dict[int, list[dict[str, Any]]] = {r["id"]: [] for r in rows}
    if rows:
        marks = ",".join("?" * len(seats))
        for s in db.execute(
            f"SELECT table_id, seat, player, user_id, joined_at FROM seats"
            f" WHERE table_id IN ({marks}) AND left_at IS NULL ORDER BY table_id, seat",
            tuple(seats),
        ):
            seats[s["table_id"]].append(dict(s))
    return [
        TableRow.model_validate(
            {**r, "options": json.loads(r["options"]), "meta": json.loads(r["meta"]),
             "display": json.loads(r["display"]), "seats": seats[r["id"]]}
        )
        for r in rows
    ]


def _history(db: sqlite3.Connection, table_id: int) -> list[HistoryEntry]:
    acts = [dict(r) for r in db.execute(_SELECT_ACTIONS, (table_id,))]
    by_seq: dict[int, list[LedgerRow]] = {}
    for r in db.execute(_SELECT_LEDGER, (table_id,)):
        by_seq.setdefault(r["seq"], []).append(LedgerRow(**dict(r)))
    return [HistoryEntry(**a, ledger=by_seq.get(a["seq"], [])) for a in acts]


class SqliteStore:
    """The store on one SQLite file. Open with `await SqliteStore.open(path)`; `await store.close()`."""

    def __init__(self, db: Database, clock: Callable[[], float] = time.time) -> None:
        self._db = db
        self._clock = clock

    @classmethod
    async def open(cls, path: str, clock: Callable[[], float] = time.time) -> SqliteStore:
        """Connect to the SQLite file at `path` (created with its folder if missing) and migrate it to the
        latest version. Raises NewerDatabaseError if the file comes from a newer version of the bot."""
        path = str(path)
        if path == ":memory:" or path.startswith("file::memory:"):
            # The reader and the writer are two connections: they must share a file.
            raise ValueError("the store needs a database file, not an in-memory database")
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        db = await Database.open(path)
        try:
            await db.run_writer(migrate, path)
        except BaseException:
            await db.close()
            raise
        return cls(db, clock)

    async def close(self) -> None:
        await self._db.close()

    async def __aenter__(self) -> SqliteStore:
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
        values = (guild_id, channel_id, kind, dumps(options), seed, commitment, host_id, self._clock())

        def create(db: sqlite3.Connection) -> int:
            try:
                cur = db.execute(
                    "INSERT INTO game_tables (guild_id, channel_id, kind, status, options, seed, commitment,"
                    " host_id, created_at) VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?)",
                    values,
                )
            except sqlite3.IntegrityError as e:
                if "game_tables.channel_id" not in str(e):
                    raise
                active = db.execute(
                    "SELECT id FROM game_tables WHERE channel_id = ? AND status IN ('lobby', 'running')",
                    (channel_id,),
                ).fetchone()
                raise ChannelBusy(channel_id, active["id"] if active else None) from e
            assert cur.lastrowid is not None  # an INSERT that returned always sets it
            return int(cur.lastrowid)

        return await self._db.write(create)

    async def set_seats(self, table_id: int, players: Sequence[SeatIn]) -> None:
        """Replace the table's seats. Players no longer listed are marked as left (their row stays); players
        still listed keep their joined time. Allowed while the table is in the lobby or running."""
        await self._db.write(_set_seats, self._clock(), table_id, list(players))

    async def start_table(
        self, table_id: int, snapshot_json: str, meta: dict[str, Any] | None = None
    ) -> None:
        """Lobby -> running: the started time, the first snapshot (the new game's JSON) and, if given, the
        table's meta (the hands to DM, the opening lines), in one transaction."""
        now = self._clock()

        def start(db: sqlite3.Connection) -> None:
            _require_status(db, table_id, ("lobby",), "start")
            db.execute(
                "UPDATE game_tables SET status = 'running', started_at = ?, snapshot = ? WHERE id = ?",
                (now, snapshot_json, table_id),
            )
            if meta is not None:
                db.execute("UPDATE game_tables SET meta = ? WHERE id = ?", (dumps(meta), table_id))

        await self._db.write(start)

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
        return await self._db.write(
            _append,
            self._clock(),
            table_id,
            expected_seq,
            actor,
            action_json,
            ledger,
            snapshot_json,
            finish,
            meta,
        )

    async def cancel_table(self, table_id: int) -> None:
        """Close a table on which no action was played (a lobby, or a game that failed to start): `cancelled`.

        A game in progress ends through its `end_game` action instead, so its chips settle in the ledger.
        """
        now = self._clock()

        def cancel(db: sqlite3.Connection) -> None:
            status = _require_status(db, table_id, ("lobby", "running"), "cancel")
            played = db.execute("SELECT 1 FROM actions WHERE table_id = ? LIMIT 1", (table_id,)).fetchone()
            if status == "running" and played is not None:
                raise TableStateError(table_id, "running with actions played", "cancel (end the game)")
            db.execute(
                "UPDATE game_tables SET status = 'cancelled', finished_at = ? WHERE id = ?", (now, table_id)
            )

        await self._db.write(cancel)

    async def update_meta(self, table_id: int, meta: dict[str, Any]) -> None:
        """Replace the table's presentation state (message ids, closed DMs, seat controllers). Any status."""

        def update(db: sqlite3.Connection) -> None:
            if (
                db.execute("UPDATE game_tables SET meta = ? WHERE id = ?", (dumps(meta), table_id)).rowcount
                == 0
            ):
                raise TableNotFound(table_id)

        await self._db.write(update)

    async def update_display(self, table_id: int, display: dict[str, Any]) -> None:
        """Replace the presenter's record of the table (message ids, what was shown). Any status."""

        def update(db: sqlite3.Connection) -> None:
            cursor = db.execute("UPDATE game_tables SET display = ? WHERE id = ?", (dumps(display), table_id))
            if cursor.rowcount == 0:
                raise TableNotFound(table_id)

        await self._db.write(update)

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
        return await self._db.read(_tables, "t.status IN ('lobby', 'running')", (), "t.id", None)

    async def _one_table(self, where: str, params: tuple[Any, ...], order: str = "t.id") -> TableRow | None:
        rows = await self._db.read(_tables, where, params, order, 1)
        return rows[0] if rows else None

    # ---- log and ledger -----------------------------------------------------------------------------------

    async def actions(self, table_id: int) -> list[ActionRow]:
        """The action log in seq order."""
        return await self._db.read(
            lambda db: [ActionRow(**dict(r)) for r in db.execute(_SELECT_ACTIONS, (table_id,))]
        )

    async def ledger(self, table_id: int) -> list[LedgerRow]:
        """The table's chip movements by seq, then entry order."""
        return await self._db.read(
            lambda db: [LedgerRow(**dict(r)) for r in db.execute(_SELECT_LEDGER, (table_id,))]
        )

    async def history(self, table_id: int) -> list[HistoryEntry]:
        """Every action in seq order, each with the chip movements it caused in entry order."""
        return await self._db.read(_history, table_id)

    async def results(self, table_id: int) -> list[ResultRow]:
        """A finished table's results by placement, then player."""
        sql = (
            "SELECT table_id, kind, player, final_chips, net, placement, won FROM results"
            " WHERE table_id = ? ORDER BY placement, player"
        )
        return await self._db.read(lambda db: [ResultRow(**dict(r)) for r in db.execute(sql, (table_id,))])

    # ---- standings ----------------------------------------------------------------------------------------

    async def leaderboard(
        self, guild_id: int, kind: str | None = None, limit: int = 10, offset: int = 0
    ) -> list[LeaderboardRow]:
        """People of the guild (overall or for one game kind) by their kept balance: net chips of the ledger
        (running games included), games and wins of finished tables. Order: net desc, wins desc, games asc,
        player asc. Computer seats and table accounts keep no balance, so they never appear."""
        if limit < 0 or offset < 0:
            raise ValueError("limit and offset must not be negative")
        params = (guild_id, kind or ALL_KINDS, limit, offset)
        rows = await self._db.read(lambda db: db.execute(_LEADERBOARD, params).fetchall())
        return [
            LeaderboardRow(rank=offset + i + 1, player=r[0], net=r[1], games=r[2], wins=r[3])
            for i, r in enumerate(rows)
        ]

    async def player_stats(self, guild_id: int, player: str) -> PlayerStats:
        """A player's games, wins, net chips and biggest single win in the guild, overall and per kind."""
        sql = "SELECT kind, net, games, wins, biggest_win FROM balances WHERE guild_id = ? AND player = ?"
        rows = await self._db.read(lambda db: [tuple(r) for r in db.execute(sql, (guild_id, player))])
        return stats_from_balances(player, rows)

    # ---- server settings ----------------------------------------------------------------------------------

    async def guild_language(self, guild_id: int) -> str | None:
        sql = "SELECT language FROM guild_settings WHERE guild_id = ?"
        rows = await self._db.read(lambda db: db.execute(sql, (guild_id,)).fetchall())
        return rows[0][0] if rows else None

    async def set_guild_language(self, guild_id: int, language: str | None) -> None:
        check_language(language)

        def store(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT INTO guild_settings (guild_id, language) VALUES (?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language",
                (guild_id, language),
            )

        await self._db.write(store)

    # ---- DM channels ---------------------------------------------------------------------------------------

    async def dm_channels(self) -> dict[int, int]:
        sql = "SELECT user_id, channel_id FROM dm_channels"
        return await self._db.read(lambda db: {int(u): int(c) for u, c in db.execute(sql)})

    async def remember_dm_channel(self, user_id: int, channel_id: int) -> None:
        def store(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT INTO dm_channels (user_id, channel_id) VALUES (?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET channel_id = excluded.channel_id",
                (user_id, channel_id),
            )

        await self._db.write(store)
