"""What every page shares: the server's parts, the links it signs, the reader's language, the checks of a
request's link and numbers (`bot.web.server` puts the pages together)."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable

from aiohttp import web

from bot.i18n import LANGUAGES
from bot.render.common import Picture
from bot.sessions.replay import Replays
from bot.web import inputs
from bot.web.activity import Activity
from bot.web.feed import Feed
from bot.web.guard import Limits, Refusal
from bot.web.links import BOARD, REPLAY, TABLE, Signer
from bot.web.memory import Crowd
from bot.web.quiet import RefusalLog
from storage.contract import Store


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


class PageBase:
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
        self._runner: web.AppRunner | None = None
        # A table's newest frame and picture per language, (version, made): an older state's are never
        # asked again (a feed and a page show the newest), so they go when a newer one is made.
        self._pictures: OrderedDict[tuple[int, str], tuple[int, Picture | None]] = OrderedDict()
        self._frames: OrderedDict[tuple[int, str], tuple[int, str, bytes]] = OrderedDict()
        self._live: set[asyncio.Task[None]] = set()
        self.crowd = Crowd()  # after a crowd of live viewers, memory given back (bot/web/memory.py)
        self.closing = asyncio.Event()
        self._web_on: dict[int, tuple[bool, float]] = {}
        self.activity = activity  # the Activity's page and API, when its settings are set

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

    def _locale(self, request: web.Request, fallback: object, *, strict: bool = True) -> str:
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

    def _id(self, request: web.Request, kind: str) -> int:
        info = request.match_info
        return self.signer.check(kind, info["id"], info["until"], info["sig"])

    async def _guild_on(self, guild_id: int) -> None:
        if guild_id and not (await self.store.guild_settings(guild_id)).web:
            raise Refusal("web.error.off", 403)

    @staticmethod
    def _number(text: str | None, most: int) -> int:
        return inputs.number(text, most)  # ASCII digits within `most`, else 400

    @staticmethod
    def _png(picture: Picture | None) -> web.Response:
        if picture is None:
            raise Refusal("web.error.no_picture", 404)
        return web.Response(
            body=picture.data, content_type="image/png", headers={"Cache-Control": "max-age=3600"}
        )
