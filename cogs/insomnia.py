"""/insomnia: open a table, join, start, and every decision of a deal. Thin: the session and engine decide."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot import limits
from cogs.table import choices_for, game_command, respond, where

if TYPE_CHECKING:
    from bot.client import CardBot

KIND = "insomnia"


@app_commands.guild_only()
class Insomnia(commands.GroupCog, group_name="insomnia"):
    """Insomnia: dice, chips and tricks for 2 to 8 players."""

    def __init__(self, bot: CardBot) -> None:
        self.bot = bot
        super().__init__()

    async def _act(self, interaction: discord.Interaction, command: str, **params: object) -> None:
        await game_command(interaction, KIND, command, params)

    @app_commands.command(name="new")
    @app_commands.describe(
        chips="chips each player starts with (default 15)",
        deals="end the game after this many deals (default: until someone runs out)",
        timeout="seconds per decision before the safe default is played (default from the bot's settings)",
    )
    async def new(
        self,
        interaction: discord.Interaction,
        chips: app_commands.Range[int, limits.CHIPS.min, limits.CHIPS.max] | None = None,
        deals: app_commands.Range[int, limits.DEALS.min, limits.DEALS.max] | None = None,
        timeout: app_commands.Range[int, limits.TURN_TIMEOUT.min, limits.TURN_TIMEOUT.max] | None = None,
    ) -> None:
        """Open an Insomnia table in this channel (you are the host)."""

        async def open_table() -> str:
            table = await self.bot.sessions.open_insomnia(
                interaction.guild_id or 0, *where(interaction), chips=chips, deals=deals, timeout=timeout
            )
            return (
                f"Table #{table.id} is open: players join with the Join button or "
                "/insomnia join; you start it with Start or /insomnia start."
            )

        await respond(interaction, open_table)

    @app_commands.command(name="join")
    async def join(self, interaction: discord.Interaction) -> None:
        """Take a seat at the open table."""
        await respond(interaction, lambda: self.bot.sessions.join(*where(interaction)))

    @app_commands.command(name="leave")
    async def leave(self, interaction: discord.Interaction) -> None:
        """Leave the open table before it starts."""
        await respond(interaction, lambda: self.bot.sessions.leave(*where(interaction)))

    @app_commands.command(name="addbot")
    async def addbot(self, interaction: discord.Interaction) -> None:
        """Seat a computer player (the host)."""
        await respond(interaction, lambda: self.bot.sessions.add_computer(*where(interaction)))

    @app_commands.command(name="start")
    async def start(self, interaction: discord.Interaction) -> None:
        """Start the game (the host; 2 to 8 seats)."""
        await respond(interaction, lambda: self.bot.sessions.start(*where(interaction)))

    @app_commands.command(name="exchange")
    @app_commands.describe(card="the card to discard (you draw from the stock)")
    async def exchange(self, interaction: discord.Interaction, card: str) -> None:
        """Stage 1a: discard a card and draw one."""
        await self._act(interaction, "exchange", card=card)

    @app_commands.command(name="bid")
    @app_commands.describe(amount="chips to bid: more than the highest bid, at most your chips")
    async def bid(self, interaction: discord.Interaction, amount: app_commands.Range[str, 1, 20]) -> None:
        """Bid for re-throws in an auction."""
        await self._act(interaction, "bid", amount=amount)

    @app_commands.command(name="pass")
    async def pass_(self, interaction: discord.Interaction) -> None:
        """Decline: no (more) exchange, pass in the auction, or stop re-throwing."""
        await self._act(interaction, "pass")

    @app_commands.command(name="rethrow")
    @app_commands.describe(die="which die to throw again (1-4, left to right)")
    async def rethrow(self, interaction: discord.Interaction, die: app_commands.Range[str, 1, 20]) -> None:
        """Throw one die again (the auction winner)."""
        await self._act(interaction, "rethrow", die=die)

    @app_commands.command(name="play")
    @app_commands.describe(card="the card to play to the trick")
    async def play(self, interaction: discord.Interaction, card: str) -> None:
        """Stage 3: play a card to the trick."""
        await self._act(interaction, "play", card=card)

    @exchange.autocomplete("card")
    async def _exchange_card(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice]:
        return choices_for(interaction, "exchange", "card", current)

    @play.autocomplete("card")
    async def _play_card(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice]:
        return choices_for(interaction, "play", "card", current)

    @bid.autocomplete("amount")
    async def _bid_amount(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice]:
        return choices_for(interaction, "bid", "amount", current)

    @rethrow.autocomplete("die")
    async def _rethrow_die(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice]:
        return choices_for(interaction, "rethrow", "die", current)


async def setup(bot: CardBot) -> None:
    await bot.add_cog(Insomnia(bot))
