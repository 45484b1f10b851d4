"""The web server inside the bot process (aiohttp, which discord.py brings: one event loop with the bot, no
second framework), off until WEB_PORT is set.

Pages (each behind its signed link, `bot.web.links`):
- `/table/<id>/<until>/<sig>`: a table, live; `.../live` its feed (server-sent events: one frame per stored
  change, the page's main part as HTML), `.../picture/<version>.png` its picture;
- `/replay/<id>/<until>/<sig>?step=n`: a finished table, step by step; `.../step/<n>` one step's part (JSON),
  `.../picture/<n>.png` its picture;
- `/board/<guild>/<until>/<sig>`: a server's leaderboard;
- `/event/<id>/<until>/<sig>`: a tournament's standings, pairings and bracket; `.../picture.png` its picture;
- `/static/...`: the page's style and script. Nothing else: no index, no listing.
"""

from __future__ import annotations

import functools
import json
import logging
import time
from pathlib import Path
from typing import Any

from aiohttp import web

from bot.i18n import t
from bot.ops.server import serve
from bot.render.common import Button, PageLinks
from bot.sessions.records import TableRecord
from bot.web import html, metrics
from bot.web.board import BoardPage
from bot.web.event import EventPage
from bot.web.guard import API, MAX_BODY, Refusal, guard
from bot.web.links import EVENT, REPLAY
from bot.web.live import LivePages
from bot.web.quiet import QuietRunner
from bot.web.replaying import ReplayPages

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
SETTING_FOR = 10.0  # seconds a server's on/off is trusted for its links
STATIC_FILES = {"web.js": "application/javascript", "web.css": "text/css", "favicon.svg": "image/svg+xml"}


# Every answer: nothing but our own script and style runs on a page (the board's colour is an inline style),
# no page in another site's frame, no address of ours sent on.
HEADERS = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


async def _protected(request: web.Request, response: web.StreamResponse) -> None:
    response.headers.update(HEADERS)


class WebServer(LivePages, ReplayPages, BoardPage, EventPage):
    """The pages (each role its own part: `live`, `replaying`, `board`, `event`), the links Discord posts to
    them, and the server's life."""

    async def pages(self, record: TableRecord) -> PageLinks | None:
        """The table's pages (`bot.sessions.links`): its live page while it is open or plays, its replay once
        finished, and the Activity; none for a game outside a server (a DM's) or a server that turned its
        pages off."""
        if record.guild_id == 0 or not await self.web_on(record.guild_id):
            return None
        if record.status == "finished":
            return PageLinks(replay=self.replay_url(record.id))
        if record.status in ("lobby", "running"):
            return PageLinks(watch=self.table_url(record.id), launch=self.activity is not None)
        return None

    async def link_to(self, kind: str, ident: int, guild_id: int, locale: object) -> Button | None:
        """A link button to the replay (`REPLAY`, of table `ident`), the leaderboard (`BOARD`, of server
        `ident`) or a tournament's page (`EVENT`) for /history, /leaderboard and /tournament show; None
        outside a server or with the server's pages off."""
        if guild_id == 0 or not await self.web_on(guild_id):
            return None
        if kind == REPLAY:
            return Button(label=t(locale, "web.button.replay"), url=self.replay_url(ident), style="link")
        if kind == EVENT:
            return Button(label=t(locale, "web.button.event"), url=self.event_url(ident), style="link")
        return Button(label=t(locale, "web.button.board"), url=self.board_url(ident), style="link")

    async def web_on(self, guild_id: int) -> bool:
        """Whether the server's pages are on, as read at most `SETTING_FOR` seconds ago (links only: the
        pages themselves read the setting at every request)."""
        now = time.monotonic()
        known = self._web_on.get(guild_id)
        if known is None or now - known[1] > SETTING_FOR:
            known = ((await self.store.guild_settings(guild_id)).web, now)
            self._web_on[guild_id] = known
        return known[0]

    # ---- life

    async def start(self) -> None:
        middleware: Any = guard(self.limits, self._refused, self.refusals)  # aiohttp's decorator marks it
        app = web.Application(middlewares=[middleware], client_max_size=MAX_BODY)
        app.on_response_prepare.append(_protected)
        link = "/{id}/{until}/{sig}"
        app.router.add_get("/table" + link, self.table_page)
        app.router.add_get("/table" + link + "/live", self.table_live)
        app.router.add_get("/table" + link + "/picture/{version}.png", self.table_png)
        app.router.add_get("/replay" + link, self.replay_page)
        app.router.add_get("/replay" + link + "/step/{step}", self.replay_part)
        app.router.add_get("/replay" + link + "/picture/{step}.png", self.replay_png)
        app.router.add_get("/board" + link, self.board_page)
        app.router.add_get("/event" + link, self.event_page)
        app.router.add_get("/event" + link + "/picture.png", self.event_png)
        app.router.add_get("/static/{name}", self.static)
        app.router.add_get("/favicon.ico", self.favicon)  # every browser asks for it, whatever the page says
        if self.activity is not None:  # the game as a Discord Activity (bot/web/activity.py)
            self.activity.install(app)
            app.router.add_get("/activity/favicon.ico", self.favicon)  # (Discord maps `/` to `/activity/`)
            # its table's picture (the result card once over): the live page's, where Discord's proxy maps
            app.router.add_get("/activity/table" + link + "/picture/{version}.png", self.table_png)
        runner = QuietRunner(app, self.refusals, access_log=None, handler_cancellation=True)
        self._runner, self.port = await serve(app, self.host, self.port, runner)  # the metrics server's way
        await self.feed.start()

    async def close(self) -> None:
        self.closing.set()
        if self.activity is not None:
            await self.activity.close()
        for task in list(self._live):
            task.cancel()
        await self.feed.close()
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()

    # ---- common

    def _refused(self, request: web.Request, refusal: Refusal) -> web.Response:
        """A refusal's one sentence in the reader's language, as a page (or JSON for the page's script); its
        body is made once per sentence and language (a flood of 429s costs no wording)."""
        locale = self._locale(request, "en", strict=False)
        script = request.path.endswith(("/live", ".png")) or "/step/" in request.path or API in request.path
        body = self._refusal_body(
            refusal.key, refusal.status, locale, tuple(sorted(refusal.params.items())), script
        )
        metrics.REFUSED.labels(str(refusal.status)).inc()
        headers = {"Cache-Control": "no-store"}
        if refusal.retry_after is not None:
            headers["Retry-After"] = str(refusal.retry_after)
        kind = "application/json" if script else "text/html"
        return web.Response(
            body=body, status=refusal.status, content_type=kind, charset="utf-8", headers=headers
        )

    @staticmethod
    @functools.lru_cache(maxsize=256)
    def _refusal_body(
        key: str, status: int, locale: str, params: tuple[tuple[str, Any], ...], script: bool
    ) -> bytes:
        sentence = t(locale, key, **dict(params))
        if script:
            return json.dumps({"error": sentence}).encode()
        return html.error_page(status, sentence, locale).encode()

    # ---- static

    async def static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        kind = STATIC_FILES.get(name)
        if kind is None:
            raise Refusal("web.error.not_found", 404)
        return web.Response(
            body=(STATIC / name).read_bytes(), content_type=kind, headers={"Cache-Control": "max-age=3600"}
        )

    async def favicon(self, request: web.Request) -> web.Response:
        return web.Response(
            body=(STATIC / "favicon.svg").read_bytes(), content_type="image/svg+xml",
            headers={"Cache-Control": "max-age=86400"},
        )  # fmt: skip
