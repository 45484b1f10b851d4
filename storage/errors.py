"""The store's errors: each says what went wrong in words the caller can log or show."""

from __future__ import annotations


class StoreError(Exception):
    """Base of every error the store raises on purpose."""


class NewerDatabaseError(StoreError):
    """The database was written by a newer version of the bot; opening it could corrupt it."""

    def __init__(self, path: str, found: int, known: int) -> None:
        super().__init__(
            f"database {path} has schema version {found}, but this bot only knows versions up to {known}: "
            "upgrade the bot (or point it at another database); the database was left untouched"
        )
        self.found = found
        self.known = known


class TableNotFound(StoreError):
    def __init__(self, table_id: int) -> None:
        super().__init__(f"no table {table_id}")
        self.table_id = table_id


class TableStateError(StoreError):
    """The table is not in a status that allows this operation (e.g. an action on a finished table)."""

    def __init__(self, table_id: int, status: str, operation: str) -> None:
        super().__init__(f"table {table_id} is {status}: cannot {operation}")
        self.table_id = table_id
        self.status = status


class SequenceConflict(StoreError):
    """A stale writer: the expected sequence number is not the table's next one. Nothing was written."""

    def __init__(self, table_id: int, expected: int, actual: int) -> None:
        super().__init__(f"table {table_id}: expected action {expected} but the next action is {actual}")
        self.table_id = table_id
        self.expected = expected
        self.actual = actual


class SeatsChanged(StoreError):
    """A stale seat change: the table's seats are not the ones the caller saw (another process changed them
    first, during a rolling restart's overlap). Nothing was written."""

    def __init__(self, table_id: int, expected: list[str], actual: list[str]) -> None:
        super().__init__(f"table {table_id}: expected seats {expected} but the table has {actual}")
        self.table_id = table_id


class ChannelBusy(StoreError):
    """The channel already has a table in the lobby or running (one active table per channel)."""

    def __init__(self, channel_id: int, table_id: int | None) -> None:
        super().__init__(f"channel {channel_id} already has an active table ({table_id})")
        self.channel_id = channel_id
        self.table_id = table_id


class StoreUnavailable(StoreError):
    """The database cannot be reached or refuses us (a PostgreSQL server down, a wrong password, no such
    database). The message names the server without the password."""


class TargetNotEmpty(StoreError):
    """A copy into a database that already holds data: refused, so nothing is ever merged or overwritten."""
