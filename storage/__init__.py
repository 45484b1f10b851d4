"""Durable storage: tables, seats, the action log, the chip ledger, results and balances. Discord-free.

One store (`Store`, its SQL written once), two backends: SQLite (`storage.sqlite.SqliteStore`, the
embedded default) and PostgreSQL (`storage.postgres.PostgresStore`, through asyncpg).
`await open_store(url_or_path)` (also `await Store.open(...)`) picks one: a `postgresql://` or
`postgres://` URL, else an SQLite file path.
"""

from storage.common import ALL_TIME, season_bounds, season_of
from storage.contract import BACKENDS, Store, is_postgres_url, open_store
from storage.errors import (
    ChannelBusy,
    NewerDatabaseError,
    SeatsChanged,
    SequenceConflict,
    StoreError,
    StoreUnavailable,
    TableNotFound,
    TableStateError,
    TargetNotEmpty,
)
from storage.models import (
    ActionRow,
    ChipPoint,
    GuildSettings,
    HeadToHead,
    HistoryEntry,
    KindStats,
    LeaderboardRow,
    LedgerIn,
    LedgerRow,
    PlayerRating,
    PlayerStats,
    Rate,
    Rated,
    Rating,
    RatingBoardRow,
    RatingChange,
    RatingIn,
    RatingPoint,
    ResultIn,
    ResultRow,
    SeatIn,
    SeatRow,
    TableRow,
    TableStatus,
)
from storage.sqlite import SqliteStore


def _sqlite() -> type[Store]:
    return SqliteStore


def _postgres() -> type[Store]:
    # Imported when first opened: an SQLite-only bot never loads asyncpg.
    from storage.postgres import PostgresStore

    return PostgresStore


BACKENDS.update(sqlite=_sqlite, postgres=_postgres)

__all__ = [
    "ALL_TIME",
    "ActionRow",
    "ChannelBusy",
    "ChipPoint",
    "GuildSettings",
    "HeadToHead",
    "HistoryEntry",
    "KindStats",
    "LeaderboardRow",
    "LedgerIn",
    "LedgerRow",
    "NewerDatabaseError",
    "PlayerRating",
    "PlayerStats",
    "Rate",
    "Rated",
    "Rating",
    "RatingBoardRow",
    "RatingChange",
    "RatingIn",
    "RatingPoint",
    "ResultIn",
    "ResultRow",
    "SeatIn",
    "SeatRow",
    "SeatsChanged",
    "SequenceConflict",
    "SqliteStore",
    "Store",
    "StoreError",
    "StoreUnavailable",
    "TableNotFound",
    "TableRow",
    "TableStateError",
    "TableStatus",
    "TargetNotEmpty",
    "is_postgres_url",
    "open_store",
    "season_bounds",
    "season_of",
]
