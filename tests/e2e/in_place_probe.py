"""A test-only cog (`extra_extensions=["tests.e2e.in_place_probe"]`): `/inplace` posts a message with a Go
button whose click is answered in place by the bot's own `InPlace` (bot/interactions.py), its deferral watch
due at once, and the update held back until the test says go: so a test can make the update meet the
deferral while its request is still on the way to Discord (tests/e2e/test_one_answer.py)."""

from __future__ import annotations

import asyncio
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import guarded
from bot.interactions import InPlace
from bot.render.common import Message


class Steps:
    """What the test waits for and releases, one click at a time."""

    def __init__(self) -> None:
        self.go = asyncio.Event()  # the test: the deferral is on its way, update now
        self.updating = asyncio.Event()  # the cog: update() is called


class GoButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"inplace:go"):
    def __init__(self) -> None:
        super().__init__(discord.ui.Button(label="Go", custom_id="inplace:go"))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any, /
    ) -> GoButton:
        return cls()

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        steps: Steps = interaction.client.in_place_steps  # type: ignore[attr-defined]
        in_place = InPlace(interaction, within=0.0)  # the watch defers at once
        try:
            await steps.go.wait()
            steps.updating.set()
            await in_place.update(Message(content="Updated in place."))
        finally:
            await in_place.settle()
        await interaction.followup.send("Your own sentence.", ephemeral=True)


class InPlaceProbe(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        bot.in_place_steps = Steps()  # type: ignore[attr-defined]

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(GoButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(GoButton)

    @app_commands.command(name="inplace")
    async def inplace(self, interaction: discord.Interaction) -> None:
        """A message with a Go button answered in place."""
        view = discord.ui.View(timeout=None)
        view.add_item(GoButton())
        await interaction.response.send_message("Press Go.", view=view)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(InPlaceProbe(bot))
