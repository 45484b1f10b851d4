"""A real bot process for the command-line tests: `python -m tests.cli.bot_process`.

It runs `bot.cli.serve.run` (what `cardtable-bot run` runs: database first, signal handlers, graceful stop)
against the fake Discord of the end-to-end tests, started in the same process. Settings come from the
environment like the real command's; DISCORD_TOKEN is the fake's. Once alice has a Malice game against the
computer with moves stored, it prints `GAME RUNNING <table id> <actions>` on stderr and serves until a
signal stops the bot; then it exits with the bot's exit code. The bot's log goes to stdout, as in production.

`--wrong-token` and `--unreachable` start the bot with a token the fake rejects, or with Discord's address on
a port nobody listens on, and print nothing themselves: stderr is then whatever the bot prints on its way out.
"""

from __future__ import annotations

import asyncio
import os
import socket
import sqlite3
import sys

import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.cli.logs import setup_logging
from bot.cli.serve import run
from bot.config import Settings
from tests.e2e.fake_discord import FakeDiscord, FakeDiscordError

MOVES = 4


def stored(path: str) -> tuple[int, int]:
    """The running table and how many of its actions are committed (read as another process would)."""
    with sqlite3.connect(path) as conn:
        row = conn.execute("SELECT id FROM game_tables WHERE status = 'running'").fetchone()
        if row is None:
            return 0, 0
        (count,) = conn.execute("SELECT COUNT(*) FROM actions WHERE table_id = ?", row).fetchone()
        return row[0], count


async def play_some_moves(fake: FakeDiscord, path: str) -> tuple[int, int]:
    alice = fake.user("alice")
    for _ in range(100):  # the bot connects and syncs its commands
        try:
            await alice.slash("malice challenge", opponent=fake.bot_user)
            break
        except FakeDiscordError:
            await asyncio.sleep(0.1)
    table, count = stored(path)
    while count < MOVES:
        # A legal move from autocomplete, as a player's client offers it: a card, then where it may go.
        cards = await alice.autocomplete("malice play", "card")
        if cards:
            to = await alice.autocomplete("malice play", "to", card=cards[0].value)
            await alice.slash("malice play", card=cards[0].value, to=to[0].value)
        else:
            await alice.slash("malice end")
        await fake.wait_for(lambda: fake.connected, what="the bot")
        await asyncio.sleep(0.2)  # the computer's turn, if it is his
        table, count = stored(path)
    return table, count


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def main(mode: str) -> int:
    fake = FakeDiscord()
    await fake.start()
    Route.BASE = fake.api_base
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)
    os.environ["DISCORD_TOKEN"] = fake.token
    if mode == "--wrong-token":
        os.environ["DISCORD_TOKEN"] = "not-the-token"
    elif mode == "--unreachable":
        Route.BASE = f"http://127.0.0.1:{closed_port()}/api/v10"
    settings = Settings()
    setup_logging(settings.log_level, settings.log_format)
    if mode:
        code = await run(settings, guild_ready_timeout=0.05)
        await fake.stop()
        return code
    bot = asyncio.create_task(run(settings, guild_ready_timeout=0.05))
    game = asyncio.create_task(play_some_moves(fake, str(settings.database_path)))
    done, _ = await asyncio.wait({bot, game}, return_when=asyncio.FIRST_COMPLETED)
    if game in done:
        table, count = game.result()
        print(f"GAME RUNNING {table} {count}", file=sys.stderr, flush=True)
    code = await bot
    await fake.stop()
    return code


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1] if len(sys.argv) > 1 else "")))
