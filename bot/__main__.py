"""`python -m bot` / `cardtable-bot`: read the settings, set up logging, run the bot until stopped.

Every expected failure (no token, a rejected token, a database from a newer version) ends the process with one
sentence on stderr and a non-zero exit code, never a traceback.
"""

from __future__ import annotations

import asyncio
import logging
import sys

import aiohttp
import discord
from pydantic import ValidationError

from bot.client import CardBot
from bot.config import Settings
from storage.errors import StoreError

log = logging.getLogger("bot")

EXIT_CONFIG = 2  # the settings are missing or invalid
EXIT_REJECTED = 3  # Discord refused the token or the intents
EXIT_STORAGE = 4  # the database could not be opened
EXIT_NETWORK = 5  # Discord could not be reached


def _fail(sentence: str, code: int) -> int:
    print(f"cardtable-bot: {sentence}", file=sys.stderr)
    return code


def _no_token() -> int:
    return _fail(
        "DISCORD_TOKEN is not set: put your bot token in the environment or in .env (see .env.example).",
        EXIT_CONFIG,
    )


async def run(settings: Settings, **options: object) -> int:
    """Run the bot until it is closed; return the process exit code. Tests await this in their own loop."""
    token = settings.token()
    if token is None:
        return _no_token()
    bot = CardBot(settings, **options)  # type: ignore[arg-type]
    try:
        async with bot:
            await bot.start(token)
    except discord.LoginFailure:
        return _fail(
            "Discord rejected DISCORD_TOKEN (401 Unauthorized): copy a fresh token from the Bot page of your "
            "application in the Discord developer portal.",
            EXIT_REJECTED,
        )
    except discord.PrivilegedIntentsRequired:
        return _fail("Discord refused a privileged intent that this bot should not ask for.", EXIT_REJECTED)
    except StoreError as exc:
        return _fail(f"cannot open the database: {exc}.", EXIT_STORAGE)
    except (aiohttp.ClientConnectionError, discord.GatewayNotFound) as exc:
        return _fail(f"cannot reach Discord ({exc}): check the network connection.", EXIT_NETWORK)
    return 0


def main() -> int:
    try:
        settings = Settings()
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']).upper()}: {err['msg']}" for err in exc.errors()
        )
        return _fail(f"invalid settings ({problems}).", EXIT_CONFIG)
    if settings.token() is None:
        return _no_token()
    discord.utils.setup_logging(level=logging.getLevelName(settings.log_level), root=True)
    log.info(
        "database %s, turn timeout %ss, commands synced %s",
        settings.database_path,
        settings.turn_timeout_seconds,
        f"to guild {settings.dev_guild_id}" if settings.dev_guild_id else "globally",
    )
    try:
        return asyncio.run(run(settings))
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["simulate"]:  # `python -m bot simulate ...`: the headless simulator
        from bot import simulate

        sys.exit(simulate.main(sys.argv[2:]))
    sys.exit(main())
