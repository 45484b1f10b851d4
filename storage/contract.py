"""The store contract both backends keep, and the one opener that picks a backend from a URL or a path.

Guarantees, on SQLite (`storage.store.SqliteStore`) and PostgreSQL (`storage.postgres.PostgresStore`)
alike: numbered migrations, one transaction each, a newer schema refused with NewerDatabaseError; the action
log and the chip ledger append-only (database triggers refuse UPDATE and DELETE); one lobby/running table per
channel (a partial unique index: ChannelBusy); one transaction per move with the sequence check
(SequenceConflict) and the status check (TableStateError); balances per (guild, player, kind) kept in that
same transaction.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

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

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres_url(url_or_path: str) -> bool:
    return str(url_or_path).startswith(POSTGRES_SCHEMES)


async def open_store(url_or_path: str, clock: Callable[[], float] = time.time) -> Store:
    """`postgresql://user:password@host:port/database` (or `postgres://`) opens PostgreSQL; anything else is
    the path of an SQLite file (created with its folder). Either is migrated to the latest schema.

    Raises NewerDatabaseError if the database is newer than this code, StoreUnavailable if a PostgreSQL
    server cannot be reached or refuses the login.
    """
    if is_postgres_url(url_or_path):
        # Imported here: an SQLite-only bot never loads asyncpg.
        from storage.postgres import PostgresStore

        return await PostgresStore.open(str(url_or_path), clock=clock)
    from storage.store import SqliteStore

    return await SqliteStore.open(str(url_or_path), clock=clock)


@runtime_checkable
class Store(Protocol):
    """The durable record of tables, seats, the action log, the chip ledger, results and balances.

    All methods are coroutines. `await Store.open(url_or_path)` is `open_store`; close with `await
    store.close()` (or `async with`). Rows are the frozen models of `storage.models`.
    """

    @classmethod
    async def open(cls, url_or_path: str, clock: Callable[[], float] = time.time) -> Store:
        """Open either backend: see `open_store`."""
        return await open_store(url_or_path, clock)

    async def close(self) -> None: ...

    async def __aenter__(self) -> Store: ...

    async def __aexit__(self, *exc: object) -> None: ...

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
        """A new table in `lobby`. ChannelBusy if the channel already has a lobby or running table."""
        ...

    async def set_seats(self, table_id: int, players: Sequence[SeatIn]) -> None:
        """Replace the seats (lobby or running): players no longer listed are marked left, those staying keep
        their joined time."""
        ...

    async def start_table(
        self, table_id: int, snapshot_json: str, meta: dict[str, Any] | None = None
    ) -> None:
        """Lobby -> running, with the started time, the first snapshot and (if given) the table's meta, in
        one transaction."""
        ...

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
        """One transaction: the action (seq = expected_seq, the first is 0), its ledger entries in order, the
        balances they change, the snapshot, the meta if given and, if `finish`, the results (and their games,
        wins and biggest wins in the balances), status `finished` and the finished time. Returns the seq.
        SequenceConflict if expected_seq is not the next one, TableStateError if the table is not running,
        TableNotFound; nothing is written then, nor on any error half-way."""
        ...

    async def cancel_table(self, table_id: int) -> None:
        """`cancelled`: a lobby, or a running table with no action yet."""
        ...

    async def update_meta(self, table_id: int, meta: dict[str, Any]) -> None:
        """Replace the session's state of the table (seat control, timeouts, languages, notes); any status."""
        ...

    async def update_display(self, table_id: int, display: dict[str, Any]) -> None:
        """Replace the presenter's record of the table (message ids, what was shown); any status."""
        ...

    # ---- reads --------------------------------------------------------------------------------------------

    async def get_table(self, table_id: int) -> TableRow | None: ...

    async def active_table(self, channel_id: int) -> TableRow | None: ...

    async def last_table(self, channel_id: int, kind: str | None = None) -> TableRow | None: ...

    async def open_tables(self) -> list[TableRow]: ...

    async def actions(self, table_id: int) -> list[ActionRow]: ...

    async def ledger(self, table_id: int) -> list[LedgerRow]: ...

    async def history(self, table_id: int) -> list[HistoryEntry]: ...

    async def results(self, table_id: int) -> list[ResultRow]: ...

    async def leaderboard(
        self, guild_id: int, kind: str | None = None, limit: int = 10, offset: int = 0
    ) -> list[LeaderboardRow]:
        """People of the guild by kept balance: net desc, wins desc, games asc, player asc."""
        ...

    async def player_stats(self, guild_id: int, player: str) -> PlayerStats: ...

    # ---- server settings ----------------------------------------------------------------------------------

    async def guild_language(self, guild_id: int) -> str | None:
        """The language a server chose for its public messages ("en", "de"), None: the server's locale."""
        ...

    async def set_guild_language(self, guild_id: int, language: str | None) -> None:
        """Choose the server's public language; None goes back to the server's locale."""
        ...

    # ---- DM channels ---------------------------------------------------------------------------------------

    async def dm_channels(self) -> dict[int, int]:
        """Every person's DM channel with the bot, as remembered: user id -> channel id."""
        ...

    async def remember_dm_channel(self, user_id: int, channel_id: int) -> None:
        """Keep a person's DM channel (Discord keeps it for good; a newer one replaces it)."""
        ...
