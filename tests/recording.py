"""`RecordingAnnouncer`: a real implementation of the session's `Announcer` protocol that keeps what the bot
would post, edit, delete and DM, for the session tests to read back: each message as Discord's renderer
draws it (`bot.discord_out.discord_message`), as a player sees it."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from bot.discord_out import discord_message
from bot.render.common import Message
from bot.sessions import DMClosed


@dataclass
class Sent:
    kind: str  # "send", "edit", "delete", "dm"
    target: int  # channel id, or user id for a DM
    message_id: int
    message: Message


@dataclass
class RecordingAnnouncer:
    closed_dms: set[int] = field(default_factory=set)
    log: list[Sent] = field(default_factory=list)
    messages: dict[int, Message] = field(default_factory=dict)  # the current text of every channel message
    _next_id: int = 1000
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    async def send(self, channel_id: int, message: Message) -> int:
        message = discord_message(message)
        self._next_id += 1
        self.messages[self._next_id] = message
        self.log.append(Sent("send", channel_id, self._next_id, message))
        self.changed.set()
        return self._next_id

    async def edit(self, channel_id: int, message_id: int, message: Message) -> bool:
        message = discord_message(message)
        if message_id not in self.messages:
            return False
        self.messages[message_id] = message
        self.log.append(Sent("edit", channel_id, message_id, message))
        self.changed.set()
        return True

    async def delete(self, channel_id: int, message_id: int) -> None:
        gone = self.messages.pop(message_id, None)
        if gone is not None:  # a missing message is fine, as on Discord's side
            self.log.append(Sent("delete", channel_id, message_id, gone))
            self.changed.set()

    async def dm(self, user_id: int, message: Message) -> None:
        if user_id in self.closed_dms:
            raise DMClosed(str(user_id))
        self.log.append(Sent("dm", user_id, 0, discord_message(message)))
        self.changed.set()

    def dm_requests(self, user_id: int) -> int:
        return 1

    async def start_thread(self, channel_id: int, message_id: int, name: str) -> int:
        self.log.append(Sent("thread", channel_id, message_id, Message(content=name)))
        return message_id  # as on Discord: a thread opened on a message has the message's id

    async def archive_thread(self, thread_id: int) -> None:
        self.log.append(Sent("archive", thread_id, 0, Message()))

    def public(self) -> list[Sent]:
        """What was posted or edited in the channel (deletions are in `log`, but show nothing new)."""
        return [s for s in self.log if s.kind in ("send", "edit")]

    def public_texts(self) -> list[str]:
        """Every version of every channel message (an edited log message appears once per edit)."""
        return [text for s in self.public() for text in s.message.texts()]

    def channel_lines(self) -> list[str]:
        """The lines of the channel's messages as they stand now, oldest message first."""
        return [
            line
            for _, message in sorted(self.messages.items())
            for text in message.texts()
            for line in text.splitlines()
        ]

    def dms_to(self, user_id: int) -> list[Message]:
        return [s.message for s in self.log if s.kind == "dm" and s.target == user_id]

    async def wait_for(self, predicate, timeout: float = 10.0) -> Sent:
        """The first recorded message (old or new) that satisfies `predicate`; waits on new recordings."""

        async def scan() -> Sent:
            seen = 0
            while True:
                for sent in self.log[seen:]:
                    if predicate(sent):
                        return sent
                seen = len(self.log)
                self.changed.clear()
                await self.changed.wait()

        return await asyncio.wait_for(scan(), timeout)
