"""/rules [game:<a registered game>]: the rules summary of a game, house decisions flagged (ephemeral), in
the reader's language, ending with a table's options and house rules: asked in a channel with a table (of that
game, or with no game named), that table's; elsewhere a new table's in this server (its defaults).

The game choices are the games whose presentation has a rules summary, read when the bot loads its cogs."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n.rules import Rules as RulesSummary
from bot.render.registry import PRESENTATIONS

if TYPE_CHECKING:
    from bot.client import CardBot

COLOUR = discord.Colour.dark_green()
HOUSE_COLOUR = discord.Colour.gold()
TABLE_COLOUR = discord.Colour.orange()
# Discord's limits: 6000 characters over all embeds of one message, 10 embeds per message.
MESSAGE_EMBED_CHARS = 6000
MESSAGE_EMBEDS = 10


def rules_embeds(summary: RulesSummary) -> list[discord.Embed]:
    main = discord.Embed(title=summary.title, description=summary.intro, colour=COLOUR)
    for block in summary.blocks:
        main.add_field(name=block.title, value=block.text, inline=False)
    house = discord.Embed(title=summary.house_title, description=summary.house_text(), colour=HOUSE_COLOUR)
    table = discord.Embed(
        title=summary.options_title, description=summary.options_text(), colour=TABLE_COLOUR
    )
    table.set_footer(text=summary.footer)
    return [main, house, table]


def pack_embeds(embeds: list[discord.Embed]) -> list[list[discord.Embed]]:
    """Group embeds into messages that each stay within Discord's per-message limits."""
    messages: list[list[discord.Embed]] = []
    size = 0
    for embed in embeds:
        if not messages or size + len(embed) > MESSAGE_EMBED_CHARS or len(messages[-1]) == MESSAGE_EMBEDS:
            messages.append([])
            size = 0
        messages[-1].append(embed)
        size += len(embed)
    return messages


class Rules(commands.Cog):
    def __init__(self, bot: CardBot) -> None:
        self.bot = bot

    @app_commands.command(name="rules")
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.describe(game="Which game to explain (default: the game at this channel's table)")
    @app_commands.choices(
        game=[app_commands.Choice(name=p.kind, value=p.kind) for p in PRESENTATIONS if p.rules is not None]
    )
    async def rules(self, interaction: discord.Interaction, game: str | None = None) -> None:
        """Read the rules of a game, with this bot's house decisions and this table's house rules."""
        text = await self.bot.sessions.servers.rules(
            interaction.guild_id, interaction.channel_id or 0, game, locale=interaction.locale
        )
        first, *rest = pack_embeds(rules_embeds(text))
        await interaction.response.send_message(embeds=first, ephemeral=True)
        for embeds in rest:
            await interaction.followup.send(embeds=embeds, ephemeral=True)


async def setup(bot: CardBot) -> None:
    await bot.add_cog(Rules(bot))
