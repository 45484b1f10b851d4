"""A test-only cog (`extra_extensions=["tests.e2e.probe_cog"]`): commands that exercise every response kind,
the error paths and DMs, so the harness and the bot's error handling are tested without the game cogs."""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import SafeView, guarded
from bot.games.refusal import Refusal

FRUITS = ["apple", "banana", "cherry", "damson", "elderberry"]


class CounterView(SafeView):
    def __init__(self, count: int = 0) -> None:
        super().__init__(timeout=None)
        self.count = count

    @discord.ui.button(label="Count", custom_id="probe:count", style=discord.ButtonStyle.primary)
    async def count_up(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        self.count += 1
        await interaction.response.edit_message(content=f"Count: {self.count}", view=self)

    @discord.ui.button(label="Private", custom_id="probe:private")
    async def private(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.send_message(f"Only {interaction.user.name} sees this.", ephemeral=True)

    @discord.ui.button(label="Fail", custom_id="probe:fail", style=discord.ButtonStyle.danger)
    async def fail(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        raise RuntimeError("a bug in a button")

    @discord.ui.select(
        custom_id="probe:fruit",
        placeholder="Pick a fruit",
        options=[discord.SelectOption(label=f, value=f) for f in FRUITS[:3]],
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select[Any]) -> None:
        await interaction.response.send_message(f"You picked {select.values[0]}.", ephemeral=True)


class EchoButton(discord.ui.DynamicItem[discord.ui.Button], template=r"probe:echo:(?P<word>\w+)"):
    """A persistent button: it still works after the bot restarted."""

    def __init__(self, word: str) -> None:
        super().__init__(discord.ui.Button(label=f"Echo {word}", custom_id=f"probe:echo:{word}"))
        self.word = word

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> EchoButton:
        return cls(match["word"])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        if self.word == "boom":
            raise RuntimeError("a bug in a persistent button")
        if self.word == "no":
            raise Refusal("That button is not for you.")  # no catalogue key: shown as it is
        await interaction.response.send_message(f"echo {self.word}", ephemeral=True)


class Probe(commands.GroupCog, group_name="probe"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(EchoButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(EchoButton)

    @app_commands.command(name="boom")
    async def boom(self, interaction: discord.Interaction) -> None:
        """Raise an unexpected error."""
        raise RuntimeError("a bug in a command")

    @app_commands.command(name="late-boom")
    async def late_boom(self, interaction: discord.Interaction) -> None:
        """Defer, then raise an unexpected error."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        raise RuntimeError("a bug after deferring")

    @app_commands.command(name="mistake")
    async def mistake(self, interaction: discord.Interaction) -> None:
        """Raise a user mistake."""
        raise Refusal("You cannot do that now: wait for your turn.")

    @app_commands.command(name="staff")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def staff(self, interaction: discord.Interaction) -> None:
        """Only for Manage Server."""
        await interaction.response.send_message("staff only", ephemeral=True)

    @app_commands.command(name="say")
    async def say(self, interaction: discord.Interaction, text: str, private: bool = False) -> None:
        """Answer with a message."""
        await interaction.response.send_message(text, ephemeral=private)

    @app_commands.command(name="slow")
    async def slow(self, interaction: discord.Interaction, text: str) -> None:
        """Defer, then answer with a followup and a second one."""
        await interaction.response.defer(thinking=True)
        await interaction.followup.send(f"first: {text}")
        await interaction.followup.send(f"second: {text}", ephemeral=True)

    @app_commands.command(name="post")
    async def post(self, interaction: discord.Interaction, text: str) -> None:
        """Post a channel message, edit it, and confirm."""
        assert isinstance(interaction.channel, discord.abc.Messageable)
        await interaction.response.defer(ephemeral=True)
        message = await interaction.channel.send(f"draft: {text}", view=CounterView())
        await message.edit(content=f"final: {text}")
        await interaction.edit_original_response(content="posted")

    @app_commands.command(name="persistent")
    async def persistent(self, interaction: discord.Interaction, word: str) -> None:
        """A message with a persistent button."""
        view = discord.ui.View(timeout=None)
        view.add_item(EchoButton(word))
        await interaction.response.send_message("press it", view=view)

    @app_commands.command(name="dm")
    async def dm(self, interaction: discord.Interaction, text: str) -> None:
        """Send the caller a DM."""
        try:
            await interaction.user.send(text)
        except discord.Forbidden:
            await interaction.response.send_message("I cannot DM you; use /hand instead.", ephemeral=True)
            return
        await interaction.response.send_message("Sent you a DM.", ephemeral=True)

    @app_commands.command(name="fruit")
    async def fruit(self, interaction: discord.Interaction, name: str, count: int = 1) -> None:
        """Autocomplete a fruit."""
        await interaction.response.send_message(f"{count} {name}", ephemeral=True)

    @fruit.autocomplete("name")
    async def fruit_names(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=f.title(), value=f) for f in FRUITS if f.startswith(current.lower())]

    @app_commands.command(name="ping")
    async def ping(self, interaction: discord.Interaction, user: discord.User) -> None:
        """Mention someone without pinging, and someone else with a ping."""
        await interaction.response.send_message(
            f"quiet {user.mention}", allowed_mentions=discord.AllowedMentions.none()
        )
        await interaction.followup.send(f"loud {user.mention}")


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Probe(bot))
