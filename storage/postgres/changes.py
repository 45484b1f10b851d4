"""Hearing of tables stored by any process: LISTEN on `cardtable_tables`, whose notifications the trigger of
migration 11 sends at each commit that stored a table's game, session state or status (payload: its id).

One connection of its own, outside the pool (a listening connection must stay open). A lost connection is
opened again after a pause, and `changed(0)` then says "anything may have changed meanwhile" (notifications
sent while nobody listened are gone): the listener reloads whatever it shows.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

import asyncpg

from storage.common import redact
from storage.errors import StoreUnavailable

log = logging.getLogger(__name__)

CHANNEL = "cardtable_tables"
CONNECT_TIMEOUT = 10.0
RETRY_AFTER = 1.0  # seconds before a lost listening connection is opened again


class PostgresTableChanges:
    def __init__(self, url: str, changed: Callable[[int], None]) -> None:
        self._url = url
        self._changed = changed
        self._conn: asyncpg.Connection | None = None
        self._watch: asyncio.Task[None] | None = None
        self._closed = False

    @classmethod
    async def open(cls, url: str, changed: Callable[[int], None]) -> PostgresTableChanges:
        changes = cls(url, changed)
        try:
            await changes._listen()
        except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as e:
            raise StoreUnavailable(f"cannot listen on {redact(url)}: {e}") from e
        changes._watch = asyncio.create_task(changes._keep())
        return changes

    async def _listen(self) -> None:
        conn = await asyncpg.connect(self._url, timeout=CONNECT_TIMEOUT)
        await conn.add_listener(CHANNEL, self._heard)
        self._conn = conn

    def _heard(self, conn: object, pid: int, channel: str, payload: str) -> None:
        if payload.isdigit():
            self._changed(int(payload))

    async def _keep(self) -> None:
        """Open the connection again whenever it is lost."""
        while not self._closed:
            await asyncio.sleep(RETRY_AFTER)
            if self._conn is not None and not self._conn.is_closed():
                continue
            try:
                await self._listen()
            except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as e:
                log.warning("listening for stored tables: %s; trying again", e)
                continue
            self._changed(0)

    async def close(self) -> None:
        self._closed = True
        if self._watch is not None:
            self._watch.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watch
        if self._conn is not None:
            with contextlib.suppress(Exception):
                await self._conn.close()
