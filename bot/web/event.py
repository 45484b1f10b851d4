"""A tournament's page: where the event stands as `/tournament show` words it (its standings, the round's
pairings, a knockout's bracket picture), in the reader's language, behind its signed link (`EVENT`).

Nothing hidden is on it: an event's records are public (who plays whom, the places, the points); the names
are the display names this process saw, as on the leaderboard page.
"""

from __future__ import annotations

from aiohttp import web

from bot.events import plan
from bot.i18n import t
from bot.render import tournament as words
from bot.render.common import Message, neutral
from bot.web import html, metrics
from bot.web.base import PageBase
from bot.web.guard import Refusal
from bot.web.links import EVENT


class EventPage(PageBase):
    def event_url(self, event: int) -> str:
        return self.base + self.signer.link(EVENT, event).path

    async def _event(self, request: web.Request) -> tuple[Message, str]:
        event = self._id(request, EVENT)
        row = await self.store.competition(event)
        if row is None:
            raise Refusal("web.error.not_found", 404)
        settings = await self.store.guild_settings(row.guild_id)
        if not settings.web:
            raise Refusal("web.error.off", 403)
        locale = self._locale(request, settings.language or str(row.options.get("language") or "en"))
        with neutral():  # the page draws the typed view's words
            return words.show_message(plan.board(row, self.names()), locale), locale

    async def event_page(self, request: web.Request) -> web.Response:
        message, locale = await self._event(request)
        known = self.names()
        namer: html.Namer = lambda player: known.get(player) or t(locale, "web.player", digits=player[-4:])  # noqa: E731
        picture = None if message.picture is None else f"{request.path}/picture.png?lang={locale}"
        metrics.PAGES.labels(EVENT).inc()
        page = html.page(
            title=t(locale, "web.title.event"), body=html.message_html(message, namer, picture=picture),
            locale=locale,
        )  # fmt: skip
        return web.Response(text=page, content_type="text/html", headers={"Cache-Control": "no-store"})

    async def event_png(self, request: web.Request) -> web.Response:
        message, _ = await self._event(request)
        response = self._png(message.picture)
        response.headers["Cache-Control"] = "no-store"  # the standings change with each finished match
        return response
