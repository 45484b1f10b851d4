"""/help: every command of the bot, one line each, read from the command tree so it never goes stale, with
the names and descriptions a client in the reader's language shows."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import t
from bot.i18n.commands import help_line

COLOUR = discord.Colour.blurple()
DESCRIPTION_LIMIT = 4096


def usage(command: app_commands.Command[Any, ..., Any]) -> str:
    """`/malice challenge opponent [stake] [timeout] [turns]`: required options bare, optional in brackets."""
    parts = [f"/{command.qualified_name}"]
    for p in command.parameters:
        parts.append(p.display_name if p.required else f"[{p.display_name}]")
    return " ".join(parts)


def walk(
    commands_: list[app_commands.Command[Any, ..., Any] | app_commands.Group],
) -> list[app_commands.Command[Any, ..., Any]]:
    found: list[app_commands.Command[Any, ..., Any]] = []
    for c in sorted(commands_, key=lambda c: c.name):
        if isinstance(c, app_commands.Group):
            found += walk(c.commands)
        else:
            found.append(c)
    return found


def help_lines(
    tree: app_commands.CommandTree, guild: discord.abc.Snowflake | None = None, locale: object = "en"
) -> list[str]:
    commands_ = list(tree.get_commands(type=discord.AppCommandType.chat_input))
    if guild is not None:
        # Commands synced only to a development guild live there; show them too, once.
        names = {c.name for c in commands_}
        commands_ += [
            c
            for c in tree.get_commands(guild=guild, type=discord.AppCommandType.chat_input)
            if c.name not in names
        ]
    key = (tuple(commands_), str(locale))  # the commands themselves (not their ids): never a stale hit
    lines = _LINES.get(key)
    if lines is None:
        if len(_LINES) >= LINES_KEPT:
            _LINES.clear()
        lines = _LINES[key] = [help_line(c, locale) for c in walk(commands_)]
    return list(lines)


# The lines by command set and language: the tree changes only at a sync, and wording every command's line
# took about 1 ms of CPU per /help. A few sets (the global one, a development guild's) in a few languages.
LINES_KEPT = 32
_LINES: dict[tuple[Any, ...], list[str]] = {}


def help_embeds(lines: list[str], locale: object = "en") -> list[discord.Embed]:
    embeds = [discord.Embed(title=t(locale, "help.title"), description="", colour=COLOUR)]
    for line in lines:
        description = embeds[-1].description or ""
        if len(description) + len(line) + 1 > DESCRIPTION_LIMIT:
            embeds.append(discord.Embed(description="", colour=COLOUR))
            description = ""
        embeds[-1].description = f"{description}\n{line}" if description else line
    # Where the games are played: a user install brings Malice to DMs; Insomnia needs a server.
    places = t(locale, "help.places")
    if len(embeds[-1].description or "") + len(places) + 2 > DESCRIPTION_LIMIT:
        embeds.append(discord.Embed(description="", colour=COLOUR))
    embeds[-1].description = f"{embeds[-1].description}\n\n{places}".strip()
    embeds[-1].set_footer(text=t(locale, "help.footer"))
    return embeds


class Help(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="help")
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    async def help(self, interaction: discord.Interaction) -> None:
        """List every command of this bot."""
        lines = help_lines(self.bot.tree, interaction.guild, interaction.locale)
        await interaction.response.send_message(embeds=help_embeds(lines, interaction.locale), ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Help(bot))
