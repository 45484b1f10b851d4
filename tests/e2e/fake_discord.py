"""A local fake of Discord (REST API and gateway) that the real, unmodified discord.py client talks to.

It keeps the state a real Discord keeps for one guild, or several (`add_guild`), each on the gateway
connection of its shard (members, channels and the threads the bot opens, synced commands, messages with their
components and edit history, interactions and their responses), records every REST call, and knows who saw
each message (`Visibility`). Tests drive it through `UserHandle`s (`fake.user("alice")`): `slash`, `click`,
`select`, `autocomplete`. The module docstring of tests/e2e/harness.py is the guide.

Discord's rules that a bot can break are checked here (message and embed limits, one response per
interaction, the right response type for the interaction type, and every request body against Discord's own
OpenAPI schema in tests/e2e/discord_api): a breach answers 400 like Discord does and is recorded in
`violations`, which fails the test at teardown. Words that still hold the bot's own references to a person, a
moment or a channel (which its Discord renderer draws as `<@id>`, `<t:...>`, `<#id>`) are a violation too.
So is any REST route this fake does not know (`unknown_routes`).

Discord's limits, which answer like Discord but are no violation (a bot must live with them):
- rate limits, only with `rate_limits=True`: 5 message writes per 5 s per channel (POST, PATCH and DELETE of
  its messages share the bucket; a DM channel is a channel), 50 requests/s in all (interaction callbacks and
  webhook followups excluded), `X-RateLimit-*` headers on every answer, 429 past them;
- always: a first interaction callback later than 3 s gets 404 / 10062, an interaction token older than 15 min
  401 / 50027, a message older than an hour takes `old_message_edit_allowance` (3) more edits, then 400 /
  30046. Time is the fake's clock (`now()`), which `advance(seconds)` moves on.
- user installs (`add_private_channel`): a DM or group DM without the bot, its interactions with context 2
  and only the user install authorising them; every channel REST call there 403 / 50001 (recorded in
  `refused_private_calls`), at most 5 follow-ups per interaction; a command is offered only where its
  `contexts` and `integration_types` say (`offered_here`); user commands (`UserHandle.user_command`) and
  modal submits (`UserHandle.submit`) as Discord sends them.
`rest_stats()` counts what the bot spent against the limits (on or off).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import json
import math
import random
import re
import secrets
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal, TypeVar
from urllib.parse import unquote

from aiohttp import WSMsgType, web
from jsonschema import Draft202012Validator, ValidationError

from tests.e2e.fake_activity import ENTRY_POINT_REMOVED, PRIMARY_ENTRY_POINT, ActivityFake

API_VERSION = 10
GUILD_ID = 800000000000000001  # on shard 1 of 2: (GUILD_ID >> 22) % 2 == 1
# The id `add_guild()` gives a second guild: on shard 0 of 2, so two shards each have a guild.
SECOND_GUILD_ID = 800000000004194305
APPLICATION_ID = 900000000000000001
DISCORD_EPOCH_MS = 1420070400000
DEFAULT_TIMEOUT = 10.0  # generous: a wait only lasts this long when the bot never answers

# Discord's limits (https://discord.com/developers/docs/topics/rate-limits and the interaction docs).
MESSAGE_WRITES_PER_CHANNEL = 5  # POST, PATCH and DELETE of a channel's messages share one bucket ...
MESSAGE_WRITES_PERIOD = 5.0  # ... per 5 seconds; a DM channel or a thread is a channel of its own
GLOBAL_REQUESTS_PER_SECOND = 50  # every bot-token request; interaction callbacks and webhooks are outside
ROUTE_REQUESTS_PER_SECOND = 50  # every other route: a bucket of its own that the global limit reaches first
INTERACTION_DEADLINE = 3.0  # seconds from dispatch to the first callback, else 10062 Unknown interaction
INTERACTION_TOKEN_LIFETIME = 15 * 60.0  # followups and edits through the token, else 50027
OLD_MESSAGE_AGE = 3600.0  # a message older than this ...
OLD_MESSAGE_EDIT_ALLOWANCE = 3  # ... takes this many more edits, then 30046
USER_INSTALL_FOLLOWUPS = 5  # follow-ups to one interaction that only a user install authorises
MESSAGE_WRITE_ROUTES = frozenset(
    {
        "POST /channels/{channel_id}/messages",
        "PATCH /channels/{channel_id}/messages/{message_id}",
        "DELETE /channels/{channel_id}/messages/{message_id}",
    }
)
SCHEMAS_PATH = Path(__file__).with_name("discord_api") / "request_schemas.json"

# Permission bits (https://discord.com/developers/docs/topics/permissions).
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
USE_EXTERNAL_EMOJIS = 1 << 18
ADD_REACTIONS = 1 << 6
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_GUILD = 1 << 5
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
THREAD_PERMISSIONS = CREATE_PUBLIC_THREADS | SEND_MESSAGES_IN_THREADS  # what a thread per game needs
THREAD_ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)  # minutes, the ones Discord takes
ADMINISTRATOR = 1 << 3
ALL_PERMISSIONS = (1 << 51) - 1
EVERYONE_PERMISSIONS = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_EXTERNAL_EMOJIS
    | ADD_REACTIONS
    | USE_APPLICATION_COMMANDS
)
# What the README's invite link grants the bot, and all it has here (the bot never reads a channel's history):
# View Channel, Send Messages, Embed Links, Attach Files. A test takes one away with
# `fake.bot_permissions &= ~ATTACH_FILES`, or grants more (`fake.bot_permissions |= THREAD_PERMISSIONS`).
BOT_PERMISSIONS = VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | ATTACH_FILES

# The guild's roles besides @everyone (whose id is the guild's), by name, with their id's offset from the
# guild id: Moderator has Manage Server (members with `manage_guild`), cardtable is the bot's managed role,
# and the plain roles any member may be given (`fake.give_role(alice, "Dealers")`) grant nothing themselves.
ROLE_OFFSETS = {"Moderator": 1, "cardtable": 2, "Dealers": 3, "Regulars": 4}
PLAIN_ROLES = ("Dealers", "Regulars")

PRIVILEGED_INTENTS = {1 << 1: "GUILD_MEMBERS", 1 << 8: "GUILD_PRESENCES", 1 << 15: "MESSAGE_CONTENT"}

EPHEMERAL = 1 << 6
LOADING = 1 << 7

# Interaction types and callback types.
APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 2, 3, 4, 5
CALLBACK_NAMES = {
    4: "message",
    5: "deferred",
    6: "deferred_update",
    7: "update",
    8: "autocomplete",
    9: "modal",
    12: "launch",
}

T = TypeVar("T")


def _iso(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).isoformat()


class FakeDiscordError(AssertionError):
    """A test asked the fake for something Discord would not allow (an unknown option, a missing button)."""


# ----------------------------------------------------------------------------------------------------
# Data: users, channels, messages


@dataclass
class FakeUser:
    id: int
    name: str
    bot: bool = False
    manage_guild: bool = False
    dms_closed: bool = False
    locale: str = "en-US"  # the client's language, sent with each of his interactions
    roles: set[str] = field(default_factory=set)  # plain roles of the guild he has (PLAIN_ROLES)
    display: str | None = None  # the name he shows (Discord's global name): his name capitalized if None

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.display or self.name.capitalize(),
            "discriminator": "0",
            "avatar": None,
            "public_flags": 0,
            "flags": 0,
        }
        if self.bot:
            data["bot"] = True
        return data


@dataclass
class FakeGuild:
    """A guild of the fake. Every member of the fake is a member of every guild."""

    id: int
    name: str
    owner_id: int


def shard_of(guild_id: int, shard_count: int) -> int:
    """Discord's formula: the shard whose gateway connection carries a guild's events."""
    return (guild_id >> 22) % shard_count


@dataclass
class FakeChannel:
    id: int
    name: str
    guild_id: int | None  # None for a DM channel
    recipient_id: int | None = None  # the user of a DM channel
    position: int = 0
    # A thread (type 11 public, 12 private) is a channel of its own under a parent text channel.
    type: int = 0
    parent_id: int | None = None
    owner_id: int | None = None
    archived: bool = False
    locked: bool = False
    created_at: float = 0.0
    auto_archive_duration: int = 1440
    # A DM (type 1) or group DM (type 3) between people, with no bot in it (`add_private_channel`): the app
    # reaches it only as installed to a user; its members are these.
    members: tuple[int, ...] = ()

    @property
    def without_bot(self) -> bool:
        return bool(self.members)

    @property
    def is_dm(self) -> bool:
        return self.guild_id is None

    @property
    def is_thread(self) -> bool:
        return self.type in (11, 12)

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def payload(self, fake: FakeDiscord) -> dict[str, Any]:
        if self.without_bot:
            return fake.private_channel_payload(self)
        if self.is_dm:
            recipient = fake.user_by_id(self.recipient_id or 0)
            return {
                "id": str(self.id),
                "type": 1,
                "last_message_id": None,
                "recipients": [recipient.payload()],
                "flags": 0,
            }
        if self.is_thread:
            return {
                "id": str(self.id),
                "type": self.type,
                "guild_id": str(self.guild_id),
                "parent_id": str(self.parent_id),
                "owner_id": str(self.owner_id),
                "name": self.name,
                "last_message_id": None,
                "rate_limit_per_user": 0,
                "message_count": 0,
                "member_count": 1,
                "total_message_sent": 0,
                "flags": 0,
                "thread_metadata": {
                    "archived": self.archived,
                    "auto_archive_duration": self.auto_archive_duration,
                    "archive_timestamp": _iso(self.created_at),
                    "locked": self.locked,
                    "create_timestamp": _iso(self.created_at),
                },
            }
        return {
            "id": str(self.id),
            "type": 0,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [],
            "nsfw": False,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "parent_id": None,
            "flags": 0,
        }


@dataclass(frozen=True)
class Visibility:
    """Who can see a message: everyone in a guild channel, one user (ephemeral), or one user's DM."""

    kind: Literal["public", "ephemeral", "dm"]
    channel_id: int
    user_id: int | None = None  # the one who sees an ephemeral or a DM
    members: frozenset[int] = frozenset()  # a public message of a DM or group DM: only its members see it

    def visible_to(self, user_id: int) -> bool:
        if self.kind == "public":
            return not self.members or user_id in self.members
        return self.user_id == user_id


@dataclass
class MessageVersion:
    """One state of a message: the first one, or what an edit made of it."""

    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]
    flags: int
    at: float

    @property
    def text(self) -> str:
        return message_text(self.content, self.embeds)


def message_text(content: str, embeds: list[dict[str, Any]]) -> str:
    """Everything a user reads in a message, as one string: content, then each embed's texts."""
    parts = [content]
    for embed in embeds:
        parts.append(embed.get("author", {}).get("name", ""))
        parts.append(embed.get("title", ""))
        parts.append(embed.get("description", ""))
        for f in embed.get("fields", []):
            parts.append(f.get("name", ""))
            parts.append(f.get("value", ""))
        parts.append(embed.get("footer", {}).get("text", ""))
    return "\n".join(p for p in parts if p)


@dataclass
class Component:
    """A button or select of a message, flattened out of its action rows."""

    type: int  # 2 button, 3 string select, 5 user select, ...
    custom_id: str | None
    label: str | None
    disabled: bool
    style: int | None
    options: list[dict[str, Any]]
    raw: dict[str, Any]


@dataclass
class FakeMessage:
    id: int
    channel_id: int
    guild_id: int | None
    author: FakeUser
    visibility: Visibility
    versions: list[MessageVersion]
    seq: int  # creation order over all messages of the fake
    pinged: frozenset[int] = frozenset()  # users notified by a mention when the message was sent
    attachments: list[dict[str, Any]] = field(default_factory=list)
    reactions: list[str] = field(default_factory=list)
    interaction_id: int | None = None  # the interaction this message answers, if any
    webhook: bool = False  # sent through an interaction webhook
    deleted: bool = False
    loading: bool = False  # a deferred response that has not been completed yet ("… is thinking")
    old_edits: int = 0  # edits made once the message was more than an hour old (Discord allows a few)

    # The current state.
    @property
    def current(self) -> MessageVersion:
        return self.versions[-1]

    @property
    def content(self) -> str:
        return self.current.content

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return self.current.embeds

    @property
    def components(self) -> list[dict[str, Any]]:
        return self.current.components

    @property
    def flags(self) -> int:
        return self.current.flags

    @property
    def text(self) -> str:
        """Content and embed texts of the current version (after every edit)."""
        return self.current.text

    @property
    def history(self) -> list[str]:
        """The text of every version, the first one first."""
        return [v.text for v in self.versions]

    @property
    def edited(self) -> bool:
        return len(self.versions) > 1

    @property
    def ephemeral(self) -> bool:
        return self.visibility.kind == "ephemeral"

    def visible_to(self, user: FakeUser | UserHandle | int) -> bool:
        return not self.deleted and self.visibility.visible_to(_user_id(user))

    def all_components(self) -> list[Component]:
        found: list[Component] = []

        def walk(items: Iterable[dict[str, Any]]) -> None:
            for item in items:
                if item.get("type") in (1, 9, 17):  # action row, section, container
                    walk(item.get("components", []))
                    if "accessory" in item:
                        walk([item["accessory"]])
                elif item.get("type") in (2, 3, 5, 6, 7, 8):
                    found.append(
                        Component(
                            type=item["type"],
                            custom_id=item.get("custom_id"),
                            label=item.get("label"),
                            disabled=bool(item.get("disabled")),
                            style=item.get("style"),
                            options=item.get("options", []),
                            raw=item,
                        )
                    )

        walk(self.components)
        return found

    @property
    def buttons(self) -> list[Component]:
        return [c for c in self.all_components() if c.type == 2]

    @property
    def button_labels(self) -> list[str]:
        return [c.label or c.custom_id or "" for c in self.buttons]

    def component(self, label_or_custom_id: str, *, kinds: tuple[int, ...] = (2,)) -> Component:
        candidates = [c for c in self.all_components() if c.type in kinds]
        for c in candidates:
            if c.custom_id == label_or_custom_id:
                return c
        by_label = [
            c
            for c in candidates
            if c.label == label_or_custom_id or c.raw.get("placeholder") == label_or_custom_id
        ]
        if len(by_label) == 1:
            return by_label[0]
        names = [c.label or c.raw.get("placeholder") or c.custom_id for c in candidates]
        if not by_label:
            raise FakeDiscordError(
                f"message {self.id} has no component {label_or_custom_id!r}; it has {names}"
            )
        raise FakeDiscordError(f"message {self.id} has several components labelled {label_or_custom_id!r}")

    def payload(self, fake: FakeDiscord) -> dict[str, Any]:
        v = self.current
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "type": 0,
            "content": v.content,
            "author": self.author.payload(),
            "timestamp": _iso(self.versions[0].at),
            "edited_timestamp": _iso(v.at) if self.edited else None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [
                fake.user_by_id(uid).payload() for uid in _mentioned_ids(v.content) if fake.knows(uid)
            ],
            "mention_roles": [],
            "attachments": self.attachments,
            "embeds": v.embeds,
            "reactions": [{"emoji": {"id": None, "name": r}, "count": 1, "me": True} for r in self.reactions],
            "pinned": False,
            "flags": v.flags,
            "components": v.components,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.webhook:
            data["webhook_id"] = str(fake.application_id)
            data["application_id"] = str(fake.application_id)
        return data

    def __repr__(self) -> str:
        short = self.text.replace("\n", " | ")
        return f"<FakeMessage {self.id} {self.visibility.kind} {short[:80]!r}>"


def _mentioned_ids(content: str) -> list[int]:
    return [int(m) for m in re.findall(r"<@!?(\d+)>", content)]


def _user_id(user: FakeUser | UserHandle | int) -> int:
    if isinstance(user, int):
        return user
    return user.id


def _undrawn_references(body: Any) -> list[str]:
    """Every string of a request body that still holds the render floor's references to a person, a moment or
    a channel (ASCII's SO ... SI): the bot's Discord renderer (`bot.discord_out`) draws them all as markup."""
    if isinstance(body, str):
        return [body] if "\x0e" in body or "\x0f" in body else []
    if isinstance(body, dict):
        return [s for v in body.values() for s in _undrawn_references(v)]
    if isinstance(body, list | tuple):
        return [s for v in body for s in _undrawn_references(v)]
    return []


@dataclass
class RecordedRequest:
    """One REST call the bot made, as the fake saw and answered it."""

    seq: int
    method: str
    path: str  # the path under the API base, e.g. /channels/12/messages
    route: str  # the route template, e.g. "POST /channels/{channel_id}/messages", or "?" when unknown
    query: dict[str, str]
    body: Any
    status: int = 0


@dataclass(frozen=True)
class RestCall:
    """One rate-limited REST call (everything but interaction callbacks and webhook followups)."""

    at: float  # the fake's clock (`fake.now()`), seconds since the epoch
    route: str  # the route template, e.g. "POST /channels/{channel_id}/messages"
    status: int
    bucket: str  # the bucket it counted against, e.g. "message writes 700000000000000002"


@dataclass
class RestStats:
    """What the bot spent against Discord's limits (`fake.rest_stats()`), whether the limits are on or not."""

    calls: list[RestCall]  # every rate-limited REST call, in order, 429s included
    answers_429: list[RestCall]  # every 429 the fake answered (rate limits, fail_next; callbacks included)
    error_codes: Counter[int]  # Discord error codes answered (10062, 30046, 50035, ...) and how often

    @property
    def total(self) -> int:
        return len(self.calls)

    @property
    def sent_429(self) -> int:
        return len(self.answers_429)

    @property
    def global_429(self) -> int:
        return sum(1 for c in self.answers_429 if c.bucket == "global")

    def by_route(self) -> Counter[str]:
        return Counter(c.route for c in self.calls)

    def times(self, route: str) -> list[float]:
        """When each call of one route template was made (the fake's clock)."""
        return [c.at for c in self.calls if c.route == route]

    def per_second(self) -> Counter[int]:
        """How many calls each second of the fake's clock (whole epoch seconds) received."""
        return Counter(int(c.at) for c in self.calls)

    def peak(self, window: float = 1.0) -> int:
        """The most calls made within any `window` seconds (any window, not only whole seconds)."""
        times = sorted(c.at for c in self.calls)
        best, start = 0, 0
        for end, t in enumerate(times):
            while t - times[start] >= window:
                start += 1
            best = max(best, end - start + 1)
        return best


@dataclass
class _Bucket:
    """A Discord rate-limit bucket: `limit` requests in a window that starts with the first request after the
    previous window ended (what the X-RateLimit-Reset-After header promises discord.py)."""

    key: str  # which resource it limits, e.g. "message writes 700000000000000002"
    hash: str  # the X-RateLimit-Bucket value: one per kind of bucket, so discord.py shares it between routes
    limit: int
    period: float
    count: int = 0
    reset_at: float = 0.0

    def roll(self, now: float) -> None:
        if now >= self.reset_at:
            self.count = 0
            self.reset_at = now + self.period

    def headers(self, now: float) -> dict[str, str]:
        reset_after = max(0.0, self.reset_at - now)
        return {
            "X-RateLimit-Limit": str(self.limit),
            "X-RateLimit-Remaining": str(max(0, self.limit - self.count)),
            # Reset is wall-clock epoch seconds (a client compares it with its own clock).
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": self.hash,
        }


@dataclass
class Failure:
    route: str
    status: int
    times: int
    retry_after: float
    code: int


@dataclass
class RandomFailures:
    """`fail_randomly`'s switch: which routes fail, how often, how, and what was injected so far."""

    routes: frozenset[str]
    rate: float
    statuses: tuple[int, ...]
    rng: random.Random
    retry_after: float
    injected: Counter[int] = field(default_factory=Counter)  # status -> how many answered so far


@dataclass
class Choice:
    name: str
    value: Any


@dataclass
class _Connection:
    """One identified gateway connection: a shard of `count`, and the sequence number of its last event."""

    ws: web.WebSocketResponse
    shard_id: int
    count: int
    seq: int = 0


@dataclass
class InteractionState:
    """What the fake knows of one interaction: who made it, how the bot answered, the messages it caused."""

    id: int
    token: str
    type: int
    user: FakeUser
    channel_id: int
    description: str  # e.g. "/insomnia new" or "click 'Join'", for error messages
    source_message_id: int | None = None  # the message whose component was used
    callback_type: int | None = None
    original_message_id: int | None = None
    deferred_ephemeral: bool = False
    followup_ids: list[int] = field(default_factory=list)
    choices: list[Choice] | None = None
    modal: dict[str, Any] | None = None
    dispatched_at: float = 0.0  # the fake's clock when the bot was sent the interaction
    refused: str | None = None  # why Discord refused the bot's answer (10062 for a late first callback)
    second_answers: int = 0  # initial responses after the first, each refused with 400 / 40060
    completed: bool = False  # a deferral (type 5 or 6) was followed by its edit of @original or a followup
    _waiting_for_deferred: bool = False

    @property
    def finished(self) -> bool:
        """The user has seen an answer (a deferred response counts once its message is completed)."""
        return self.callback_type is not None and not self._waiting_for_deferred

    @property
    def deferred_unanswered(self) -> bool:
        """Deferred and never answered: a "thinking" message never completed, or a deferred update (type 6)
        followed by nothing (neither the clicked message edited nor a followup): the user saw nothing."""
        return self.callback_type in (5, 6) and not self.completed


class Reply:
    """What a user got back from one interaction. Attributes stay live: followups sent later appear here."""

    def __init__(self, fake: FakeDiscord, state: InteractionState) -> None:
        self._fake = fake
        self._state = state

    @property
    def interaction(self) -> InteractionState:
        """The fake's record of the interaction (its id, token, when it was dispatched)."""
        return self._state

    @property
    def kind(self) -> str:
        """`message`, `deferred`, `deferred_update`, `update`, `autocomplete` or `modal`."""
        return CALLBACK_NAMES.get(self._state.callback_type or 0, "none")

    @property
    def message(self) -> FakeMessage | None:
        """The message this interaction answered with (for `update`: the message that was updated)."""
        mid = self._state.original_message_id
        return self._fake.messages.get(mid) if mid is not None else None

    @property
    def followups(self) -> list[FakeMessage]:
        return [self._fake.messages[m] for m in self._state.followup_ids]

    @property
    def messages(self) -> list[FakeMessage]:
        """The response message (if any) and every followup, in order."""
        first = [self.message] if self.message is not None and self.kind != "update" else []
        return first + self.followups

    @property
    def ephemeral(self) -> bool:
        msg = self.message
        return msg is not None and msg.ephemeral

    @property
    def text(self) -> str:
        """The text of the response message and its followups (what the user read in reply)."""
        return "\n".join(m.text for m in self.messages)

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return [e for m in self.messages for e in m.embeds]

    @property
    def modal(self) -> dict[str, Any] | None:
        return self._state.modal

    def __repr__(self) -> str:
        return f"<Reply {self._state.description} {self.kind} {self.text[:80]!r}>"


# ----------------------------------------------------------------------------------------------------
# Message and command validation (the limits Discord enforces with a 400)


def _check_message(body: dict[str, Any], *, edit: bool = False) -> list[str]:
    problems: list[str] = []
    content = body.get("content") or ""
    embeds = body.get("embeds") or []
    components = body.get("components") or []
    if len(content) > 2000:
        problems.append(f"content is {len(content)} characters (max 2000)")
    if len(embeds) > 10:
        problems.append(f"{len(embeds)} embeds (max 10)")
    total = 0
    for i, e in enumerate(embeds):
        limits = [
            ("title", e.get("title") or "", 256),
            ("description", e.get("description") or "", 4096),
            ("footer.text", (e.get("footer") or {}).get("text") or "", 2048),
            ("author.name", (e.get("author") or {}).get("name") or "", 256),
        ]
        fields = e.get("fields") or []
        if len(fields) > 25:
            problems.append(f"embed {i} has {len(fields)} fields (max 25)")
        for j, f in enumerate(fields):
            limits.append((f"fields[{j}].name", f.get("name") or "", 256))
            limits.append((f"fields[{j}].value", f.get("value") or "", 1024))
            if not f.get("name") or not f.get("value"):
                problems.append(f"embed {i} field {j} has an empty name or value")
        for name, text, limit in limits:
            total += len(text)
            if len(text) > limit:
                problems.append(f"embed {i} {name} is {len(text)} characters (max {limit})")
    if total > 6000:
        problems.append(f"embeds total {total} characters (max 6000)")
    rows = [c for c in components if c.get("type") == 1]
    if len(rows) > 5:
        problems.append(f"{len(rows)} action rows (max 5)")
    ids: list[str] = []
    for r, row in enumerate(rows):
        children = row.get("components") or []
        if not children or len(children) > 5:
            problems.append(f"action row {r} has {len(children)} components (1 to 5)")
        if any(c.get("type") != 2 for c in children) and len(children) > 1:
            problems.append(f"action row {r} mixes a select with other components")
        for c in children:
            if c.get("custom_id") is not None:
                ids.append(c["custom_id"])
                if len(c["custom_id"]) > 100:
                    problems.append(f"custom_id {c['custom_id'][:20]}… is longer than 100 characters")
            if c.get("type") == 2:
                if len(c.get("label") or "") > 80:
                    problems.append(f"button label {c.get('label')!r} is longer than 80 characters")
                if c.get("style") == 5:
                    if not c.get("url") or c.get("custom_id"):
                        problems.append("a link button needs a url and no custom_id")
                elif c.get("style") != 6 and not c.get("custom_id"):
                    problems.append("a button without custom_id")
                if not c.get("label") and not c.get("emoji"):
                    problems.append("a button without label or emoji")
            if c.get("type") == 3:
                options = c.get("options") or []
                if not 1 <= len(options) <= 25:
                    problems.append(f"select {c.get('custom_id')} has {len(options)} options (1 to 25)")
                for o in options:
                    if len(o.get("label") or "") > 100 or len(o.get("value") or "") > 100:
                        problems.append(f"select option {o.get('label')!r} is longer than 100 characters")
    if len(ids) != len(set(ids)):
        problems.append(f"duplicate custom_id in one message: {ids}")
    if not edit and not content and not embeds and not components and not body.get("attachments"):
        problems.append("cannot send an empty message")
    return problems


_NAME_RE = re.compile(r"^[-_\w]{1,32}$")


def _check_commands(commands: list[dict[str, Any]]) -> list[str]:
    problems: list[str] = []

    def check_options(where: str, options: list[dict[str, Any]]) -> None:
        if len(options) > 25:
            problems.append(f"{where} has {len(options)} options (max 25)")
        seen_optional = False
        for o in options:
            name = o.get("name", "")
            if not _NAME_RE.match(name) or name != name.lower():
                problems.append(f"{where} option name {name!r} is not a valid lower-case name")
            if not 1 <= len(o.get("description") or "") <= 100:
                problems.append(f"{where} {name}: description must be 1 to 100 characters")
            if o.get("type") in (1, 2):
                check_options(f"{where} {name}", o.get("options") or [])
            else:
                if o.get("required") and seen_optional:
                    problems.append(f"{where}: required option {name} after an optional one")
                seen_optional = seen_optional or not o.get("required")
                if len(o.get("choices") or []) > 25:
                    problems.append(f"{where} {name}: more than 25 choices")
                if o.get("choices") and o.get("autocomplete"):
                    problems.append(f"{where} {name}: choices and autocomplete together")

    names = [c.get("name") for c in commands]
    if len(names) != len(set(zip(names, [c.get("type", 1) for c in commands], strict=True))):
        problems.append(f"duplicate command names: {names}")
    for c in commands:
        name = c.get("name", "")
        if c.get("type", 1) in (2, 3):
            problems += _check_context_menu(c)
            continue
        if not _NAME_RE.match(name):
            problems.append(f"command name {name!r} is invalid")
        if c.get("type") == PRIMARY_ENTRY_POINT:
            if c.get("handler") not in (1, 2) or c.get("options"):
                problems.append(f"entry point {name}: a handler (1 or 2) and no options")
            if sum(1 for other in commands if other.get("type") == PRIMARY_ENTRY_POINT) > 1:
                problems.append("more than one Entry Point command")
        if c.get("type", 1) == 1:
            if not 1 <= len(c.get("description") or "") <= 100:
                problems.append(f"/{name}: description must be 1 to 100 characters")
            check_options(f"/{name}", c.get("options") or [])
    return problems


def _check_context_menu(command: dict[str, Any]) -> list[str]:
    """A user or message command (type 2, 3, the userinstall helper's): a name of 1 to 32 characters (spaces
    and capitals allowed, in every language), no description and no options."""
    problems = []
    names = [command.get("name") or "", *(command.get("name_localizations") or {}).values()]
    for name in names:
        if not 1 <= len(name) <= 32 or name != name.strip():
            problems.append(f"context menu name {name!r} must be 1 to 32 characters")
    if command.get("description") or command.get("description_localizations"):
        problems.append(f"context menu {command.get('name')!r} has a description (Discord takes none)")
    if command.get("options"):
        problems.append(f"context menu {command.get('name')!r} has options (Discord takes none)")
    return problems


# ----------------------------------------------------------------------------------------------------
# Request bodies against Discord's own OpenAPI schemas (tests/e2e/discord_api, extracted by
# scripts/extract_discord_schema.py)


def _strict(node: Any) -> Any:
    """Discord's schemas as the fake applies them: an object takes only the fields Discord describes (the spec
    leaves `additionalProperties` open, but a field Discord does not know is a bug in the bot), and an integer
    is accepted wherever Discord types a snowflake id as a decimal string (discord.py sends ints, Discord
    takes both)."""
    if isinstance(node, list):
        return [_strict(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _strict(value) for key, value in node.items()}
    if "oneOf" in out:
        # Discord's unions are told apart by a `type` (or null against an object), so "one of" and "any of"
        # accept the same bodies; any-of stops at the first match instead of trying all seven component kinds,
        # which makes a message body about ten times cheaper to check (the fake runs in the bot's event loop).
        branches = out.pop("oneOf")
        if "anyOf" in out:
            out["allOf"] = [*out.get("allOf", []), {"anyOf": branches}]
        else:
            out["anyOf"] = branches
    types = out.get("type")
    is_object = types == "object" or (isinstance(types, list) and "object" in types)
    if is_object and "properties" in out and "additionalProperties" not in out:
        out["additionalProperties"] = False
    if out.get("format") == "snowflake" and out.get("type") == "string":
        out = {"anyOf": [out, {"type": "integer", "minimum": 0}]}
    return out


@functools.cache
def _request_schemas() -> dict[str, Any]:
    return json.loads(SCHEMAS_PATH.read_text())


@functools.cache
def _body_validator(route: str) -> Draft202012Validator | None:
    """The validator of a route's request body, or None when Discord's route takes no body."""
    document = _request_schemas()
    schema = document["routes"][route]["schema"]
    if schema is None:
        return None
    # The route's schema and the components it points into, as one document, so "#/components/..." resolves.
    return Draft202012Validator({**_strict(schema), "components": _strict_components()})


# Fields discord.py sends in every such body that Discord's (preview) OpenAPI description leaves out, while
# Discord takes them: without these the strict check would refuse every bot built on discord.py, not a bug of
# this one. Each entry says why it is safe; anything else unknown stays a violation.
SPEC_GAPS: dict[str, dict[str, Any]] = {
    # Documented on the application command object ("nsfw?: boolean", age-restricted command).
    "ApplicationCommandUpdateRequest": {"nsfw": {"type": ["boolean", "null"]}},
    # Embed flags, sent back by Embed.to_dict() as Discord delivered them (0 for a new embed).
    "RichEmbed": {"flags": {"type": ["integer", "null"]}},
    # handle_message_parameters() puts "tts" in every message body, edits included, where Discord ignores it.
    "MessageEditRequestPartial": {"tts": {"type": ["boolean", "null"]}},
    "IncomingWebhookUpdateRequestPartial": {"tts": {"type": ["boolean", "null"]}},
    "IncomingWebhookUpdateForInteractionCallbackRequestPartial": {"tts": {"type": ["boolean", "null"]}},
}


@functools.cache
def _strict_components() -> dict[str, Any]:
    components = json.loads(json.dumps(_request_schemas()["components"]))
    for name, fields in SPEC_GAPS.items():
        components["schemas"][name]["properties"].update(fields)
    return _strict(components)


@functools.cache
def body_routes() -> frozenset[str]:
    """The route templates whose request bodies are checked against Discord's schemas."""
    return frozenset(_request_schemas()["routes"])


def _describe(error: ValidationError) -> str:
    where = "/".join(str(p) for p in error.absolute_path) or "the body"
    if error.validator in ("maxLength", "minLength") and isinstance(error.instance, str):
        bound = "max" if error.validator == "maxLength" else "min"
        return f"{where} is {len(error.instance)} characters ({bound} {error.validator_value})"
    if error.validator in ("maxItems", "minItems") and isinstance(error.instance, list):
        bound = "max" if error.validator == "maxItems" else "min"
        return f"{where} has {len(error.instance)} items ({bound} {error.validator_value})"
    if error.validator in ("anyOf", "oneOf"):
        kind = f" (type {error.instance['type']!r})" if isinstance(error.instance, dict) else ""
        return f"{where}{kind} is none of the {len(error.validator_value)} forms Discord accepts there"
    message = error.message if len(error.message) <= 200 else error.message[:200] + "…"
    return f"{where}: {message}"


def _is_other_branch(errors: list[ValidationError]) -> bool:
    """Whether a union branch failed only because the value is of another kind (null where an object is,
    a button where the branch is for selects): its `type` or discriminator does not match."""
    return any(
        (e.validator == "type" and not e.relative_path)
        or (e.validator in ("enum", "const") and list(e.relative_path) == ["type"])
        for e in errors
    )


def _explain(error: ValidationError) -> list[ValidationError]:
    """The errors that say what is wrong: inside a union (a component is one of seven kinds, a field null or
    an object), the errors of the branch the value was meant for."""
    if error.validator not in ("anyOf", "oneOf") or not error.context:
        return [error]
    branches: dict[Any, list[ValidationError]] = {}
    for sub in error.context:
        branches.setdefault(sub.relative_schema_path[0], []).append(sub)
    meant = [errs for errs in branches.values() if not _is_other_branch(errs)]
    if len(meant) != 1:
        return [error]
    return [leaf for sub in meant[0] for leaf in _explain(sub)]


def check_body(route: str, body: Any) -> list[str]:
    """What Discord's schema for `route` refuses in `body` (the JSON body, or a multipart's payload_json)."""
    if route not in body_routes():
        return []
    validator = _body_validator(route)
    if validator is None:
        return [] if body is None else ["this route takes no body"]
    if body is None:
        required = _request_schemas()["routes"][route]["required"]
        return ["a body is required"] if required else []
    found = [leaf for error in validator.iter_errors(body) for leaf in _explain(error)]
    return list(dict.fromkeys(_describe(e) for e in found))[:5]


# ----------------------------------------------------------------------------------------------------
# The server


Handler = Callable[[web.Request, dict[str, str], Any], Awaitable[web.StreamResponse]]


class FakeDiscord(ActivityFake):
    """One fake Discord, with one guild unless `add_guild()` adds more. Start with `await fake.start()`; stop
    with `await fake.stop()`.

    Shards: each gateway connection identifies as `shard: [id, count]` (no shard: [0, 1]) and gets READY and
    GUILD_CREATE for its shard's guilds only ((guild_id >> 22) % count == id); a guild's events and
    interactions go to the connection of its shard, DMs to shard 0's, as on Discord. `shard_count` is what
    GET /gateway/bot recommends (1 unless set)."""

    def __init__(
        self,
        *,
        token: str = "fake-bot-token",
        member_names: Iterable[str] = (),
        rate_limits: bool = False,
        shard_count: int = 1,
    ) -> None:
        self.token = token
        self.shard_count = shard_count
        # Discord's rate limits: off by default, so a bot that does not pace itself yet still runs; the
        # interaction deadlines, the old-message edit allowance and the body schemas always apply.
        self.rate_limits = rate_limits
        self.old_message_edit_allowance = OLD_MESSAGE_EDIT_ALLOWANCE
        self.interaction_deadline = INTERACTION_DEADLINE
        self._clock_offset = 0.0
        self._buckets: dict[str, _Bucket] = {}
        self._global_bucket = _Bucket("global", "global", GLOBAL_REQUESTS_PER_SECOND, 1.0)
        self._rest_calls: list[RestCall] = []
        self._answers_429: list[RestCall] = []
        self._error_codes: list[tuple[float, int]] = []  # (when, Discord error code) of each error answered
        self._ids = itertools.count(1)
        self._seq = itertools.count(1)
        self.application_id = APPLICATION_ID
        self.bot_user = FakeUser(self.application_id, "cardtable", bot=True)
        self.guild_id = GUILD_ID
        self.guild_name = "Card Club"
        # What the bot may do in the guild's channels (a test takes a permission away to see the bot cope).
        self.bot_permissions = BOT_PERMISSIONS
        self.guild_locale = "en-US"  # the server's preferred locale, sent with every interaction
        self.members: dict[str, FakeUser] = {}
        for name in member_names or ("alice", "bob", "carol", "dave", "erin", "frank"):
            self.add_member(name)
        # erin moderates: she has Manage Server (for /cancel and other staff checks); she also owns the guild.
        self.members["erin"].manage_guild = True
        self.owner_id = self.members["erin"].id
        self.guilds: dict[int, FakeGuild] = {
            self.guild_id: FakeGuild(self.guild_id, self.guild_name, self.owner_id)
        }
        self.channels: dict[str, FakeChannel] = {}
        for position, name in enumerate(("general", "games", "lounge")):
            cid = 700000000000000001 + position
            self.channels[name] = FakeChannel(cid, name, self.guild_id, position=position)
        self.dm_channels: dict[int, FakeChannel] = {}  # user id -> DM channel
        self.private_channels: dict[int, FakeChannel] = {}  # DMs and group DMs without the bot (user install)
        self.refused_private_calls: list[str] = []  # channel REST calls tried there (each refused 50001)
        self.threads: dict[int, FakeChannel] = {}  # thread id -> thread, in creation order
        self._channel_index: dict[int | str, FakeChannel] = {}  # see channel()
        self._user_index: dict[int, FakeUser] = {}  # see user_by_id()
        self.messages: dict[int, FakeMessage] = {}
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self._command_ids: dict[tuple[int | None, str, int], int] = {}
        self.interactions: dict[int, InteractionState] = {}
        self._by_token: dict[str, InteractionState] = {}
        self.requests: list[RecordedRequest] = []
        self.uploads: dict[str, bytes] = {}  # attachment id -> the file's bytes (see attachment_bytes)
        self.unknown_routes: list[str] = []
        self.violations: list[str] = []
        self.failures: list[Failure] = []
        self.random_failures: RandomFailures | None = None  # see fail_randomly()
        # Callback type -> an event: a callback of that type is taken, but its answer reaches the bot only
        # once the event is set (a request still on its way back, as on a slow network).
        self.callback_gates: dict[int, asyncio.Event] = {}
        self.identifies: list[dict[str, Any]] = []
        self.gateway_events: list[tuple[str, dict[str, Any]]] = []
        self.shard_events: list[tuple[int, str, dict[str, Any]]] = []  # the same, with the shard sent on
        self.default_timeout = DEFAULT_TIMEOUT
        self._version_seqs: dict[tuple[int, int], int] = {}  # (message, version count) -> seq of that edit
        self._changed = asyncio.Event()
        # Live gateway connections by shard id, with each one's shard count and event sequence number.
        self._shards: dict[int, _Connection] = {}
        self.gateway_refused = False  # see drop_gateway()
        self._runner: web.AppRunner | None = None
        self.port = 0
        self._routes: list[tuple[str, re.Pattern[str], str, Handler]] = []
        self._install_routes()
        self._init_activity()

    # ---- the clock (time the bot cannot see pass: message ages, interaction deadlines, rate-limit windows)

    def now(self) -> float:
        """The fake's clock: wall-clock seconds since the epoch, plus every `advance()`."""
        return time.time() + self._clock_offset

    def advance(self, seconds: float) -> None:
        """Move the fake's clock on: messages grow older, interactions and tokens closer to expiry, rate-limit
        windows closer to their reset. The bot's own clock is untouched."""
        if seconds < 0:
            raise FakeDiscordError("the fake's clock only moves forward")
        self._clock_offset += seconds
        self._notify()

    # ---- what the bot spent against the limits

    def rest_stats(self, since: float | None = None) -> RestStats:
        """Rate-limited REST calls and 429s so far (or since `since`, a `fake.now()` value)."""
        start = since if since is not None else -math.inf
        return RestStats(
            calls=[c for c in self._rest_calls if c.at >= start],
            answers_429=[c for c in self._answers_429 if c.at >= start],
            error_codes=Counter(code for at, code in self._error_codes if at >= start),
        )

    # ---- people and places

    def add_member(self, name: str, **flags: Any) -> FakeUser:
        user = FakeUser(100000000000000000 + len(self.members) + 1, name, **flags)
        self.members[name] = user
        return user

    def add_guild(
        self,
        name: str = "Dice Den",
        channels: Iterable[str] = ("den-general", "den-games"),
        *,
        guild_id: int = 0,
    ) -> FakeGuild:
        """Another guild (by default on shard 0 of 2, the first guild being on shard 1), with text channels of
        its own (named unlike every other guild's, since tests find channels by name). Every member is in it;
        erin owns it. Add guilds before the bot connects: a connection learns its guilds at READY."""
        gid = guild_id or SECOND_GUILD_ID + (len(self.guilds) - 1) * 2 * (1 << 22)
        if gid in self.guilds:
            raise FakeDiscordError(f"the guild {gid} exists already")
        guild = self.guilds[gid] = FakeGuild(gid, name, self.members["erin"].id)
        for position, channel_name in enumerate(channels):
            if channel_name in self.channels:
                raise FakeDiscordError(f"a channel is called {channel_name!r} already")
            self.channels[channel_name] = FakeChannel(self._snowflake(), channel_name, gid, position=position)
        return guild

    def guild_of(self, channel: str | int | FakeChannel) -> FakeGuild:
        """The guild of a guild channel or thread."""
        found = self.channel(channel)
        if found.guild_id is None:
            raise FakeDiscordError(f"{found.id} is a DM channel, in no guild")
        return self.guilds[found.guild_id]

    def user(self, name: str) -> UserHandle:
        if name not in self.members:
            raise FakeDiscordError(f"no member {name!r}; the guild has {sorted(self.members)}")
        return UserHandle(self, self.members[name])

    def user_by_id(self, user_id: int) -> FakeUser:
        if user_id == self.bot_user.id:
            return self.bot_user
        known = self._user_index.get(user_id)  # remembered while the guild still has him (see channel())
        if known is not None and self.members.get(known.name) is known:
            return known
        for u in self.members.values():
            if u.id == user_id:
                self._user_index[user_id] = u
                return u
        raise FakeDiscordError(f"no user with id {user_id}")

    def knows(self, user_id: int) -> bool:
        try:
            return self.user_by_id(user_id) is not None
        except FakeDiscordError:
            return False

    def channel(self, name_or_id: str | int | FakeChannel) -> FakeChannel:
        if isinstance(name_or_id, FakeChannel):
            return name_or_id
        # Every request looks its channel up: a scan of thousands (a bench's tables and their people's DMs)
        # per request made the fake, not the bot, the slow side. Found ones are remembered by id (unique),
        # and trusted only while their collection still holds them.
        known = self._channel_index.get(name_or_id)
        if known is not None and known.id == name_or_id and self._holds(known):
            return known
        if isinstance(name_or_id, str):
            named = self.channels.get(name_or_id)
            if named is not None and named.name == name_or_id:
                return named
        for c in [
            *self.channels.values(),
            *self.threads.values(),
            *self.dm_channels.values(),
            *self.private_channels.values(),
        ]:
            if name_or_id in (c.name, c.id):
                if c.id == name_or_id:
                    self._channel_index[c.id] = c
                return c
        raise FakeDiscordError(f"no channel {name_or_id!r}; the guild has {sorted(self.channels)}")

    def _holds(self, channel: FakeChannel) -> bool:
        return (
            self.channels.get(channel.name) is channel
            or self.threads.get(channel.id) is channel
            or self.private_channels.get(channel.id) is channel
            or self.dm_channels.get(channel.recipient_id or 0) is channel
        )

    def close_dms(self, user: FakeUser | UserHandle | str) -> None:
        """From now on, messages to this user's DM channel fail with 403 / 50007 (as when DMs are closed)."""
        self._resolve_user(user).dms_closed = True

    def _resolve_user(self, user: FakeUser | UserHandle | str | int) -> FakeUser:
        if isinstance(user, UserHandle):
            return user.user
        if isinstance(user, FakeUser):
            return user
        if isinstance(user, str):
            return self.members[user]
        return self.user_by_id(user)

    # ---- failure switches

    def fail_next(
        self, route: str, status: int, *, times: int = 1, retry_after: float = 0.05, code: int = 0
    ) -> None:
        """Answer the next `times` calls of `route` (a template such as
        "POST /channels/{channel_id}/messages", as in `RecordedRequest.route`) with `status`: a 429 carries
        `retry_after`, other statuses a Discord error body with `code`."""
        known = {template for _, _, template, _ in self._routes}
        if route not in known:
            raise FakeDiscordError(f"unknown route {route!r}; known routes: {sorted(known)}")
        self.failures.append(Failure(route, status, times, retry_after, code))

    def fail_randomly(
        self,
        routes: Iterable[str],
        *,
        rate: float,
        statuses: Iterable[int] = (500, 503),
        seed: int | str = 0,
        retry_after: float = 0.05,
    ) -> RandomFailures:
        """From now on, answer each call of `routes` (templates, e.g. MESSAGE_WRITE_ROUTES) with a failure at
        probability `rate`: a status drawn from `statuses` (a 429 carries `retry_after`). Fixed `seed`: the
        same calls in the same order fail the same way. `stop_failing()` ends it; the returned record counts
        what was injected (`.injected`, a Counter of statuses)."""
        known = {template for _, _, template, _ in self._routes}
        routes = frozenset(routes)
        if routes - known:
            raise FakeDiscordError(f"unknown routes {sorted(routes - known)}; known routes: {sorted(known)}")
        injected = self.random_failures.injected if self.random_failures is not None else Counter()
        self.random_failures = RandomFailures(
            routes, rate, tuple(statuses), random.Random(seed), retry_after, injected
        )
        return self.random_failures

    def stop_failing(self) -> None:
        """End `fail_randomly` (what it injected stays counted in the record it returned)."""
        self.random_failures = None

    # ---- what the bot did

    def calls(self, route: str | None = None) -> list[RecordedRequest]:
        """Recorded REST calls, optionally only those of one route template."""
        return [r for r in self.requests if route is None or r.route == route]

    def all_messages(self) -> list[FakeMessage]:
        return sorted((m for m in self.messages.values() if not m.deleted), key=lambda m: m.seq)

    def channel_messages(self, channel: str | int | FakeChannel = "games") -> list[FakeMessage]:
        """The public messages of a channel (current state; `.history` has every version), oldest first."""
        cid = self.channel(channel).id
        return [m for m in self.all_messages() if m.visibility.kind == "public" and m.channel_id == cid]

    def public_messages(self) -> list[FakeMessage]:
        return [m for m in self.all_messages() if m.visibility.kind == "public"]

    def ephemerals(self, user: FakeUser | UserHandle | str) -> list[FakeMessage]:
        uid = self._resolve_user(user).id
        return [
            m for m in self.all_messages() if m.visibility.kind == "ephemeral" and m.visibility.user_id == uid
        ]

    def dms(self, user: FakeUser | UserHandle | str) -> list[FakeMessage]:
        uid = self._resolve_user(user).id
        return [m for m in self.all_messages() if m.visibility.kind == "dm" and m.visibility.user_id == uid]

    def seen_by(self, user: FakeUser | UserHandle | str) -> list[FakeMessage]:
        """Every message this user can see: public ones, his ephemerals, his DMs."""
        uid = self._resolve_user(user).id
        return [m for m in self.all_messages() if m.visible_to(uid)]

    def mark(self) -> int:
        """A point in time; pass it as `since=` to only consider messages created or edited after it."""
        return next(self._seq)

    # ---- waiting (never fixed sleeps: wake up on every change, give up after a generous timeout)

    def _notify(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_for(
        self, predicate: Callable[[], T], *, timeout: float | None = None, what: str = "the condition"
    ) -> T:
        """Wait until `predicate()` returns something truthy (re-checked on every change); return it."""
        deadline = time.monotonic() + (timeout or self.default_timeout)
        while True:
            result = predicate()
            if result:
                return result
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise FakeDiscordError(f"timed out waiting for {what}; last calls: {self._last_calls()}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), remaining)

    async def wait_for_message(
        self,
        *,
        channel: str | int | FakeChannel | None = None,
        contains: str | None = None,
        visible_to: FakeUser | UserHandle | str | None = None,
        kind: Literal["public", "ephemeral", "dm"] | None = None,
        since: int | None = None,
        predicate: Callable[[FakeMessage], bool] | None = None,
        timeout: float | None = None,
    ) -> FakeMessage:
        """Wait for a message (current version) matching every given criterion; return the latest match.
        `since` (from `mark()`) only accepts messages created or edited after that mark."""
        cid = self.channel(channel).id if channel is not None else None
        uid = self._resolve_user(visible_to).id if visible_to is not None else None

        def match() -> FakeMessage | None:
            for m in reversed(self.all_messages()):
                if m.loading:
                    continue
                if cid is not None and m.channel_id != cid:
                    continue
                if uid is not None and not m.visible_to(uid):
                    continue
                if kind is not None and m.visibility.kind != kind:
                    continue
                if since is not None and self._version_seq(m) < since:
                    continue
                if contains is not None and contains not in m.text:
                    continue
                if predicate is not None and not predicate(m):
                    continue
                return m
            return None

        what = f"a message (channel={channel}, contains={contains!r}, visible_to={visible_to}, kind={kind})"
        return await self.wait_for(match, timeout=timeout, what=what)

    def _version_seq(self, m: FakeMessage) -> int:
        return self._version_seqs.get((m.id, len(m.versions)), m.seq)

    def _last_calls(self, n: int = 6) -> list[str]:
        return [f"{r.method} {r.path} -> {r.status}" for r in self.requests[-n:]]

    # ---- gateway

    @property
    def connected(self) -> bool:
        """Some gateway connection is open (any shard)."""
        return bool(self.connected_shards())

    def connected_shards(self) -> set[int]:
        """The shard ids with an open, identified gateway connection."""
        return {sid for sid, c in self._shards.items() if not c.ws.closed}

    async def drop_gateway(self) -> None:
        """The gateway goes away: every connection is closed and new ones are refused (503) until
        `restore_gateway()`. REST goes on answering."""
        self.gateway_refused = True
        for conn in list(self._shards.values()):
            if not conn.ws.closed:
                await conn.ws.close(code=1001, message=b"Going away.")
        self._notify()

    def restore_gateway(self) -> None:
        self.gateway_refused = False

    def _connection_for(self, guild_id: int | None) -> _Connection | None:
        # A guild's events go to the connection of its shard (by that connection's own shard count); DMs and
        # events of no guild to shard 0, as on Discord.
        for sid, conn in self._shards.items():
            if conn.ws.closed:
                continue
            if guild_id is None and sid == 0:
                return conn
            if guild_id is not None and shard_of(guild_id, conn.count) == sid:
                return conn
        return None

    async def dispatch(self, event: str, data: dict[str, Any], *, guild_id: int | None = None) -> None:
        """Send an event on the connection of the shard of `guild_id` (None: shard 0, where DMs go)."""
        conn = self._connection_for(guild_id)
        if conn is None:
            where = "shard 0" if guild_id is None else f"the shard of guild {guild_id}"
            raise FakeDiscordError(f"cannot send {event}: the bot is not connected to the gateway on {where}")
        await self._send(conn, event, data)

    async def _send(self, conn: _Connection, event: str, data: dict[str, Any]) -> None:
        conn.seq += 1
        self.gateway_events.append((event, data))
        self.shard_events.append((conn.shard_id, event, data))
        await conn.ws.send_str(json.dumps({"op": 0, "t": event, "s": conn.seq, "d": data}))

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        if self.gateway_refused:
            return web.Response(status=503, text="503: the gateway is away")
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 41250}, "s": None, "t": None}))
        async for msg in ws:
            if msg.type is not WSMsgType.TEXT:
                continue
            payload = json.loads(msg.data)
            op = payload.get("op")
            if op == 1:  # heartbeat
                await ws.send_str(json.dumps({"op": 11, "d": None, "s": None, "t": None}))
            elif op == 2:  # identify
                await self._identify(ws, payload["d"])
            elif op == 6:  # resume: sessions are not kept, so ask for a fresh identify
                await ws.send_str(json.dumps({"op": 9, "d": False, "s": None, "t": None}))
        for sid, conn in list(self._shards.items()):
            if conn.ws is ws:
                del self._shards[sid]
                self._notify()
        return ws

    async def _identify(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> None:
        self.identifies.append({k: v for k, v in data.items() if k != "token"})
        if data.get("token") != self.token:
            await ws.close(code=4004, message=b"Authentication failed.")
            return
        intents = int(data.get("intents", 0))
        for bit, name in PRIVILEGED_INTENTS.items():
            if intents & bit:
                self.violations.append(f"the bot asked for the privileged intent {name}")
        shard_id, count = (int(n) for n in data.get("shard") or (0, 1))
        if not 0 <= shard_id < count:
            await ws.close(code=4010, message=b"Invalid shard.")
            return
        old = self._shards.get(shard_id)
        if old is not None and not old.ws.closed:
            # A new session for a shard ends the old one, as Discord does (a restarted process takes over).
            await old.ws.close(code=4009, message=b"Session timed out.")
        conn = self._shards[shard_id] = _Connection(ws, shard_id, count)
        mine = [gid for gid in self.guilds if shard_of(gid, count) == shard_id]
        await self._send(
            conn,
            "READY",
            {
                "v": API_VERSION,
                "user": self.bot_user.payload(),
                "guilds": [{"id": str(gid), "unavailable": True} for gid in mine],
                "session_id": secrets.token_hex(16),
                "resume_gateway_url": self.gateway_url,
                "shard": [shard_id, count],
                "application": {"id": str(self.application_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
            },
        )
        for gid in mine:
            await self._send(conn, "GUILD_CREATE", self._guild_create_payload(gid))
        self._notify()

    def _roles_payload(self, guild_id: int) -> list[dict[str, Any]]:
        def role(rid: int, name: str, perms: int, position: int, managed: bool = False) -> dict[str, Any]:
            return {
                "id": str(rid),
                "name": name,
                "color": 0,
                "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
                "hoist": False,
                "icon": None,
                "unicode_emoji": None,
                "position": position,
                "permissions": str(perms),
                "managed": managed,
                "mentionable": False,
                "flags": 0,
            }

        return [
            role(guild_id, "@everyone", EVERYONE_PERMISSIONS, 0),
            role(guild_id + 1, "Moderator", EVERYONE_PERMISSIONS | MANAGE_GUILD, 1),
            role(guild_id + 2, "cardtable", BOT_PERMISSIONS, 2, managed=True),
            *(role(self.role_id(name, guild_id), name, 0, 3 + n) for n, name in enumerate(PLAIN_ROLES)),
        ]

    def role_id(self, name: str, guild_id: int | None = None) -> int:
        """The id of a role of the guild (by default the first guild's): `fake.role_id("Dealers")`."""
        if name == "@everyone":
            return guild_id or self.guild_id
        if name not in ROLE_OFFSETS:
            raise FakeDiscordError(f"no role {name!r}; the guild has {sorted(ROLE_OFFSETS)}")
        return (guild_id or self.guild_id) + ROLE_OFFSETS[name]

    def give_role(self, user: UserHandle | FakeUser, name: str) -> None:
        """Give a member one of the plain roles (in every guild); his next interaction carries it."""
        if name not in PLAIN_ROLES:
            raise FakeDiscordError(f"{name!r} is not a plain role: one of {PLAIN_ROLES}")
        (user.user if isinstance(user, UserHandle) else user).roles.add(name)

    def _role_ids(self, user: FakeUser, guild_id: int) -> list[str]:
        if user.bot:
            return [str(guild_id + 2)]
        ids = [str(guild_id + 1)] if user.manage_guild else []
        return ids + [str(self.role_id(name, guild_id)) for name in PLAIN_ROLES if name in user.roles]

    def permissions_of(self, user: FakeUser, guild_id: int | None = None) -> int:
        if user.id == self.guilds[guild_id or self.guild_id].owner_id:
            return ALL_PERMISSIONS
        if user.bot:
            return self.bot_permissions
        return EVERYONE_PERMISSIONS | (MANAGE_GUILD if user.manage_guild else 0)

    def member_payload(
        self, user: FakeUser, *, with_permissions: bool = False, guild_id: int | None = None
    ) -> dict[str, Any]:
        gid = guild_id or self.guild_id
        data: dict[str, Any] = {
            "user": user.payload(),
            "nick": None,
            "avatar": None,
            "roles": self._role_ids(user, gid),
            "joined_at": _iso(1_700_000_000),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }
        if with_permissions:
            data["permissions"] = str(self.permissions_of(user, gid))
        return data

    def _guild_channels(self, guild_id: int) -> list[FakeChannel]:
        return [c for c in self.channels.values() if c.guild_id == guild_id]

    def _guild_payload(self, guild_id: int | None = None) -> dict[str, Any]:
        guild = self.guilds[guild_id or self.guild_id]
        return {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(guild.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 1,
            "explicit_content_filter": 0,
            "roles": self._roles_payload(guild.id),
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": str(self._guild_channels(guild.id)[0].id),
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": self.guild_locale,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
        }

    def _guild_create_payload(self, guild_id: int | None = None) -> dict[str, Any]:
        # Without the members intent Discord sends only the bot's own member, and so does this fake.
        gid = guild_id or self.guild_id
        return {
            **self._guild_payload(gid),
            "joined_at": _iso(1_700_000_000),
            "large": False,
            "unavailable": False,
            "member_count": len(self.members) + 1,
            "voice_states": [],
            "members": [self.member_payload(self.bot_user, guild_id=gid)],
            "channels": [c.payload(self) for c in self._guild_channels(gid)],
            "threads": [
                t.payload(self) for t in self.threads.values() if not t.archived and t.guild_id == gid
            ],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    # ---- lifecycle

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/gateway/", self._gateway)
        app.router.add_get("/gateway", self._gateway)  # the URL of GET /gateway/bot has no trailing slash
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def stop(self) -> None:
        for conn in list(self._shards.values()):
            if not conn.ws.closed:
                await conn.ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v{API_VERSION}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway/"

    # ---- REST plumbing

    # (method, template, handler name): the REST API this fake serves.
    ROUTES: tuple[tuple[str, str, str], ...] = (
        ("GET", "/users/@me", "_get_me"),
        ("GET", "/applications/{application_id}/activity-instances/{instance_id}", "_get_instance"),
        ("GET", "/oauth2/applications/@me", "_get_application"),
        ("GET", "/applications/@me", "_get_application"),
        ("GET", "/gateway", "_get_gateway"),
        ("GET", "/gateway/bot", "_get_gateway"),
        ("PUT", "/applications/{application_id}/commands", "_put_commands"),
        ("GET", "/applications/{application_id}/commands", "_get_commands"),
        ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands", "_put_commands"),
        ("GET", "/applications/{application_id}/guilds/{guild_id}/commands", "_get_commands"),
        ("POST", "/interactions/{interaction_id}/{token}/callback", "_callback"),
        ("POST", "/webhooks/{application_id}/{token}", "_followup"),
        ("GET", "/webhooks/{application_id}/{token}/messages/{message_id}", "_webhook_get"),
        ("PATCH", "/webhooks/{application_id}/{token}/messages/{message_id}", "_webhook_edit"),
        ("DELETE", "/webhooks/{application_id}/{token}/messages/{message_id}", "_webhook_delete"),
        ("POST", "/channels/{channel_id}/messages", "_post_message"),
        ("GET", "/channels/{channel_id}/messages", "_get_history"),
        ("GET", "/channels/{channel_id}/messages/{message_id}", "_get_message"),
        ("PATCH", "/channels/{channel_id}/messages/{message_id}", "_edit_message"),
        ("DELETE", "/channels/{channel_id}/messages/{message_id}", "_delete_message"),
        ("PUT", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", "_react"),
        ("DELETE", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", "_unreact"),
        ("POST", "/channels/{channel_id}/typing", "_typing"),
        ("POST", "/channels/{channel_id}/threads", "_start_thread"),
        ("POST", "/channels/{channel_id}/messages/{message_id}/threads", "_start_thread"),
        ("GET", "/channels/{channel_id}", "_get_channel"),
        ("PATCH", "/channels/{channel_id}", "_edit_channel"),
        ("POST", "/users/@me/channels", "_open_dm"),
        ("GET", "/users/{user_id}", "_get_user"),
        ("GET", "/guilds/{guild_id}", "_get_guild"),
        ("GET", "/guilds/{guild_id}/channels", "_get_guild_channels"),
        ("GET", "/guilds/{guild_id}/members/{user_id}", "_get_member"),
    )

    # OAuth2's token exchange: form-encoded, outside Discord's OpenAPI description (so outside the schema
    # extract); its handler checks the form itself (tests/e2e/fake_activity.py).
    FORM_ROUTES: tuple[tuple[str, str, str], ...] = (("POST", "/oauth2/token", "_oauth_token"),)

    @classmethod
    def route_templates(cls) -> list[str]:
        """Every route template the fake serves, as "METHOD /path/{param}" (scripts/extract_discord_schema.py
        extracts Discord's request schemas for exactly these)."""
        return [f"{method} {template}" for method, template, _ in cls.ROUTES]

    def _install_routes(self) -> None:
        for method, template, handler in (*self.ROUTES, *self.FORM_ROUTES):
            pattern = re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(template))
            self._routes.append(
                (method, re.compile(f"^{pattern}$"), f"{method} {template}", getattr(self, handler))
            )

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        body: Any = None
        attachments: list[dict[str, Any]] = []
        if request.content_type == "application/json":
            body = await request.json()
        elif request.content_type.startswith("multipart/"):
            body, attachments = await self._read_multipart(request)
        elif request.content_type == "application/x-www-form-urlencoded":  # OAuth2's token exchange
            body = dict(await request.post())
        record = RecordedRequest(next(self._seq), request.method, path, "?", dict(request.query), body)
        self.requests.append(record)
        undrawn = _undrawn_references(body)
        if undrawn:  # Discord would show the separators as they are: a path that skipped Discord's renderer
            self.violations.append(f"{request.method} {path}: words with undrawn references: {undrawn[:3]}")
        template, handler, params = f"{request.method} {path}", None, {}
        for method, pattern, route, route_handler in self._routes:
            match = pattern.match(path)
            if match and method == request.method:
                template, handler, params = route, route_handler, match.groupdict()
                break
        now = self.now()
        bucket = self._bucket(template, params)
        limited = "{token}" not in template  # interaction callbacks and followups are outside these limits
        response = self._rate_limited(bucket, limited, now) if self.rate_limits else None
        if response is None:
            if handler is None:
                self.unknown_routes.append(f"{request.method} {path}")
                response = _error(404, 0, f"404: Not Found (the fake Discord has no route {template})")
            else:
                record.route = template
                response = (
                    self._injected_failure(template)
                    or self._auth_failure(request, template)
                    or self._refused_without_bot(template, params)
                )
                if response is None:
                    response = self._check_body(template, params, body)
                if response is None:
                    if attachments and isinstance(body, dict):
                        body["__attachments__"] = attachments
                    response = await handler(request, params, body)
        elif handler is not None:
            record.route = template
        record.status = response.status
        self._count(template if handler is not None else "?", bucket, limited, now, response)
        if self.rate_limits:
            response.headers.update(bucket.headers(now))
        self._notify()
        return response

    def _bucket(self, template: str, params: dict[str, str]) -> _Bucket:
        """The rate-limit bucket of a request: a channel's message writes, or the route's own."""
        if template in MESSAGE_WRITE_ROUTES:
            key, hash_, limit, period = (
                f"message writes {params['channel_id']}",
                "channel-message-writes",
                MESSAGE_WRITES_PER_CHANNEL,
                MESSAGE_WRITES_PERIOD,
            )
        else:
            # discord.py's "major parameters": one bucket per channel, guild or webhook token of a route.
            major = next((params[p] for p in ("channel_id", "guild_id", "token") if p in params), "")
            key = f"{template} {major}".strip()
            hash_ = "route-" + re.sub(r"[^a-z0-9]+", "-", template.lower()).strip("-")
            limit, period = ROUTE_REQUESTS_PER_SECOND, 1.0
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = _Bucket(key, hash_, limit, period)
        return bucket

    def _rate_limited(self, bucket: _Bucket, limited: bool, now: float) -> web.Response | None:
        """A 429 when the request is past the global limit or its bucket's; else count it and answer None."""
        if limited:
            glob = self._global_bucket
            glob.roll(now)
            if glob.count >= glob.limit:
                return _too_many(glob.reset_at - now, scope="global")
        bucket.roll(now)
        if bucket.count >= bucket.limit:
            return _too_many(bucket.reset_at - now, scope="user")
        bucket.count += 1
        if limited:
            self._global_bucket.count += 1
        return None

    def _count(self, route: str, bucket: _Bucket, limited: bool, now: float, response: web.Response) -> None:
        is_global = response.headers.get("X-RateLimit-Global") == "true"
        call = RestCall(now, route, response.status, "global" if is_global else bucket.key)
        if limited:
            self._rest_calls.append(call)
        if response.status == 429:
            self._answers_429.append(call)
        elif response.status >= 400 and response.body:
            with contextlib.suppress(ValueError, TypeError, AttributeError):
                code = json.loads(response.body).get("code")  # type: ignore[arg-type]
                if code:
                    self._error_codes.append((now, int(code)))

    def _check_body(self, template: str, params: dict[str, str], body: Any) -> web.Response | None:
        problems = check_body(template, body)
        if not problems:
            return None
        state = self._by_token.get(params.get("token", ""))
        what = f"{state.description}: {template}" if state is not None else template
        return self._violation(f"{what} (Discord's schema)", problems)

    async def _read_multipart(self, request: web.Request) -> tuple[Any, list[dict[str, Any]]]:
        body: Any = None
        attachments: list[dict[str, Any]] = []
        reader = await request.multipart()
        async for part in reader:
            if part.name == "payload_json":
                body = json.loads(await part.text())  # type: ignore[union-attr]
            else:
                data = await part.read()  # type: ignore[union-attr]
                filename = part.filename or "file"  # type: ignore[union-attr]
                upload_id = self._keep_upload(bytes(data))
                attachments.append(
                    {
                        "id": upload_id,
                        "filename": filename,
                        "size": len(data),
                        "url": f"https://cdn.fake/{filename}",
                        "proxy_url": f"https://cdn.fake/{filename}",
                    }
                )
        return body, attachments

    # ---- uploaded files (the replay tests compare a picture with the one the game should show)

    def _keep_upload(self, data: bytes) -> str:
        upload_id = str(self._snowflake())
        self.uploads[upload_id] = data
        return upload_id

    def attachment_bytes(self, message: FakeMessage) -> list[bytes]:
        """The bytes of the files a message carries now (its current attachments), in order."""
        return [self.uploads[a["id"]] for a in message.attachments if a.get("id") in self.uploads]

    def _injected_failure(self, template: str) -> web.Response | None:
        for failure in self.failures:
            if failure.route == template and failure.times > 0:
                failure.times -= 1
                if failure.status == 429:
                    return _too_many(failure.retry_after, scope="user")
                return _error(failure.status, failure.code, f"{failure.status}: injected failure")
        chance = self.random_failures
        if chance is not None and template in chance.routes and chance.rng.random() < chance.rate:
            status = chance.rng.choice(chance.statuses)
            chance.injected[status] += 1
            if status == 429:
                return _too_many(chance.retry_after, scope="user")
            return _error(status, 0, f"{status}: injected failure")
        return None

    def _auth_failure(self, request: web.Request, template: str) -> web.Response | None:
        # Interaction callbacks and webhooks are authenticated by their token in the path, not the bot token.
        if "{token}" in template:
            return None
        if template == "POST /oauth2/token":  # the client id and secret in the form authenticate it
            return None
        if template == "GET /users/@me" and request.headers.get("Authorization", "").startswith("Bearer "):
            return None if self.bearer_user(request) is not None else _error(401, 0, "401: Unauthorized")
        if request.headers.get("Authorization") != f"Bot {self.token}":
            return _error(401, 0, "401: Unauthorized")
        return None

    def _snowflake(self) -> int:
        return ((int(self.now() * 1000) - DISCORD_EPOCH_MS) << 22) | (next(self._ids) & 0x3FFFFF)

    def _violation(self, what: str, problems: list[str]) -> web.Response:
        self.violations.append(f"{what}: {'; '.join(problems)}")
        return _error(400, 50035, "Invalid Form Body: " + "; ".join(problems))

    # ---- REST: identity and commands

    async def _get_me(self, request: web.Request, p: dict[str, str], body: Any) -> web.Response:
        bearer = self.bearer_user(request)  # an OAuth2 token (the Activity's player): that user
        if bearer is None:
            return _json(self.bot_user.payload())
        user = self.user_by_id(bearer)
        return _json({**user.payload(), "locale": user.locale})  # the identify scope's user has his locale

    async def _get_application(self, request: web.Request, p: dict[str, str], body: Any) -> web.Response:
        owner = self.members["erin"]
        return _json(
            {
                "id": str(self.application_id),
                "name": "Cardtable",
                "icon": None,
                "description": "Card games",
                "rpc_origins": [],
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": owner.payload(),
                "team": None,
                "verify_key": "0" * 64,
                "flags": 0,
                "summary": "",
                "bot": self.bot_user.payload(),
                "interactions_endpoint_url": None,
            }
        )

    async def _get_gateway(self, request: web.Request, p: dict[str, str], body: Any) -> web.Response:
        return _json(
            {
                "url": self.gateway_url.rstrip("/"),
                "shards": self.shard_count,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        )

    async def _put_commands(self, request: web.Request, p: dict[str, str], body: Any) -> web.Response:
        guild_id = int(p["guild_id"]) if "guild_id" in p else None
        if guild_id is not None and guild_id not in self.guilds:
            return _error(403, 50001, "Missing Access")
        problems = _check_commands(body)
        if problems:
            return self._violation("command sync", problems)
        if guild_id is None and self.entry_point_dropped(self.global_commands, body):
            self.violations.append(f"command sync: {ENTRY_POINT_REMOVED} (50240)")
            return _error(400, 50240, ENTRY_POINT_REMOVED)
        stored = []
        for command in body:
            key = (guild_id, command["name"], command.get("type", 1))
            # Discord keeps a command's id when a sync overwrites it under the same name.
            cid = self._command_ids.setdefault(key, self._snowflake())
            stored.append(
                {
                    "default_member_permissions": None,
                    "nsfw": False,
                    "description": "",  # a context menu's, as Discord answers it
                    **command,
                    "id": str(cid),
                    "application_id": str(self.application_id),
                    "version": str(self._snowflake()),
                    "type": command.get("type", 1),
                    **({"guild_id": str(guild_id)} if guild_id else {}),
                }
            )
        if guild_id is None:
            self.global_commands = stored
        else:
            self.guild_commands[guild_id] = stored
        return _json(stored)

    async def _get_commands(self, request: web.Request, p: dict[str, str], body: Any) -> web.Response:
        if "guild_id" in p:
            return _json(self.guild_commands.get(int(p["guild_id"]), []))
        return _json(self.global_commands)

    # ---- REST: interactions

    def _new_message(
        self,
        channel: FakeChannel,
        body: dict[str, Any],
        visibility: Visibility,
        *,
        webhook: bool = False,
        interaction_id: int | None = None,
        loading: bool = False,
    ) -> FakeMessage:
        flags = int(body.get("flags") or 0) & ~LOADING
        if visibility.kind == "ephemeral":
            flags |= EPHEMERAL
        if loading:
            flags |= LOADING
        content = body.get("content") or ""
        pinged = self._pinged(content, body.get("allowed_mentions"), visibility)
        message = FakeMessage(
            id=self._snowflake(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=self.bot_user,
            visibility=visibility,
            versions=[
                MessageVersion(
                    content,
                    list(body.get("embeds") or []),
                    list(body.get("components") or []),
                    flags,
                    self.now(),
                )
            ],
            seq=next(self._seq),
            pinged=pinged,
            attachments=list(body.get("__attachments__") or []),
            interaction_id=interaction_id,
            webhook=webhook,
            loading=loading,
        )
        self.messages[message.id] = message
        return message

    def _pinged(self, content: str, allowed: dict[str, Any] | None, visibility: Visibility) -> frozenset[int]:
        if visibility.kind != "public":
            return frozenset()  # an ephemeral or a DM never notifies anyone else
        mentioned = {uid for uid in _mentioned_ids(content) if self.knows(uid)}
        if allowed is None:
            return frozenset(mentioned)
        if "users" in (allowed.get("parse") or []):
            return frozenset(mentioned)
        return frozenset(mentioned & {int(u) for u in allowed.get("users") or []})

    def _edit(self, message: FakeMessage, body: dict[str, Any]) -> None:
        old = message.current
        flags = old.flags & ~LOADING
        if "flags" in body and body["flags"] is not None:
            flags = (int(body["flags"]) & ~LOADING) | (old.flags & EPHEMERAL)
        version = MessageVersion(
            body["content"] if "content" in body and body["content"] is not None else old.content,
            list(body["embeds"]) if "embeds" in body and body["embeds"] is not None else old.embeds,
            list(body["components"])
            if "components" in body and body["components"] is not None
            else old.components,
            flags,
            self.now(),
        )
        if "__attachments__" in body:
            message.attachments = list(body["__attachments__"])
        if message.loading:
            message.loading = False
            message.versions[-1] = version  # the "thinking" placeholder was never a real version
            pinged = self._pinged(version.content, body.get("allowed_mentions"), message.visibility)
            message.pinged = message.pinged | pinged
        else:
            message.versions.append(version)
        self._version_seqs[(message.id, len(message.versions))] = next(self._seq)

    async def _callback(self, request: web.Request, p: dict[str, str], body: Any) -> web.Response:
        state = self.interactions.get(int(p["interaction_id"]))
        if state is None or state.token != p["token"]:
            return _error(404, 10062, "Unknown interaction")
        late = self.now() - state.dispatched_at
        if state.callback_type is None and late > self.interaction_deadline:
            # Discord forgets an interaction nobody acknowledged within 3 s; the user saw "did not respond".
            state.refused = f"first callback {late:.1f} s after dispatch: 404 Unknown interaction (10062)"
            return _error(404, 10062, "Unknown interaction")
        if state.callback_type is not None:
            # Discord takes one initial response per interaction, whatever its type (a message, a deferral,
            # an update, a modal, autocomplete choices); every later one is refused with 40060. The rest of
            # the conversation goes through the token (followups, edits of @original).
            state.second_answers += 1
            self.violations.append(
                f"{state.description}: a second response (type {body.get('type')}) to one interaction, "
                f"after type {state.callback_type}"
            )
            return _error(400, 40060, "Interaction has already been acknowledged.")
        ctype = int(body.get("type", 0))
        data = body.get("data") or {}
        if "__attachments__" in body:  # the files of a response (type 4 or 7) belong to its message
            data = {**data, "__attachments__": body["__attachments__"]}
        allowed = {
            APPLICATION_COMMAND: {4, 5, 9, 12},
            MESSAGE_COMPONENT: {4, 5, 6, 7, 9, 12},
            AUTOCOMPLETE: {8},
            MODAL_SUBMIT: {4, 5, 6, 7},
        }[state.type]
        if ctype not in allowed:
            return self._violation(
                state.description, [f"response type {ctype} is not valid for this interaction"]
            )
        channel = self.channel(state.channel_id)
        resource: dict[str, Any] | None = None
        if ctype == 4:
            problems = _check_message(data)
            if problems:
                return self._violation(state.description, problems)
            message = self._new_message(
                channel, data, self._reply_visibility(state, data), webhook=True, interaction_id=state.id
            )
            state.original_message_id = message.id
            resource = {"type": 4, "message": message.payload(self)}
        elif ctype == 5:
            visibility = self._reply_visibility(state, data)
            message = self._new_message(
                channel, data, visibility, webhook=True, interaction_id=state.id, loading=True
            )
            state.original_message_id = message.id
            state.deferred_ephemeral = visibility.kind == "ephemeral"
            state._waiting_for_deferred = True
            resource = {"type": 5, "message": message.payload(self)}
        elif ctype in (6, 7):
            if state.source_message_id is None:
                return self._violation(state.description, ["an update response without a message"])
            state.original_message_id = state.source_message_id
            source = self.messages[state.source_message_id]
            if ctype == 7:
                problems = _check_message(data, edit=True)
                if problems:
                    return self._violation(state.description, problems)
                self._edit(source, data)
                resource = {"type": 7, "message": source.payload(self)}
        elif ctype == 8:
            raw = data.get("choices") or []
            problems = []
            if len(raw) > 25:
                problems.append(f"{len(raw)} autocomplete choices (max 25)")
            for c in raw:
                if not 1 <= len(str(c.get("name", ""))) <= 100:
                    problems.append(f"choice name {c.get('name')!r} must be 1 to 100 characters")
                if isinstance(c.get("value"), str) and len(c["value"]) > 100:
                    problems.append(f"choice value {c['value']!r} is longer than 100 characters")
            if problems:
                return self._violation(state.description, problems)
            state.choices = [Choice(c["name"], c["value"]) for c in raw]
        elif ctype == 9:
            state.modal = data
        elif ctype == 12:
            guild = self.channel(state.channel_id).guild_id
            problem = self.launch(state.type, state.user.id, state.channel_id, guild)
            if problem is not None:
                return self._violation(state.description, [problem])
        state.callback_type = ctype
        response: dict[str, Any] = {
            "interaction": {
                "id": str(state.id),
                "type": state.type,
                "response_message_id": str(state.original_message_id) if state.original_message_id else None,
                "response_message_loading": ctype == 5,
                "response_message_ephemeral": state.deferred_ephemeral
                or (ctype == 4 and self.messages[state.original_message_id or 0].ephemeral),
            }
        }
        if resource is not None:
            response["resource"] = resource
        gate = self.callback_gates.get(ctype)
        if gate is not None:  # taken, and its answer on the way (a test holds it: `callback_gates`)
            self._notify()
            await gate.wait()
        return _json(response)

    def _reply_visibility(self, state: InteractionState, data: dict[str, Any]) -> Visibility:
        if int(data.get("flags") or 0) & EPHEMERAL:
            return Visibility("ephemeral", state.channel_id, state.user.id)
        channel = self.channel(state.channel_id)
        if channel.without_bot:
            return Visibility("public", channel.id, members=frozenset(channel.members))
        if channel.is_dm:
            return Visibility("dm", channel.id, channel.recipient_id)
        return Visibility("public", state.channel_id)

    def _state_for(self, p: dict[str, str]) -> InteractionState | None:
        state = self._by_token.get(p["token"])
        if state is None or int(p["application_id"]) != self.application_id:
            return None
        return state

    def _token_expired(self, p: dict[str, str]) -> web.Response | None:
        state = self._by_token.get(p["token"])
        if state is not None and self.now() - state.dispatched_at > INTERACTION_TOKEN_LIFETIME:
            return _error(401, 50027, "Invalid Webhook Token")
        return None

    async def _followup(self, request: web.Request, p: dict[str, str], body: Any) -> web.Response:
        expired = self._token_expired(p)
        if expired is not None:
            return expired
        state = self._state_for(p)
        if state is None:
            return _error(401, 50027, "Invalid Webhook Token")
        if state.callback_type is None:
            return _error(400, 40060, "The interaction has not been acknowledged yet")
        problems = _check_message(body)
        if problems:
            return self._violation(f"{state.description} followup", problems)
        over = self._followups_over(state)
        if over is not None:
            return over
        state.completed = True
        original = self.messages.get(state.original_message_id or 0)
        if state.callback_type == 5 and original is not None and original.loading:
            # The first followup after a deferred response completes the "thinking" message (keeping its
            # visibility), as Discord does.
            self._edit(original, body)
            state._waiting_for_deferred = False
            return _json(original.payload(self))
        message = self._new_message(
            self.channel(state.channel_id),
            body,
            self._reply_visibility(state, body),
            webhook=True,
            interaction_id=state.id,
        )
        state.followup_ids.append(message.id)
        return _json(message.payload(self))

    def _webhook_message(self, state: InteractionState, message_id: str) -> FakeMessage | None:
        if message_id == "@original":
            mid = state.original_message_id
        else:
            mid = int(message_id)
            if mid not in state.followup_ids and mid != state.original_message_id:
                return None
        message = self.messages.get(mid or 0)
        return None if message is None or message.deleted else message

    async def _webhook_get(self, request: web.Request, p: dict[str, str], body: Any) -> web.Response:
        expired = self._token_expired(p)
        if expired is not None:
            return expired
        state = self._state_for(p)
        message = self._webhook_message(state, p["message_id"]) if state else None
        if message is None:
            return _error(404, 10008, "Unknown Message")
        return _json(message.payload(self))

    async def _webhook_edit(self, request: web.Request, p: dict[str, str], body: Any) -> web.Response:
        expired = self._token_expired(p)
        if expired is not None:
            return expired
        state = self._state_for(p)
        message = self._webhook_message(state, p["message_id"]) if state else None
        if state is None or message is None:
            return _error(404, 10008, "Unknown Message")
        problems = _check_message(body, edit=True)
        if problems:
            return self._violation(f"{state.description} edit", problems)
        self._edit(message, body)
        if message.id == state.original_message_id:
            state._waiting_for_deferred = False
            state.completed = True
        return _json(message.payload(self))

    async def _webhook_delete(self, request: web.Request, p: dict[str, str], body: Any) -> web.Response:
        expired = self._token_expired(p)
        if expired is not None:
            return expired
        state = self._state_for(p)
        message = self._webhook_message(state, p["message_id"]) if state else None
        if state is None or message is None:
            return _error(404, 10008, "Unknown Message")
        message.deleted = True
        if message.id == state.original_message_id:
            state._waiting_for_deferred = False
            state.completed = True
        return web.Response(status=204)

    # ---- REST: channels and messages

    def _channel_or_404(self, channel_id: str) -> FakeChannel | None:
        try:
            return self.channel(int(channel_id))
        except FakeDiscordError:
            return None

    async def _post_message(self, request: web.Request, p: dict[str, str], body: Any) -> web.Response:
        channel = self._channel_or_404(p["channel_id"])
        if channel is None:
            return _error(404, 10003, "Unknown Channel")
        if channel.is_dm and self.user_by_id(channel.recipient_id or 0).dms_closed:
            return _error(403, 50007, "Cannot send messages to this user")
        refused = self._thread_write_refusal(channel, "send")
        if refused is not None:
            return refused
        problems = _check_message(body)
        if problems:
            return self._violation(f"message to {channel.name or channel.id}", problems)
        if not channel.is_dm and body.get("__attachments__") and not self.bot_permissions & ATTACH_FILES:
            return _error(403, 50013, "Missing Permissions")
        if channel.is_dm:
            visibility = Visibility("dm", channel.id, channel.recipient_id)
        else:
            visibility = Visibility("public", channel.id)
        message = self._new_message(channel, body, visibility)
        if channel.is_thread and channel.archived:
            channel.archived = False  # a message to an archived, unlocked thread revives it, as on Discord
            await self._dispatch_if_connected("THREAD_UPDATE", channel.payload(self), channel.guild_id)
        return _json(message.payload(self))

    def _message_or_none(self, p: dict[str, str]) -> FakeMessage | None:
        message = self.messages.get(int(p["message_id"]))
        if message is None or message.deleted or message.channel_id != int(p["channel_id"]):
            return None
        if message.visibility.kind == "ephemeral":
            return None  # ephemerals are reachable only through their interaction webhook
        return message

    async def _get_message(self, request: web.Request, p: dict[str, str], body: Any) -> web.Response:
        message = self._message_or_none(p)
        if message is None:
            return _error(404, 10008, "Unknown Message")
        return _json(message.payload(self))

    async def _get_history(self, request: web.Request, p: dict[str, str], body: Any) -> web.Response:
        channel = self._channel_or_404(p["channel_id"])
        if channel is None:
            return _error(404, 10003, "Unknown Channel")
        limit = int(request.query.get("limit", 50))
        before = int(request.query.get("before", 0)) or None
        after = int(request.query.get("after", 0)) or None
        found = [
            m
            for m in self.all_messages()
            if m.channel_id == channel.id
            and not m.ephemeral
            and (before is None or m.id < before)
            and (after is None or m.id > after)
        ]
        found.sort(key=lambda m: m.id, reverse=True)
        return _json([m.payload(self) for m in found[:limit]])

    async def _edit_message(self, request: web.Request, p: dict[str, str], body: Any) -> web.Response:
        message = self._message_or_none(p)
        if message is None:
            return _error(404, 10008, "Unknown Message")
        if message.author.id != self.bot_user.id:
            return _error(403, 50005, "Cannot edit a message authored by another user")
        refused = self._thread_write_refusal(self.channel(message.channel_id), "edit")
        if refused is not None:
            return refused
        problems = _check_message(body, edit=True)
        if problems:
            return self._violation(f"edit of message {message.id}", problems)
        if body.get("__attachments__") and not self.bot_permissions & ATTACH_FILES:
            return _error(403, 50013, "Missing Permissions")
        if self.now() - message.versions[0].at > OLD_MESSAGE_AGE:
            if message.old_edits >= self.old_message_edit_allowance:
                return _error(400, 30046, "Maximum number of edits to messages older than 1 hour reached.")
            message.old_edits += 1
        self._edit(message, body)
        return _json(message.payload(self))

    async def _delete_message(self, request: web.Request, p: dict[str, str], body: Any) -> web.Response:
        message = self._message_or_none(p)
        if message is None:
            return _error(404, 10008, "Unknown Message")
        refused = self._thread_write_refusal(self.channel(message.channel_id), "delete")
        if refused is not None:
            return refused
        message.deleted = True
        return web.Response(status=204)

    async def _react(self, request: web.Request, p: dict[str, str], body: Any) -> web.Response:
        message = self._message_or_none(p)
        if message is None:
            return _error(404, 10008, "Unknown Message")
        message.reactions.append(unquote(p["emoji"]))
        return web.Response(status=204)

    async def _unreact(self, request: web.Request, p: dict[str, str], body: Any) -> web.Response:
        message = self._message_or_none(p)
        if message is None:
            return _error(404, 10008, "Unknown Message")
        emoji = unquote(p["emoji"])
        if emoji in message.reactions:
            message.reactions.remove(emoji)
        return web.Response(status=204)

    async def _typing(self, request: web.Request, p: dict[str, str], body: Any) -> web.Response:
        return web.Response(status=204)

    # ---- REST: threads (a thread per game). Discord's rules as the bot meets them: opening a public thread
    # on a message needs Create Public Threads and gives the thread the message's id (a second thread on it is
    # 160004); writing in a thread needs Send Messages in Threads; a message of an archived thread cannot be
    # edited or deleted (50083) until the thread is unarchived, while a new message revives an unlocked one;
    # a locked thread takes none. A thread is a channel of its own for the message-write rate limit.

    def archive_thread(self, thread: str | int | FakeChannel) -> None:
        """Archive a thread as Discord does on its own once it was idle for its archive duration."""
        found = self.channel(thread)
        if not found.is_thread:
            raise FakeDiscordError(f"{found.name or found.id} is no thread")
        found.archived = True

    def add_thread(self, parent: str | int | FakeChannel, name: str, owner: str = "erin") -> FakeChannel:
        """A public thread a member opened in a channel (not on a bot's message)."""
        found = self.channel(parent)
        thread = FakeChannel(
            self._snowflake(),
            name,
            found.guild_id,
            type=11,
            parent_id=found.id,
            owner_id=self.members[owner].id,
            created_at=self.now(),
        )
        self.threads[thread.id] = thread
        return thread

    def thread_of(self, message: FakeMessage | int) -> FakeChannel | None:
        """The thread opened on a message, if any (its id is the message's)."""
        message_id = message if isinstance(message, int) else message.id
        return self.threads.get(message_id)

    def _thread_write_refusal(self, channel: FakeChannel, what: str) -> web.Response | None:
        """Why Discord refuses this write in a thread (None: it takes it, or it is no thread)."""
        if not channel.is_thread:
            return None
        if not self.permissions_of(self.bot_user, channel.guild_id) & SEND_MESSAGES_IN_THREADS:
            return _error(403, 50013, "Missing Permissions")
        if channel.locked:
            return _error(400, 50083, "Thread is locked")
        if channel.archived and what != "send":
            return _error(400, 50083, "Thread is archived")
        return None

    async def _start_thread(self, request: web.Request, p: dict[str, str], body: Any) -> web.Response:
        parent = self._channel_or_404(p["channel_id"])
        if parent is None or parent.is_dm:
            return _error(404, 10003, "Unknown Channel")
        if parent.is_thread:
            return _error(400, 50024, "Cannot execute action on this channel type")
        on_message = "message_id" in p
        if on_message and self._message_or_none(p) is None:
            return _error(404, 10008, "Unknown Message")
        public = on_message or int(body.get("type") or 12) == 11
        needed = CREATE_PUBLIC_THREADS if public else CREATE_PRIVATE_THREADS
        if not self.permissions_of(self.bot_user, parent.guild_id) & needed:
            return _error(403, 50013, "Missing Permissions")
        if on_message and int(p["message_id"]) in self.threads:
            return _error(400, 160004, "A thread has already been created for this message")
        duration = body.get("auto_archive_duration") or 1440
        if duration not in THREAD_ARCHIVE_DURATIONS:
            allowed = ", ".join(map(str, THREAD_ARCHIVE_DURATIONS))
            return self._violation("thread", [f"auto_archive_duration {duration} is not one of {allowed}"])
        thread = FakeChannel(
            int(p["message_id"]) if on_message else self._snowflake(),
            body["name"],
            parent.guild_id,
            type=11 if on_message else int(body.get("type") or 12),
            parent_id=parent.id,
            owner_id=self.bot_user.id,
            created_at=self.now(),
            auto_archive_duration=int(duration),
        )
        self.threads[thread.id] = thread
        # Discord tells the bot's gateway too, so discord.py caches the thread (get_channel finds it).
        await self._dispatch_if_connected(
            "THREAD_CREATE", {**thread.payload(self), "newly_created": True}, thread.guild_id
        )
        return _json(thread.payload(self))

    async def _edit_channel(self, request: web.Request, p: dict[str, str], body: Any) -> web.Response:
        channel = self._channel_or_404(p["channel_id"])
        if channel is None:
            return _error(404, 10003, "Unknown Channel")
        if not channel.is_thread or channel.owner_id != self.bot_user.id:
            # The bot lacks Manage Channels and Manage Threads; only its own threads (archive, lock, rename)
            # are its to edit.
            return _error(403, 50013, "Missing Permissions")
        if channel.archived and body.get("archived") is not False:
            return _error(400, 50083, "Thread is archived")  # only unarchiving comes first
        if body.get("name"):
            channel.name = body["name"]
        if body.get("archived") is not None:
            channel.archived = bool(body["archived"])
        if body.get("locked") is not None:
            channel.locked = bool(body["locked"])
        await self._dispatch_if_connected("THREAD_UPDATE", channel.payload(self), channel.guild_id)
        return _json(channel.payload(self))

    async def _dispatch_if_connected(self, event: str, data: dict[str, Any], guild_id: int | None) -> None:
        if self._connection_for(guild_id) is not None:
            await self.dispatch(event, data, guild_id=guild_id)

    async def _get_channel(self, request: web.Request, p: dict[str, str], body: Any) -> web.Response:
        channel = self._channel_or_404(p["channel_id"])
        if channel is None:
            return _error(404, 10003, "Unknown Channel")
        return _json(channel.payload(self))

    async def _open_dm(self, request: web.Request, p: dict[str, str], body: Any) -> web.Response:
        uid = int(body["recipient_id"])
        if not self.knows(uid) or uid == self.bot_user.id:
            return _error(400, 50033, "Invalid Recipient(s)")
        channel = self.dm_channels.get(uid)
        if channel is None:
            channel = FakeChannel(self._snowflake(), "", None, recipient_id=uid)
            self.dm_channels[uid] = channel
        return _json(channel.payload(self))

    async def _get_user(self, request: web.Request, p: dict[str, str], body: Any) -> web.Response:
        if not p["user_id"].isdigit() or not self.knows(int(p["user_id"])):
            return _error(404, 10013, "Unknown User")
        return _json(self.user_by_id(int(p["user_id"])).payload())

    async def _get_guild(self, request: web.Request, p: dict[str, str], body: Any) -> web.Response:
        if int(p["guild_id"]) not in self.guilds:
            return _error(404, 10004, "Unknown Guild")
        return _json(self._guild_payload(int(p["guild_id"])))

    async def _get_guild_channels(self, request: web.Request, p: dict[str, str], body: Any) -> web.Response:
        if int(p["guild_id"]) not in self.guilds:
            return _error(404, 10004, "Unknown Guild")
        return _json([c.payload(self) for c in self._guild_channels(int(p["guild_id"]))])

    async def _get_member(self, request: web.Request, p: dict[str, str], body: Any) -> web.Response:
        if int(p["guild_id"]) not in self.guilds or not self.knows(int(p["user_id"])):
            return _error(404, 10007, "Unknown Member")
        return _json(self.member_payload(self.user_by_id(int(p["user_id"])), guild_id=int(p["guild_id"])))

    # ---- interactions from users

    def find_command(
        self, path: str, guild_id: int | None = None
    ) -> tuple[dict[str, Any], list[dict[str, Any]], int | None]:
        """The synced top-level command for "insomnia play" (in the first guild unless `guild_id` is given),
        the option chain to its leaf, and the guild it was synced to (None: global)."""
        parts = path.strip().lstrip("/").split()
        if not parts:
            raise FakeDiscordError("empty command")
        guild_id = guild_id or self.guild_id
        for synced_to, commands in [
            (guild_id, self.guild_commands.get(guild_id, [])),
            (None, self.global_commands),
        ]:
            for command in commands:
                if command["name"] == parts[0] and command.get("type", 1) == 1:
                    chain: list[dict[str, Any]] = []
                    node = command
                    for part in parts[1:]:
                        subs = [o for o in node.get("options") or [] if o["type"] in (1, 2)]
                        found = next((o for o in subs if o["name"] == part), None)
                        if found is None:
                            raise FakeDiscordError(
                                f"/{' '.join(parts)}: no subcommand {part!r}; "
                                f"have {[o['name'] for o in subs]}"
                            )
                        chain.append(found)
                        node = found
                    subs = [o for o in node.get("options") or [] if o["type"] in (1, 2)]
                    if subs:
                        raise FakeDiscordError(
                            f"/{' '.join(parts)} needs a subcommand: {[o['name'] for o in subs]}"
                        )
                    return command, chain, synced_to
        synced = sorted(c["name"] for c in [*self.global_commands, *self.guild_commands.get(guild_id, [])])
        raise FakeDiscordError(f"/{parts[0]} is not synced; synced commands: {synced}")

    def _interaction_payload(
        self, state: InteractionState, data: dict[str, Any], message: FakeMessage | None = None
    ) -> dict[str, Any]:
        channel = self.channel(state.channel_id)
        payload: dict[str, Any] = {
            "id": str(state.id),
            "application_id": str(self.application_id),
            "type": state.type,
            "data": data,
            "channel_id": str(channel.id),
            "channel": channel.payload(self),
            "token": state.token,
            "version": 1,
            "locale": state.user.locale,
            "entitlements": [],
            "attachment_size_limit": 8 * 1024 * 1024,
            "app_permissions": str(self.permissions_of(self.bot_user, channel.guild_id)),
        }
        if channel.without_bot:
            payload.update(self._user_install_payload(state))
        elif channel.is_dm:
            payload["user"] = state.user.payload()
            payload["context"] = 1
            payload["authorizing_integration_owners"] = {"0": str(self.guild_id)}
        else:
            payload["guild_id"] = str(channel.guild_id)
            payload["guild_locale"] = self.guild_locale
            payload["guild"] = {"id": str(channel.guild_id), "locale": self.guild_locale, "features": []}
            payload["member"] = self.member_payload(
                state.user, with_permissions=True, guild_id=channel.guild_id
            )
            payload["context"] = 0
            payload["authorizing_integration_owners"] = {"0": str(channel.guild_id)}
        if message is not None:
            payload["message"] = message.payload(self)
        return payload

    def _start_interaction(
        self,
        itype: int,
        user: FakeUser,
        channel: FakeChannel,
        description: str,
        source_message_id: int | None = None,
    ) -> InteractionState:
        state = InteractionState(
            id=self._snowflake(),
            token=f"tok-{secrets.token_urlsafe(24)}",
            type=itype,
            user=user,
            channel_id=channel.id,
            description=description,
            source_message_id=source_message_id,
        )
        state.dispatched_at = self.now()
        self.interactions[state.id] = state
        self._by_token[state.token] = state
        return state

    def _option_value(
        self,
        where: str,
        option: dict[str, Any],
        value: Any,
        resolved: dict[str, dict[str, Any]],
        guild_id: int | None = None,
    ) -> Any:
        otype = option["type"]
        if otype == 3:
            value = str(value)
            if "min_length" in option and len(value) < option["min_length"]:
                raise FakeDiscordError(f"{where}: shorter than {option['min_length']} characters")
            if "max_length" in option and len(value) > option["max_length"]:
                raise FakeDiscordError(f"{where}: longer than {option['max_length']} characters")
        elif otype == 4:
            if isinstance(value, bool) or not isinstance(value, int):
                raise FakeDiscordError(f"{where}: Discord only lets users enter a whole number here")
        elif otype == 10:
            value = float(value)
        elif otype == 5:
            if not isinstance(value, bool):
                raise FakeDiscordError(f"{where}: Discord only lets users pick true or false here")
        elif otype in (6, 9):
            user = self._resolve_user(value)
            resolved.setdefault("users", {})[str(user.id)] = user.payload()
            member = self.member_payload(user, with_permissions=True, guild_id=guild_id)
            del member["user"]
            resolved.setdefault("members", {})[str(user.id)] = member
            value = str(user.id)
        elif otype == 8:
            gid = guild_id or self.guild_id
            rid = value if isinstance(value, int) else self.role_id(str(value), gid)
            found = [r for r in self._roles_payload(gid) if r["id"] == str(rid)]
            if not found:
                raise FakeDiscordError(f"{where}: no role {value!r} in the guild")
            resolved.setdefault("roles", {})[str(rid)] = found[0]
            value = str(rid)
        elif otype == 7:
            channel = self.channel(value)
            types = option.get("channel_types")
            if types and channel.type not in types:  # Discord offers only channels of those types
                raise FakeDiscordError(f"{where}: a channel of type {channel.type}, not one of {types}")
            resolved.setdefault("channels", {})[str(channel.id)] = {
                **channel.payload(self),
                "permissions": str(ALL_PERMISSIONS),
            }
            value = str(channel.id)
        else:
            raise FakeDiscordError(f"{where}: option type {otype} is not supported by the fake")
        if otype in (4, 10):
            if "min_value" in option and value < option["min_value"]:
                raise FakeDiscordError(f"{where}: Discord refuses values below {option['min_value']}")
            if "max_value" in option and value > option["max_value"]:
                raise FakeDiscordError(f"{where}: Discord refuses values above {option['max_value']}")
        choices = option.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise FakeDiscordError(
                f"{where}: {value!r} is not one of the choices {[c['value'] for c in choices]}"
            )
        return value

    def _unchecked_value(self, option: dict[str, Any] | None, value: Any, resolved: dict[str, Any]) -> Any:
        """An option value as a hostile or buggy client sends it: any JSON value, unchecked. A user id the
        fake knows is resolved as Discord would; any other value goes without resolved data."""
        if option is not None and option["type"] in (6, 9) and isinstance(value, UserHandle | FakeUser):
            value = value.id
        # A snowflake has at most 20 digits: a longer number is no id anyone has (and too long for int()).
        if option is not None and option["type"] in (6, 9) and re.fullmatch(r"[0-9]{1,20}", str(value)):
            if self.knows(int(value)):
                self._option_value("unchecked", option, int(value), resolved)
            return str(value)
        return value

    def _command_data(
        self,
        path: str,
        options: dict[str, Any],
        *,
        focused: str | None = None,
        channel: FakeChannel | None = None,
        checked: bool = True,
    ) -> tuple[dict[str, Any], str]:
        in_guild = channel.guild_id if channel is not None else None
        command, chain, guild_id = self.find_command(path, in_guild)
        if checked and channel is not None:
            self.offered_here(command, channel)
        leaf = chain[-1] if chain else command
        definitions = {o["name"]: o for o in leaf.get("options") or []}
        where = "/" + " ".join([command["name"], *[c["name"] for c in chain]])
        resolved: dict[str, dict[str, Any]] = {}
        leaf_options: list[dict[str, Any]] = []
        for name, value in options.items():
            if not checked:
                option = definitions.get(name)
                leaf_options.append(
                    {
                        "name": name,
                        "type": option["type"] if option is not None else 3,
                        "value": self._unchecked_value(option, value, resolved),
                        **({"focused": True} if name == focused else {}),
                    }
                )
                continue
            if name not in definitions:
                raise FakeDiscordError(f"{where} has no option {name!r}; it has {sorted(definitions)}")
            option = definitions[name]
            if name == focused:
                if not option.get("autocomplete"):
                    raise FakeDiscordError(f"{where} option {name!r} has no autocomplete")
                leaf_options.append(
                    {"name": name, "type": option["type"], "value": str(value), "focused": True}
                )
            else:
                leaf_options.append(
                    {
                        "name": name,
                        "type": option["type"],
                        "value": self._option_value(f"{where} {name}", option, value, resolved, in_guild),
                    }
                )
        if focused is None:
            missing = [n for n, o in definitions.items() if o.get("required") and n not in options]
            if missing and checked:
                raise FakeDiscordError(f"{where}: Discord requires the options {missing}")
        elif focused not in options:
            raise FakeDiscordError(f"{where}: the focused option {focused!r} needs a value")
        nested = leaf_options
        for sub in reversed(chain):
            nested = [{"name": sub["name"], "type": sub["type"], "options": nested}]
        data: dict[str, Any] = {"id": command["id"], "name": command["name"], "type": 1, "options": nested}
        if guild_id is not None:
            data["guild_id"] = str(guild_id)
        if resolved:
            data["resolved"] = resolved
        return data, where

    # ---- user installs: DMs and group DMs without the bot (the userinstall helper's part of the fake)
    #
    # Discord lets an app installed to a user (integration type 1) be used where no bot of it is a member: a
    # DM or group DM (interaction context 2). The interaction carries `context` and the user install alone in
    # `authorizing_integration_owners`; the app may only answer it (callbacks, then its token for 15 minutes,
    # at most 5 follow-ups); every channel REST call there fails with 403 / 50001 Missing Access.

    def add_private_channel(self, name: str, members: Iterable[str], *, group: bool = True) -> FakeChannel:
        """A group DM (or, `group=False`, a DM between two people) of these members, without the bot."""
        people = [self.members[m] for m in members]
        if not group and len(people) != 2:
            raise FakeDiscordError("a DM is between two people")
        channel = FakeChannel(
            self._snowflake(),
            name,
            None,
            type=3 if group else 1,
            owner_id=people[0].id,
            members=tuple(p.id for p in people),
        )
        self.private_channels[channel.id] = channel
        return channel

    def private_channel_payload(self, channel: FakeChannel) -> dict[str, Any]:
        """The channel as an interaction there carries it (the recipients: its members)."""
        data: dict[str, Any] = {
            "id": str(channel.id),
            "type": channel.type,
            "last_message_id": None,
            "flags": 0,
            "recipients": [self.user_by_id(m).payload() for m in channel.members],
        }
        if channel.type == 3:
            data.update({"name": channel.name, "icon": None, "owner_id": str(channel.owner_id)})
        return data

    def _user_install_payload(self, state: InteractionState) -> dict[str, Any]:
        channel = self.channel(state.channel_id)
        if state.user.id not in channel.members:
            raise FakeDiscordError(f"{state.user.name} is not in the private channel {channel.name!r}")
        return {
            "user": state.user.payload(),
            "context": 2,
            "authorizing_integration_owners": {"1": str(state.user.id)},
            # What the app may do there: answer with messages and embeds; it is no member.
            "app_permissions": str(VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | ATTACH_FILES),
        }

    def _refused_without_bot(self, template: str, params: dict[str, str]) -> web.Response | None:
        """Every channel REST call in a DM or group DM without the bot: 403 / 50001, as Discord answers."""
        channel_id = params.get("channel_id")
        if channel_id is None or not channel_id.isdigit():
            return None
        channel = self.private_channels.get(int(channel_id))
        if channel is None:
            return None
        self.refused_private_calls.append(f"{template} in {channel.name!r}")
        return _error(403, 50001, "Missing Access")

    def _followups_over(self, state: InteractionState) -> web.Response | None:
        """At most 5 follow-ups to an interaction that only the user install authorises."""
        channel = self.channel(state.channel_id)
        if channel.without_bot and len(state.followup_ids) >= USER_INSTALL_FOLLOWUPS:
            self.violations.append(f"{state.description}: a 6th follow-up of a user-installed app")
            limit = USER_INSTALL_FOLLOWUPS
            return _error(400, 0, f"Only {limit} follow-ups to an interaction of a user install")
        return None

    def offered_here(self, command: dict[str, Any], channel: FakeChannel) -> None:
        """Whether Discord offers the synced `command` to a user in `channel`: its `contexts` (0 a server, 1
        the bot's DM, 2 another DM or group DM; Discord's default: all) and `integration_types` (0 installed
        to the server, 1 to the user; default: the server only). Raises when it does not."""
        contexts = command.get("contexts") or [0, 1, 2]
        types = command.get("integration_types") or [0]
        if channel.without_bot:
            context, needs = 2, 1
        elif channel.is_dm:
            context, needs = 1, None
        else:
            context, needs = 0, None
        if context not in contexts or (needs is not None and needs not in types):
            where = {0: "a server", 1: "the bot's DM", 2: "a DM or group DM without the bot"}[context]
            raise FakeDiscordError(
                f"Discord does not offer {command['name']!r} in {where} "
                f"(contexts {contexts}, integration_types {types})"
            )

    def find_user_command(self, name: str, guild_id: int | None = None) -> dict[str, Any]:
        """The synced user command (type 2) of that name (its English name, or a localized one)."""
        for command in [*self.guild_commands.get(guild_id or self.guild_id, []), *self.global_commands]:
            names = {command["name"], *(command.get("name_localizations") or {}).values()}
            if command.get("type") == 2 and name in names:
                return command
        raise FakeDiscordError(f"no user command {name!r} is synced")

    async def run_interaction(
        self, state: InteractionState, payload: dict[str, Any], timeout: float | None
    ) -> Reply:
        state.dispatched_at = self.now()
        await self.dispatch("INTERACTION_CREATE", payload, guild_id=self.channel(state.channel_id).guild_id)
        await self.wait_for(
            lambda: state.finished or state.refused,
            timeout=timeout,
            what=f"the bot's answer to {state.user.name}'s {state.description}",
        )
        if state.refused is not None:
            raise FakeDiscordError(f"Discord refused the answer to {state.description}: {state.refused}")
        return Reply(self, state)


def _json(data: Any, *, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    # Exactly "application/json" (no charset): discord.py parses JSON only for that content type.
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        headers={**(headers or {}), "Content-Type": "application/json"},
    )


def _error(status: int, code: int, message: str) -> web.Response:
    return _json({"message": message, "code": code}, status=status)


def _too_many(retry_after: float, *, scope: Literal["user", "global", "shared"]) -> web.Response:
    """A 429 as Discord sends it. discord.py only trusts a 429 that came through Discord's proxy (Via)."""
    retry_after = max(round(retry_after, 3), 0.001)
    headers = {"Via": "1.1 google", "Retry-After": str(math.ceil(retry_after)), "X-RateLimit-Scope": scope}
    if scope == "global":
        headers["X-RateLimit-Global"] = "true"
    body = {"message": "You are being rate limited.", "retry_after": retry_after, "global": scope == "global"}
    if scope == "global":
        body["code"] = 0
    return _json(body, status=429, headers=headers)


class UserHandle:
    """A member of the fake guild who uses the bot: `await alice.slash("insomnia new", chips=10)`."""

    def __init__(self, fake: FakeDiscord, user: FakeUser) -> None:
        self.fake = fake
        self.user = user

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def name(self) -> str:
        return self.user.name

    @property
    def mention(self) -> str:
        return self.user.mention

    def __repr__(self) -> str:
        return f"<UserHandle {self.name} {self.id}>"

    async def slash(
        self,
        command: str,
        *,
        channel: str | int | FakeChannel = "games",
        timeout: float | None = None,
        unchecked: bool = False,
        values: dict[str, Any] | None = None,
        **options: Any,
    ) -> Reply:
        """Run a slash command ("malice challenge", opponent=bob) and wait until the bot has answered it
        (a deferred answer counts once its message is completed). Options are checked as Discord would;
        `unchecked=True` sends them as a hostile or buggy client could (any JSON value, out of range or
        choices, missing, a user id nobody has), in a well-formed interaction. `values` takes
        options by a dict too (one named like a keyword of this method: `timeout`)."""
        fake = self.fake
        where = fake.channel(channel)
        options = {**options, **(values or {})}
        data, description = fake._command_data(command, options, channel=where, checked=not unchecked)
        state = fake._start_interaction(APPLICATION_COMMAND, self.user, where, description)
        return await fake.run_interaction(state, fake._interaction_payload(state, data), timeout)

    async def autocomplete(
        self,
        command: str,
        option: str,
        value: str = "",
        *,
        channel: str | int | FakeChannel = "games",
        timeout: float | None = None,
        unchecked: bool = False,
        values: dict[str, Any] | None = None,
        **other_options: Any,
    ) -> list[Choice]:
        """Type `value` into `option` of a command; return the choices the bot offers. `unchecked=True`: the
        other options go unchecked, as with `slash`; `values` as with `slash`."""
        fake = self.fake
        where = fake.channel(channel)
        other_options = {**other_options, **(values or {})}
        data, description = fake._command_data(
            command, {**other_options, option: value}, focused=option, channel=where, checked=not unchecked
        )
        state = fake._start_interaction(
            AUTOCOMPLETE, self.user, where, f"autocomplete {description} {option}"
        )
        await fake.run_interaction(state, fake._interaction_payload(state, data), timeout)
        return list(state.choices or [])

    async def click(self, message: FakeMessage | int, button: str, *, timeout: float | None = None) -> Reply:
        """Click a button of a message, found by label or custom_id. Refuses what a user could not click:
        a message he cannot see, a disabled button."""
        return await self._use_component(message, button, (2,), None, timeout)

    async def select(
        self, message: FakeMessage | int, menu: str, values: list[str], *, timeout: float | None = None
    ) -> Reply:
        """Pick `values` in a select menu, found by custom_id or placeholder."""
        return await self._use_component(message, menu, (3, 5, 6, 7, 8), values, timeout)

    async def _use_component(
        self,
        message: FakeMessage | int,
        name: str,
        kinds: tuple[int, ...],
        values: list[str] | None,
        timeout: float | None,
    ) -> Reply:
        fake = self.fake
        msg = fake.messages[message if isinstance(message, int) else message.id]
        if not msg.visible_to(self.user):
            raise FakeDiscordError(f"{self.name} cannot see message {msg.id} ({msg.visibility})")
        component = msg.component(name, kinds=kinds)
        if component.disabled:
            raise FakeDiscordError(f"{name!r} is disabled: Discord does not let {self.name} use it")
        if component.custom_id is None:
            raise FakeDiscordError(f"{name!r} is a link button: it opens a URL, not an interaction")
        if values is not None and component.type == 3:
            allowed = [o["value"] for o in component.options]
            if any(v not in allowed for v in values):
                raise FakeDiscordError(f"{name!r} offers {allowed}, not {values}")
            lo, hi = component.raw.get("min_values", 1), component.raw.get("max_values", 1)
            if not lo <= len(values) <= hi:
                raise FakeDiscordError(f"{name!r} takes {lo} to {hi} values, not {len(values)}")
        data: dict[str, Any] = {"custom_id": component.custom_id, "component_type": component.type}
        if values is not None:
            data["values"] = list(values)
        label = component.label or component.custom_id
        channel = fake.channel(msg.channel_id)
        state = fake._start_interaction(
            MESSAGE_COMPONENT, self.user, channel, f"click {label!r}", source_message_id=msg.id
        )
        return await fake.run_interaction(state, fake._interaction_payload(state, data, msg), timeout)

    async def user_command(
        self,
        name: str,
        target: UserHandle | FakeUser,
        *,
        channel: str | int | FakeChannel = "games",
        timeout: float | None = None,
    ) -> Reply:
        """Use a user command (type 2) of the user's menu (Apps) on `target`, as Discord offers it in
        `channel` (its contexts and integration types are checked), and wait for the answer."""
        fake = self.fake
        where = fake.channel(channel)
        command = fake.find_user_command(name, where.guild_id)
        fake.offered_here(command, where)
        user = target.user if isinstance(target, UserHandle) else target
        resolved: dict[str, Any] = {"users": {str(user.id): user.payload()}}
        if where.guild_id is not None:
            member = fake.member_payload(user, with_permissions=True, guild_id=where.guild_id)
            del member["user"]
            resolved["members"] = {str(user.id): member}
        data: dict[str, Any] = {
            "id": command["id"],
            "name": command["name"],
            "type": 2,
            "target_id": str(user.id),
            "resolved": resolved,
        }
        if "guild_id" in command:
            data["guild_id"] = command["guild_id"]
        state = fake._start_interaction(APPLICATION_COMMAND, self.user, where, f"{name!r} on {user.name}")
        return await fake.run_interaction(state, fake._interaction_payload(state, data), timeout)

    async def submit(
        self, reply: Reply, values: dict[str, list[str]], *, timeout: float | None = None
    ) -> Reply:
        """Submit the modal `reply` opened, its selects set to `values` (by custom_id; a select left out
        sends none), checked as Discord checks them; the submit comes from the message the modal was opened
        on, as Discord sends it."""
        fake = self.fake
        modal = reply.modal
        if modal is None:
            raise FakeDiscordError(f"{reply!r} opened no modal")
        if reply.interaction.user.id != self.id:
            raise FakeDiscordError(f"{self.name} cannot submit {reply.interaction.user.name}'s modal")
        components: list[dict[str, Any]] = []
        for item in modal.get("components") or []:
            if item.get("type") == 18:
                inner = item["component"]
                chosen = list(values.get(inner.get("custom_id", ""), []))
                offered = [o["value"] for o in inner.get("options") or []]
                if any(v not in offered for v in chosen):
                    raise FakeDiscordError(f"{inner.get('custom_id')!r} offers {offered}, not {chosen}")
                low = inner.get("min_values", 1)
                if inner.get("required", True) is False:
                    low = 0
                if not low <= len(chosen) <= inner.get("max_values", 1):
                    raise FakeDiscordError(
                        f"{inner.get('custom_id')!r} takes {low} to "
                        f"{inner.get('max_values', 1)} values, not {len(chosen)}"
                    )
                sent = {"type": inner["type"], "custom_id": inner["custom_id"], "values": chosen}
                components.append({"type": 18, "component": sent})
            elif item.get("type") == 10:
                components.append({"type": 10})
        unknown = set(values) - {c["component"]["custom_id"] for c in components if c["type"] == 18}
        if unknown:
            raise FakeDiscordError(f"the modal has no select {sorted(unknown)}")
        source = reply.interaction.source_message_id
        message = fake.messages[source] if source is not None else None
        channel = fake.channel(reply.interaction.channel_id)
        state = fake._start_interaction(
            MODAL_SUBMIT, self.user, channel, f"submit {modal.get('title')!r}", source_message_id=source
        )
        data = {"custom_id": modal["custom_id"], "components": components}
        return await fake.run_interaction(state, fake._interaction_payload(state, data, message), timeout)

    async def forged_click(
        self,
        custom_id: str,
        *,
        message: FakeMessage | int | None = None,
        channel: str | int | FakeChannel = "games",
        component_type: int = 2,
        values: list[str] | None = None,
        timeout: float | None = None,
    ) -> Reply:
        """A component interaction with any custom_id (forged, or of a button that no longer exists), as a
        hostile client could send, on `message` in its channel. What Discord itself never delivers raises
        `FakeDiscordError` instead: a component interaction without its message, or on a message the user
        cannot see (another person's ephemeral message). `channel` is kept for old callers and unused."""
        fake = self.fake
        if message is None:
            raise FakeDiscordError("Discord sends every component interaction with the message it sits on")
        msg = fake.messages[message if isinstance(message, int) else message.id]
        if not msg.visible_to(self.user) or msg.deleted:
            raise FakeDiscordError(f"{self.name} cannot see message {msg.id} ({msg.visibility}): no click")
        where = fake.channel(msg.channel_id)
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component_type}
        if values is not None:
            data["values"] = list(values)
        state = fake._start_interaction(
            MESSAGE_COMPONENT,
            self.user,
            where,
            f"forged click {custom_id[:40]!r}",
            source_message_id=msg.id,
        )
        return await fake.run_interaction(state, fake._interaction_payload(state, data, msg), timeout)

    def dm_channel(self) -> FakeChannel:
        """This user's DM channel with the bot (opened if needed), to send commands from it."""
        fake = self.fake
        channel = fake.dm_channels.get(self.id)
        if channel is None:
            channel = FakeChannel(fake._snowflake(), "", None, recipient_id=self.id)
            fake.dm_channels[self.id] = channel
        return channel

    # What this user saw.
    def ephemerals(self) -> list[FakeMessage]:
        return self.fake.ephemerals(self.user)

    def dms(self) -> list[FakeMessage]:
        return self.fake.dms(self.user)

    def seen(self) -> list[FakeMessage]:
        return self.fake.seen_by(self.user)
