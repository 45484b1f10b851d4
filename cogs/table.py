"""The table commands both games share (/hand, /table, /resign, /cancel, /history), the persistent buttons,
and the Discord side of the session manager (`DiscordAnnouncer`).

The bot owns the session manager (`bot.sessions`, created in its `setup_hook`); this cog registers the
buttons. Buttons are `DynamicItem`s parsed from `cardtable:<table_id>:<action>[:<seq>]`, so they keep working
on a new bot process.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import render
from bot.discord_out import discord_kwargs, note_languages
from bot.errors import guarded
from bot.i18n import t
from bot.i18n.cards import card_aliases, parse_card
from bot.reading import engine_notation, history_ref
from bot.render.common import Message
from bot.render.replay import finished_rows
from bot.sessions import SessionManager
from bot.sessions.errors import Text
from bot.sessions.links import with_links
from bot.sessions.threads import NO_THREADS, Room

if TYPE_CHECKING:
    from bot.client import CardBot

log = logging.getLogger(__name__)





async def answer(interaction: discord.Interaction, message: Message | Text | str | None) -> None:
    """The ephemeral answer to a command or click, whether or not it was deferred; a `Text` is worded in
    the user's language."""
    if message is None:
        message = Text("common.done")
    if isinstance(message, Text):
        message = message.word(interaction.locale)
    if isinstance(message, str):
        message = Message(content=message)
    kwargs = discord_kwargs(message)
    kwargs["allowed_mentions"] = discord.AllowedMentions.none()
    if "view" not in kwargs:
        kwargs["view"] = discord.utils.MISSING
    if interaction.response.is_done():
        await interaction.followup.send(ephemeral=True, **kwargs)
    else:
        await interaction.response.send_message(ephemeral=True, **kwargs)


def sessions_of(interaction: discord.Interaction) -> SessionManager:
    sessions: SessionManager = interaction.client.sessions  # type: ignore[attr-defined]
    return sessions


def where(interaction: discord.Interaction) -> tuple[int, int]:
    """The channel and the user of an interaction, the first two arguments of most session calls."""
    return interaction.channel_id or 0, interaction.user.id


def can_manage(interaction: discord.Interaction) -> bool:
    """Whether the user has Manage Server here (he may /cancel any table)."""
    return bool(interaction.permissions and interaction.permissions.manage_guild)


def room_of(interaction: discord.Interaction) -> Room:
    """What Discord says of the channel, for a game that may start in a thread of its own: a thread can be
    opened in a server's channel that is no thread itself, and the bot's permissions there (the
    interaction's `app_permissions`) must allow opening one and writing in it."""
    if interaction.guild_id is None or isinstance(interaction.channel, discord.Thread):
        return NO_THREADS
    allowed = interaction.app_permissions
    return Room(can_thread=True,
                permitted=allowed.create_public_threads and allowed.send_messages_in_threads)


def parent_of(interaction: discord.Interaction) -> int | None:
    """The channel of the thread the interaction comes from (None: not a thread)."""
    channel = interaction.channel
    return channel.parent_id if isinstance(channel, discord.Thread) else None


def roles_of(interaction: discord.Interaction) -> frozenset[int]:
    """The user's roles in this server (a server's host role may open and cancel games)."""
    roles = getattr(interaction.user, "roles", None) or ()
    return frozenset(role.id for role in roles)


ANSWER_WITHIN = 2.0  # seconds: a session call slower than this is deferred first (Discord allows 3)


async def respond(
    interaction: discord.Interaction, call: Callable[[], Awaitable[Message | Text | str | None]]
) -> None:
    """Run the session call and answer privately; a refusal becomes its one sentence (`bot.errors`).

    The answer goes straight into the interaction's response (one call): the session answers from what it
    stored, without waiting for public messages, so this is normally a few milliseconds. Should it take
    longer (a busy database), the interaction is deferred before Discord's 3 s run out."""
    task = asyncio.ensure_future(call())
    done, _ = await asyncio.wait({task}, timeout=ANSWER_WITHIN)
    if not done:
        await interaction.response.defer(ephemeral=True, thinking=True)
    reply = await task  # a refusal goes on to `bot.errors.report_error`, worded in the reader's language
    await answer(interaction, reply)


async def game_command(
    interaction: discord.Interaction, kind: str, command: str, params: dict[str, Any]
) -> None:
    """A move by slash command: the session checks who may act, the engine whether the move is legal."""
    sessions = sessions_of(interaction)
    params = engine_notation(params, interaction.locale)
    await respond(
        interaction,
        lambda: sessions.command(*where(interaction), kind, command, params, locale=interaction.locale),
    )


class TableButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"cardtable:(?P<table>[0-9]+):(?P<action>[A-Za-z0-9\-]+)(?::(?P<seq>[0-9]+))?",
):
    """Every button of a table: lobby, table message and hand. The custom id carries all it needs."""

    def __init__(self, table_id: int, action: str, seq: int | None = None) -> None:
        super().__init__(discord.ui.Button(label=action, custom_id=render.custom_id(table_id, action, seq)))
        self.table_id = table_id
        self.action = action
        self.seq = seq

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TableButton:
        seq = match["seq"]
        return cls(int(match["table"]), match["action"], int(seq) if seq is not None else None)

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        sessions = sessions_of(interaction)
        note_languages(interaction)
        # Actions a cog answers first (`bot.table_hooks`: the Move button of a DM's table, in
        # cogs/private_play.py): the hook answers the click and returns True, or False for the usual answer.
        hook = getattr(interaction.client, "table_hooks", {}).get(self.action)
        if hook is not None and await hook(interaction, self.table_id):
            return
        task = asyncio.ensure_future(
            sessions.click(
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
        done, _ = await asyncio.wait({task}, timeout=ANSWER_WITHIN)
        if not done:
            await interaction.response.defer(ephemeral=True, thinking=True)
        result = await task
        if self.action in ("hand", "table") or interaction.response.is_done() or interaction.message is None:
            await answer(interaction, result)
            return
        if interaction.message.flags.ephemeral and isinstance(result, Message):
            # A move button of the clicker's private hand: the hand is answered in place (type 7), his move
            # with it; the table message follows through the last token answered on it.
            await interaction.response.edit_message(**discord_kwargs(result, edit=True))
            return
        # A click on the table message itself: its own response updates it (type 7), which costs no channel
        # write; the clicker's private answer follows as a followup.
        async with sessions.table_update(self.table_id, interaction.message.id, interaction.token) as update:
            if update is not None:
                await interaction.response.edit_message(**discord_kwargs(update, edit=True))
        if update is None or isinstance(result, Message):
            await answer(interaction, result)


def choices_for(
    interaction: discord.Interaction, command: str, option: str, current: str
) -> list[app_commands.Choice[str]]:
    """Autocomplete: the caller's legal choices (from the engine, via the session), labelled in his language
    and filtered by his typing in either notation his locale reads (a German player's `dh` finds the queen
    of hearts); the values stay the engine's, with the move they were offered at."""
    locale = interaction.locale
    namespace = engine_notation(dict(vars(interaction.namespace)), locale)
    options = sessions_of(interaction).choices(
        interaction.channel_id or 0, interaction.user.id, command, option, namespace, locale=locale
    )
    typed = (current or "").strip().lower()
    out = []
    for label, value in options:
        if typed and not _matches(typed, label, str(value).split("@")[0], locale):
            continue
        out.append(app_commands.Choice(name=label[:100], value=str(value)[:100]))
    return out[:25]


def _matches(typed: str, label: str, value: str, locale: object) -> bool:
    if typed in label.lower() or typed in value.lower():
        return True
    try:
        card = parse_card(value)
    except ValueError:
        return False  # not a card (an amount, a die, a place): label and value were all there was
    return any(typed in alias for alias in card_aliases(card, locale))


def handled(
    bot: commands.Bot | commands.AutoShardedBot,
    component_type: int,
    custom_id: str,
    interaction: discord.Interaction,
) -> bool:
    """Whether discord.py has a handler for this component: a persistent button's template or a live view.
    (Its view store has no public lookup; this mirrors `ViewStore.dispatch_view`.) A persistent button is
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
    layout = discord.ui.LayoutView if message.flags.components_v2 else discord.ui.View
    view = layout.from_message(message, timeout=None)
    return any(
        item.type.value == component_type and getattr(item, "custom_id", None) == custom_id
        for item in view.walk_children()
    )


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
        await respond(interaction, lambda: self.bot.sessions.resign(*where(interaction)))

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
        row, entries = await self.bot.sessions.history(
            interaction.channel_id or 0, table_id=table_id, kind=kind
        )
        pages = render.history_pages(
            row.kind, row.id, row.status, entries, locale=interaction.locale, options=row.options
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
