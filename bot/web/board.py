"""A server's leaderboard page: chips and ratings, the season's and all-time, as /leaderboard words them."""

from __future__ import annotations

from aiohttp import web

from bot.i18n import t
from bot.web import inputs, metrics
from bot.web.guard import Refusal
from bot.web.html import Namer, message_html, page
from bot.web.links import BOARD
from bot.web.shown import board_view
from bot.web.site import SITE, html_page, locale_of
from storage import ALL_TIME


def known_names(names: dict[str, str], locale: str) -> Namer:
    """People by the display names this process saw, else by the last digits of their id."""
    return lambda player: names.get(player) or t(locale, "web.player", digits=player[-4:])


async def board_page(request: web.Request) -> web.Response:
    site = request.app[SITE]
    guild_id = site.linked(request, BOARD)
    settings = await site.store.guild_settings(guild_id)
    if not settings.web:
        raise Refusal("web.error.off", 403)
    locale = locale_of(request, settings.language or "en")
    season = request.query.get("season") or site.store.current_season()
    if season != ALL_TIME:
        season = inputs.season(season)
    message = await board_view(site.store, guild_id, season, settings.seasons == "monthly", locale=locale)
    metrics.PAGES.labels(BOARD).inc()
    body = message_html(message, known_names(site.names(), locale))
    return html_page(page(title=t(locale, "web.title.board"), body=body, locale=locale))
