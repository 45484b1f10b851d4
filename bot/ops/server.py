"""The operator's endpoint, on aiohttp in the bot's own event loop: `/metrics` (Prometheus' text format) and
`/healthz` (200 while the gateway is connected and the database answers, 503 with the reason otherwise)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from aiohttp import web
from prometheus_client import REGISTRY
from prometheus_client.aiohttp import make_aiohttp_handler

# (healthy, one line saying why): asked at every /healthz
Health = Callable[[], Awaitable[tuple[bool, str]]]


async def serve(
    app: web.Application, host: str, port: int, runner: web.AppRunner | None = None
) -> tuple[web.AppRunner, int]:
    """`app` listening on host:port (0: any free port; the port taken is returned), through `runner` (the
    web pages' quiet one) or a plain one. Raises OSError when the port is taken or the address is not this
    machine's."""
    runner = runner or web.AppRunner(app, access_log=None, handler_cancellation=True)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    try:
        await site.start()
    except BaseException:
        await runner.cleanup()
        raise
    if port == 0:  # tests ask for any free port
        sockets = getattr(site._server, "sockets", None)
        if sockets:
            port = sockets[0].getsockname()[1]
    return runner, port


class MetricsServer:
    def __init__(self, host: str, port: int, health: Health) -> None:
        self.host = host
        self.port = port
        self._health = health
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        """Listen on host:port; raises OSError when the port is taken or the address is not this machine's."""
        app = web.Application()
        app.router.add_get("/metrics", make_aiohttp_handler(REGISTRY))
        app.router.add_get("/healthz", self._healthz)
        self._runner, self.port = await serve(app, self.host, self.port)

    async def _healthz(self, request: web.Request) -> web.Response:
        healthy, why = await self._health()
        return web.Response(status=200 if healthy else 503, text=why + "\n")

    async def close(self) -> None:
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()
