""" "Challenge to Malice" on a user's menu (Apps): a user command (type 2) that opens a Malice challenge to
that user where it is used, by the same rules as `/malice challenge opponent:` with the table's default
options: in a server channel (the bot in the server), and for a user install in DMs and group DMs too, where
the challenge is the menu's answer (`open_game` in bot/interactions.py, shared with `/malice challenge`).
German clients read "Zu Malice herausfordern" (the translator's `cmd.menu.challenge.name`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.games.registry import REGISTRY
from bot.interactions import open_game

if TYPE_CHECKING:
    from bot.client import CardBot

GAME = "malice"


async def challenge(interaction: discord.Interaction, user: discord.User | discord.Member) -> None:
    """Yourself, another bot, someone not in this DM: refused in the reader's language, as the command is."""
    await open_game(interaction, REGISTRY[GAME], {}, user)


def challenge_menu() -> app_commands.ContextMenu:
    menu = app_commands.ContextMenu(
        name="Challenge to Malice",
        callback=challenge,
        type=discord.AppCommandType.user,
        extras={"key": "challenge"},
    )
    menu = app_commands.allowed_installs(guilds=True, users=True)(menu)
    return app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)(menu)


class ChallengeMenu(commands.Cog):
    def __init__(self, bot: CardBot) -> None:
        self.bot = bot
        self.menu = challenge_menu()

    async def cog_load(self) -> None:
        self.bot.tree.add_command(self.menu)

    async def cog_unload(self) -> None:
        self.bot.tree.remove_command(self.menu.name, type=self.menu.type)


async def setup(bot: CardBot) -> None:
    if GAME in REGISTRY:
        await bot.add_cog(ChallengeMenu(bot))
