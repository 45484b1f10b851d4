"""The table on the web: a surface beside the Discord cogs (docs/players/web.md for its readers,
docs/design.md "The table on the web" for its parts).

`start_web` serves the pages inside the bot process when WEB_PORT is set: a table live, a finished table's
replay, a server's leaderboard, each behind a signed link (`links`), drawn from the same composition as the
Discord table message (`shown`), bounded per address (`guard`), fed by the stored changes of this process
(`Tables.stored`) and, with PostgreSQL, of every other (`feed`, LISTEN/NOTIFY through the store). It imports
the session layer, the presentation and the store's contract; nothing below it imports it.
"""

from __future__ import annotations

import logging

from bot.config import Settings
from bot.sessions.manager import SessionManager
from bot.web.activity import Activity
from bot.web.feed import Feed
from bot.web.identity import Identity
from bot.web.links import TABLE, Signer
from bot.web.server import WebServer
from bot.web.site import Site
from storage.contract import Store

log = logging.getLogger(__name__)
DISCORD_API = "https://discord.com/api/v10"


class WebUnavailable(Exception):
    """The pages cannot be served as the settings ask (the port taken); one sentence."""


async def start_web(
    settings: Settings, sessions: SessionManager, store: Store, *, discord_api: str = DISCORD_API
) -> WebServer:
    """The web server of this process, listening (WEB_PORT must be set, WEB_SECRET with it); with the
    application's OAuth2 pair set, the Activity's page and API too (`discord_api`: where Discord answers)."""
    assert settings.web_port is not None and settings.web_secret is not None  # Settings checks both
    feed = Feed(store, local=sessions.tables.by_id, deadline=sessions.scheduler.deadline)
    sessions.tables.stored.listen(feed.stored)
    signer = Signer(settings.web_secret.get_secret_value().strip())
    # ---- the Activity (bot/web/activity.py): on with DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET; it shows
    # the live page's picture of a table, through the live page's signed link
    activity = None
    if settings.activity_on() and settings.discord_client_secret is not None:
        secret = settings.discord_client_secret.get_secret_value().strip()
        identity = Identity(discord_api, settings.discord_client_id or 0, secret, settings.token() or "")
        activity = Activity(
            sessions, feed, identity, picture_link=lambda table_id: signer.link(TABLE, table_id).path
        )
    site = Site(
        store,
        feed,
        sessions.replays,
        signer,
        host=settings.web_host,
        port=settings.web_port,
        public_url=settings.public_url,
        names=lambda: sessions.readers.names,
        activity=activity,
    )
    server = WebServer(site)
    try:
        await server.start()
    except OSError as exc:
        raise WebUnavailable(
            f"cannot serve the web pages on {settings.web_host}:{settings.web_port} ({exc.strerror or exc}): "
            "choose another WEB_PORT (or WEB_HOST)"
        ) from None
    sessions.pages.install(server)  # the table's pages, which its message links to
    log.info("web pages at %s (listening on %s:%d)", server.base, server.host, server.port)
    return server


__all__ = ["Feed", "Signer", "WebServer", "WebUnavailable", "start_web"]
