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
from bot.render.common import Message
from bot.web import metrics
from bot.web.board import known_names
from bot.web.guard import Refusal
from bot.web.html import message_html, page
from bot.web.links import EVENT
from bot.web.site import SITE, html_page, locale_of, png


async def _event(request: web.Request) -> tuple[Message, str]:
    site = request.app[SITE]
    event = site.linked(request, EVENT)
    row = await site.store.competition(event)
    if row is None:
        raise Refusal("web.error.not_found", 404)
    settings = await site.store.guild_settings(row.guild_id)
    if not settings.web:
        raise Refusal("web.error.off", 403)
    locale = locale_of(request, settings.language or str(row.options.get("language") or "en"))
    return words.show_message(plan.board(row, site.names()), locale), locale


async def event_page(request: web.Request) -> web.Response:
    message, locale = await _event(request)
    namer = known_names(request.app[SITE].names(), locale)
    picture = None if message.picture is None else f"{request.path}/picture.png?lang={locale}"
    metrics.PAGES.labels(EVENT).inc()
    body = message_html(message, namer, picture=picture)
    return html_page(page(title=t(locale, "web.title.event"), body=body, locale=locale))


async def event_png(request: web.Request) -> web.Response:
    message, _ = await _event(request)
    return png(message.picture, cache="no-store")  # the standings change with each finished match
