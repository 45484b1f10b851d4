"""`cardtable-bot run`: open the database, connect to Discord, serve until stopped.

Every expected failure ends the process with one sentence on stderr and its exit code, never a traceback:
2 settings missing or invalid, 3 token rejected by Discord, 4 database unusable, 5 Discord unreachable.
SIGTERM (what `docker stop` and `systemctl stop` send) and SIGINT (Ctrl+C) stop the bot gracefully: no new
commands, running moves finish, the database is closed with its WAL checkpointed, one line is logged, exit 0.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import sys
from typing import Any

import aiohttp
import discord

import cogs
from bot.cli.database import DatabaseUnusable, describe, open_database
from bot.client import CardBot
from bot.config import Settings
from bot.ops import Operations, OpsUnavailable
from bot.web import WebUnavailable
from storage import StoreError

log = logging.getLogger("bot")

EXIT_CONFIG = 2  # the settings are missing or invalid (also: bad command-line arguments)
EXIT_REJECTED = 3  # Discord refused the token or the intents
EXIT_STORAGE = 4  # the database could not be opened, migrated or copied
EXIT_NETWORK = 5  # Discord could not be reached

NO_TOKEN = "DISCORD_TOKEN is not set: put your bot token in the environment or in .env (see .env.example)."


def fail(sentence: str, code: int) -> int:
    """The one sentence of a failed command, on stderr; returns the exit code."""
    print(f"cardtable-bot: {sentence}", file=sys.stderr)
    return code


async def run(settings: Settings, **options: object) -> int:
    """Run the bot until it is stopped; return the process exit code. Tests await this in their own loop.
    `options` go to `CardBot` (tests pass `guild_ready_timeout`)."""
    token = settings.token()
    if token is None:
        return fail(NO_TOKEN, EXIT_CONFIG)
    # The database first: a wrong DATABASE_PATH is found in a second, without connecting to Discord.
    try:
        store = await open_database(settings)
    except DatabaseUnusable as exc:
        return fail(f"{exc}.", EXIT_STORAGE)
    log.info(
        "database %s: %s; default turn timeout %gs; commands go to %s",
        settings.database_name(),
        await describe(store),
        settings.turn_timeout_seconds,
        f"the development guild {settings.dev_guild_id}" if settings.dev_guild_id else "every guild",
    )
    # The token's budget (shared with its other processes on PostgreSQL) and the metrics, before connecting.
    try:
        ops = await Operations.start(settings, store, token)
    except (OpsUnavailable, StoreError, OSError) as exc:
        await store.close()
        code = EXIT_CONFIG if isinstance(exc, OpsUnavailable) else EXIT_STORAGE
        return fail(f"{exc}.", code)
    bot = CardBot(
        settings, extensions=cogs.extensions(), store=ops.store, ops=ops, http_trace=ops.trace(), **options
    )
    stop_signal = _stop_on_signals(bot)
    try:
        async with bot:
            await bot.start(token)
    except discord.LoginFailure:
        return fail(
            "Discord rejected DISCORD_TOKEN (401 Unauthorized): copy a fresh token from the Bot page of your "
            "application in the Discord developer portal.",
            EXIT_REJECTED,
        )
    except discord.PrivilegedIntentsRequired:
        return fail("Discord refused a privileged intent that this bot should not ask for.", EXIT_REJECTED)
    except WebUnavailable as exc:
        return fail(f"{exc}.", EXIT_CONFIG)
    except (aiohttp.ClientConnectionError, discord.GatewayNotFound) as exc:
        return fail(f"cannot reach Discord ({exc}): check the network connection.", EXIT_NETWORK)
    finally:
        _restore_signals()
        await bot.close()  # idempotent; closes the store when the bot never got to
        await ops.close()  # then the share goes back to the token's other processes
    if stop_signal:
        log.info("stopped on %s: running moves finished, database closed", stop_signal[0])
    return 0


_SIGNALS = (signal.SIGTERM, signal.SIGINT)


_stopping: set[asyncio.Task[Any]] = set()  # the stop task must outlive the signal handler that started it


def _stop_on_signals(bot: CardBot) -> list[str]:
    """SIGTERM and SIGINT start the graceful stop; the returned list gets the signal's name."""
    received: list[str] = []
    loop = asyncio.get_running_loop()

    def on_signal(sig: signal.Signals) -> None:
        if not received:
            received.append(sig.name)
            log.info("%s received: stopping (no new commands, running moves finish)", sig.name)
            task = asyncio.ensure_future(bot.stop())
            _stopping.add(task)
            task.add_done_callback(_stopping.discard)

    for sig in _SIGNALS:
        loop.add_signal_handler(sig, on_signal, sig)
    return received


def _restore_signals() -> None:
    loop = asyncio.get_running_loop()
    for sig in _SIGNALS:
        loop.remove_signal_handler(sig)
