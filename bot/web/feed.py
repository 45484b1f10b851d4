"""The newest stored state of every table someone watches on the web, and who watches it.

A table's state comes from wherever it was stored: this process's own `Tables.stored` signal (its moves'
facts included, as the presenter gets them), or, for a table another process holds (PostgreSQL), the store
itself when that process's commit is heard through LISTEN/NOTIFY (`Store.table_changes`): the row is read
again and the new moves are replayed on from the last step known. Either way a viewer is woken once per
change and reads the newest state (a viewer that fell behind skips to it: a page shows a state, not a diff).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

from bot.sessions.facts import TableFact
from bot.sessions.records import MOVES_KEPT, MoveFacts, TableRecord
from bot.sessions.resume import further_facts, replay_facts
from bot.sessions.rows import record_from_row
from storage.contract import Store, TableChanges

log = logging.getLogger(__name__)

KEPT = 512  # tables whose state is kept without a viewer (the next page of a table is then no replay)


@dataclass(frozen=True)
class Watched:
    """A table as the web shows it: its record as stored, the facts of its newest steps (the log's lines) and
    its turn's deadline. `version` counts the states this process saw of it (a page's frames are numbered
    by it; the pictures and words made for one version are kept for the next viewer)."""

    record: TableRecord
    steps: tuple[MoveFacts, ...]
    deadline: float | None
    version: int


class Viewers:
    """Who watches which table: each viewer a one-slot queue that says "there is a newer state"."""

    def __init__(self) -> None:
        self._by_table: dict[int, set[asyncio.Queue[None]]] = {}

    def __len__(self) -> int:
        return sum(len(v) for v in self._by_table.values())

    def __contains__(self, table_id: int) -> bool:
        return table_id in self._by_table

    def add(self, table_id: int) -> asyncio.Queue[None]:
        queue: asyncio.Queue[None] = asyncio.Queue(maxsize=1)
        self._by_table.setdefault(table_id, set()).add(queue)
        return queue

    def remove(self, table_id: int, queue: asyncio.Queue[None]) -> None:
        viewers = self._by_table.get(table_id)
        if viewers is not None:
            viewers.discard(queue)
            if not viewers:
                del self._by_table[table_id]

    def wake(self, table_id: int) -> None:
        for queue in self._by_table.get(table_id, ()):
            if queue.empty():
                queue.put_nowait(None)

    def tables(self) -> list[int]:
        return list(self._by_table)


class Feed:
    def __init__(
        self,
        store: Store,
        *,
        local: Callable[[int], TableRecord | None] = lambda table_id: None,
        deadline: Callable[[int], float | None] = lambda table_id: None,
    ) -> None:
        self.store = store
        self.local = local  # this process's open table, if it holds it
        self.deadline = deadline  # this process's turn timer of a table it holds
        self.viewers = Viewers()
        self._watched: dict[int, Watched] = {}
        self._versions = itertools.count(1)
        self._reloading: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()
        self._changes: TableChanges | None = None
        self.reloads = 0  # states read from the store (tests: the page of a table held elsewhere)

    async def start(self) -> None:
        """Hear the other processes' commits (PostgreSQL); with SQLite there are none."""
        self._changes = await self.store.table_changes(self.notified)

    async def close(self) -> None:
        if self._changes is not None:
            await self._changes.close()
        for task in list(self._reloading.values()):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    # ---- what changed

    def stored(self, fact: TableFact) -> None:
        """This process stored a change (`Tables.stored`: synchronous, after the scheduler set its timer)."""
        record = fact.record
        if record.id not in self._watched and record.id not in self.viewers:
            return
        steps = record.moves
        if record.game is not None and not _complete(record):
            self.notified(record.id)  # facts not at hand (a lobby just started elsewhere): read the store
            return
        self._keep(Watched(record, steps, self.deadline(record.id), next(self._versions)))

    def notified(self, table_id: int) -> None:
        """A commit of any process stored table `table_id` (0: anything may have changed)."""
        wanted = self.viewers.tables() if table_id == 0 else [table_id]
        for tid in wanted:
            if tid not in self.viewers and tid not in self._watched:
                continue
            if tid in self._reloading:
                self._again.add(tid)  # once this reload is done, read it again
                continue
            self._reloading[tid] = asyncio.create_task(self._reload(tid))

    async def _reload(self, table_id: int) -> None:
        try:
            while True:
                self._again.discard(table_id)
                try:
                    watched = await self._read(table_id, self._watched.get(table_id))
                except Exception:
                    log.exception("reading table %s for the web failed", table_id)
                    watched = None
                if watched is not None:
                    self._keep(watched)
                if table_id not in self._again:
                    return
        finally:
            self._reloading.pop(table_id, None)

    def _keep(self, watched: Watched) -> None:
        table_id = watched.record.id
        old = self._watched.get(table_id)
        if old is not None and old.record.seq > watched.record.seq:
            return  # a slower read of an older state
        self._watched[table_id] = watched
        if len(self._watched) > KEPT:
            for stale in [t for t in self._watched if t not in self.viewers][: len(self._watched) - KEPT]:
                del self._watched[stale]
        self.viewers.wake(table_id)

    # ---- reading

    def latest(self, table_id: int) -> Watched | None:
        """The newest state known of a watched table, without reading anything."""
        return self._watched.get(table_id)

    async def current(self, table_id: int) -> Watched | None:
        """The table's newest state (None: no such table)."""
        watched = self._watched.get(table_id)
        if watched is not None:
            return watched
        record = self.local(table_id)
        if record is not None and (record.game is None or _complete(record)):
            watched = Watched(record, record.moves, self.deadline(table_id), next(self._versions))
        else:
            watched = await self._read(table_id, None)
        if watched is not None:
            self._keep(watched)
        return watched

    async def _read(self, table_id: int, known: Watched | None) -> Watched | None:
        """The table as stored, its newest steps replayed on from `known` (or from its start)."""
        row = await self.store.get_table(table_id)
        if row is None:
            return None
        self.reloads += 1
        ratings = await self.store.rating_changes(table_id) if row.status == "finished" else []
        record = record_from_row(row, ratings)
        if known is not None and (known.record.seq, known.record.status, known.record.session) == (
            record.seq,
            record.status,
            record.session,
        ):
            return None  # nothing this page shows changed
        steps: tuple[MoveFacts, ...] = ()
        deadline = None
        if row.status != "lobby" and record.game is not None:
            actions = list(await self.store.actions(table_id))
            before = known.steps if known is not None else ()
            if before and before[-1].count <= record.seq:
                steps = (*before, *await asyncio.to_thread(further_facts, record, before[-1], actions))
            else:
                steps = await asyncio.to_thread(replay_facts, record, actions)
            steps = steps[-MOVES_KEPT:]
            turn = record.game.current_player
            if record.status == "running" and turn and not record.seat_is_computer(turn) and record.timeout:
                since = actions[-1].created_at if actions else (row.started_at or row.created_at)
                deadline = since + record.timeout  # the turn's timer as its process set it
        local = self.deadline(table_id)
        return Watched(record, steps, local if local is not None else deadline, next(self._versions))

    @contextlib.asynccontextmanager
    async def watch(self, table_id: int) -> AsyncIterator[asyncio.Queue[None]]:
        """A viewer of the table while the context lasts: its queue says when a newer state is there."""
        queue = self.viewers.add(table_id)
        try:
            yield queue
        finally:
            self.viewers.remove(table_id, queue)


def _complete(record: TableRecord) -> bool:
    """Whether the record carries the facts of its newest step (the log's lines reach its last move)."""
    return bool(record.moves) and record.moves[-1].count == record.seq
