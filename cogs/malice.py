"""/malice: challenge, accept or decline, play cards, end the turn. Thin: the session and engine decide."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot import limits
from cogs.table import choices_for, game_command, respond, where

if TYPE_CHECKING:
    from bot.client import CardBot

KIND = "malice"


@app_commands.guild_only()
class Malice(commands.GroupCog, group_name="malice"):
    """Malice: a two-player Spite-and-Malice race."""

    def __init__(self, bot: CardBot) -> None:
        self.bot = bot
        super().__init__()

    async def _act(self, interaction: discord.Interaction, command: str, **params: object) -> None:
        await game_command(interaction, KIND, command, params)

    @app_commands.command(name="challenge")
    @app_commands.describe(
        opponent="who you challenge (challenge me to play the computer)",
        stake="chips per card of the score (default 1)",
        timeout="seconds per move before the turn is ended for you (default from the bot's settings)",
        turns="end the game after this many turns, scored as a stalemate (default 500)",
    )
    async def challenge(
        self,
        interaction: discord.Interaction,
        opponent: discord.User,
        stake: app_commands.Range[int, limits.STAKE.min, limits.STAKE.max] | None = None,
        timeout: app_commands.Range[int, limits.TURN_TIMEOUT.min, limits.TURN_TIMEOUT.max] | None = None,
        turns: app_commands.Range[int, limits.TURNS.min, limits.TURNS.max] | None = None,
    ) -> None:
        """Challenge someone to Malice in this channel."""

        async def challenge() -> str:
            table = await self.bot.sessions.challenge(
                interaction.guild_id or 0,
                *where(interaction),
                opponent.id,
                stake=stake,
                timeout=timeout,
                turns=turns,
                opponent_is_bot=opponent.bot,
            )
            if table.status == "running":
                return f"Table #{table.id}: the game against the computer started. Use /hand."
            return f"Table #{table.id}: challenge sent; waiting for {opponent.mention}."

        await respond(interaction, challenge)

    @app_commands.command(name="accept")
    async def accept(self, interaction: discord.Interaction) -> None:
        """Accept the challenge in this channel."""
        await respond(interaction, lambda: self.bot.sessions.accept(*where(interaction)))

    @app_commands.command(name="decline")
    async def decline(self, interaction: discord.Interaction) -> None:
        """Decline the challenge in this channel."""
        await respond(interaction, lambda: self.bot.sessions.decline(*where(interaction)))

    @app_commands.command(name="play")
    @app_commands.describe(
        card="a card in your hand (like 7H or JK), payoff, or side1-side4 (the top of that side stack)",
        to="centre (any stack that takes it), centre1-centre4, or side1-side4",
    )
    async def play(self, interaction: discord.Interaction, card: str, to: str) -> None:
        """Move one card: to the centre, or from your hand to a side stack (that ends your turn)."""
        await self._act(interaction, "play", card=card, to=to)

    @app_commands.command(name="end")
    async def end(self, interaction: discord.Interaction) -> None:
        """End your turn without a side play."""
        await self._act(interaction, "end")

    @play.autocomplete("card")
    async def _card(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice]:
        return choices_for(interaction, "play", "card", current)

    @play.autocomplete("to")
    async def _to(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice]:
        return choices_for(interaction, "play", "to", current)


async def setup(bot: CardBot) -> None:
    await bot.add_cog(Malice(bot))
