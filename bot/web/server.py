"""The web server inside the bot process (aiohttp, which discord.py brings: one event loop with the bot, no
second framework), off until WEB_PORT is set: its life (the application of `bot.web.app` served and
stopped) and the links Discord posts to its pages. The pages are `bot.web.routes`'s handlers, sharing the
server's `Site`."""

from __future__ import annotations

import logging

from aiohttp import web

from bot.ops.server import serve
from bot.render.common import Button, PageLinks
from bot.sessions.records import TableRecord
from bot.web.app import make_app
from bot.web.links import BOARD, EVENT, KINDS, REPLAY, TABLE
from bot.web.quiet import QuietRunner
from bot.web.site import Site

log = logging.getLogger(__name__)


class WebServer:
    """The pages' application and its runner, and the links Discord posts to the pages."""

    def __init__(self, site: Site) -> None:
        self.site = site
        self.app = make_app(site)
        self._runner: web.AppRunner | None = None

    # ---- where it listens (the port is the one it got once started, when asked for any)

    @property
    def host(self) -> str:
        return self.site.host

    @property
    def port(self) -> int:
        return self.site.port

    @property
    def base(self) -> str:
        return self.site.base

    # ---- the links Discord posts

    def table_url(self, table_id: int) -> str:
        return self.site.url(TABLE, table_id)

    def replay_url(self, table_id: int) -> str:
        return self.site.url(REPLAY, table_id)

    def board_url(self, guild_id: int) -> str:
        return self.site.url(BOARD, guild_id)

    def event_url(self, event: int) -> str:
        return self.site.url(EVENT, event)

    async def pages(self, record: TableRecord) -> PageLinks | None:
        """The table's pages (`bot.sessions.links`): its live page while it is open or plays, its replay once
        finished, and the Activity; none for a game outside a server (a DM's) or a server that turned its
        pages off."""
        if record.guild_id == 0 or not await self.site.web_on(record.guild_id):
            return None
        if record.status == "finished":
            return PageLinks(replay=self.replay_url(record.id))
        if record.status in ("lobby", "running"):
            return PageLinks(watch=self.table_url(record.id), launch=self.site.activity is not None)
        return None

    async def link_to(self, kind: str, ident: int, guild_id: int, locale: object) -> Button | None:
        """A link button to a page of `kind` (`bot.web.links.KINDS`: the replay of table `ident`, the
        leaderboard of server `ident`, a tournament's page) for /history, /leaderboard and /tournament show;
        None outside a server or with the server's pages off."""
        button = KINDS[kind].button
        if button is None:
            raise ValueError(f"no command links to a {kind} page")
        if guild_id == 0 or not await self.site.web_on(guild_id):
            return None
        return Button(label=button(locale), url=self.site.url(kind, ident), style="link")

    # ---- life

    async def start(self) -> None:
        """Listening (the feed started with the application); OSError when the port is taken."""
        runner = QuietRunner(self.app, self.site.refusals, access_log=None, handler_cancellation=True)
        self._runner, port = await serve(self.app, self.site.host, self.site.port, runner)
        self.site.listening(port)

    async def close(self) -> None:
        """The application stopped, and with it everything it runs (`bot.web.app`)."""
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()
