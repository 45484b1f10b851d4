"""The web server inside the bot process (aiohttp, which discord.py brings: one event loop with the bot, no
second framework), off until WEB_PORT is set.

Pages (each behind its signed link, `bot.web.links`):
- `/table/<id>/<until>/<sig>`: a table, live; `.../live` its feed (server-sent events: one frame per stored
  change, the page's main part as HTML), `.../picture/<version>.png` its picture;
- `/replay/<id>/<until>/<sig>?step=n`: a finished table, step by step; `.../step/<n>` one step's part (JSON),
  `.../picture/<n>.png` its picture;
- `/board/<guild>/<until>/<sig>`: a server's leaderboard;
- `/static/...`: the page's style and script. Nothing else: no index, no listing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from html import escape
from pathlib import Path
from typing import Any

from aiohttp import web

from bot.i18n import LANGUAGES, t
from bot.render.common import Button, Message, Picture
from bot.render.pictures.labels import player_name
from bot.sessions.errors import NotAllowed
from bot.sessions.records import TableRecord
from bot.sessions.replay import Replays
from bot.sessions.view import table_info
from bot.web import html, metrics
from bot.web.feed import Feed, Watched
from bot.web.guard import MAX_BODY, Limits, Refusal, address_of, guard
from bot.web.links import BOARD, REPLAY, TABLE, Refused, Signer
from bot.web.shown import board_view, replay_step, table_picture, table_view
from storage import ALL_TIME
from storage.contract import Store

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
KEEPALIVE = 15.0  # seconds between a live feed's comments (proxies close silent connections)
PICTURES_KEPT = 256
FRAMES_KEPT = 512
MAX_STEP = 100_000
SETTING_FOR = 10.0  # seconds a server's on/off is trusted for its links


def _accepted(header: str) -> str | None:
    """The first of our languages the browser asks for (`Accept-Language`, by its q values)."""
    wanted = []
    for i, part in enumerate(header.split(",")[:16]):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                continue
        language = tag.strip().split("-", 1)[0].lower()
        if language in LANGUAGES and q > 0:
            wanted.append((-q, i, language))
    return min(wanted)[2] if wanted else None


class WebServer:
    def __init__(
        self,
        store: Store,
        feed: Feed,
        replays: Replays,
        signer: Signer,
        *,
        host: str,
        port: int,
        public_url: str | None,
        names: Callable[[], dict[str, str]] = dict,
        public_language: Callable[[int], object] | None = None,
        limits: Limits | None = None,
    ) -> None:
        self.store = store
        self.feed = feed
        self.replays = replays
        self.signer = signer
        self.host = host
        self.port = port
        self.public_url = public_url
        self.names = names  # display names this process saw (the leaderboard's people)
        self.limits = limits or Limits()
        self._runner: web.AppRunner | None = None
        self._pictures: OrderedDict[tuple[int, int, str], Picture | None] = OrderedDict()
        self._frames: OrderedDict[tuple[int, int, str], str] = OrderedDict()
        self._live: set[asyncio.Task[None]] = set()
        self.closing = asyncio.Event()
        self._web_on: dict[int, tuple[bool, float]] = {}

    # ---- links (what the bot posts)

    @property
    def base(self) -> str:
        return self.public_url or f"http://{self.host}:{self.port}"

    def table_url(self, table_id: int) -> str:
        return self.base + self.signer.link(TABLE, table_id).path

    def replay_url(self, table_id: int) -> str:
        return self.base + self.signer.link(REPLAY, table_id).path

    def board_url(self, guild_id: int) -> str:
        return self.base + self.signer.link(BOARD, guild_id).path

    async def buttons(self, record: TableRecord, locale: object) -> list[Button]:
        """The table message's link (`bot.sessions.links`): Watch while it plays, the replay once finished;
        none for a game outside a server (a DM's) or a server that turned its pages off."""
        if record.guild_id == 0 or not await self.web_on(record.guild_id):
            return []
        if record.status == "finished":
            url, label = self.replay_url(record.id), t(locale, "web.button.replay")
        elif record.status in ("lobby", "running"):
            url, label = self.table_url(record.id), t(locale, "web.button.watch")
        else:
            return []
        return [Button(label=label, url=url, style="link")]

    async def link_to(self, kind: str, ident: int, guild_id: int, locale: object) -> Button | None:
        """A link button to the replay (`REPLAY`, of table `ident`) or the leaderboard (`BOARD`, of server
        `ident`) for /history and /leaderboard; None outside a server or with the server's pages off."""
        if guild_id == 0 or not await self.web_on(guild_id):
            return None
        if kind == REPLAY:
            return Button(label=t(locale, "web.button.replay"), url=self.replay_url(ident), style="link")
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
        middleware: Any = guard(self.limits, self._refused)  # aiohttp's own decorator marks it
        app = web.Application(middlewares=[middleware], client_max_size=MAX_BODY)
        link = "/{id}/{until}/{sig}"
        app.router.add_get("/table" + link, self.table_page)
        app.router.add_get("/table" + link + "/live", self.table_live)
        app.router.add_get("/table" + link + "/picture/{version}.png", self.table_png)
        app.router.add_get("/replay" + link, self.replay_page)
        app.router.add_get("/replay" + link + "/step/{step}", self.replay_part)
        app.router.add_get("/replay" + link + "/picture/{step}.png", self.replay_png)
        app.router.add_get("/board" + link, self.board_page)
        app.router.add_get("/static/{name}", self.static)
        runner = web.AppRunner(app, access_log=None, handler_cancellation=True)
        await runner.setup()
        site = web.TCPSite(runner, self.host, self.port)
        try:
            await site.start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        if self.port == 0:
            sockets = getattr(site._server, "sockets", None)
            if sockets:
                self.port = sockets[0].getsockname()[1]
        await self.feed.start()

    async def close(self) -> None:
        self.closing.set()
        for task in list(self._live):
            task.cancel()
        await self.feed.close()
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()

    # ---- common

    def _refused(self, request: web.Request, refusal: Refusal) -> web.Response:
        locale = self._locale(request, "en", strict=False)
        sentence = t(locale, refusal.key, **refusal.params)
        metrics.REFUSED.labels(str(refusal.status)).inc()
        headers = {"Cache-Control": "no-store"}
        if refusal.retry_after is not None:
            headers["Retry-After"] = str(refusal.retry_after)
        if request.path.endswith(("/live", ".png")) or "/step/" in request.path:
            return web.json_response({"error": sentence}, status=refusal.status, headers=headers)
        return web.Response(
            text=html.error_page(refusal.status, sentence, locale), status=refusal.status,
            content_type="text/html", headers=headers,
        )  # fmt: skip

    def _locale(self, request: web.Request, fallback: object, *, strict: bool = True) -> str:
        """The reader's language: `?lang=`, else the browser's, else the server's (the table's public one)."""
        asked = request.query.get("lang")
        if asked is not None:
            if asked in LANGUAGES:
                return asked
            if strict:
                raise Refusal(400, "web.error.language", languages=", ".join(LANGUAGES))
        browser = _accepted(request.headers.get("Accept-Language", ""))
        if browser is not None:
            return browser
        return fallback if isinstance(fallback, str) and fallback in LANGUAGES else "en"

    def _id(self, request: web.Request, kind: str) -> int:
        info = request.match_info
        try:
            return self.signer.check(kind, info["id"], info["until"], info["sig"])
        except Refused as refused:
            raise Refusal(refused.status, refused.key) from None

    async def _guild_on(self, guild_id: int) -> None:
        if guild_id and not (await self.store.guild_settings(guild_id)).web:
            raise Refusal(403, "web.error.off")

    async def _watched(self, request: web.Request) -> Watched:
        table_id = self._id(request, TABLE)
        watched = await self.feed.current(table_id)
        if watched is None:
            raise Refusal(404, "web.error.not_found")
        await self._guild_on(watched.record.guild_id)
        return watched

    @staticmethod
    def _number(text: str, most: int) -> int:
        if not text.isdigit() or len(text) > 7 or int(text) > most:
            raise Refusal(400, "web.error.number")
        return int(text)

    def _namer(self, watched: Watched, locale: str) -> html.Namer:
        info = table_info(watched.record)
        return lambda player: player_name(info, player, info.names, locale)

    # ---- the live table

    def _frame(self, watched: Watched, locale: str, link: str) -> str:
        """The page's main part for this state (made once per state and language, for every viewer)."""
        key = (watched.record.id, watched.version, locale)
        made = self._frames.get(key)
        if made is None:
            message = table_view(watched, locale=locale)
            picture = f"{link}/picture/{watched.version}.png?lang={locale}"
            has_picture = table_info(watched.record).pictures and watched.record.game is not None
            made = html.message_html(
                message, self._namer(watched, locale), picture=picture if has_picture else None
            )
            if watched.record.status == "finished":
                replay = self.replay_url(watched.record.id)
                words = escape(t(locale, "web.replay.link"))
                made += f'<p class="next"><a href="{escape(replay)}">{words}</a></p>'
            self._frames[key] = made
            while len(self._frames) > FRAMES_KEPT:
                self._frames.popitem(last=False)
        return made

    async def table_page(self, request: web.Request) -> web.Response:
        watched = await self._watched(request)
        locale = self._locale(request, watched.record.language)
        link = request.path
        metrics.PAGES.labels(TABLE).inc()
        body = f'<div id="table" data-version="{watched.version}">{self._frame(watched, locale, link)}</div>'
        status = f'<p id="status" class="status">{escape(t(locale, "web.live"))}</p>'
        page = html.page(
            title=t(locale, "web.title.table", table=watched.record.id), body=status + body, locale=locale,
            data={"live": f"{link}/live?lang={locale}", "lost": t(locale, "web.live_lost"),
                  "on": t(locale, "web.live")},
            script=True,
        )  # fmt: skip
        return web.Response(text=page, content_type="text/html", headers={"Cache-Control": "no-store"})

    async def table_live(self, request: web.Request) -> web.StreamResponse:
        watched = await self._watched(request)
        locale = self._locale(request, watched.record.language)
        link = request.path.removesuffix("/live")
        address = address_of(request)
        self.limits.open_live(address)
        task = asyncio.current_task()
        if task is not None:
            self._live.add(task)
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
                    sent = (
                        int(request.headers.get("Last-Event-ID", "0") or 0)
                        if request.headers.get("Last-Event-ID", "").isdigit()
                        else 0
                    )
                    while not self.closing.is_set():
                        current = self.feed._watched.get(watched.record.id, watched)
                        if current.version != sent:
                            frame = json.dumps({
                                "version": current.version, "seq": current.record.seq,
                                "status": current.record.status,
                                "html": self._frame(current, locale, link),
                            })  # fmt: skip
                            await response.write(
                                f"id: {current.version}\nevent: table\ndata: {frame}\n\n".encode()
                            )
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
        return response

    async def table_png(self, request: web.Request) -> web.Response:
        watched = await self._watched(request)
        locale = self._locale(request, watched.record.language)
        self._number(request.match_info["version"], 2**62)
        key = (watched.record.id, watched.version, locale)
        if key not in self._pictures:
            self._pictures[key] = await asyncio.to_thread(table_picture, watched, locale=locale)
            while len(self._pictures) > PICTURES_KEPT:
                self._pictures.popitem(last=False)
        return self._png(self._pictures[key])

    @staticmethod
    def _png(picture: Picture | None) -> web.Response:
        if picture is None:
            raise Refusal(404, "web.error.no_picture")
        return web.Response(
            body=picture.data, content_type="image/png", headers={"Cache-Control": "max-age=3600"}
        )

    # ---- the replay

    async def _step(self, request: web.Request, step: int) -> tuple[str, Message, str | None, int]:
        table_id = self._id(request, REPLAY)
        row = await self.store.get_table(table_id)
        if row is None:
            raise Refusal(404, "web.error.not_found")
        await self._guild_on(row.guild_id)
        if row.status != "finished":
            raise Refusal(409, "replay.not_finished")
        locale = self._locale(request, (row.meta or {}).get("language", "en"))
        try:
            viewer = await self.replays.step(table_id, step, guild_id=row.guild_id, locale=locale)
            replayed = await self.replays.replayed_table(table_id, row.guild_id)
        except NotAllowed as refused:
            raise Refusal(409, refused.key) from None
        step = min(step, replayed.last)
        entry = None
        if step > 0:
            history = await self.store.history(table_id)
            entry = history[step - 1] if step - 1 < len(history) else None
        shown = replay_step(viewer, row.kind, entry, replayed.last, locale=locale)
        info = table_info(replayed.record)
        namer: html.Namer = lambda player: player_name(info, player, info.names, locale)  # noqa: E731
        link = request.path.split("/step/")[0]
        picture = f"{link}/picture/{step}.png?lang={locale}" if shown.message.picture is not None else None
        part = ""
        if shown.action is not None:
            part += f'<div class="action">{html.markdown(shown.action, namer)}</div>'
        part += html.message_html(shown.message, namer, picture=picture)
        return locale, shown.message, part, shown.last

    async def replay_page(self, request: web.Request) -> web.Response:
        step = self._number(request.query.get("step", "0"), MAX_STEP)
        locale, _, part, last = await self._step(request, step)
        step = min(step, last)
        metrics.PAGES.labels(REPLAY).inc()
        labels = {nav: t(locale, f"replay.button.{nav}") for nav in ("first", "back", "forward", "last")}
        targets = {"first": 0, "back": max(step - 1, 0), "forward": min(step + 1, last), "last": last}
        buttons = "".join(
            f'<a class="button {nav}" data-nav="{nav}" href="?step={targets[nav]}&amp;lang={locale}"'
            f"{' aria-disabled=true' if targets[nav] == step else ''}>{escape(label)}</a>"
            for nav, label in labels.items()
        )
        body = (
            f'<nav class="steps">{buttons}</nav><p class="keys">{escape(t(locale, "web.replay.keys"))}</p>'
            f'<div id="step">{part}</div>'
        )
        page = html.page(
            title=t(locale, "web.title.replay", table=self._id(request, REPLAY)), body=body, locale=locale,
            data={"step": str(step), "last": str(last), "lang": locale, "base": request.path},
            script=True,
        )  # fmt: skip
        return web.Response(text=page, content_type="text/html", headers={"Cache-Control": "no-store"})

    async def replay_part(self, request: web.Request) -> web.Response:
        step = self._number(request.match_info["step"], MAX_STEP)
        _, _, part, last = await self._step(request, step)
        metrics.PAGES.labels("replay_step").inc()
        return web.json_response({"step": min(step, last), "last": last, "html": part})

    async def replay_png(self, request: web.Request) -> web.Response:
        step = self._number(request.match_info["step"], MAX_STEP)
        _, message, _, _ = await self._step(request, step)
        return self._png(message.picture)

    # ---- the leaderboard

    async def board_page(self, request: web.Request) -> web.Response:
        guild_id = self._id(request, BOARD)
        settings = await self.store.guild_settings(guild_id)
        if not settings.web:
            raise Refusal(403, "web.error.off")
        locale = self._locale(request, settings.language or "en")
        season = request.query.get("season") or self.store.current_season()
        if season != ALL_TIME and (
            len(season) != 7 or not season[:4].isdigit() or season[4] != "-" or not season[5:].isdigit()
        ):
            raise Refusal(400, "web.error.season")
        message = await board_view(self.store, guild_id, season, settings.seasons == "monthly", locale=locale)
        known = self.names()
        namer: html.Namer = lambda player: known.get(player) or t(locale, "web.player", digits=player[-4:])  # noqa: E731
        metrics.PAGES.labels(BOARD).inc()
        page = html.page(
            title=t(locale, "web.title.board"), body=html.message_html(message, namer), locale=locale
        )
        return web.Response(text=page, content_type="text/html", headers={"Cache-Control": "no-store"})

    # ---- static

    async def static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in ("web.js", "web.css"):
            raise Refusal(404, "web.error.not_found")
        kind = "application/javascript" if name.endswith(".js") else "text/css"
        return web.Response(
            body=(STATIC / name).read_bytes(), content_type=kind, headers={"Cache-Control": "max-age=3600"}
        )
