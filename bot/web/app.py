"""The web server's application, put together as aiohttp lays one out: the shared `Site` stored under its
`web.AppKey`, the routes of `bot.web.routes`, the guard as middleware, the pages' headers as a response
hook, and what must stop as the application stops:

- `on_shutdown`: the live feeds and the Activity's long polls end (they would hold the server's shutdown);
- `cleanup_ctx`: the feed (started as the application starts, closed as it stops), the refusal log's
  summaries (flushed every `quiet.WINDOW` seconds, and once more as it stops), the Activity's session with
  Discord. Stopping the application (`AppRunner.cleanup`) stops all of it.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
from collections.abc import AsyncIterator
from typing import Any

from aiohttp import web

from bot.i18n import t
from bot.web import activity, html, metrics, routes
from bot.web.guard import API, MAX_BODY, Refusal, guard
from bot.web.quiet import WINDOW
from bot.web.site import SITE, Site, locale_of

# Every answer: nothing but our own script and style runs on a page (the board's colour is an inline style),
# no page in another site's frame, no address of ours sent on.
HEADERS = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def make_app(site: Site) -> web.Application:
    middleware: Any = guard(site.limits, refused, site.refusals)  # aiohttp's decorator marks it
    app = web.Application(middlewares=[middleware], client_max_size=MAX_BODY)
    app[SITE] = site
    app.on_response_prepare.append(_protected)
    app.add_routes(routes.PAGES)
    app.on_shutdown.append(_stop_waiting)
    app.cleanup_ctx.append(_feed)
    app.cleanup_ctx.append(_refusal_summaries)
    if site.activity is not None:  # the game as a Discord Activity (bot/web/activity.py)
        app[activity.ACTIVITY] = site.activity
        app.on_response_prepare.append(activity.framed_by_discord)  # after the pages' own headers
        app.add_routes(routes.ACTIVITY)
        app.cleanup_ctx.append(_activity)
    return app


async def _protected(request: web.Request, response: web.StreamResponse) -> None:
    response.headers.update(HEADERS)


# ---- what must stop


async def _stop_waiting(app: web.Application) -> None:
    site = app[SITE]
    site.closing.set()
    for task in list(site.live):
        task.cancel()
    if site.activity is not None:
        site.activity.stop_waiting()


async def _feed(app: web.Application) -> AsyncIterator[None]:
    feed = app[SITE].feed
    await feed.start()
    yield
    await feed.close()


async def _refusal_summaries(app: web.Application) -> AsyncIterator[None]:
    """The counts of refusals not logged one by one, logged once their window is over even if the address
    is not refused again (`quiet.RefusalLog.flush`), and every count left as the server stops."""
    refusals = app[SITE].refusals

    async def flushing() -> None:
        while True:
            await asyncio.sleep(WINDOW)
            refusals.flush()

    task = asyncio.create_task(flushing())
    yield
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
    refusals.flush(everything=True)


async def _activity(app: web.Application) -> AsyncIterator[None]:
    yield
    await app[activity.ACTIVITY].close()


# ---- refusals


def refused(request: web.Request, refusal: Refusal) -> web.Response:
    """A refusal's one sentence in the reader's language, as a page (or JSON for the page's script); its body
    is made once per sentence and language (a flood of 429s costs no wording)."""
    locale = locale_of(request, "en", strict=False)
    script = request.path.endswith(("/live", ".png")) or "/step/" in request.path or API in request.path
    body = _refusal_body(refusal.key, refusal.status, locale, tuple(sorted(refusal.params.items())), script)
    metrics.REFUSED.labels(str(refusal.status)).inc()
    headers = {"Cache-Control": "no-store"}
    if refusal.retry_after is not None:
        headers["Retry-After"] = str(refusal.retry_after)
    kind = "application/json" if script else "text/html"
    return web.Response(body=body, status=refusal.status, content_type=kind, charset="utf-8", headers=headers)


@functools.lru_cache(maxsize=256)
def _refusal_body(
    key: str, status: int, locale: str, params: tuple[tuple[str, Any], ...], script: bool
) -> bytes:
    sentence = t(locale, key, **dict(params))
    if script:
        return json.dumps({"error": sentence}).encode()
    return html.error_page(status, sentence, locale).encode()
