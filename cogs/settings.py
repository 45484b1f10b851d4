"""/settings language <English|Deutsch|server default>: the language of this server's public messages.

Only people who may manage the server change it: Discord hides the command from others
(`default_permissions`), and the bot checks again (`has_permissions`), since a server can override what
Discord shows. The choice is stored (`guild_settings`) and open tables speak it from their next message on;
private answers and DMs stay in each player's own language.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import t

if TYPE_CHECKING:
    from bot.client import CardBot

# The choice's value is the stored language; "default" stores none (the server's own locale then).
Language = Literal["en", "de", "default"]
CHOICES = [
    app_commands.Choice(name="English", value="en"),
    app_commands.Choice(name="Deutsch", value="de"),
    app_commands.Choice(name="server default", value="default"),
]


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class Settings(commands.GroupCog, group_name="settings"):
    """Server settings of this bot (Manage Server)."""

    def __init__(self, bot: CardBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="language")
    @app_commands.describe(language="English, Deutsch, or the server's own language")
    @app_commands.choices(language=CHOICES)
    @app_commands.checks.has_permissions(manage_guild=True)
    async def language(self, interaction: discord.Interaction, language: app_commands.Choice[str]) -> None:
        """The language of the bot's public messages in this server."""
        assert interaction.guild_id is not None  # guild_only
        chosen = None if language.value == "default" else language.value
        now = await self.bot.sessions.set_public_language(interaction.guild_id, chosen)
        # The answer is the manager's own, in his language; it names the public language in his words.
        locale = interaction.locale
        language_name = t(locale, f"language.{now}")
        if chosen is None:
            text = t(locale, "settings.language.default", language=language_name)
        else:
            text = t(locale, "settings.language.chosen", language=language_name)
        await interaction.response.send_message(text, ephemeral=True)


async def setup(bot: CardBot) -> None:
    await bot.add_cog(Settings(bot))
