"""A real bot process against a fake Discord that runs elsewhere (in the test's event loop):
`python -m tests.e2e.bot_process`.

It points discord.py at the fake, exactly as tests/e2e/conftest.py does in-process: REST, webhooks and
interaction callbacks at FAKE_DISCORD_API (discord.http.Route.BASE), the gateway at FAKE_DISCORD_GATEWAY
(DiscordWebSocket.DEFAULT_GATEWAY, which an AutoShardedBot with SHARD_COUNT set connects to). Then it runs the
real entry point, `cardtable-bot run`, unchanged: every other setting comes from the environment as in
production (DISCORD_TOKEN, DATABASE_URL, SHARD_COUNT, SHARD_IDS, TURN_TIMEOUT_SECONDS, LOG_FORMAT, ...), the
log goes to stdout, and the exit code is the bot's.
"""

from __future__ import annotations

import os
import sys

import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.cli import main

API_ENV = "FAKE_DISCORD_API"
GATEWAY_ENV = "FAKE_DISCORD_GATEWAY"


def point_at_the_fake() -> None:
    Route.BASE = os.environ[API_ENV]
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(os.environ[GATEWAY_ENV])


if __name__ == "__main__":
    point_at_the_fake()
    sys.exit(main(["run"]))
