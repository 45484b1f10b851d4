"""/moderation: fair play for any game (`bot.sessions.fairplay.FairPlay`): void a finished game, take a person
off the server's leaderboards and let him back, the record of both. Manage Server only."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.interactions import respond
from bot.render import tournament as words
from bot.render.common import Message
from bot.sessions.fairplay import FairPlay

if TYPE_CHECKING:
    from bot.client import CardBot

# A table's number: what the store can hold; a bigger one is refused by the input check with the range.
Number = app_commands.Range[int, 1, 2**31 - 1]


@app_commands.guild_only()
@app_commands.allowed_installs(guilds=True, users=False)
@app_commands.default_permissions(manage_guild=True)
class ModerationCommands(commands.GroupCog, group_name="moderation"):
    """Fair play: void a finished game, take a person off the leaderboards (Manage Server)."""

    def __init__(self, bot: CardBot) -> None:
        self.bot = bot
        super().__init__()

    @property
    def fair_play(self) -> FairPlay:
        return self.bot.fair_play

    @app_commands.command(name="void")
    @app_commands.describe(table="the finished game's table number", reason="why (kept on the record)")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def void(self, interaction: discord.Interaction, table: Number, reason: str = "") -> None:
        """Void a finished game: its chips given back, its ratings taken out."""
        await respond(
            interaction,
            lambda: self.fair_play.void(interaction.guild_id or 0, table, interaction.user.id, reason),
        )

    @app_commands.command(name="exclude")
    @app_commands.describe(player="who is taken off the leaderboards", reason="why (kept on the record)")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def exclude(self, interaction: discord.Interaction, player: discord.User, reason: str = "") -> None:
        """Take a person off this server's leaderboards."""
        await self._leaderboards(interaction, player, reason, excluded=True)

    @app_commands.command(name="include")
    @app_commands.describe(player="who is let back onto the leaderboards", reason="why (kept on the record)")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def include(self, interaction: discord.Interaction, player: discord.User, reason: str = "") -> None:
        """Let a person back onto this server's leaderboards."""
        await self._leaderboards(interaction, player, reason, excluded=False)

    async def _leaderboards(
        self, interaction: discord.Interaction, player: discord.User, reason: str, *, excluded: bool
    ) -> None:
        """`/moderation exclude` and `include`: one fair-play step, its direction the only difference."""
        guild, moderator, computer = interaction.guild_id or 0, interaction.user.id, player.bot
        await respond(
            interaction,
            lambda: self.fair_play.exclude(guild, player.id, moderator, reason, excluded, computer=computer),
        )

    @app_commands.command(name="log")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def log(self, interaction: discord.Interaction) -> None:
        """What this server's moderators did: voided games, exclusions (only you see it)."""

        async def record() -> Message:
            rows = await self.fair_play.log(interaction.guild_id or 0)
            return words.moderation_message(rows, interaction.locale)

        await respond(interaction, record)


async def setup(bot: CardBot) -> None:
    await bot.add_cog(ModerationCommands(bot))
