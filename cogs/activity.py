"""Launching the game as a Discord Activity (issue 33; the page and its API are bot/web/activity.py).

The table message's "Play here" and the `/activity` command answer with response type 12 (LAUNCH_ACTIVITY):
Discord opens the Activity in the channel for the one who clicked, and the page finds the channel's table
itself. Without the Activity's settings (DISCORD_CLIENT_ID, DISCORD_CLIENT_SECRET, WEB_PORT) the command says
so privately and the table message carries no "Play here".
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_out import note_languages
from bot.i18n import t
from bot.interactions import answer

if TYPE_CHECKING:
    from bot.client import CardBot

PLAY = "play"  # the table message button's action (bot/web/activity.py draws it)


def activity_on(interaction: discord.Interaction) -> bool:
    client = interaction.client
    settings = getattr(client, "settings", None)
    return bool(settings is not None and settings.activity_on() and getattr(client, "web", None) is not None)


async def launch_here(interaction: discord.Interaction, table_id: int) -> bool:
    """The "Play here" click: the Activity opens for the clicker (type 12); no message is written."""
    if not activity_on(interaction):
        await answer(interaction, t(interaction.locale, "activity.off"))
        return True
    await interaction.response.launch_activity()
    return True


class ActivityCommands(commands.Cog):
    def __init__(self, bot: CardBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.table_hooks.install({PLAY: launch_here})

    async def cog_unload(self) -> None:
        self.bot.table_hooks.remove([PLAY])

    @app_commands.command(name="activity")
    @app_commands.guild_only()
    @app_commands.allowed_installs(guilds=True, users=False)
    async def activity(self, interaction: discord.Interaction) -> None:
        """Play at this channel's table inside Discord: tap your cards (a Discord Activity)."""
        note_languages(interaction)
        if not activity_on(interaction):
            await answer(interaction, t(interaction.locale, "activity.off"))
            return
        await interaction.response.launch_activity()


async def setup(bot: CardBot) -> None:
    await bot.add_cog(ActivityCommands(bot))
