"""The lease rows through which the processes of one bot share its token's global rate budget
(`bot.sessions.share` holds the rules; this is only their SQL). One row per process: (token, process, beat).

Each renewal is one statement on a connection of its own (never queued behind the moves in the pool):
create this process's row or count its beat up, delete the rows given as long dead, and read every other row
of the token. Under READ COMMITTED the whole statement sees what was committed before it started, which is
what the rules rely on. No clock of the database is used.
"""

from __future__ import annotations

import asyncpg

from storage.common import redact
from storage.errors import StoreUnavailable
from storage.leases import Renewal

CONNECT_TIMEOUT = 10.0
STATEMENT_TIMEOUT = 5.0  # a renewal slower than this is useless anyway (it grants nothing after 1.5 s)

_RENEW = """
WITH me AS (
    INSERT INTO rate_leases AS l (token, process, beat) VALUES ($1, $2, 0)
    ON CONFLICT (token, process) DO UPDATE SET beat = l.beat + 1
    RETURNING l.beat
), forgotten AS (
    DELETE FROM rate_leases WHERE token = $1 AND process = ANY($3::text[]) AND process <> $2
)
SELECT NULL::text AS process, (SELECT beat FROM me) AS beat
UNION ALL
SELECT process, beat FROM rate_leases WHERE token = $1 AND process <> $2
"""


class PostgresLeases:
    """The lease rows of one token, renewed by `process`. `await PostgresLeases.open(url, token, process)`;
    a lost connection is opened again at the next renewal."""

    def __init__(self, url: str, token: str, process: str) -> None:
        self._url = url
        self.token = token
        self.process = process
        self._conn: asyncpg.Connection | None = None

    @classmethod
    async def open(cls, url: str, token: str, process: str) -> PostgresLeases:
        leases = cls(url, token, process)
        try:
            await leases._connection()
        except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as e:
            raise StoreUnavailable(f"cannot connect to {redact(url)}: {e}") from e
        return leases

    async def _connection(self) -> asyncpg.Connection:
        if self._conn is None or self._conn.is_closed():
            self._conn = await asyncpg.connect(self._url, timeout=CONNECT_TIMEOUT)
        return self._conn

    async def renew(self, forget: list[str]) -> Renewal:
        conn = await self._connection()
        try:
            rows = await conn.fetch(_RENEW, self.token, self.process, forget, timeout=STATEMENT_TIMEOUT)
        except (OSError, TimeoutError, asyncpg.InterfaceError, asyncpg.PostgresConnectionError):
            await self._drop()
            raise
        mine = next(r["beat"] for r in rows if r["process"] is None)
        return Renewal(
            joined=mine == 0, others={r["process"]: r["beat"] for r in rows if r["process"] is not None}
        )

    async def leave(self) -> None:
        conn = await self._connection()
        await conn.execute(
            "DELETE FROM rate_leases WHERE token = $1 AND process = $2",
            self.token,
            self.process,
            timeout=STATEMENT_TIMEOUT,
        )

    async def _drop(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            conn.terminate()

    async def close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            await conn.close()
