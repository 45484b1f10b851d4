"""The table commands both games share (/hand, /table, /resign, /cancel, /history), the persistent buttons,
and the Discord side of the session manager (`DiscordAnnouncer`).

This cog owns the session manager's life: `setup` creates `bot.sessions` and registers the buttons,
`cog_load` resumes the games stored as open, `cog_unload` stops every timer. Buttons are `DynamicItem`s parsed
from `cardtable:<table_id>:<action>[:<seq>]`, so they keep working on a new bot process.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import render
from bot.errors import UserFacingError, guarded
from bot.fit import fit
from bot.i18n import t
from bot.i18n.cards import card_aliases, parse_card
from bot.render.common import Message
from bot.sessions import (
    ChannelGone,
    DMClosed,
    EditExpired,
    MissingPermission,
    NotAllowed,
    SessionManager,
)
from bot.sessions.errors import Text

if TYPE_CHECKING:
    from bot.client import CardBot

log = logging.getLogger(__name__)

STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}
DM_CLOSED = 50007
UNKNOWN_CHANNEL = 10003
MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013
EDIT_TOO_OLD = 30046


@contextlib.asynccontextmanager
async def user_errors(locale: object = "en") -> AsyncIterator[None]:
    """The session layer's `NotAllowed` becomes the bot's `UserFacingError`: one ephemeral sentence, worded
    in the reader's language (`interaction.locale`)."""
    try:
        yield
    except NotAllowed as exc:
        raise UserFacingError(exc.word(locale)) from None


def note_languages(interaction: discord.Interaction) -> None:
    """Tell the sessions who reads in which language: the user (his DMs) and the server (the default
    language of its public messages). Every command, autocomplete and click passes here."""
    sessions = getattr(interaction.client, "sessions", None)
    if sessions is not None:
        sessions.saw(interaction.user.id, interaction.locale, interaction.guild_id, interaction.guild_locale)


class _Layout(discord.ui.View):
    """Buttons laid out for sending only: clicks are handled by `TableButton`, never by a stored view."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    def is_dispatchable(self) -> bool:
        return False


def discord_kwargs(message: Message, *, edit: bool = False) -> dict[str, Any]:
    """A rendered `Message` as keyword arguments of discord.py's send/edit, cut to Discord's limits."""
    message = fit(message)
    kwargs: dict[str, Any] = {
        # An edit with no content must clear the old text (an empty string does; None may leave it).
        "content": message.content if message.content or not edit else "",
        "embeds": [_embed(e) for e in message.embeds],
        "allowed_mentions": discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(i) for i in message.mentions]
        ),
    }
    if message.rows:
        view = _Layout()
        for row_number, row in enumerate(message.rows):
            for b in row:
                view.add_item(
                    discord.ui.Button(
                        label=b.label,
                        custom_id=b.custom_id,
                        style=STYLES[b.style],
                        disabled=b.disabled,
                        row=row_number,
                    )
                )
        kwargs["view"] = view
    elif edit:
        kwargs["view"] = None
    # The picture rides on the same request as the text. An edit's `attachments` replaces the old picture
    # (or, with none, removes it); a send takes `files`. A File is read once, so each call makes a new one.
    files = [_file(message.picture)] if message.picture is not None else []
    if edit:
        kwargs["attachments"] = files
    elif files:
        kwargs["files"] = files
    return kwargs


def _file(picture: render.Picture) -> discord.File:
    return discord.File(io.BytesIO(picture.data), filename=picture.filename, description=picture.alt)


def _embed(data: render.Embed) -> discord.Embed:
    embed = discord.Embed(title=data.title, description=data.description, colour=data.colour)
    for f in data.fields:
        embed.add_field(name=f.name, value=f.value or "—", inline=f.inline)
    if data.footer:
        embed.set_footer(text=data.footer)
    if data.image:
        embed.set_image(url=data.image)
    return embed


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


ANSWER_WITHIN = 2.0  # seconds: a session call slower than this is deferred first (Discord allows 3)


async def respond(
    interaction: discord.Interaction, call: Callable[[], Awaitable[Message | Text | str | None]]
) -> None:
    """Run the session call and answer privately; a `NotAllowed` becomes its one sentence.

    The answer goes straight into the interaction's response (one call): the session answers from what it
    stored, without waiting for public messages, so this is normally a few milliseconds. Should it take
    longer (a busy database), the interaction is deferred before Discord's 3 s run out."""
    task = asyncio.ensure_future(call())
    done, _ = await asyncio.wait({task}, timeout=ANSWER_WITHIN)
    if not done:
        await interaction.response.defer(ephemeral=True, thinking=True)
    async with user_errors(interaction.locale):
        reply = await task
    await answer(interaction, reply)


async def game_command(
    interaction: discord.Interaction, kind: str, command: str, params: dict[str, Any]
) -> None:
    """A move by slash command: the session checks who may act, the engine whether the move is legal."""
    sessions = sessions_of(interaction)
    await respond(
        interaction,
        lambda: sessions.command(*where(interaction), kind, command, params, locale=interaction.locale),
    )


def _http_failure(exc: discord.HTTPException, *, sending_files: bool = False) -> Exception:
    """Discord's error codes as the session layer's exceptions (others stay as they are: retried later)."""
    if exc.code == UNKNOWN_CHANNEL:
        return ChannelGone(str(exc))
    if exc.code == MISSING_ACCESS:
        return MissingPermission("view_channel")
    if exc.code == MISSING_PERMISSIONS:
        return MissingPermission("attach_files" if sending_files else "send_messages")
    if exc.code == EDIT_TOO_OLD:
        return EditExpired(str(exc))
    return exc


class DiscordAnnouncer:
    """The presenter's `Announcer` on discord.py: public messages, in-place edits, deletions and DMs, with
    Discord's error codes turned into the session layer's exceptions."""

    def __init__(self, bot: CardBot, dm_channels: dict[int, int] | None = None) -> None:
        self.bot = bot
        # Each person's DM channel, once opened (kept in the store across restarts): a DM is then one request
        # (discord.py's own cache keeps only the last 128, and only in memory).
        self._dm_channels: dict[int, int] = dict(dm_channels or {})

    async def send(self, channel_id: int, message: Message) -> int:
        channel = self.bot.get_partial_messageable(channel_id)
        try:
            sent = await channel.send(**discord_kwargs(message))
        except discord.HTTPException as exc:
            raise _http_failure(exc, sending_files=bool(getattr(message, "picture", None))) from exc
        return sent.id

    async def edit(self, channel_id: int, message_id: int, message: Message) -> bool:
        partial = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
        try:
            await partial.edit(**discord_kwargs(message, edit=True))
        except discord.NotFound as exc:
            if exc.code == UNKNOWN_CHANNEL:
                raise ChannelGone(str(exc)) from exc
            return False
        except discord.HTTPException as exc:
            raise _http_failure(exc, sending_files=bool(getattr(message, "picture", None))) from exc
        return True

    async def delete(self, channel_id: int, message_id: int) -> None:
        partial = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
        try:
            await partial.delete()
        except discord.NotFound:
            return  # already gone (someone deleted it by hand, or the channel): that is what we wanted
        except discord.HTTPException as exc:
            raise _http_failure(exc) from exc

    def dm_requests(self, user_id: int) -> int:
        return 1 if user_id in self._dm_channels else 2

    async def _remember(self, user_id: int, channel_id: int) -> None:
        try:
            await self.bot.store.remember_dm_channel(user_id, channel_id)
        except Exception:  # only a saving lost: the channel is opened again after the next restart
            log.warning("could not keep the DM channel of %s", user_id, exc_info=True)

    async def dm(self, user_id: int, message: Message) -> None:
        try:
            channel_id = self._dm_channels.get(user_id)
            if channel_id is None:
                opened = await self.bot.create_dm(discord.Object(user_id))
                channel_id = self._dm_channels[user_id] = opened.id
                await self._remember(user_id, channel_id)
            channel = self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)
            await channel.send(**discord_kwargs(message))
        except discord.Forbidden as exc:
            if exc.code == DM_CLOSED:
                raise DMClosed(str(user_id)) from exc
            raise


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
        task = asyncio.ensure_future(
            sessions.click(
                self.table_id,
                interaction.user.id,
                self.action,
                self.seq,
                can_manage=can_manage(interaction),
                locale=interaction.locale,
            )
        )
        done, _ = await asyncio.wait({task}, timeout=ANSWER_WITHIN)
        if not done:
            await interaction.response.defer(ephemeral=True, thinking=True)
        async with user_errors(interaction.locale):
            result = await task
        if self.action in ("hand", "table") or interaction.response.is_done() or interaction.message is None:
            await answer(interaction, result)
            return
        # A click on the table message itself: its own response updates it (type 7), which costs no channel
        # write; the clicker's private answer follows as a followup.
        async with sessions.table_update(self.table_id, interaction.message.id) as update:
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
    namespace = {k: v for k, v in vars(interaction.namespace).items()}
    locale = interaction.locale
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
    """Commands for whatever game runs in this channel (the session's record of a table is `Table`)."""

    def __init__(self, bot: CardBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        resumed = await self.bot.sessions.resume_all()
        if resumed:
            log.info("resumed %d open tables", resumed)
        if self.bot.is_ready():  # loaded again on a running bot
            self.bot.sessions.start_presenting()

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

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        # No public write before the gateway is ready: resumed tables are refreshed from here, paced.
        self.bot.sessions.start_presenting()

    async def cog_unload(self) -> None:
        await self.bot.sessions.close()

    @app_commands.command(name="hand")
    @app_commands.guild_only()
    async def hand(self, interaction: discord.Interaction) -> None:
        """Your hand and what you can do now (only you see it)."""
        async with user_errors(interaction.locale):
            message = self.bot.sessions.hand(*where(interaction), locale=interaction.locale)
        await answer(interaction, message)

    @app_commands.command(name="table")
    @app_commands.guild_only()
    async def table(self, interaction: discord.Interaction) -> None:
        """The public state of this channel's game."""
        async with user_errors(interaction.locale):
            message = self.bot.sessions.table_view(interaction.channel_id or 0, locale=interaction.locale)
        await answer(interaction, message)

    @app_commands.command(name="resign")
    @app_commands.guild_only()
    async def resign(self, interaction: discord.Interaction) -> None:
        """Give up: in Insomnia a computer plays your seat (the result still counts); in Malice you lose."""
        await respond(interaction, lambda: self.bot.sessions.resign(*where(interaction)))

    @app_commands.command(name="cancel")
    @app_commands.guild_only()
    async def cancel(self, interaction: discord.Interaction) -> None:
        """End this channel's game now and settle it (the host or a server manager)."""
        await respond(
            interaction,
            lambda: self.bot.sessions.cancel(*where(interaction), can_manage=can_manage(interaction)),
        )

    @app_commands.command(name="history")
    @app_commands.guild_only()
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
        async with user_errors(interaction.locale):
            row, entries = await self.bot.sessions.history(interaction.channel_id or 0, game)
        pages = render.history_pages(row.kind, row.id, row.status, entries, locale=interaction.locale)
        chosen = pages[min(page, len(pages)) - 1]
        await answer(interaction, Message(embeds=[chosen]))


async def setup(bot: CardBot) -> None:
    if getattr(bot, "sessions", None) is None:
        bot.sessions = SessionManager(
            bot.store,
            DiscordAnnouncer(bot, await bot.store.dm_channels()),
            default_timeout=bot.settings.turn_timeout_seconds,
            bot_user_id=bot.user.id if bot.user else None,
            present_now=False,
            owns_guild=bot.settings.owns_guild,
            door=bot.ops.door if bot.ops is not None else None,  # the token's budget across processes
        )
    bot.add_dynamic_items(TableButton)
    await bot.add_cog(TableCommands(bot))


async def teardown(bot: CardBot) -> None:
    bot.remove_dynamic_items(TableButton)
    sessions = getattr(bot, "sessions", None)
    if sessions is not None:
        await sessions.close()
        del bot.sessions  # loaded again, setup makes a new one

