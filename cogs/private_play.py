"""Malice where the bot may only answer interactions: a DM or group DM where the app is installed to a user
and no bot is a member (interaction contexts 1 and 2), or a server where only a user install authorises it.

There Discord refuses every channel call (403, code 50001), so (bot/sessions/places.py has the whole design):
- the table message is the answer to `/malice challenge` or to the "Challenge to Malice" menu
  (`open_here` in bot/interactions.py, which both share);
- it carries the buttons: Accept/Decline, then Move and My hand; every click on it is answered by updating it
  (type 7), which shows whatever happened meanwhile (the other player's moves, a timeout);
- Move opens a dialog only the mover sees (a modal: his hand and the board as text, his legal moves as
  selects); its submit is answered by updating the table message with the move (type 7);
- My hand and every refusal are ephemeral answers (My hand on a table message that is behind first updates
  it, the hand then a follow-up).
The dialog's id (`cardtable:<table>:pick:<seq>`) is handled here from the raw interaction, never by a modal
kept in memory, so a dialog opened before a restart still works after it.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from bot.discord_out import decode, discord_kwargs, discord_words, encode, note_languages
from bot.errors import report_error
from bot.games.refusal import Refusal
from bot.interactions import (
    ANSWER_WITHIN,
    answer,
    answer_click,
    answer_with_table,
    place_of,
    sessions_of,
)
from bot.render.compose import MOVE
from bot.render.rematch import TOKEN as REMATCH
from bot.sessions.errors import Text
from bot.sessions.places import INTERACTION, PICK, MoveDialog
from bot.sessions.rematch import STARTING

if TYPE_CHECKING:
    from bot.client import CardBot


async def open_move_dialog(interaction: discord.Interaction, table_id: int) -> bool:
    """The Move button (every running table's, in a server channel as in a DM): the mover's private dialog.
    False when the table is closed (the button's usual answer then shows its end on the table message)."""
    sessions = sessions_of(interaction)
    if not sessions.places.is_open(table_id):
        return False
    message = interaction.message
    if message is not None and not sessions.places.is_table_message(table_id, message.id):
        raise Refusal("table.old_message")  # an older table message (replaced since): not this one
    dialog = sessions.places.move_dialog(table_id, interaction.user.id, locale=interaction.locale)
    await interaction.response.send_modal(move_modal(dialog))
    return True


async def hand_here(interaction: discord.Interaction, table_id: int) -> bool:
    """My hand on a table message that is behind (a timeout, the others' moves): the click's answer updates
    the table message (type 7, and its token may edit it for a while), and the hand follows privately (one
    follow-up). False: the usual answer."""
    sessions = sessions_of(interaction)
    message = interaction.message
    if message is None or not sessions.places.behind(table_id):
        return False
    hand = sessions.click(table_id, interaction.user.id, "hand", None, locale=interaction.locale)
    # The hand follows privately whether or not the table message was updated (None: the table closed
    # meanwhile, and the update showed its end).
    await answer_click(interaction, table_id, hand, also=lambda result: result is not None)
    return True


async def rematch_here(interaction: discord.Interaction, table_id: int) -> bool:
    """Rematch on a DM's finished table: a click that is not the last updates the table message (who has
    clicked); the last one starts the rematch, and its answer is the new table's message (the bot may write
    nothing else there). False: the usual answer (a server channel)."""
    message = interaction.message
    if place_of(interaction) != INTERACTION or message is None:
        return False
    sessions = sessions_of(interaction)
    task = asyncio.ensure_future(
        sessions.click(table_id, interaction.user.id, REMATCH, None, locale=interaction.locale)
    )
    done, _ = await asyncio.wait({task}, timeout=ANSWER_WITHIN)
    if not done:
        await interaction.response.defer(thinking=True)  # public: the new table's message completes it
    result = await task
    new = result.params.get("table") if isinstance(result, Text) and result.key == STARTING else None
    if new is None:
        async with sessions.presenter.answers.update(table_id, message.id, interaction.token) as update:
            if update is not None and not interaction.response.is_done():
                await interaction.response.edit_message(**discord_kwargs(update, edit=True))
        if update is None or interaction.response.is_done():
            await answer(interaction, result)
        return True
    await answer_with_table(interaction, int(new), result)
    return True


def move_modal(dialog: MoveDialog) -> discord.ui.Modal:
    custom_id = encode(dialog.table_id, dialog.action)
    modal = discord.ui.Modal(title=dialog.title, custom_id=custom_id, timeout=None)
    modal.add_item(discord.ui.TextDisplay(discord_words(dialog.text)))
    several = len(dialog.moves) > 1
    for number, moves in enumerate(dialog.moves, start=1):
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"{PICK}{number}",
            options=[discord.SelectOption(label=discord_words(label), value=value) for label, value in moves],
            min_values=0 if several else 1,
            max_values=1,
            required=not several,
        )
        label = f"{dialog.label} ({number}/{len(dialog.moves)})" if several else dialog.label
        modal.add_item(discord.ui.Label(text=label[:45], component=select))
    # Answered from the raw interaction below (after a restart too), not by this object kept in memory.
    modal.stop()
    return modal


def picked_values(components: list[dict[str, Any]]) -> list[str]:
    """Every value chosen in a submitted modal's selects (inside their labels or rows)."""
    found: list[str] = []
    for component in components:
        found += [str(v) for v in component.get("values") or []]
        inner = component.get("component")
        found += picked_values([inner] if isinstance(inner, dict) else [])
        found += picked_values(component.get("components") or [])
    return found


async def submitted(interaction: discord.Interaction, table_id: int, seq: int) -> None:
    """The Move dialog's submit: the move, then its answer updates the table message (type 7; deferred with
    type 6 and edited through the webhook when it is not ready in time)."""
    data: dict[str, Any] = dict(interaction.data or {})
    picked = picked_values(list(data.get("components") or []))
    if len(picked) != 1:
        raise Refusal("dm.move.pick_one")
    user, sessions = interaction.user.id, sessions_of(interaction)
    # His receipt is built only if the table message's update fails (it shows his move): `Later`.
    move = sessions.click(table_id, user, picked[0], seq, locale=interaction.locale, receipt=False)
    await answer_click(interaction, table_id, move)


class PrivatePlay(commands.Cog):
    def __init__(self, bot: CardBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.table_hooks.install({MOVE: open_move_dialog, "hand": hand_here, REMATCH: rematch_here})

    async def cog_unload(self) -> None:
        self.bot.table_hooks.remove([MOVE, "hand", REMATCH])

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type is not discord.InteractionType.modal_submit:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        found = decode(str(data.get("custom_id", "")))
        if found is None or found[1].token != PICK or found[1].seq is None:
            return  # another modal's
        note_languages(interaction)
        try:
            await submitted(interaction, found[0], found[1].seq)
        except Exception as error:
            await report_error(interaction, error, where="the Move dialog")


async def setup(bot: CardBot) -> None:
    await bot.add_cog(PrivatePlay(bot))
