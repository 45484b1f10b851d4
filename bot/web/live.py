"""The live table: its page, its feed (server-sent events: one frame per stored change, the page's main part
as HTML, made once per state and language for every viewer) and its picture."""

from __future__ import annotations

import asyncio
import contextlib
import json
from html import escape

from aiohttp import web

from bot.i18n import t
from bot.render.pictures.labels import player_name
from bot.sessions.view import table_info
from bot.web import html, inputs, metrics
from bot.web.base import PageBase
from bot.web.feed import Watched
from bot.web.guard import Refusal, address_of
from bot.web.links import TABLE
from bot.web.shown import table_picture, table_view

KEEPALIVE = 15.0  # seconds between a live feed's comments (proxies close silent connections)
PICTURES_KEPT = 256  # tables and languages whose newest picture is kept
FRAMES_KEPT = 512  # tables and languages whose newest frame is kept


class LivePages(PageBase):
    async def _watched(self, request: web.Request) -> Watched:
        table_id = self._id(request, TABLE)
        watched = await self.feed.current(table_id)
        if watched is None:
            raise Refusal("web.error.not_found", 404)
        await self._guild_on(watched.record.guild_id)
        return watched

    def _namer(self, watched: Watched, locale: str) -> html.Namer:
        info = table_info(watched.record)
        return lambda player: player_name(info, player, info.names, locale)

    # ---- the live table

    def _frame(self, watched: Watched, locale: str, link: str) -> str:
        """The page's main part for this state (made once per state and language, for every viewer; the
        newest state's only is kept)."""
        return self._made(watched, locale, link)[1]

    def _sse(self, watched: Watched, locale: str, link: str) -> bytes:
        """The live feed's frame of this state, encoded once for every viewer (200 viewers of a table write
        the same bytes, not 200 copies of them)."""
        return self._made(watched, locale, link)[2]

    def _made(self, watched: Watched, locale: str, link: str) -> tuple[int, str, bytes]:
        key = (watched.record.id, locale)
        kept = self._frames.get(key)
        if kept is None or kept[0] != watched.version:
            view = table_view(watched, locale=locale)
            picture = f"{link}/picture/{watched.version}.png?lang={locale}"
            has_picture = table_info(watched.record).pictures and watched.record.game is not None
            made = html.view_html(view, picture=picture if has_picture else None)
            if watched.record.status == "finished":
                replay = self.replay_url(watched.record.id)
                words = escape(t(locale, "web.replay.link"))
                made += f'<p class="next"><a href="{escape(replay)}">{words}</a></p>'
            data = json.dumps({
                "version": watched.version, "seq": watched.record.seq, "status": watched.record.status,
                "html": made,
            })  # fmt: skip
            event = f"id: {watched.version}\nevent: table\ndata: {data}\n\n".encode()
            kept = (watched.version, made, event)
            self._frames.pop(key, None)
            self._frames[key] = kept  # (the newest last: the oldest goes first)
            while len(self._frames) > FRAMES_KEPT:
                self._frames.popitem(last=False)
        return kept

    async def table_page(self, request: web.Request) -> web.Response:
        watched = await self._watched(request)
        locale = self._locale(request, watched.record.language)
        link = request.path
        metrics.PAGES.labels(TABLE).inc()
        frame = self._frame(watched, locale, link)
        ids = f'data-version="{watched.version}" data-seq="{watched.record.seq}"'
        body = f'<div id="table" {ids}>{frame}</div>'
        live, lost = t(locale, "web.live"), t(locale, "web.live_lost")
        data = {"live": f"{link}/live?lang={locale}", "lost": lost, "on": live}
        status = f'<p id="status" class="status">{escape(live)}</p>'
        if not watched.record.is_open:  # a finished (or cancelled) table: nothing more to follow
            data, status = {}, ""
        page = html.page(
            title=t(locale, "web.title.table", table=watched.record.id),
            body=status + body,
            locale=locale,
            data=data,
            script=True,
        )
        return web.Response(text=page, content_type="text/html", headers={"Cache-Control": "no-store"})

    async def table_live(self, request: web.Request) -> web.StreamResponse:
        watched = await self._watched(request)
        locale = self._locale(request, watched.record.language)
        sent = inputs.last_event_id(request.headers.get("Last-Event-ID"))  # before the 200: a 400 if odd
        link = request.path.removesuffix("/live")
        address = address_of(request)
        self.limits.open_live(address)
        task = asyncio.current_task()
        if task is not None:
            self._live.add(task)
            self.crowd.came(len(self._live))
        response = web.StreamResponse(
            headers={
                "Content-Type": "text/event-stream",
                "Cache-Control": "no-store",
                "X-Accel-Buffering": "no",
            }
        )
        try:
            with metrics.VIEWERS.track_inprogress():
                await response.prepare(request)
                async with self.feed.watch(watched.record.id) as changed:
                    while not self.closing.is_set():
                        current = self.feed.latest(watched.record.id) or watched
                        if current.version != sent:
                            await response.write(self._sse(current, locale, link))
                            sent = current.version
                            metrics.FRAMES.inc()
                        with contextlib.suppress(TimeoutError):
                            await asyncio.wait_for(changed.get(), KEEPALIVE)
                            continue
                        await response.write(b": still here\n\n")
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            self.limits.close_live(address)
            if task is not None:
                self._live.discard(task)
                self.crowd.left(len(self._live))  # the last of a crowd: memory given back
        return response

    async def table_png(self, request: web.Request) -> web.Response:
        watched = await self._watched(request)
        locale = self._locale(request, watched.record.language)
        self._number(request.match_info["version"], inputs.MAX_VERSION)
        key = (watched.record.id, locale)
        kept = self._pictures.get(key)
        if kept is None or kept[0] != watched.version:
            kept = (watched.version, await asyncio.to_thread(table_picture, watched, locale=locale))
            self._pictures.pop(key, None)
            self._pictures[key] = kept
            while len(self._pictures) > PICTURES_KEPT:
                self._pictures.popitem(last=False)
        return self._png(kept[1])
