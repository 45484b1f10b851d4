"""What every page shares, as aiohttp shares it: one typed context, `Site`, stored in the application under
`SITE` (`web.AppKey`), which a handler reads from its request (`request.app[SITE]`); and the checks every
page makes of its request (its link, its numbers, the reader's language).

The routes are listed in `bot.web.routes`, the application is put together in `bot.web.app`.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

from aiohttp import web

from bot.i18n import LANGUAGES
from bot.render.common import Picture
from bot.sessions.replay import Replays
from bot.web import inputs
from bot.web.activity import Activity
from bot.web.feed import Feed
from bot.web.guard import Limits, Refusal
from bot.web.links import Signer
from bot.web.memory import Crowd
from bot.web.quiet import RefusalLog
from storage.contract import Store

PICTURES_KEPT = 256  # tables and languages whose newest picture is kept
FRAMES_KEPT = 512  # tables and languages whose newest live frame is kept
SETTING_FOR = 10.0  # seconds a server's on/off is trusted for its links

V = TypeVar("V")


class Newest(Generic[V]):
    """A table's newest made thing per language, `(table, language) -> (version, thing)`, for at most `most`
    of them: an older state's is never asked again (a feed and a page show the newest), so it goes when a
    newer one is made, and the least recently made go first."""

    def __init__(self, most: int) -> None:
        self.most = most
        self._kept: OrderedDict[tuple[int, str], tuple[int, V]] = OrderedDict()

    def get(self, key: tuple[int, str], version: int) -> V | None:
        kept = self._kept.get(key)
        return kept[1] if kept is not None and kept[0] == version else None

    def put(self, key: tuple[int, str], version: int, thing: V) -> V:
        self._kept.pop(key, None)
        self._kept[key] = (version, thing)  # (the newest last: the oldest goes first)
        while len(self._kept) > self.most:
            self._kept.popitem(last=False)
        return thing


class Site:
    """The parts the pages read (the store, the feed, the replays, the signer, the names this process saw),
    the bounds they keep, what they make once for every viewer, and where the server answers."""

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
        limits: Limits | None = None,
        activity: Activity | None = None,
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
        self.refusals = RefusalLog()  # one line per refused request (bot/web/quiet.py)
        self.activity = activity  # the Activity's page and API, when its settings are set
        self.pictures: Newest[Picture | None] = Newest(PICTURES_KEPT)
        self.frames: Newest[tuple[str, bytes]] = Newest(FRAMES_KEPT)  # (the HTML, the encoded event)
        self.live: set[asyncio.Task[None]] = set()  # the live feeds' handlers, stopped as the server stops
        self.crowd = Crowd()  # after a crowd of live viewers, memory given back (bot/web/memory.py)
        self.closing = asyncio.Event()
        self._web_on: dict[int, tuple[bool, float]] = {}

    def listening(self, port: int) -> None:
        """The port the server took (asked for 0: any free one)."""
        self.port = port

    # ---- links (what the bot posts)

    @property
    def base(self) -> str:
        return self.public_url or f"http://{self.host}:{self.port}"

    def url(self, kind: str, ident: int) -> str:
        return self.base + self.signer.link(kind, ident).path

    async def web_on(self, guild_id: int) -> bool:
        """Whether the server's pages are on, as read at most `SETTING_FOR` seconds ago (links only: the
        pages themselves read the setting at every request)."""
        now = time.monotonic()
        known = self._web_on.get(guild_id)
        if known is None or now - known[1] > SETTING_FOR:
            known = ((await self.store.guild_settings(guild_id)).web, now)
            self._web_on[guild_id] = known
        return known[0]

    async def guild_on(self, guild_id: int) -> None:
        """Refusal(403) when the server turned its pages off (read at every request)."""
        if guild_id and not (await self.store.guild_settings(guild_id)).web:
            raise Refusal("web.error.off", 403)

    def linked(self, request: web.Request, kind: str) -> int:
        """The id the request's signed link opens (`kind`'s), or Refusal (404, 410)."""
        info = request.match_info
        return self.signer.check(kind, info["id"], info["until"], info["sig"])


SITE = web.AppKey("site", Site)


def locale_of(request: web.Request, fallback: object, *, strict: bool = True) -> str:
    """The reader's language: `?lang=`, else the browser's, else the server's (the table's public one)."""
    asked = request.query.get("lang")
    if asked is not None:
        if asked in LANGUAGES:
            return asked
        if strict:
            raise Refusal("web.error.language", 400, languages=", ".join(LANGUAGES))
    browser = _accepted(request.headers.get("Accept-Language", ""))
    if browser is not None:
        return browser
    return fallback if isinstance(fallback, str) and fallback in LANGUAGES else "en"


def _accepted(header: str) -> str | None:
    """The first of our languages the browser asks for (`Accept-Language`, by its q values)."""
    wanted = []
    for i, part in enumerate(header.split(",")[:16]):
        tag, _, params = part.strip().partition(";")
        q = inputs.quality(params)
        if q is None:
            continue
        language = tag.strip().split("-", 1)[0].lower()
        if language in LANGUAGES and q > 0:
            wanted.append((-q, i, language))
    return min(wanted)[2] if wanted else None


def number(text: str | None, most: int) -> int:
    return inputs.number(text, most)  # ASCII digits within `most`, else 400


def png(picture: Picture | None, *, cache: str = "max-age=3600") -> web.Response:
    if picture is None:
        raise Refusal("web.error.no_picture", 404)
    return web.Response(body=picture.data, content_type="image/png", headers={"Cache-Control": cache})


def html_page(page: str) -> web.Response:
    return web.Response(text=page, content_type="text/html", headers={"Cache-Control": "no-store"})
