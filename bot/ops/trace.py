"""The HTTP layer's part (an aiohttp `TraceConfig` handed to discord.py as `http_trace`): every REST request
on the bot's token passes the process's door (`bot.sessions.pacing.before_request`: the presenter's writes are
counted by their slot already, anything else waits here), and each request is counted for /metrics by route
and status; a 429 by its scope; an interaction's first answer gives its latency."""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from types import SimpleNamespace

import aiohttp

from bot.ops import metrics
from bot.sessions.pacing import Budget, after_request, before_request

ARRIVALS_KEPT = 60.0  # seconds an interaction waits for its answer to be measured (Discord allows 3 s)


class Answers:
    """When each interaction reached the bot (its `on_interaction`), until its first answer is measured."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._arrived: OrderedDict[int, tuple[float, str]] = OrderedDict()

    def arrived(self, interaction_id: int, kind: str) -> None:
        now = self.clock()
        self._arrived[interaction_id] = (now, kind)
        while self._arrived:  # never answered (or answered elsewhere): not kept for ever
            oldest, (at, _) = next(iter(self._arrived.items()))
            if now - at < ARRIVALS_KEPT:
                break
            del self._arrived[oldest]

    def answered(self, interaction_id: int) -> None:
        found = self._arrived.pop(interaction_id, None)
        if found is not None:
            at, kind = found
            metrics.ANSWER_SECONDS.labels(kind).observe(self.clock() - at)


def http_trace(door: Budget, answers: Answers) -> aiohttp.TraceConfig:
    trace = aiohttp.TraceConfig()

    async def on_start(
        session: aiohttp.ClientSession, ctx: SimpleNamespace, params: aiohttp.TraceRequestStartParams
    ) -> None:
        ctx.route = metrics.route_of(params.method, params.url.path)
        ctx.counted = False
        if ctx.route is not None and metrics.global_limited(ctx.route):
            ctx.counted = await before_request(door)

    def done(ctx: SimpleNamespace, response: aiohttp.ClientResponse | None, path: str) -> None:
        if getattr(ctx, "counted", False):
            after_request(door)
            ctx.counted = False
        route = getattr(ctx, "route", None)
        if route is None:
            return
        status = str(response.status) if response is not None else "failed"
        metrics.REQUESTS.labels(route, status).inc()
        if response is not None and response.status == 429:
            metrics.RATE_LIMITED.labels(route, response.headers.get("X-RateLimit-Scope", "user")).inc()
        if route.endswith("/callback") and response is not None and response.status < 300:
            parts = path.split("/")
            answers.answered(int(parts[parts.index("interactions") + 1]))

    async def on_end(
        session: aiohttp.ClientSession, ctx: SimpleNamespace, params: aiohttp.TraceRequestEndParams
    ) -> None:
        done(ctx, params.response, params.url.path)

    async def on_exception(
        session: aiohttp.ClientSession, ctx: SimpleNamespace, params: aiohttp.TraceRequestExceptionParams
    ) -> None:
        done(ctx, None, params.url.path)

    trace.on_request_start.append(on_start)
    trace.on_request_end.append(on_end)
    trace.on_request_exception.append(on_exception)
    return trace
