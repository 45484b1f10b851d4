"""The seam between tables and what spans them (`bot.events`, tournaments): a match's table opened without an
interaction, a game ended from outside, and a public message of that floor, paced like the tables' own.

A table knows of its competition only the event and the match it was created for (`Lobbies.open(match=,
competition=)`, the match linked with the table in one transaction; the record's `competition`); the
competition hears of the table's end through the stored signal's `TableFinished`, which names the event,
and the match is settled in the transaction that finishes the game (`storage.competitions`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from bot.i18n import DEFAULT
from bot.render.common import Message
from bot.sessions.display import Display
from bot.sessions.life import Life
from bot.sessions.lobbies import Lobbies
from bot.sessions.presenter import Presenter
from bot.sessions.records import NoteFact, TableRecord
from bot.sessions.servers import Servers
from bot.sessions.threads import NO_THREADS, Room


class Matches:
    def __init__(
        self,
        lobbies: Lobbies,
        life: Life,
        servers: Servers,
        presenter: Presenter,
        guild_locales: dict[int, str],
        *,
        post: Callable[[TableRecord], Awaitable[None]],
    ) -> None:
        self.lobbies = lobbies
        self.life = life
        self.servers = servers
        self.presenter = presenter
        self.guild_locales = guild_locales  # the manager's: each server's locale as its last interaction said
        self._post = post

    async def open(
        self,
        match_id: int,
        kind: str,
        guild_id: int,
        channel_id: int,
        host_id: int,
        players: Sequence[str],
        options: dict[str, Any],
        room: Room = NO_THREADS,
        *,
        competition: int,
    ) -> TableRecord:
        """A competition's match: a table opened without an interaction, its players seated, its message
        posted and its game dealt at once (in a thread of its own where the server plays so and `room`
        allows). NotAllowed `table.channel_busy` while another game holds the channel."""
        settings = await self.servers.of(guild_id)
        options = self.servers.new_table_options(settings, kind, options)
        language = settings.language or self.guild_locales.get(guild_id, DEFAULT)
        record = await self.lobbies.open(
            kind=kind,
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            options=options,
            players=list(players),
            language=language,
            match=match_id,
            competition=competition,
        )
        await self._post(record)
        await self.lobbies.start_now(record, room)
        return self.lobbies.tables.by_id(record.id) or record

    async def resume(self, table_id: int, room: Room = NO_THREADS) -> None:
        """A match's table found still in its lobby (a restart came between its opening and its deal): its
        message posted if it never was, then dealt."""
        record = self.lobbies.tables.by_id(table_id)
        if record is None or record.status != "lobby":
            return
        row = await self.lobbies.store.get_table(table_id)
        posted = self.presenter.message_id(table_id) or (row and Display.of_row(row).table_message_id)
        if not posted:
            await self._post(record)
        await self.lobbies.start_now(record, room)

    async def end(self, table_id: int, why: NoteFact) -> None:
        """End a running game from outside it, settled by its rules; `why` the table's public note."""
        await self.life.end(table_id, why)

    async def post(self, channel_id: int, message: Message) -> int:
        """A public message of the floor above tables (a round's pairings), paced like the tables' own
        writes; returns its id."""
        async with self.presenter.write_slot(channel_id) as slot, slot.request():
            return await self.presenter.announcer.send(channel_id, message)
