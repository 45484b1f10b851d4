"""Lobbies and challenges: a table before its game, from opening to the deal (or to being closed).

Each public step takes the channel's lock itself, checks, stores, and publishes the new record; nothing here
is called with a lock held by someone else.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
from collections.abc import AsyncIterator
from functools import partial
from typing import Any

from pydantic import BaseModel, ConfigDict

from bot.games.base import seed_commitment
from bot.games.registry import REGISTRY
from bot.games.spec import TableStyle
from bot.i18n import resolve_locale
from bot.render.common import name
from bot.sessions.errors import GameName, NotAllowed, TableChanged, Text
from bot.sessions.kinds import game_options
from bot.sessions.records import MoveFacts, NoteFact, SessionState, TableRecord, note, player
from bot.sessions.rows import record_from_row
from bot.sessions.tables import Readers, Tables
from bot.sessions.threads import NO_THREADS, Room, Threads
from storage.contract import Store
from storage.errors import ChannelBusy, SeatsChanged, TableNotFound, TableStateError
from storage.models import SeatIn

log = logging.getLogger(__name__)


class StoredOptions(BaseModel):
    """A table's options as stored: the turn time (always set) and the game's own options as given."""

    model_config = ConfigDict(extra="allow", frozen=True)

    timeout: int | float  # as given: a setting's default or the /<game> command's whole seconds


def new_seed() -> str:
    """A table's secret seed: drawn by the session, never by the engine (tests replace this to fix games)."""
    return secrets.token_hex(16)


@contextlib.asynccontextmanager
async def as_stored(store: Store, tables: Tables, record: TableRecord) -> AsyncIterator[None]:
    """A lobby step on `record`: if the store finds the table no longer a lobby (another process started or
    closed it: a rolling restart's overlap), the stale path: the table as stored is published in its place
    and the step answers `TableChanged`."""
    try:
        yield
    except (TableStateError, TableNotFound, SeatsChanged):
        row = await store.get_table(record.id)
        log.info("table %s: another process changed the lobby first; reloaded", record.id)
        if row is not None:
            tables.publish(record_from_row(row).evolve(revision=record.revision + 1))
        raise TableChanged from None


async def close_lobby(store: Store, tables: Tables, record: TableRecord, why: NoteFact) -> None:
    """A lobby cancelled (by its host, abandoned, refused): stored (the stale path if another process moved
    it on first), then published with the reason. Caller holds the lock."""
    async with as_stored(store, tables, record):
        await store.cancel_table(record.id)
    session = record.session.with_banner(why, record.seq)
    tables.publish(record.evolve(status="cancelled", session=session))


async def cancel_lobby(store: Store, tables: Tables, record: TableRecord, user_id: int) -> Text:
    """The host (or a manager) cancels a lobby. Caller holds the lock."""
    await close_lobby(store, tables, record, note("table.cancelled_by", player=player(str(user_id))))
    return Text("table.cancelled")


class Lobbies:
    def __init__(
        self,
        store: Store,
        tables: Tables,
        readers: Readers,
        *,
        default_timeout: float,
        threads: Threads | None = None,
    ) -> None:
        self.store = store
        self.tables = tables
        self.readers = readers
        self.default_timeout = default_timeout
        self.threads = threads  # where a game plays once it starts (None: in its channel, always)

    async def open(
        self,
        *,
        kind: str,
        guild_id: int,
        channel_id: int,
        host_id: int,
        options: dict[str, Any],
        players: list[str] | None = None,
        language: str = "en",
        match: int | None = None,
        competition: int | None = None,
    ) -> TableRecord:
        """A new lobby (or challenge) in the channel, its public messages in `language`; the seed is drawn
        here. `match`: a competition's match (bot/events) this table plays, linked in the transaction that
        creates it; `competition`: that match's event (the table knows no more of its competition than
        these two)."""
        async with self.tables.lock(channel_id):
            if self.tables.in_channel(channel_id) is not None:
                raise NotAllowed("table.channel_busy")
            options = {k: v for k, v in options.items() if v is not None}
            options.setdefault("timeout", self.default_timeout)
            seed = new_seed()  # looked up at each call: tests fix it
            commitment = seed_commitment(seed)
            stored = StoredOptions(**options)
            seated = tuple(players or [str(host_id)])
            session = self.readers.noted(SessionState(language=resolve_locale(language)), seated)
            # The table, its seats and its session state in one transaction: a crash never leaves a table
            # without its players (it would hold the channel with a game nobody can start).
            seats = seats_of(seated, session.names)
            try:
                # A tournament's match table is linked to its match in the same transaction.
                create = (
                    self.store.create_table
                    if match is None
                    else partial(self.store.create_match_table, match)
                )
                table_id = await create(
                    guild_id, channel_id, kind, host_id, stored, seed, commitment, seats=seats, meta=session
                )
            except ChannelBusy as exc:
                raise NotAllowed("table.channel_busy") from exc
            record = TableRecord(
                id=table_id,
                guild_id=guild_id,
                channel_id=channel_id,
                kind=kind,
                host_id=host_id,
                options=options,
                seed=seed,
                commitment=commitment,
                status="lobby",
                players=seated,
                seq=0,
                session=session,
                competition=competition if match is not None else None,
            )
            self.tables.add(record)
            return record

    async def abandon(self, record: TableRecord) -> None:
        """Close a lobby whose message could not be posted (the bot may not write in the channel)."""
        async with self.tables.lock(record.channel_id):
            now = self.tables.by_id(record.id)
            if now is not None and now.status == "lobby":
                await self.store.cancel_table(record.id)
                self.tables.publish(now.evolve(status="cancelled"))

    def _lobby(self, channel_id: int, style: TableStyle) -> TableRecord:
        """The channel's table, which must be waiting for players and fill the `style` way."""
        record = self.tables.require(channel_id)
        spec = REGISTRY[record.kind]
        if spec.table != style:
            raise NotAllowed("table.wrong_kind", game=GameName(record.kind, spec.title))
        if record.status != "lobby":
            raise NotAllowed("table.already_started")
        return record

    def _as_stored(self, record: TableRecord) -> contextlib.AbstractAsyncContextManager[None]:
        return as_stored(self.store, self.tables, record)

    async def _reseat(self, record: TableRecord, players: list[str]) -> None:
        """The seats stored before anyone is told; only over the seats this process saw (a join or leave
        another process stored first takes the stale path, not an overwrite)."""
        new = record.evolve(players=tuple(players), session=self.readers.noted(record.session, players))
        async with self._as_stored(record):
            seats = seats_of(new.players, new.session.names)
            await self.store.set_seats(new.id, seats, expected=record.players)
        self.tables.publish(new)

    async def join(self, channel_id: int, user_id: int) -> Text:
        async with self.tables.lock(channel_id):
            record = self._lobby(channel_id, "lobby")
            me = str(user_id)
            if me in record.players:
                raise NotAllowed("table.already_seated")
            if len(record.players) >= REGISTRY[record.kind].max_players:
                raise NotAllowed("table.full")
            await self._reseat(record, [*record.players, me])
            return Text("table.joined")

    async def leave(self, channel_id: int, user_id: int) -> Text:
        async with self.tables.lock(channel_id):
            record = self._lobby(channel_id, "lobby")
            me = str(user_id)
            if me not in record.players:
                raise NotAllowed("table.not_seated")
            if user_id == record.host_id:
                raise NotAllowed("table.host_cannot_leave")
            await self._reseat(record, [p for p in record.players if p != me])
            return Text("table.left")

    async def add_computer(self, channel_id: int, user_id: int) -> Text:
        async with self.tables.lock(channel_id):
            record = self._lobby(channel_id, "lobby")
            _require_host(record, user_id, "addbot")
            if len(record.players) >= REGISTRY[record.kind].max_players:
                raise NotAllowed("table.full")
            used = {int(p.split(":", 1)[1]) for p in record.players if p.startswith("ai:")}
            number = next(n for n in range(1, 100) if n not in used)
            await self._reseat(record, [*record.players, f"ai:{number}"])
            return Text("table.computer_joined", number=number)

    async def start(self, channel_id: int, user_id: int, room: Room = NO_THREADS) -> Text:
        """`room`: what Discord says of the channel (a thread per game, `bot.sessions.threads`)."""
        async with self.tables.lock(channel_id):
            record = self._lobby(channel_id, "lobby")
            _require_host(record, user_id, "start")
            if len(record.players) < REGISTRY[record.kind].min_players:
                raise NotAllowed("table.need_two")
            await self._deal(record, room)
        return Text("table.started")

    async def accept(self, channel_id: int, user_id: int, room: Room = NO_THREADS) -> Text:
        async with self.tables.lock(channel_id):
            record = self._lobby(channel_id, "challenge")
            if str(user_id) != record.players[1]:
                raise NotAllowed("challenge.only_challenged.accept")
            await self._deal(record, room)
        return Text("challenge.accepted")

    async def decline(self, channel_id: int, user_id: int) -> Text:
        async with self.tables.lock(channel_id):
            record = self._lobby(channel_id, "challenge")
            if str(user_id) not in record.players:
                raise NotAllowed("challenge.only_challenged.decline")
            await self._close(record, note("challenge.declined_by", player=player(str(user_id))))
            return Text("challenge.declined")

    async def start_now(self, record: TableRecord, room: Room = NO_THREADS) -> None:
        """A challenge to the computer starts at once."""
        async with self.tables.lock(record.channel_id):
            now = self.tables.by_id(record.id)
            if now is not None and now.status == "lobby":
                with contextlib.suppress(TableChanged):  # another process dealt it first: it plays
                    await self._deal(now, room)

    async def cancel(self, record: TableRecord, user_id: int) -> Text:
        """Caller holds the lock (the table's life decides who may cancel)."""
        return await cancel_lobby(self.store, self.tables, record, user_id)

    async def _close(self, record: TableRecord, why: NoteFact) -> None:
        await close_lobby(self.store, self.tables, record, why)

    async def _deal(self, record: TableRecord, room: Room = NO_THREADS) -> None:
        """Lobby -> running: deal, and store the first snapshot with the session state in one transaction;
        the table moves into a thread of its own if the server plays in threads (opened first)."""
        thread, told = (None, None) if self.threads is None else await self.threads.place(record, room)
        spec = REGISTRY[record.kind]
        game = spec.new_game(list(record.players), record.seed, game_options(record.options))
        hands = tuple(spec.session.hands_to_send(game, [], True))
        session = self.readers.noted(record.session, record.players).model_copy(update={"banner": None})
        if told is not None:  # the table says once why the game plays in the channel
            session = session.with_notes([told], at=0)
        snapshot = game.model_dump_json()
        async with self._as_stored(record):
            await self.store.start_table(record.id, snapshot, session, thread_id=thread)
        # What new_game() itself did (a first deal, a throw) is announced like any step: step 0.
        start = MoveFacts(count=0, actor=None, events=tuple(game.opening_events), game=game, hands=hands)
        moved = {} if thread is None else {"channel_id": thread, "home_channel_id": record.channel_id}
        self.tables.publish(
            record.evolve(
                status="running", snapshot=snapshot, game=game, session=session, moves=(start,), **moved
            )
        )


def challenge_seats(host_id: int, opponent: int | None, is_bot: bool, vs_computer: bool) -> list[str]:
    """A challenge's two seats: the host's and his opponent's (the computer's when he challenged the bot)."""
    if opponent is None or opponent == host_id:
        raise NotAllowed("table.challenge_self")
    if is_bot and not vs_computer:
        raise NotAllowed("table.challenge_bot")
    return [str(host_id), "ai:1" if vs_computer else str(opponent)]


def seats_of(players: tuple[str, ...], names: dict[str, str]) -> list[SeatIn]:
    """The seats of `players` in order, each with the name Discord last showed (the pictures draw it)."""
    return [
        SeatIn(seat=i, player=p, user_id=None if p.startswith("ai:") else int(p), name=names.get(p))
        for i, p in enumerate(players)
    ]


def _require_host(record: TableRecord, user_id: int, what: str) -> None:
    """`what`: `addbot` or `start` (the refusal's key)."""
    if user_id != record.host_id:
        raise NotAllowed(f"table.host_only.{what}", host=name(str(record.host_id)))
