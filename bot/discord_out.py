"""The Discord side of the session layer: Discord's renderer of composed words and `Message`s (references to
people, moments, channels and roles drawn as Discord's markup, the allowed mentions computed from them, a
control's action encoded as its custom id and decoded on a click), discord.py's send and edit arguments,
and `DiscordAnnouncer`, the presenter's `Announcer` (public messages, edits, deletions, DMs), with
Discord's error codes turned into the session layer's exceptions. The bot creates it with the session
manager."""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any, Literal

import discord

from bot import render
from bot.fit import fit
from bot.render.common import (
    CHANNEL,
    MOMENT,
    PERSON,
    Action,
    Button,
    Embed,
    EmbedField,
    Message,
    Steers,
    click,
    drawn,
    people,
)
from bot.sessions.errors import ChannelGone, DMClosed, EditExpired, MissingPermission
from storage.contract import Store

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
THREAD_ARCHIVED = 50083
THREAD_EXISTS = 160004  # "A thread has already been created for this message"
# Discord archives a thread idle this long (minutes); the bot unarchives it to write there again.
THREAD_ARCHIVE_MINUTES: Literal[1440] = 1440
INVALID_WEBHOOK_TOKEN = 50027


class _Layout(discord.ui.View):
    """Buttons laid out for sending only: clicks are handled by `TableButton`, never by a stored view."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    def is_dispatchable(self) -> bool:
        return False


_WRITTEN_MENTION = re.compile(r"<@!?([0-9]+)>")  # one a cog wrote itself (`Member.mention`)


def _markup(kind: str, value: str) -> str:
    if kind == PERSON:
        return f"<@{value}>"
    if kind == MOMENT:  # Discord writes it in each reader's own language
        at, _, style = value.partition(":")
        return f"<t:{at}:{style or 'R'}>"
    if kind == CHANNEL:
        return f"<#{value}>"
    return f"<@&{value}>"  # a role


def discord_words(words: str) -> str:
    """Composed words in Discord's markup: a person as his mention, a moment as `<t:...:R>`, a channel as
    `<#id>`, a role as `<@&id>` (the only place the bot writes them)."""
    return drawn(words, _markup)


def _drawn(text: str | None) -> str | None:
    return None if text is None else discord_words(text)


def discord_message(message: Message) -> Message:
    """A composed `Message` in Discord's words (every text a reader sees: content, embeds, labels, the
    picture's description); its `mentions` are cut to the people it names (nobody else can be pinged)."""
    named = {int(p) for text in message.texts() for p in people(text) if p.isdecimal()}
    named |= {int(i) for text in message.texts() for i in _WRITTEN_MENTION.findall(text)}  # a cog's own
    embeds = [
        Embed(
            title=_drawn(e.title),
            description=_drawn(e.description),
            footer=_drawn(e.footer),
            colour=e.colour,
            image=e.image,
            fields=[
                EmbedField(name=discord_words(f.name), value=discord_words(f.value), inline=f.inline)
                for f in e.fields
            ],
        )
        for e in message.embeds
    ]
    rows = [[b.model_copy(update={"label": discord_words(b.label)}) for b in row] for row in message.rows]
    picture = message.picture
    if picture is not None:
        picture = picture.model_copy(update={"alt": discord_words(picture.alt)})
    return message.model_copy(
        update={
            "content": _drawn(message.content),
            "embeds": embeds,
            "rows": rows,
            "picture": picture,
            "mentions": [i for i in message.mentions if i in named],
        }
    )


# ---- a control's action as its custom id, and back
#
# `cardtable:<table>:<token>[:<seq>]` for a table's buttons (and the Move dialog), and
# `cardreplay:<table>:<step>:<nav>` for a replay viewer's: the persistent ids every message ever sent carries,
# so they never change (a message from before a restart is clicked with the ids it was sent with).
TABLE_PREFIX, REPLAY_PREFIX = "cardtable", "cardreplay"
TABLE_ID = re.compile(rf"{TABLE_PREFIX}:(?P<table>[0-9]+):(?P<token>[A-Za-z0-9\-]+)(?::(?P<seq>[0-9]+))?")
REPLAY_ID = re.compile(
    rf"{REPLAY_PREFIX}:(?P<table>[0-9]{{1,20}}):(?P<seq>[0-9]{{1,6}}):(?P<token>open|first|back|forward|last)"
)
IDS: dict[Steers, re.Pattern[str]] = {"table": TABLE_ID, "replay": REPLAY_ID}


def encode(table_id: int, action: Action, steers: Steers = "table") -> str:
    """A control's action on `table_id` as its custom id."""
    if steers == "replay":
        return f"{REPLAY_PREFIX}:{table_id}:{action.seq or 0}:{action.token}"
    base = f"{TABLE_PREFIX}:{table_id}:{action.token}"
    return base if action.seq is None else f"{base}:{action.seq}"


def decode(custom_id: str, steers: Steers = "table") -> tuple[int, Action] | None:
    """A custom id `encode` made, as its table and action (None: another id)."""
    match = IDS[steers].fullmatch(custom_id)
    if match is None:
        return None
    seq = match["seq"]
    return int(match["table"]), click(match["token"], int(seq) if seq is not None else None)


def custom_id(button: Button) -> str:
    if button.table is None or button.action is None:
        raise ValueError(f"button {button.label!r} has no action to click")
    return encode(button.table, button.action, button.steers)


def discord_kwargs(message: Message, *, edit: bool = False) -> dict[str, Any]:
    """A composed `Message` as keyword arguments of discord.py's send/edit, in Discord's words, cut to
    Discord's limits."""
    message = fit(discord_message(message))
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
                if b.url is not None:  # a link button: it opens its page, Discord sends us nothing
                    view.add_item(discord.ui.Button(label=b.label, url=b.url, row=row_number))
                    continue
                view.add_item(
                    discord.ui.Button(
                        label=b.label,
                        custom_id=custom_id(b),
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


def note_languages(interaction: discord.Interaction) -> None:
    """Tell the sessions who reads in which language: the user (his DMs) and the server (the default
    language of its public messages). Every command, autocomplete and click passes here."""
    sessions = getattr(interaction.client, "sessions", None)
    if sessions is not None:
        sessions.languages.saw(
            interaction.user.id,
            interaction.locale,
            interaction.guild_id,
            interaction.guild_locale,
            display_name=getattr(interaction.user, "display_name", None),
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

    def __init__(
        self, client: discord.Client, store: Store, dm_channels: dict[int, int] | None = None
    ) -> None:
        self.bot = client
        self.store = store
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
            await self._unarchived(channel_id, lambda: partial.edit(**discord_kwargs(message, edit=True)))
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
            await self._unarchived(channel_id, partial.delete)
        except discord.NotFound:
            return  # already gone (someone deleted it by hand, or the channel): that is what we wanted
        except discord.HTTPException as exc:
            raise _http_failure(exc) from exc

    # ---- a thread per game (bot.sessions.threads, bot.sessions.homes)

    async def start_thread(self, channel_id: int, message_id: int, name: str) -> int:
        """A public thread on the message (discord.py's `Message.create_thread` needs the message's guild, a
        partial message has none: its HTTP call, as that method makes it)."""
        try:
            data = await self.bot.http.start_thread_with_message(
                channel_id, message_id, name=name, auto_archive_duration=THREAD_ARCHIVE_MINUTES
            )
        except discord.HTTPException as exc:
            if exc.code == THREAD_EXISTS:  # opened before a restart: a message's thread has the message's id
                return message_id
            if exc.code == MISSING_PERMISSIONS:
                raise MissingPermission("create_public_threads") from exc
            raise _http_failure(exc) from exc
        return int(data["id"])

    async def archive_thread(self, thread_id: int) -> None:
        await self._archive(thread_id, True)

    async def _archive(self, thread_id: int, archived: bool) -> None:
        try:
            await self.bot.http.edit_channel(thread_id, archived=archived)
        except discord.NotFound:
            return  # the thread was deleted: nothing left to archive (or to write in)
        except discord.HTTPException as exc:
            raise _http_failure(exc) from exc

    async def _unarchived(self, channel_id: int, call: Callable[[], Awaitable[Any]]) -> None:
        """A write in a thread Discord archived meanwhile (idle past its archive time) is refused: unarchive
        it, then write. Anywhere else the call is made once, as it is."""
        try:
            await call()
        except discord.HTTPException as exc:
            if exc.code != THREAD_ARCHIVED:
                raise
            log.info("thread %s was archived; unarchiving it to write", channel_id)
            await self._archive(channel_id, False)
            await call()

    # ---- interaction-only places (bot.sessions.places)

    async def edit_original(self, token: str, message: Message) -> bool:
        """A table message in an interaction-only place (a DM or group DM of a user install), edited through
        the token of the last interaction answered on it: the only way to change it there, for 15 minutes.
        False when Discord no longer takes the token (expired: 50027; the message gone)."""
        application_id = self.bot.application_id
        if application_id is None:
            return False
        webhook = discord.Webhook.partial(application_id, token, client=self.bot)
        try:
            # "@original": the interaction's own message (for a click answered in place, the table message).
            original: Any = "@original"
            await webhook.edit_message(original, **discord_kwargs(message, edit=True))
        except (discord.NotFound, discord.Forbidden):
            return False
        except discord.HTTPException as exc:
            if exc.status == 401 or exc.code == INVALID_WEBHOOK_TOKEN:
                return False
            raise
        return True

    def dm_requests(self, user_id: int) -> int:
        return 1 if user_id in self._dm_channels else 2

    async def _remember(self, user_id: int, channel_id: int) -> None:
        try:
            await self.store.remember_dm_channel(user_id, channel_id)
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
