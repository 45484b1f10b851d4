"""The replay viewer's buttons: Replay (on a finished table message or a /history answer) opens a private
viewer; First, Back, Forward and Last step it. Every step is the answer to its own click (a new ephemeral
message for Replay, an update of the viewer, response type 7, for the others): no channel message is written,
nothing is spent of the bot's rate budget. The buttons' ids name the table and the step (`bot.discord_out`
encodes a steering button's action), so a viewer opened before a restart steps on after it.
"""

from __future__ import annotations

import asyncio
import re
from typing import TYPE_CHECKING, Any

import discord

from bot.discord_out import REPLAY_ID, decode, discord_kwargs, encode
from bot.errors import guarded
from bot.i18n import resolve_locale
from bot.interactions import ANSWER_WITHIN, answer, ledger_guild, sessions_of
from bot.render.common import Action, Message
from bot.render.replay import OPEN

if TYPE_CHECKING:
    from bot.client import CardBot


class ReplayButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=REPLAY_ID.pattern):
    """A replay button; its custom id is all it needs (`cardreplay:<table>:<step>:<nav>`)."""

    def __init__(self, table_id: int, action: Action) -> None:
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=action.token, custom_id=encode(table_id, action, "replay")
        )
        super().__init__(button)
        self.table_id, self.step, self.opens = table_id, action.seq or 0, action.token == OPEN

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ReplayButton:
        decoded = decode(match.group(0), "replay")
        assert decoded is not None  # the template matched
        return cls(*decoded)

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        replays = sessions_of(interaction).replays
        locale = resolve_locale(interaction.locale)  # the clicker's language, whoever played
        task = asyncio.ensure_future(
            replays.step(self.table_id, self.step, guild_id=ledger_guild(interaction), locale=locale)
        )
        done, _ = await asyncio.wait({task}, timeout=ANSWER_WITHIN)
        if not done:
            # A long game replayed on a busy machine: acknowledge first (Discord allows 3 s), then show it.
            if self.opens:
                await interaction.response.defer(ephemeral=True, thinking=True)
            else:
                await interaction.response.defer()
        message: Message = await task  # a refusal goes on to `bot.errors`, worded in the reader's language
        if self.opens:
            await answer(interaction, message)
        elif interaction.response.is_done():
            await interaction.edit_original_response(**discord_kwargs(message, edit=True))
        else:
            await interaction.response.edit_message(**discord_kwargs(message, edit=True))


async def setup(bot: CardBot) -> None:
    bot.add_dynamic_items(ReplayButton)


async def teardown(bot: CardBot) -> None:
    bot.remove_dynamic_items(ReplayButton)
