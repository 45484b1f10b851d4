"""/help: every command of the bot, one line each, read from the command tree so it never goes stale."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

COLOUR = discord.Colour.blurple()
DESCRIPTION_LIMIT = 4096


def usage(command: app_commands.Command[Any, ..., Any]) -> str:
    """`/malice challenge opponent [stake] [timeout] [turns]`: required options bare, optional in brackets."""
    parts = [f"/{command.qualified_name}"]
    for p in command.parameters:
        parts.append(p.display_name if p.required else f"[{p.display_name}]")
    return " ".join(parts)


def walk(
    commands_: list[app_commands.Command[Any, ..., Any] | app_commands.Group]
) -> list[app_commands.Command[Any, ..., Any]]:
    found: list[app_commands.Command[Any, ..., Any]] = []
    for c in sorted(commands_, key=lambda c: c.name):
        if isinstance(c, app_commands.Group):
            found += walk(c.commands)
        else:
            found.append(c)
    return found


def help_lines(tree: app_commands.CommandTree, guild: discord.abc.Snowflake | None = None) -> list[str]:
    commands_ = list(tree.get_commands(type=discord.AppCommandType.chat_input))
    if guild is not None:
        # Commands synced only to a development guild live there; show them too, once.
        names = {c.name for c in commands_}
        commands_ += [
            c
            for c in tree.get_commands(guild=guild, type=discord.AppCommandType.chat_input)
            if c.name not in names
        ]
    return [f"`{usage(c)}`: {c.description}" for c in walk(commands_)]


def help_embeds(lines: list[str]) -> list[discord.Embed]:
    embeds = [discord.Embed(title="Cardtable commands", description="", colour=COLOUR)]
    for line in lines:
        description = embeds[-1].description or ""
        if len(description) + len(line) + 1 > DESCRIPTION_LIMIT:
            embeds.append(discord.Embed(description="", colour=COLOUR))
            description = ""
        embeds[-1].description = f"{description}\n{line}" if description else line
    embeds[-1].set_footer(text="Options in [brackets] are optional. /rules explains each game.")
    return embeds


class Help(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="help")
    async def help(self, interaction: discord.Interaction) -> None:
        """List every command of this bot."""
        lines = help_lines(self.bot.tree, interaction.guild)
        await interaction.response.send_message(embeds=help_embeds(lines), ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Help(bot))
