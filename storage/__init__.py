"""Durable storage on SQLite: tables, seats, the action log, the chip ledger and results. Discord-free."""

from storage.errors import (
    ChannelBusy,
    NewerDatabaseError,
    SequenceConflict,
    StoreError,
    TableNotFound,
    TableStateError,
)
from storage.models import (
    ActionRow,
    HistoryEntry,
    KindStats,
    LeaderboardRow,
    LedgerIn,
    LedgerRow,
    PlayerStats,
    ResultIn,
    ResultRow,
    SeatIn,
    SeatRow,
    TableRow,
    TableStatus,
)
from storage.store import Store

__all__ = [
    "ActionRow",
    "ChannelBusy",
    "HistoryEntry",
    "KindStats",
    "LeaderboardRow",
    "LedgerIn",
    "LedgerRow",
    "NewerDatabaseError",
    "PlayerStats",
    "ResultIn",
    "ResultRow",
    "SeatIn",
    "SeatRow",
    "SequenceConflict",
    "Store",
    "StoreError",
    "TableNotFound",
    "TableRow",
    "TableStateError",
    "TableStatus",
]
