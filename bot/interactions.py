"""What every cog needs to answer an interaction: the session manager of the bot, who and where, the user's
rights as Discord tells them, the place of a table (a server channel the bot writes in, or an interaction-only
place), the one way to answer privately or run a session call within Discord's 3 seconds, and the one way to
open a table (a game's command, the challenge menu). Not a cog: the cogs share it instead of importing each
other (tests/test_layers.py checks that no cog imports another)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any

import discord
from discord import app_commands

from bot.discord_out import discord_kwargs, discord_words
from bot.games.refusal import Refusal
from bot.games.spec import GameSpec
from bot.i18n import resolve_locale
from bot.i18n.cards import card_aliases, parse_card
from bot.reading import engine_notation
from bot.render.common import Message
from bot.render.registry import PRESENTATIONS
from bot.sessions import SessionManager
from bot.sessions.errors import Later, Text
from bot.sessions.places import CHANNEL, INTERACTION
from bot.sessions.threads import NO_THREADS, Room


async def answer(interaction: discord.Interaction, message: Message | Text | Later | str | None) -> None:
    """The ephemeral answer to a command or click, whether or not it was deferred; a `Text` is worded in
    the user's language, a `Later` built now."""
    if isinstance(message, Later):
        message = message.build()
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


TableHook = Callable[[discord.Interaction, int], Awaitable[bool]]
"""A table button action a cog answers first: (the click, its table id) -> True when it answered the click,
False for the usual answer (the session's)."""


class TableHooks:
    """The table button actions that cogs answer first, by action (the Move button of a DM's table in
    cogs/private_play.py, Play here in cogs/activity.py). Made with the bot; a cog installs its hooks when
    it loads and removes them when it unloads, as a pair. One action has one hook: a second is a bug."""

    def __init__(self) -> None:
        self._hooks: dict[str, TableHook] = {}

    def install(self, hooks: Mapping[str, TableHook]) -> None:
        taken = sorted(set(hooks) & set(self._hooks))
        if taken:
            raise ValueError(f"table actions already hooked: {', '.join(taken)}")
        self._hooks.update(hooks)

    def remove(self, actions: Iterable[str]) -> None:
        for action in actions:
            self._hooks.pop(action, None)

    def get(self, action: str) -> TableHook | None:
        return self._hooks.get(action)


def hooks_of(interaction: discord.Interaction) -> TableHooks:
    """The bot's table hooks (an empty registry for a client that is no `CardBot`)."""
    hooks = getattr(interaction.client, "table_hooks", None)
    return hooks if isinstance(hooks, TableHooks) else TableHooks()


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
    return Room(can_thread=True, permitted=allowed.create_public_threads and allowed.send_messages_in_threads)


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
        lambda: sessions.moves.command(*where(interaction), kind, command, params, locale=interaction.locale),
    )


def place_of(interaction: discord.Interaction) -> str:
    """CHANNEL where the bot is in the server and may write (the guild install authorises the interaction
    there); INTERACTION anywhere else: its DMs, other DMs and group DMs, a server with only a user install."""
    if interaction.guild_id is not None and interaction.is_guild_integration():
        return CHANNEL
    return INTERACTION


def ledger_guild(interaction: discord.Interaction) -> int:
    """The guild a game here is stored under: the server's where the bot is in it, else 0 (its players')."""
    return interaction.guild_id or 0 if place_of(interaction) == CHANNEL else 0


# ------------------------------------------------------------------ opening a table
# Shared by the games' opening commands (cogs/games.py) and the challenge menu (cogs/challenge_menu.py),
# and, in an interaction-only place, by the Rematch there (cogs/private_play.py).


def check_opponent(interaction: discord.Interaction, opponent: discord.abc.User | None) -> None:
    """In a DM or group DM only someone in it can be challenged (or the bot: the computer). Discord names a
    private channel's members only sometimes: when it does not, nobody is refused here."""
    if opponent is None or interaction.guild_id is not None or opponent.id == interaction.user.id:
        return
    client_user = interaction.client.user
    if client_user is not None and opponent.id == client_user.id:
        return
    members = getattr(interaction.channel, "recipients", None) or []
    if members and opponent.id not in {m.id for m in members}:
        raise Refusal("dm.not_here", player=opponent.mention)


async def open_here(
    interaction: discord.Interaction, kind: str, options: dict[str, Any], opponent: discord.abc.User | None
) -> None:
    """A table in an interaction-only place: its message is this interaction's answer (public)."""
    check_opponent(interaction, opponent)
    sessions = sessions_of(interaction)
    channel_id, user_id = where(interaction)
    task = asyncio.ensure_future(
        sessions.open_table(
            kind,
            ledger_guild(interaction),
            channel_id,
            user_id,
            options=options,
            opponent=opponent.id if opponent is not None else None,
            opponent_is_bot=bool(opponent is not None and opponent.bot),
            place=INTERACTION,
            language=resolve_locale(interaction.locale),
        )
    )
    done, _ = await asyncio.wait({task}, timeout=ANSWER_WITHIN)
    if not done:
        await interaction.response.defer(thinking=True)  # public: the table message completes it
    record = await task
    await answer_with_table(interaction, record.id, None)


async def answer_with_table(
    interaction: discord.Interaction, table_id: int, otherwise: Message | Text | Later | None
) -> None:
    """The interaction's answer (or the follow-up completing its public deferral) is the new table's message,
    its id and the interaction's token recorded; `otherwise` when the table has no such message (closed
    meanwhile). If the answer fails, the table is closed: nobody saw it, it must not hold the place."""
    sessions = sessions_of(interaction)
    try:
        async with sessions.places.first_answer(table_id) as first:
            if first is None:
                await answer(interaction, otherwise)
                return
            kwargs = discord_kwargs(first.message)
            if interaction.response.is_done():
                sent = await interaction.followup.send(wait=True, **kwargs)
                first.sent(sent.id, interaction.token)
            else:
                callback = await interaction.response.send_message(**kwargs)
                first.sent(callback.message_id, interaction.token)
    except BaseException:
        await sessions.places.abandon(table_id)
        raise


async def open_game(
    interaction: discord.Interaction,
    spec: GameSpec,
    params: dict[str, Any],
    opponent: discord.abc.User | None,
) -> None:
    """Open a table of `spec` here (its opening command, or the challenge menu): in a server channel the
    table message follows, paced; in an interaction-only place (a DM or group DM of a user install) it is
    this interaction's answer."""
    if opponent is not None and not opponent.bot:  # the challenge carries his name: his seat is named at once
        sessions_of(interaction).languages.saw(opponent.id, None, display_name=opponent.display_name)
    if place_of(interaction) == INTERACTION:
        await open_here(interaction, spec.name, params, opponent)
        return
    commands = PRESENTATIONS[spec.name].commands
    if commands is None:
        raise LookupError(spec.name)  # only games with commands are opened by one
    opened = commands.opened

    async def open_table() -> Text:
        table = await sessions_of(interaction).open_table(
            spec.name,
            interaction.guild_id or 0,
            *where(interaction),
            options=params,
            opponent=opponent.id if opponent is not None else None,
            opponent_is_bot=bool(opponent is not None and opponent.bot),
            can_manage=can_manage(interaction),
            roles=roles_of(interaction),
            parent_id=parent_of(interaction),
            room=room_of(interaction),
        )
        key, said = opened(table.id, table.status, opponent.mention if opponent is not None else None)
        return Text(key, **said)

    await respond(interaction, open_table)


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
        out.append(app_commands.Choice(name=discord_words(label)[:100], value=str(value)[:100]))
    return out[:25]


def _matches(typed: str, label: str, value: str, locale: object) -> bool:
    if typed in label.lower() or typed in value.lower():
        return True
    try:
        card = parse_card(value)
    except ValueError:
        return False  # not a card (an amount, a die, a place): label and value were all there was
    return any(typed in alias for alias in card_aliases(card, locale))


# What the session says to a click: a private message (built now, or `Later`), a sentence, nothing.
Answer = Message | Text | Later | None


async def answer_click(
    interaction: discord.Interaction,
    table_id: int,
    click: Awaitable[Answer],
    *,
    in_place: bool = True,
    own_hand: bool = False,
    also: Callable[[Answer], bool] = lambda result: False,
) -> None:
    """THE way a click on a table's message is answered (every cog's button, My hand, the Move dialog's
    submit), exactly once: the session's answer to the click is awaited under `InPlace` (the click's own
    response updates the message it came from, type 7, or defers and edits it through the token when the
    update is not ready within Discord's 3 s); a move button of the clicker's private hand is answered by
    his new hand in place; otherwise the table message is updated with its newest state (counted shown by
    the presenter only when that succeeds). The private answer follows as a followup when nothing was shown
    in place, or when `also(result)` says it must (a hand that goes with the table's update).
    `in_place=False`: the answer is private alone (`/table`, My hand's own dialog); `own_hand`: a click may
    come from the clicker's private hand (a table button's)."""
    place = InPlace(interaction) if in_place else None
    shown = False
    try:
        result = await click
        message = interaction.message
        if place is not None and message is not None:
            if own_hand and message.flags.ephemeral and isinstance(result, Message):
                # A move button of the clicker's private hand: the hand is answered in place, his move with
                # it; the table message follows through the last token answered on it.
                try:
                    await place.update(result)
                    return
                except discord.DiscordServerError:
                    pass  # Discord failed the edit (a 5xx): the hand goes as a followup
            else:
                answers = sessions_of(interaction).presenter.answers
                updates = answers.update(table_id, message.id, interaction.token)
                shown = await shown_in_place(place, updates)
    finally:
        if place is not None:
            await place.settle()
    if not shown or also(result):
        await answer(interaction, result)  # a followup when the click was answered (`answer` knows)


async def shown_in_place(
    in_place: InPlace, updates: contextlib.AbstractAsyncContextManager[Message | None]
) -> bool:
    """Update the clicked message with the newest table message (`updates`: the presenter's
    `answers.update(...)`, which counts it shown only when this succeeds). False when there is none (the
    table message moved on) or Discord failed the update (a 5xx: the presenter writes the table message
    itself later): the click's private answer must then be sent, so the click is never left without one."""
    try:
        async with updates as update:
            if update is None:
                return False
            await in_place.update(update)
            return True
    except discord.DiscordServerError:
        return False


class InPlace:
    """A click's (or a dialog submit's) answer that updates the message it came from, within Discord's 3 s
    whatever happens meanwhile: if the update is not ready in time (a busy table, a picture still drawing),
    the click is deferred (type 6: nothing shown changes) and the update then edits `@original` through the
    interaction's webhook, which is as free of the rate limits as the answer itself."""

    def __init__(self, interaction: discord.Interaction, within: float = ANSWER_WITHIN) -> None:
        self.interaction = interaction
        self._lock = asyncio.Lock()
        waited = (discord.utils.utcnow() - interaction.created_at).total_seconds()
        # A timer, not a task asleep: nearly every click is answered in time, and a task per click (made,
        # woken to be cancelled) was work for nothing.
        delay = max(0.0, within - max(0.0, waited))
        self._watch: asyncio.Future[None] | None = None
        self._timer = asyncio.get_running_loop().call_later(delay, self._time_is_up)

    def _time_is_up(self) -> None:
        self._watch = asyncio.ensure_future(self._defer())

    async def _defer(self) -> None:
        async with self._lock:
            if not self.interaction.response.is_done():
                # Too late already (10062), or Discord refused it: the update meets that again and says so.
                with contextlib.suppress(discord.HTTPException):
                    await self.interaction.response.defer()

    async def _stop(self) -> None:
        """End the watch, holding the lock: a watch still asleep never defers, and a deferral in flight is
        awaited to its end, never cancelled. (A `defer()` cancelled while its request is on the way may
        reach Discord while discord.py never learns it was answered: the update after it would be a second
        initial answer, which Discord refuses with 40060.) Leaves the lock held: the caller's answer comes
        next, under it."""
        self._timer.cancel()
        await self._lock.acquire()
        if self._watch is not None:
            self._watch.cancel()

    async def update(self, message: Message) -> None:
        """Show `message` on the clicked message: the answer itself, or the edit after a deferral."""
        kwargs = discord_kwargs(message, edit=True)
        await self._stop()
        try:
            if self.interaction.response.is_done():
                await self.interaction.edit_original_response(**kwargs)
            else:
                await self.interaction.response.edit_message(**kwargs)
        finally:
            self._lock.release()

    async def settle(self) -> None:
        """No update after all: stop the watch (a private answer follows, as a followup if deferred)."""
        await self._stop()
        self._lock.release()
