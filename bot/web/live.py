"""The live table: its page, its feed (server-sent events: one frame per stored change, the page's main part
as HTML, made once per state and language for every viewer) and its picture. Handlers (`bot.web.routes`)
reading what they share from the request's `Site`."""

from __future__ import annotations

import asyncio
import contextlib
import json

from aiohttp import web

from bot.i18n import t
from bot.sessions.view import table_info
from bot.web import inputs, metrics
from bot.web.feed import Watched
from bot.web.guard import Refusal, address_of
from bot.web.html import Markup, el, join, page, view_html
from bot.web.links import REPLAY, TABLE
from bot.web.shown import table_picture, table_view
from bot.web.site import SITE, Site, html_page, locale_of, number, png

KEEPALIVE = 15.0  # seconds between a live feed's comments (proxies close silent connections)


async def _watched(site: Site, request: web.Request) -> Watched:
    watched = await site.feed.current(site.linked(request, TABLE))
    if watched is None:
        raise Refusal("web.error.not_found", 404)
    await site.guild_on(watched.record.guild_id)
    return watched


def _made(site: Site, watched: Watched, locale: str, link: str) -> tuple[str, bytes]:
    """The page's main part for this state and the live feed's frame of it, each made once per state and
    language for every viewer (200 viewers of a table write the same bytes, not 200 copies of them); the
    newest state's only is kept."""
    key = (watched.record.id, locale)
    kept = site.frames.get(key, watched.version)
    if kept is not None:
        return kept
    view = table_view(watched, locale=locale)
    picture = f"{link}/picture/{watched.version}.png?lang={locale}"
    has_picture = table_info(watched.record).pictures and watched.record.game is not None
    made: Markup = view_html(view, picture=picture if has_picture else None)
    if watched.record.status == "finished":
        replay = el("a", t(locale, "web.replay.link"), href=site.url(REPLAY, watched.record.id))
        made = join([made, el("p", replay, class_="next")])
    data = json.dumps(
        {
            "version": watched.version,
            "seq": watched.record.seq,
            "status": watched.record.status,
            "html": made,
        }
    )
    event = f"id: {watched.version}\nevent: table\ndata: {data}\n\n".encode()
    return site.frames.put(key, watched.version, (made, event))


async def table_page(request: web.Request) -> web.Response:
    site = request.app[SITE]
    watched = await _watched(site, request)
    locale = locale_of(request, watched.record.language)
    link = request.path
    metrics.PAGES.labels(TABLE).inc()
    frame = Markup(_made(site, watched, locale, link)[0])
    table = el("div", frame, id="table", data_version=watched.version, data_seq=watched.record.seq)
    live = t(locale, "web.live")
    data = {"live": f"{link}/live?lang={locale}", "lost": t(locale, "web.live_lost"), "on": live}
    status: Markup | None = el("p", live, id="status", class_="status")
    if not watched.record.is_open:  # a finished (or cancelled) table: nothing more to follow
        data, status = {}, None
    title = t(locale, "web.title.table", table=watched.record.id)
    return html_page(page(title=title, body=join([status, table]), locale=locale, data=data, script=True))


async def table_live(request: web.Request) -> web.StreamResponse:
    site = request.app[SITE]
    watched = await _watched(site, request)
    locale = locale_of(request, watched.record.language)
    sent = inputs.last_event_id(request.headers.get("Last-Event-ID"))  # before the 200: a 400 if odd
    link = request.path.removesuffix("/live")
    address = address_of(request)
    site.limits.open_live(address)
    task = asyncio.current_task()
    if task is not None:
        site.live.add(task)
        site.crowd.came(len(site.live))
    response = web.StreamResponse(
        headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store", "X-Accel-Buffering": "no"}
    )
    try:
        with metrics.VIEWERS.track_inprogress():
            await response.prepare(request)
            async with site.feed.watch(watched.record.id) as changed:
                while not site.closing.is_set():
                    current = site.feed.latest(watched.record.id) or watched
                    if current.version != sent:
                        await response.write(_made(site, current, locale, link)[1])
                        sent = current.version
                        metrics.FRAMES.inc()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(changed.get(), KEEPALIVE)
                        continue
                    await response.write(b": still here\n\n")
    except (ConnectionResetError, asyncio.CancelledError):
        pass
    finally:
        site.limits.close_live(address)
        if task is not None:
            site.live.discard(task)
            site.crowd.left(len(site.live))  # the last of a crowd: memory given back
    return response


async def table_png(request: web.Request) -> web.Response:
    site = request.app[SITE]
    watched = await _watched(site, request)
    locale = locale_of(request, watched.record.language)
    number(request.match_info["version"], inputs.MAX_VERSION)
    key = (watched.record.id, locale)
    picture = site.pictures.get(key, watched.version)
    if picture is None:
        drawn = await asyncio.to_thread(table_picture, watched, locale=locale)
        picture = site.pictures.put(key, watched.version, drawn)
    return png(picture)
