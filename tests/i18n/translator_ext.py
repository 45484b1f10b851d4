"""A test-only extension: registers the command translator as the bot's setup_hook will (one line there,
`await self.tree.set_translator(CommandTranslator())`), before the sync that follows the extensions."""

from __future__ import annotations

from discord.ext import commands

from bot.i18n.commands import CommandTranslator


async def setup(bot: commands.Bot) -> None:
    await bot.tree.set_translator(CommandTranslator())
