"""The store: its contract and its one implementation, over either database, and the opener that picks one.

Guarantees, on SQLite (`storage.sqlite.SqliteStore`) and PostgreSQL (`storage.postgres.PostgresStore`)
alike: numbered migrations, one transaction each, a newer schema refused with NewerDatabaseError; the action
log and the chip ledger append-only (database triggers refuse UPDATE and DELETE); one lobby/running table per
channel (a partial unique index: ChannelBusy); one transaction per move with the sequence check
(SequenceConflict) and the status check (TableStateError); balances per (guild, player, kind) kept in that
same transaction.

The SQL is written once (`storage.writes`, `storage.reads`, `storage.migrations`); a backend is only its
`Database` (`storage.database`): how it connects, runs a transaction and where its SQL differs.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol, Self

from pydantic import BaseModel, JsonValue

from storage import reads, writes
from storage.common import (
    check_language,
    check_seasons,
    dumps,
    season_of,
)
from storage.database import Database
from storage.errors import TableNotFound
from storage.events import Competitions
from storage.fairplay import VOID
from storage.migrations import migrate
from storage.models import (
    ActionRow,
    GuildSettings,
    HistoryEntry,
    LedgerIn,
    LedgerRow,
    Rated,
    ResultIn,
    ResultRow,
    SeatIn,
    TableRow,
)
from storage.standings import Standings

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres_url(url_or_path: str) -> bool:
    return str(url_or_path).startswith(POSTGRES_SCHEMES)


# The backends' store classes by kind, each loaded when first opened (`storage/__init__.py` names them: they
# build on this module, so it cannot import them).
BACKENDS: dict[str, Callable[[], type[Store]]] = {}


async def open_store(url_or_path: str, clock: Callable[[], float] = time.time) -> Store:
    """`postgresql://user:password@host:port/database` (or `postgres://`) opens PostgreSQL; anything else is
    the path of an SQLite file (created with its folder). Either is migrated to the latest schema.

    Raises NewerDatabaseError if the database is newer than this code, StoreUnavailable if a PostgreSQL
    server cannot be reached or refuses the login.
    """
    backend = BACKENDS["postgres" if is_postgres_url(url_or_path) else "sqlite"]()
    return await backend.open(str(url_or_path), clock)


class TableChanges(Protocol):
    """A subscription to the tables stored by every process (`Store.table_changes`)."""

    async def close(self) -> None: ...


def _json(model: BaseModel) -> str:
    return dumps(model.model_dump(mode="json"))


class Store(Standings, Competitions):
    """The durable record of tables, seats, the action log, the chip ledger, results and balances.

    All methods are coroutines. `await Store.open(url_or_path)` is `open_store`; close with `await
    store.close()` (or `async with`). Rows are the frozen models of `storage.models`; what a caller stores
    whole (options, the session's meta, the presenter's display) it hands over as a pydantic model, kept as
    its JSON.
    """

    def __init__(self, db: Database, clock: Callable[[], float] = time.time) -> None:
        self._db = db
        self._clock = clock

    @classmethod
    async def open(cls, url_or_path: str, clock: Callable[[], float] = time.time) -> Store:
        """Open either backend: see `open_store`."""
        return await open_store(url_or_path, clock)

    @classmethod
    async def _migrated(cls, db: Database, clock: Callable[[], float]) -> Self:
        """The store on `db`, brought to the latest schema first (`db` is closed if that fails)."""
        try:
            await migrate(db)
        except BaseException:
            await db.close()
            raise
        return cls(db, clock)

    @property
    def name(self) -> str:
        """The database for messages: the file's path, or the URL without its password."""
        return self._db.name

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
        options: BaseModel,
        seed: str,
        commitment: str,
        *,
        seats: Sequence[SeatIn] = (),
        meta: BaseModel | None = None,
    ) -> int:
        """A new table in `lobby`, with its `seats` and its session state (`meta`), all in one transaction:
        a table is never stored without the players it was opened with. ChannelBusy if the channel already
        has a lobby or running table."""
        values = (guild_id, channel_id, kind, host_id, _json(options), seed, commitment, self._clock())
        data = None if meta is None else _json(meta)
        return await self._db.write(lambda tx: writes.opened(tx, values, list(seats), data))

    async def set_seats(
        self, table_id: int, players: Sequence[SeatIn], *, expected: Sequence[str] | None = None
    ) -> None:
        """Replace the seats (lobby or running): players no longer listed are marked left, those staying keep
        their joined time. With `expected` (the players the caller saw seated, in seat order), SeatsChanged
        and nothing written if the table's seats are others."""
        now, seated = self._clock(), list(players)
        await self._db.write(lambda tx: writes.set_seats(tx, now, table_id, seated, expected))

    async def start_table(
        self,
        table_id: int,
        snapshot_json: str,
        meta: BaseModel | None = None,
        *,
        thread_id: int | None = None,
    ) -> None:
        """Lobby -> running, with the started time, the first snapshot and (if given) the table's meta, in
        one transaction. With `thread_id` the table moves into that thread: its `channel_id` becomes the
        thread's and the channel it was opened in its `home_channel_id`."""
        now, data = self._clock(), None if meta is None else _json(meta)
        await self._db.write(lambda tx: writes.start(tx, now, table_id, snapshot_json, data, thread_id))

    async def append_action(
        self,
        table_id: int,
        expected_seq: int,
        actor: str | None,
        action_json: str,
        ledger: Sequence[LedgerIn],
        snapshot_json: str,
        finish: Sequence[ResultIn] | None = None,
        meta: BaseModel | None = None,
        rated: Rated | None = None,
        taken_over: Sequence[str] = (),
    ) -> int:
        """One transaction: the action (seq = expected_seq, the first is 0), its ledger entries in order, the
        balances they change, the snapshot, the meta if given and, if `finish`, the results (and their games,
        wins and biggest wins in the balances, and the season's leaderboard of the month it ends in), status
        `finished` and the finished time, and if `rated` (with two people or more) the game's rating: each
        person's rating read and locked, `rated.rate` asked, the new ratings and the game's `rating_changes`
        written, once per table; and if the table plays a competition's match, the match settled by its places
        (`taken_over`: the seats a computer played at the end, which score nothing there). Returns the seq.
        SequenceConflict if expected_seq is not the next one, TableStateError if the table is not running,
        TableNotFound; nothing is written then, nor on any error half-way (the rater's included)."""
        now, data = self._clock(), None if meta is None else _json(meta)
        season = season_of(now)
        return await self._db.write(
            lambda tx: writes.append(
                tx,
                now,
                table_id,
                expected_seq,
                actor,
                action_json,
                ledger,
                snapshot_json,
                finish,
                data,
                season,
                rated,
                taken_over,
            )
        )

    async def cancel_table(self, table_id: int) -> None:
        """`cancelled`: a lobby, or a running table with no action yet (a game in progress ends through its
        `end_game` action instead, so its chips settle in the ledger)."""
        now = self._clock()
        await self._db.write(lambda tx: writes.cancel(tx, now, table_id))

    async def close_unseated(self, table_id: int) -> bool:
        """Cancel a lobby stored without seats (by a bot older than the one transaction that opens a table
        with its seats) and unlink it from its competition's match, whose next step opens it again: the
        channel is free. False, and nothing written, if it has seats or is no longer a lobby."""
        now = self._clock()
        return await self._db.write(lambda tx: writes.close_unseated(tx, now, table_id))

    async def update_meta(self, table_id: int, meta: BaseModel, *, seq: int | None = None) -> None:
        """Replace the session's state of the table (seat control, timeouts, languages, notes); any status.
        With `seq`, only if the table's log still has that many actions (SequenceConflict if another writer
        moved it since: the state given was computed from an older table and would undo what came after)."""
        if seq is None:
            await self._replace(table_id, "meta", meta)
            return
        data = _json(meta)
        await self._db.write(lambda tx: writes.replace_meta(tx, table_id, seq, data))

    async def update_display(self, table_id: int, display: BaseModel) -> None:
        """Replace the presenter's record of the table (message ids, what was shown); any status."""
        await self._replace(table_id, "display", display)

    async def _replace(self, table_id: int, column: str, model: BaseModel) -> None:
        sql = f"UPDATE game_tables SET {column} = ? WHERE id = ?"
        if await self._db.execute(sql, _json(model), table_id) == 0:
            raise TableNotFound(table_id)

    # ---- reads --------------------------------------------------------------------------------------------

    async def get_table(self, table_id: int) -> TableRow | None:
        return await self._one_table("t.id = ?", (table_id,))

    async def active_table(self, channel_id: int) -> TableRow | None:
        """The channel's table in the lobby or running, if any (there is at most one)."""
        return await self._one_table("t.channel_id = ? AND t.status IN ('lobby', 'running')", (channel_id,))

    async def last_table(self, channel_id: int, kind: str | None = None) -> TableRow | None:
        """The channel's most recently created table of any status (of that game kind if given), those
        opened here that played in a thread of their own included."""
        where = "(t.channel_id = ? OR t.home_channel_id = ?)"
        if kind is None:
            return await self._one_table(where, (channel_id, channel_id), order="t.id DESC")
        return await self._one_table(
            f"{where} AND t.kind = ?", (channel_id, channel_id, kind), order="t.id DESC"
        )

    async def open_tables(self) -> list[TableRow]:
        """Tables in the lobby or running, oldest first: what to resume after a restart."""
        return await self._db.read(
            lambda tx: reads.tables(tx, "t.status IN ('lobby', 'running')", (), "t.id", None)
        )

    async def finished_since(self, since: float) -> list[TableRow]:
        """Tables finished at or after `since` (unix seconds), oldest first: rematches a restart resumes."""
        where = "t.status = 'finished' AND t.finished_at >= ?"
        return await self._db.read(lambda tx: reads.tables(tx, where, (since,), "t.id", None))

    async def _one_table(self, where: str, params: tuple[Any, ...], order: str = "t.id") -> TableRow | None:
        rows = await self._db.read(lambda tx: reads.tables(tx, where, params, order, 1))
        return rows[0] if rows else None

    async def actions(self, table_id: int) -> list[ActionRow]:
        """The game's action log in seq order (a void's entry, `storage.fairplay`, is no move: left out)."""
        return [ActionRow(**r) for r in await self._db.fetch(reads.ACTIONS, table_id) if r["actor"] != VOID]

    async def ledger(self, table_id: int) -> list[LedgerRow]:
        """The table's chip movements by seq, then entry order."""
        return [LedgerRow(**r) for r in await self._db.fetch(reads.LEDGER, table_id)]

    async def history(self, table_id: int) -> list[HistoryEntry]:
        """Every action in seq order, each with the chip movements it caused in entry order."""
        return await self._db.read(lambda tx: reads.history(tx, table_id))

    async def results(self, table_id: int) -> list[ResultRow]:
        """A finished table's results by placement, then player."""
        return [ResultRow(**r) for r in await self._db.fetch(reads.RESULTS, table_id)]

    # ---- server settings ----------------------------------------------------------------------------------

    async def guild_language(self, guild_id: int) -> str | None:
        """The language a server chose for its public messages ("en", "de"), None: the server's locale."""
        rows = await self._db.fetch(reads.GUILD_LANGUAGE, guild_id)
        return None if not rows or rows[0]["language"] is None else str(rows[0]["language"])

    async def set_guild_language(self, guild_id: int, language: str | None) -> None:
        """Choose the server's public language; None goes back to the server's locale."""
        check_language(language)
        await self._db.execute(writes.SET_GUILD_LANGUAGE, guild_id, language)

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """Everything a server chose (`/settings`): language, host role, game channels, table defaults."""
        return await self._db.read(lambda tx: reads.guild_settings(tx, guild_id))

    async def set_host_role(self, guild_id: int, role_id: int | None) -> None:
        """The role whose members may open and cancel games (besides Manage Server); None: anyone opens."""
        await self._db.execute(writes.SET_HOST_ROLE, guild_id, role_id)

    async def set_threads(self, guild_id: int, on: bool) -> None:
        """Whether each game of the server plays in a thread of its own (off: in the channel, as before)."""
        await self._db.execute(writes.SET_THREADS, guild_id, on)

    async def set_web(self, guild_id: int, on: bool) -> None:
        """Whether the server's pages are served on the web (its live tables, replays, leaderboard)."""
        await self._db.execute(writes.SET_WEB, guild_id, on)

    async def table_changes(self, changed: Callable[[int], None]) -> TableChanges | None:
        """Hear of every table stored by any process on this database: `changed(table_id)` is called after
        each commit that stored a table's game, session state or status (PostgreSQL's LISTEN/NOTIFY; close
        the handle to stop). None on SQLite: one process, which hears its own changes in memory."""
        return None

    async def set_game_channel(self, guild_id: int, channel_id: int, allowed: bool) -> None:
        """Add a channel to the ones where games may be opened, or take it off the list (an empty list:
        every channel)."""
        sql = writes.ADD_GAME_CHANNEL if allowed else writes.REMOVE_GAME_CHANNEL
        await self._db.execute(sql, guild_id, channel_id)

    async def clear_game_channels(self, guild_id: int) -> None:
        """Games may be opened in every channel again."""
        await self._db.execute(writes.CLEAR_GAME_CHANNELS, guild_id)

    async def set_table_default(self, guild_id: int, kind: str, name: str, value: JsonValue) -> None:
        """A default for the server's new tables of `kind` (checked by the game's options model before it
        gets here; the store keeps JSON); None removes it (the game's own default again)."""
        if value is None:
            await self._db.execute(writes.CLEAR_TABLE_DEFAULT, guild_id, kind, name)
        else:
            await self._db.execute(writes.SET_TABLE_DEFAULT, guild_id, kind, name, json.dumps(value))

    async def set_seasons(self, guild_id: int, seasons: str | None) -> None:
        """ "monthly" (leaderboards per calendar month besides all-time) or "off" (all-time only); None: the
        default (monthly). Only what is shown changes: every game counts in the month it ended in."""
        check_seasons(seasons)
        await self._db.execute(writes.SET_SEASONS, guild_id, seasons)

    # ---- DM channels ---------------------------------------------------------------------------------------

    async def dm_channels(self) -> dict[int, int]:
        """Every person's DM channel with the bot, as remembered: user id -> channel id."""
        return {int(r["user_id"]): int(r["channel_id"]) for r in await self._db.fetch(reads.DM_CHANNELS)}

    async def remember_dm_channel(self, user_id: int, channel_id: int) -> None:
        """Keep a person's DM channel (Discord keeps it for good; a newer one replaces it)."""
        await self._db.execute(writes.REMEMBER_DM_CHANNEL, user_id, channel_id)
