"""Rematch: a finished table message offers its people the same game again.

The same players and options, the seats moved one place on (seat 2 sits first, the first player last: the way
the rules pass the deal to the left, docs/rules.md 1.6 and 1.29, and alternate who shuffles in Malice). It
starts when every person of the last game has clicked Rematch (computer seats come along without a click); it
lapses `LAPSE_AFTER` seconds after the game ended, or as soon as another game opens in the channel. The table
message says which, and who has clicked. The server's settings (game channels, host role) were checked when
the first game opened: the rematch opens in that channel for the same people without asking them again.

Restart-safe: the clicks and the outcome are stored with the finished table (`SessionState.rematch`, its
`meta`), so a click before a restart counts after it; the button's action is the table's `rematch`, its
custom id made and read on the Discord side like every other table button's. At start the process looks up the
tables finished in the last ten minutes (`Store.finished_since`) and watches their rematches again; one
whose time ran out while the bot was away lapses at once, and one whose channel got a newer table meanwhile
lapses as "another game opened".
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from typing import Any

from bot.i18n import join
from bot.render.common import RematchShown, is_computer, name
from bot.sessions.errors import NotAllowed, Text
from bot.sessions.facts import AfterEnd, GameChanged, LobbyChanged, TableFact, TableFinished
from bot.sessions.lobbies import Lobbies
from bot.sessions.records import RematchState, TableRecord
from bot.sessions.rows import record_from_row
from bot.sessions.stopping import cancel_and_wait
from bot.sessions.tables import Tables
from bot.sessions.threads import NO_THREADS, Room
from storage.contract import Store
from storage.models import TableRow

log = logging.getLogger(__name__)

STARTING = "rematch.starting"  # the last click's answer: the rematch starts (its table a param)
LAPSE_AFTER = 600.0  # seconds after the game ended
WATCH_EVERY = 1.0  # how often the pending rematches' time is looked at (the clock may be moved: tests)
OPEN, STARTED, LAPSED_TIME, LAPSED_GAME = "open", "started", "lapsed_time", "lapsed_game"


def people(players: Sequence[str]) -> list[str]:
    """Who must click: the persons of the game (computer seats come along)."""
    return [p for p in players if not is_computer(p)]


def rotated(players: Sequence[str]) -> tuple[str, ...]:
    """The rematch's seats: each player one seat on, the first one last."""
    return (*players[1:], *players[:1])


def _is_its_rematch(row: TableRow, state: RematchState, newer: TableRow) -> bool:
    """Whether `newer` is the rematch `row`'s people all clicked for: the same game, the seats moved on."""
    return (
        set(people(row.players)) <= set(state.clicked)
        and newer.kind == row.kind
        and tuple(newer.players) == rotated(row.players)
    )


def _ends(state: RematchState | None, finished_at: float | None) -> float:
    """When a stored table's rematch lapses: as stored at its first click, else ten minutes after the end."""
    if state is not None and state.ends_at:
        return state.ends_at
    return (finished_at or 0.0) + LAPSE_AFTER


class Names:
    """Players as a worded param ("Alice and Bob", each a person's reference) in the reader's language."""

    def __init__(self, players: Sequence[str]) -> None:
        self.players = list(players)

    def word(self, locale: object) -> str:
        return join(locale, [name(p, locale) for p in self.players])


def offered(record: TableRecord) -> bool:
    """Whether the table's message carries a rematch (finished, played, with at least one person)."""
    return record.status == "finished" and record.game is not None and bool(people(record.players))


def interaction_only(record: TableRecord) -> bool:
    """A table of a DM or group DM of a user install: stored under no server (guild 0, as the ledger counts
    it), the bot may only answer interactions there, so the rematch's message is the last click's answer."""
    return record.guild_id == 0


def home(record: TableRecord | TableRow) -> int:
    """The channel a table was opened in: a game that played in a thread of its own has its lobby there, and
    its rematch opens there (and lapses when another game opens there)."""
    return record.home_channel_id or record.channel_id


def shown(record: TableRecord) -> RematchShown | None:
    """What the finished table's message shows of its rematch (the composition words and places it), or
    None when it offers none."""
    if not offered(record):
        return None
    state = record.session.rematch or RematchState()
    waiting = [p for p in people(record.players) if p not in state.clicked]
    return RematchShown(
        outcome=state.outcome,
        table=state.table,
        clicked=list(state.clicked),
        waiting=waiting,
        minutes=int(LAPSE_AFTER // 60),
    )


class Rematches:
    """The rematches of the finished tables of this process: clicks, the start, the lapse."""

    def __init__(
        self,
        store: Store,
        tables: Tables,
        lobbies: Lobbies,
        *,
        latest: Callable[[int], TableRecord | None] = lambda table_id: None,
        clock: Callable[[], float] = time.time,
        owns_guild: Callable[[int], bool] = lambda guild_id: True,
        post: Callable[[TableRecord], Awaitable[None]] | None = None,
        here: Callable[[TableRecord], Awaitable[None]] | None = None,
    ) -> None:
        self.store = store
        self.tables = tables
        self.lobbies = lobbies
        self.latest = latest  # the presenter's newest record of a table (its revision must only grow)
        self.clock = clock
        self.owns_guild = owns_guild
        # The new lobby's message, posted before the deal: a thread per game opens on it.
        self.post = post
        self.here = here  # in an interaction-only place: the table's message will be a click's answer
        self._records: dict[int, TableRecord] = {}  # table id -> newest record, while its rematch is open
        self._ends: dict[int, float] = {}  # table id -> when its rematch lapses
        self._pending: dict[int, int] = {}  # channel id -> its finished table with an open rematch
        self._locks: dict[int, asyncio.Lock] = {}
        self._watcher: asyncio.Task[Any] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._closed = False

    # ------------------------------------------------------------------ the stored signal

    def after(self, fact: TableFact) -> None:
        """Every stored change: a finished game opens its rematch; another game in the channel lapses it."""
        record = fact.record
        if isinstance(fact, TableFinished | AfterEnd):
            state = record.session.rematch
            if not offered(record) or (state is not None and state.outcome != OPEN):
                self._forget(record.id)
                return
            if record.id not in self._ends:
                ends = state.ends_at if state is not None and state.ends_at else self.clock() + LAPSE_AFTER
                self._watch(record, ends)
            self._records[record.id] = record
        elif isinstance(fact, LobbyChanged | GameChanged):
            pending = self._pending.get(home(record))
            if pending is not None and pending != record.id:
                self._spawn(self._lapse(pending, LAPSED_GAME))

    def _watch(self, record: TableRecord, ends: float) -> None:
        self._records[record.id] = record
        self._ends[record.id] = ends
        if self._pending.get(home(record), 0) < record.id:  # an old table clicked: not the newest
            self._pending[home(record)] = record.id
        if not self._closed and (self._watcher is None or self._watcher.done()):
            self._watcher = asyncio.ensure_future(self._watch_time())

    def _forget(self, table_id: int) -> None:
        record = self._records.pop(table_id, None)
        self._ends.pop(table_id, None)
        if record is not None and self._pending.get(home(record)) == table_id:
            del self._pending[home(record)]

    async def _watch_time(self) -> None:
        while self._ends and not self._closed:
            await asyncio.sleep(WATCH_EVERY)
            now = self.clock()
            for table_id in [n for n, ends in self._ends.items() if now >= ends]:
                try:
                    await self._lapse(table_id, LAPSED_TIME)
                except Exception:
                    log.exception("table %s: lapsing its rematch failed", table_id)
                    self._forget(table_id)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ------------------------------------------------------------------ restarts

    async def resume(self) -> int:
        """After a restart: the rematches still open, watched again (see the module's note)."""
        found = 0
        for row in await self.store.finished_since(self.clock() - LAPSE_AFTER - 60):
            if not self.owns_guild(row.guild_id) or row.id in self._ends:
                continue
            record = await self._from_row(row)
            state = record.session.rematch
            if state is not None and state.outcome == STARTED and state.table is not None:
                await self._deal_left(state.table)  # a kill between the rematch's table and its deal
                continue
            if not offered(record) or (state is not None and state.outcome != OPEN):
                continue
            last = await self.store.last_table(home(row))
            newer = last is not None and last.id != row.id
            if last is not None and newer and state is not None and _is_its_rematch(row, state, last):
                # A kill between the rematch's table and the outcome stored here: it did start.
                await self._store(record, state.model_copy(update={"outcome": STARTED, "table": last.id}))
                await self._deal_left(last.id)
                continue
            self._watch(record, _ends(state, row.finished_at))
            found += 1
            if newer:
                await self._lapse(row.id, LAPSED_GAME)
        return found

    async def _deal_left(self, table_id: int) -> None:
        """A rematch's table everyone agreed to, found still in its lobby after a restart: dealt (in the
        channel: the room a click's channel gave is not known any more)."""
        table = self.tables.by_id(table_id)
        if table is not None and table.status == "lobby":
            await self.lobbies.start_now(table)

    async def close(self) -> None:
        self._closed = True
        await cancel_and_wait([self._watcher, *self._tasks])

    # ------------------------------------------------------------------ clicks

    def _lock(self, table_id: int) -> asyncio.Lock:
        return self._locks.setdefault(table_id, asyncio.Lock())

    async def _record(self, table_id: int) -> TableRecord | None:
        """The finished table's newest record: as last published here, else from the store."""
        record = self._records.get(table_id) or self.latest(table_id)
        if record is not None and record.status == "finished":
            return record
        row = await self.store.get_table(table_id)
        if row is None:
            return None
        record = await self._from_row(row)
        shown = self.latest(table_id)
        if shown is not None and shown.revision >= record.revision:
            record = replace(record, revision=shown.revision)  # the presenter only takes newer records
        state = record.session.rematch
        if offered(record) and (state is None or state.outcome == OPEN) and table_id not in self._ends:
            self._watch(record, _ends(state, row.finished_at))
        return record

    async def _from_row(self, row: TableRow) -> TableRecord:
        """A finished table's record from the store, its rating changes with it (its result shows them)."""
        record = record_from_row(row)
        return replace(record, ratings=tuple(await self.store.rating_changes(row.id)))

    async def _store(self, record: TableRecord, state: RematchState) -> TableRecord:
        session = record.session.model_copy(update={"rematch": state})
        await self.store.update_meta(record.id, session)
        changed = record.evolve(session=session)
        self.tables.publish(changed)  # the table message shows it (the presenter), and `after` notes it
        return changed

    async def _lapse(self, table_id: int, outcome: str) -> None:
        async with self._lock(table_id):
            record = self._records.get(table_id)
            state = None if record is None else (record.session.rematch or RematchState())
            if record is None or state is None or state.outcome != OPEN:
                self._forget(table_id)
                return
            await self._store(record, state.model_copy(update={"outcome": outcome}))

    async def click(self, table_id: int, user_id: int, room: Room = NO_THREADS) -> Text:
        """A click on Rematch: counted, and the rematch starts once every person of the game has clicked."""
        async with self._lock(table_id):
            record = await self._record(table_id)
            if record is None or not offered(record):
                raise NotAllowed("rematch.refused.none")
            me = str(user_id)
            who = people(record.players)
            if me not in who:
                raise NotAllowed("rematch.refused.not_player")
            state = record.session.rematch or RematchState()
            if state.outcome == STARTED:
                raise NotAllowed("rematch.refused.started", table=state.table or 0)
            if state.outcome != OPEN:
                raise NotAllowed("rematch.refused.lapsed")
            ends = state.ends_at or self._ends.get(table_id) or self.clock() + LAPSE_AFTER
            if self.clock() >= ends:
                await self._store(record, state.model_copy(update={"outcome": LAPSED_TIME}))
                raise NotAllowed("rematch.refused.lapsed")
            if me in state.clicked:
                waiting = [p for p in who if p not in state.clicked]
                return Text("rematch.already", waiting=Names(waiting))
            state = state.model_copy(update={"clicked": (*state.clicked, me), "ends_at": ends})
            waiting = [p for p in who if p not in state.clicked]
            if waiting:
                await self._store(record, state)
                return Text("rematch.clicked", waiting=Names(waiting))
            # Everyone is in. The channel's rematch is no longer pending: its own new table must not lapse it.
            self._pending.pop(home(record), None)
            try:
                table = await self._open(record)
            except NotAllowed:
                await self._store(record, state.model_copy(update={"outcome": LAPSED_GAME}))
                raise NotAllowed("rematch.refused.lapsed") from None
            await self._store(record, state.model_copy(update={"outcome": STARTED, "table": table.id}))
            if interaction_only(record):
                # The new table's message is this click's answer: noted before the answer is sent.
                if self.here is not None:
                    await self.here(table)
                await self.lobbies.start_now(table, room)
            else:
                # Posting the lobby waits for the channel's write budget (and a thread opens on it): the
                # click is answered first, within Discord's 3 s, and the table is shown and dealt after.
                self._spawn(self._show_and_deal(table, room))
        return Text("rematch.starting", table=table.id)  # STARTING

    async def _open(self, record: TableRecord) -> TableRecord:
        """The new table: the same game and options, the seats moved one on."""
        players = rotated(record.players)
        host = next(int(p) for p in players if not is_computer(p))
        return await self.lobbies.open(
            kind=record.kind,
            guild_id=record.guild_id,
            channel_id=home(record),
            host_id=host,
            options=dict(record.options),
            players=list(players),
            language=record.language,
        )

    async def _show_and_deal(self, table: TableRecord, room: Room) -> None:
        """The new table posted in its channel, then dealt at once (in a thread of its own where the server
        plays so and `room`, the clicked channel, allows it)."""
        try:
            if self.post is not None:
                await self.post(table)
            await self.lobbies.start_now(table, room)
        except Exception:
            log.exception("rematch table %s could not be shown and dealt", table.id)
