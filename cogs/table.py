"""The table commands every game shares (/hand, /table, /resign, /cancel, /history) and the persistent
buttons of a table.

The bot owns the session manager (`bot.sessions`, built in its `setup_hook`; its Discord side is
`bot.discord_out.DiscordAnnouncer`); this cog registers the buttons and asks the manager. Buttons are
`DynamicItem`s whose custom id (`cardtable:<table_id>:<action>[:<seq>]`) `bot.discord_out` encodes from the
button's structured action and decodes on a click, so they keep working on a new bot process; an action a cog
answers first is in the bot's `TableHooks`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import render
from bot.discord_out import TABLE_ID, decode, encode, note_languages
from bot.errors import guarded
from bot.i18n import t
from bot.interactions import (
    ANSWER_WITHIN,
    Answer,
    answer,
    answer_click,
    can_manage,
    hooks_of,
    respond,
    roles_of,
    room_of,
    sessions_of,
    where,
)
from bot.reading import history_ref
from bot.render.common import Message, click
from bot.render.replay import finished_rows
from bot.sessions.fairplay import excluded_at
from bot.sessions.links import with_links

if TYPE_CHECKING:
    from bot.client import CardBot

log = logging.getLogger(__name__)


class TableButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TABLE_ID.pattern):
    """Every button of a table: lobby, table message and hand. The custom id carries all it needs."""

    def __init__(self, table_id: int, action: str, seq: int | None = None) -> None:
        custom_id = encode(table_id, click(action, seq))
        super().__init__(discord.ui.Button(label=action, custom_id=custom_id))
        self.table_id = table_id
        self.action = action
        self.seq = seq

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TableButton:
        decoded = decode(match.group(0))
        assert decoded is not None  # the template matched
        table_id, action = decoded
        return cls(table_id, action.token, action.seq)

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        note_languages(interaction)
        # Actions a cog answers first (`bot.interactions.TableHooks`): the hook answers the click and returns
        # True, or False for the usual answer.
        hook = hooks_of(interaction).get(self.action)
        if hook is not None and await hook(interaction, self.table_id):
            return
        await answer_click(
            interaction,
            self.table_id,
            self._click(interaction),
            own_hand=True,
            in_place=self.action not in ("hand", "table"),
            also=lambda result: isinstance(result, Message),
        )

    async def _click(self, interaction: discord.Interaction) -> Answer:
        """The session's answer to this click (private: a hand, a sentence)."""
        task = asyncio.ensure_future(
            sessions_of(interaction).click(
                self.table_id,
                interaction.user.id,
                self.action,
                self.seq,
                can_manage=can_manage(interaction),
                roles=roles_of(interaction),
                locale=interaction.locale,
                room=room_of(interaction),
            )
        )
        if self.action not in ("hand", "table"):
            return await task  # answered in place: `InPlace` keeps the 3 s
        done, _ = await asyncio.wait({task}, timeout=ANSWER_WITHIN)
        if not done:
            await interaction.response.defer(ephemeral=True, thinking=True)
        return await task


def handled(
    bot: commands.Bot | commands.AutoShardedBot,
    component_type: int,
    custom_id: str,
    interaction: discord.Interaction,
) -> bool:
    """Whether discord.py has a handler for this component: a persistent button's template or a live view.
    (Its view store has no public lookup; this mirrors `ViewStore.dispatch_view`. A public list of the custom
    ids discord.py handles was asked for in Rapptz/discord.py#9005 and declined, so the private members are
    read here, in this one function, and nowhere else.) A persistent button is
    only dispatched when its id is on the interaction's message as it is now: a button an edit just removed
    (a click a moment before the table moved on), or a forged id, would otherwise get no answer at all."""
    store = bot._connection._view_store
    if any(pattern.fullmatch(custom_id) for pattern in store._dynamic_items) and _on_message(
        interaction, component_type, custom_id
    ):
        return True
    key = (component_type, custom_id)
    message_id = interaction.message.id if interaction.message is not None else None
    return key in store._views.get(message_id, {}) or key in store._views.get(None, {})


def _on_message(interaction: discord.Interaction, component_type: int, custom_id: str) -> bool:
    """Whether the interaction's message has this component now (what `ViewStore.schedule_dynamic_item_call`
    requires before it calls a persistent button)."""
    message = interaction.message
    if message is None:
        return False
    # The message's own components, walked as parsed (building a View of them for this cost a tenth of a
    # millisecond and more per click: bench_discord).
    return any(
        c.type.value == component_type and getattr(c, "custom_id", None) == custom_id
        for c in _walk(message.components)
    )


def _walk(components: Sequence[Any]) -> Iterator[Any]:
    """Every component in these, nested ones included (rows, sections, containers, an accessory)."""
    for component in components:
        yield component
        for nested in (getattr(component, "children", None), getattr(component, "components", None)):
            if isinstance(nested, list):
                yield from _walk(nested)
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            yield from _walk([accessory])


class TableCommands(commands.Cog):
    """Commands for whatever game runs in this channel."""

    def __init__(self, bot: CardBot) -> None:
        self.bot = bot

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A click on a component whose id no handler knows (forged, or from a retired version of the bot):
        one private sentence instead of Discord's "This interaction failed"."""
        if interaction.type is not discord.InteractionType.component:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        if handled(self.bot, int(data.get("component_type", 2)), str(data.get("custom_id", "")), interaction):
            return
        with contextlib.suppress(discord.HTTPException):
            await interaction.response.send_message(
                t(interaction.locale, "table.button_inactive"), ephemeral=True
            )

    @app_commands.command(name="hand")
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    async def hand(self, interaction: discord.Interaction) -> None:
        """Your hand and what you can do now (only you see it)."""
        message = self.bot.sessions.hand(*where(interaction), locale=interaction.locale)
        await answer(interaction, message)

    @app_commands.command(name="table")
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    async def table(self, interaction: discord.Interaction) -> None:
        """The public state of this channel's game."""
        message = self.bot.sessions.table_view(interaction.channel_id or 0, locale=interaction.locale)
        await answer(interaction, message)

    @app_commands.command(name="resign")
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    async def resign(self, interaction: discord.Interaction) -> None:
        """Give up: in Insomnia a computer plays your seat (the result still counts); in Malice you lose."""
        await respond(interaction, lambda: self.bot.sessions.life.resign(*where(interaction)))

    @app_commands.command(name="cancel")
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    async def cancel(self, interaction: discord.Interaction) -> None:
        """End this channel's game now and settle it (the host or a server manager)."""
        await respond(
            interaction,
            lambda: self.bot.sessions.cancel(
                *where(interaction), can_manage=can_manage(interaction), roles=roles_of(interaction)
            ),
        )

    @app_commands.command(name="history")
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.describe(
        game="insomnia, malice or a table number like #12 (default: the last game in this channel)",
        page="which page of the log (default: the first)",
    )
    async def history(
        self,
        interaction: discord.Interaction,
        game: str | None = None,
        page: app_commands.Range[int, 1, 1000] = 1,
    ) -> None:
        """A game's actions and chip movements, in order (only you see it)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        table_id, kind = history_ref(game)
        row, entries = await self.bot.sessions.replays.history(
            interaction.channel_id or 0, table_id=table_id, kind=kind
        )
        excluded = await excluded_at(self.bot.sessions.store, row)
        pages = render.history_pages(
            row.kind,
            row.id,
            row.status,
            entries,
            locale=interaction.locale,
            options=row.options,
            excluded=excluded,
        )
        chosen = pages[min(page, len(pages)) - 1]
        replay = finished_rows([], row.id, row.status, locale=interaction.locale)  # a finished game: Replay
        message = Message(embeds=[chosen], rows=replay)
        if self.bot.web is not None and row.status == "finished":  # and its page on the web
            link = await self.bot.web.link_to("replay", row.id, row.guild_id, interaction.locale)
            message = with_links(message, [link] if link else [])
        await answer(interaction, message)


async def setup(bot: CardBot) -> None:
    bot.add_dynamic_items(TableButton)
    await bot.add_cog(TableCommands(bot))


async def teardown(bot: CardBot) -> None:
    bot.remove_dynamic_items(TableButton)
