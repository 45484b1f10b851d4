"""What a running bot process offers its operator, and what it agrees with the other processes of its token:

- the token's global budget across processes (`Operations.door`: this process's share, `bot.sessions.share`);
- the HTTP layer's part (`trace`): every REST request passes the door and is counted;
- /metrics and /healthz (`server`), on when METRICS_PORT is set; the metrics themselves in `metrics`, the
  store timed by `timed`; the Discord side of the readings in `cogs/ops.py`;
- the token's shape, checked offline by `cardtable-bot check` (`token`).

`cardtable-bot run` starts one `Operations` before the bot connects and closes it after the bot closed.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import secrets
import socket
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

from bot.config import Settings
from bot.sessions.pacing import GLOBAL_PERIOD, GLOBAL_REQUESTS, Budget
from bot.sessions.share import FixedShare, LeasedShare
from storage import Store

if TYPE_CHECKING:
    import aiohttp

    from bot.ops.metrics import BotReadings
    from bot.ops.server import MetricsServer
    from bot.ops.trace import Answers

log = logging.getLogger(__name__)

HEALTH_TIMEOUT = 2.0  # seconds the database has to answer a health check


class OpsUnavailable(Exception):
    """The process cannot offer what its settings ask (a metrics port taken); one sentence."""


def token_key(token: str) -> str:
    """What the lease rows call the token: a hash, so the database never holds the token."""
    return hashlib.sha256(token.encode()).hexdigest()[:32]


def process_name() -> str:
    """This process among the token's: host and pid (every container's bot is pid 1) and a random part (a
    restarted process is a new one)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


@dataclass
class Operations:
    settings: Settings
    store: Store  # the store the bot uses (timed when metrics are on)
    share: FixedShare | LeasedShare
    door: Budget
    answers: Answers | None = None  # interaction arrivals, when metrics are on
    server: MetricsServer | None = None
    # Told by cogs/ops.py once the bot is built (`hear_gateway`): whether every shard's gateway is connected.
    gateway: Callable[[], bool] | None = field(default=None, init=False)
    readings: BotReadings | None = field(default=None)

    def hear_gateway(self, connected: Callable[[], bool] | None) -> None:
        """The bot's own answer to "is every shard's gateway connected" (None: no bot to ask: unhealthy).
        Installed by the operator cog when it loads and taken away when it unloads, as a pair."""
        self.gateway = connected

    @classmethod
    async def start(cls, settings: Settings, store: Store, token: str) -> Operations:
        """The share (joined now, with PostgreSQL), and the metrics server if METRICS_PORT is set. Raises
        OpsUnavailable (a port taken) or StoreUnavailable (the lease's connection)."""
        share: FixedShare | LeasedShare = FixedShare()
        if settings.database_url is not None:
            from storage.postgres.leases import PostgresLeases

            leases = await PostgresLeases.open(settings.database(), token_key(token), process_name())
            share = LeasedShare(leases)
            await share.start()
        ops = cls(settings, store, share, Budget(share.limit, GLOBAL_PERIOD))
        try:
            if settings.metrics_port is not None:
                await ops._serve(settings.metrics_host, settings.metrics_port)
        except BaseException:
            await share.close()
            raise
        if isinstance(share, LeasedShare):
            log.info(
                "rate budget: %d requests per second shared with the token's other processes through the "
                "database (%d sharing now)",
                GLOBAL_REQUESTS,
                share.processes(),
            )
        return ops

    async def _serve(self, host: str, port: int) -> None:
        from bot.ops.server import MetricsServer
        from bot.ops.timed import TimedStore
        from bot.ops.trace import Answers

        server = MetricsServer(host, port, self.health)
        try:
            await server.start()
        except OSError as exc:
            raise OpsUnavailable(
                f"cannot serve metrics on {host}:{port} ({exc.strerror or exc}): choose another "
                "METRICS_PORT (or METRICS_HOST)"
            ) from None
        self.server = server
        self.answers = Answers()
        self.store = cast(Store, TimedStore(self.store))
        log.info("metrics at http://%s:%d/metrics, health at /healthz", host, server.port)

    def trace(self) -> aiohttp.TraceConfig:
        """For discord.py (`http_trace`): its requests pass the door and are counted."""
        from bot.ops.trace import Answers, http_trace

        return http_trace(self.door, self.answers or Answers())

    async def health(self) -> tuple[bool, str]:
        """Healthy while every shard's gateway is connected and the database answers."""
        connected = self.gateway is not None and self.gateway()
        try:
            await asyncio.wait_for(self.store.guild_language(0), HEALTH_TIMEOUT)  # a primary-key read
            answers = True
        except Exception:
            answers = False
        healthy = connected and answers
        problems = [("gateway not connected", not connected), ("database not answering", not answers)]
        return healthy, "ok" if healthy else "; ".join(part for part, bad in problems if bad)

    async def close(self) -> None:
        """After the bot closed: stop serving, give the share back."""
        if self.server is not None:
            await self.server.close()
        await self.share.close()
