"""A server's leaderboard page: chips and ratings, the season's and all-time, as /leaderboard words them."""

from __future__ import annotations

from aiohttp import web

from bot.i18n import t
from bot.web import html, inputs, metrics
from bot.web.base import PageBase
from bot.web.guard import Refusal
from bot.web.links import BOARD
from bot.web.shown import board_view
from storage import ALL_TIME


class BoardPage(PageBase):
    # ---- the leaderboard

    async def board_page(self, request: web.Request) -> web.Response:
        guild_id = self._id(request, BOARD)
        settings = await self.store.guild_settings(guild_id)
        if not settings.web:
            raise Refusal("web.error.off", 403)
        locale = self._locale(request, settings.language or "en")
        season = request.query.get("season") or self.store.current_season()
        if season != ALL_TIME:
            season = inputs.season(season)
        message = await board_view(self.store, guild_id, season, settings.seasons == "monthly", locale=locale)
        known = self.names()
        namer: html.Namer = lambda player: known.get(player) or t(locale, "web.player", digits=player[-4:])  # noqa: E731
        metrics.PAGES.labels(BOARD).inc()
        page = html.page(
            title=t(locale, "web.title.board"), body=html.message_html(message, namer), locale=locale
        )
        return web.Response(text=page, content_type="text/html", headers={"Cache-Control": "no-store"})
