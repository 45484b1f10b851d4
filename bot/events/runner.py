"""Running the events of this process: each round's matches opened as ordinary tables, the round advanced when
the store says it is done, its pairings announced once, and the round deadline kept.

The store decides, the runner follows: a finished table settles its match (and marks its round done) in the
transaction that finishes the game (`storage.competitions.table_finished`); the runner, told of the finished
table by the session layer's stored signal, asks the store to pair the next round (`advance_competition`,
which does so once, whoever asks), then opens what has no table yet. Everything it does is a step it can
repeat: after a restart (`resume`) it does the same for every running event, so a round paired before a
crash is opened after it, and one whose last game finished just before the crash is paired then.

The deadline: a match still unfinished when the round's time is up ends by its rules, as
/cancel ends a game (the score at the deadline decides its places; not rated), and a no-show forfeits: a
player who has not made a move although the turn was his (it is his turn now, or his turn timed out). A
game that ends before the deadline forfeits its no-shows too, in its finishing transaction (its timed-out
turns are the timer's moves, not his: `bot.sessions.fairplay.no_shows`, as here). A
match whose table never opened (the channel had no room: a server without threads plays one match at a time)
is a draw.

The start time: an event created with one (`starts_at`, kept in the store) is started by the runner when it
comes, as `/tournament start` would (only the checked-in entrants play when it has a check-in window); a
restart finds it again in the store (`resume`). If it cannot start then (too few entrants), the channel is
told and the event stays open for the host.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

from bot.events import plan
from bot.events.formats import FORMATS
from bot.events.model import Entrant
from bot.render import tournament as words
from bot.sessions import SessionManager
from bot.sessions.errors import NotAllowed
from bot.sessions.facts import TableFact, TableFinished
from bot.sessions.fairplay import no_shows
from bot.sessions.matches import Matches
from bot.sessions.records import note
from bot.sessions.stopping import cancel_and_wait
from bot.sessions.threads import Room
from storage.competitions import CompetitionError, CompetitionRow, MatchRow
from storage.contract import Store

log = logging.getLogger(__name__)

WATCH_EVERY = 1.0  # how often the deadlines are looked at (tests move the clock)
POST_GRACE = 10.0  # seconds a closing runner gives an announcement on its way (the channel's pace)
# An announcement claimed and not marked sent this long after is taken again: its sender died between the
# claim and the send (a kill -9), or Discord refused it. Long beside the channel's pace, so a slow sender
# is never doubled.
ANNOUNCE_LEASE = 120.0
REPOST_EVERY = 30.0  # how often the store is asked for such announcements


def room_of(row: CompetitionRow) -> Room:
    room = row.options.get("room") or [False, False]
    return Room(can_thread=bool(room[0]), permitted=bool(room[1]))


class Announcements:
    """An event's posts in its channel, each sent on its way to the end: one a closing runner started is let
    through (`drain`), or a graceful restart would lose a round's claimed announcement."""

    def __init__(self, store: Store, matches: Matches) -> None:
        self.store = store
        self.matches = matches
        self._posting: set[asyncio.Task[Any]] = set()  # announcements claimed and on their way

    async def post(self, row: CompetitionRow, message: Any, *, announced: int | None = None) -> None:
        """Send `message` in the event's channel; `announced`: the round whose claimed announcement it is
        (marked posted once sent)."""
        posting = asyncio.ensure_future(self._send(row, message, announced))
        self._posting.add(posting)
        posting.add_done_callback(self._posting.discard)
        await asyncio.shield(posting)  # a step cancelled by close() leaves the post to finish

    async def drain(self) -> None:
        if self._posting:
            await asyncio.wait(list(self._posting), timeout=POST_GRACE)

    async def _send(self, row: CompetitionRow, message: Any, announced: int | None) -> None:
        try:
            await self.matches.post(row.channel_id, message)
        except Exception as exc:  # Discord unwell or the channel gone: the event goes on
            log.warning("competition %s: its announcement failed (%s)", row.id, exc)
            return  # a claimed one is taken again once its lease is over (`repost`)
        if announced is not None:
            await self.store.announcement_posted(row.id, announced)


class Runner:
    def __init__(
        self,
        store: Store,
        sessions: SessionManager,
        *,
        clock: Callable[[], float] = time.time,
        owns_guild: Callable[[int], bool] = lambda guild_id: True,
    ) -> None:
        self.store = store
        self.sessions = sessions
        self.matches = Matches(
            sessions.lobbies,
            sessions.life,
            sessions.servers,
            sessions.presenter,
            sessions.languages.guild_locales,
            post=sessions.post_lobby,
        )
        self.announcements = Announcements(store, self.matches)
        self.clock = clock
        self.owns_guild = owns_guild
        self._locks: dict[int, asyncio.Lock] = {}
        self._deadlines: dict[int, float] = {}  # event -> its round's deadline
        self._starts: dict[int, float] = {}  # event -> the start time its host gave
        self._tasks: set[asyncio.Task[Any]] = set()
        self._watcher: asyncio.Task[Any] | None = None
        self._closed = False

    def start(self) -> None:
        self.sessions.tables.stored.listen(self.after)
        self._watcher = asyncio.ensure_future(self._watch())

    async def close(self) -> None:
        self._closed = True
        self.sessions.tables.stored.forget(self.after)
        # An announcement is claimed before it is sent (never twice, whichever process sends it): one on its
        # way is let through before the steps stop, or a graceful restart would lose it.
        await self.announcements.drain()
        await cancel_and_wait([self._watcher, *self._tasks])

    async def idle(self) -> None:
        """Wait until no step of an event is in flight (tests)."""
        while self._tasks:
            await asyncio.wait(list(self._tasks))

    def _spawn(self, coro: Any) -> None:
        if self._closed:
            coro.close()
            return
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ------------------------------------------------------------------ the stored signal

    def after(self, fact: TableFact) -> None:
        """Every stored change of a table: the end of a match's game may have ended its round (the fact names
        the event; heard once per table)."""
        if isinstance(fact, TableFinished) and fact.competition is not None:
            self._spawn(self.advance(fact.competition))

    async def _guarded_repost(self) -> None:
        try:
            await self.repost()
        except Exception as exc:  # the database away a moment: the next look tries again
            log.warning("tournaments: looking for unsent announcements failed (%s)", exc)

    async def resume(self) -> int:
        """After a restart: every running event of this process's servers taken up where the store has it
        (a finished one whose last announcement never went out, once its claim is old, by the watcher)."""
        found = 0
        for event in await self.store.competitions():
            row = await self.store.competition(event)
            if row is None or not self.owns_guild(row.guild_id):
                continue
            if row.status == "running":
                found += 1
                self._spawn(self.advance(event))
            elif row.status == "open":
                self.expect(event, row.starts_at)
        return found

    # ------------------------------------------------------------------ the start

    def expect(self, event: int, starts_at: float | None) -> None:
        """Start the event at `starts_at` (the watcher looks every WATCH_EVERY seconds)."""
        if starts_at is not None:
            self._starts[event] = starts_at

    async def begin(self, row: CompetitionRow, room: Room | None = None) -> int:
        """Start an open event now: round one paired from the entrants (only the checked-in ones when it has a
        check-in window) and stored. Returns how many play; NotAllowed if it cannot start."""
        if row.status != "open":
            raise NotAllowed("tournament.refused.started")
        playing = [e for e in row.entrants if not row.options.get("checkin") or e.checked_in is not None]
        people = [Entrant(e.player, e.rating, i) for i, e in enumerate(playing)]
        fmt = FORMATS[row.format]
        if len(people) < fmt.min_entrants:
            raise NotAllowed("tournament.refused.too_few", least=fmt.min_entrants)
        fmt.may_start(row.rounds, len(people))
        tables = plan.first_tables(row.format, row.rounds, people)
        # Its channel, as the start sees it (threads), stored with the start in one transaction.
        where = None if room is None else [room.can_thread, room.permitted]
        try:
            players = [e.player for e in people]
            await self.store.start_competition(row.id, players, tables, self._deadline(row), where)
        except CompetitionError:
            raise NotAllowed("tournament.refused.started") from None
        self._starts.pop(row.id, None)
        self.poke(row.id)
        return len(people)

    async def start_on_time(self, event: int) -> None:
        """The host's start time has come: start the event unless it started, or was cancelled, already."""
        row = await self.store.competition(event)
        if row is None or row.status != "open":
            return
        try:
            await self.begin(row)
        except NotAllowed as refusal:
            if refusal.key != "tournament.refused.started":  # another process started it first: nothing
                message = words.not_started(self.board(row), refusal.key, refusal.params, self.language(row))
                await self.announcements.post(row, message)

    # ------------------------------------------------------------------ rounds

    def poke(self, event: int) -> None:
        """Take the event's next step in the background (a command's answer does not wait for its tables)."""
        self._spawn(self.advance(event))

    def _lock(self, event: int) -> asyncio.Lock:
        return self._locks.setdefault(event, asyncio.Lock())

    async def advance(self, event: int) -> None:
        """Whatever the event's stored state asks for next: pair the next round once the one in play is done
        (or end the event), open the matches without a table, announce the round once."""
        async with self._lock(event):
            try:
                await self._advance(event)
            except Exception:
                log.exception("competition %s: taking the next step failed", event)

    async def _advance(self, event: int) -> None:
        row = await self.store.competition(event)
        while row is not None and row.status == "running" and row.round_done == row.round:
            tables = plan.next_tables(row)
            deadline = None if tables is None else self._deadline(row)
            await self.store.advance_competition(event, row.round, tables, deadline)
            row = await self.store.competition(event)
        if row is None:
            return
        if row.status != "running":
            self._deadlines.pop(event, None)
            final = row.round + 1
            if row.status == "finished" and await self.store.claim_announcement(event, final, ANNOUNCE_LEASE):
                message = words.final_message(self.board(row), self.language(row))
                await self.announcements.post(row, message, announced=final)
            return
        if row.deadline is not None:
            self._deadlines[event] = row.deadline
        await self._open(row)  # without threads the round's later matches open as the channel frees up
        if await self.store.claim_announcement(event, row.round, ANNOUNCE_LEASE):
            row = await self.store.competition(event) or row
            message = words.round_message(self.board(row), self.language(row))
            await self.announcements.post(row, message, announced=row.round)

    def _deadline(self, row: CompetitionRow) -> float | None:
        minutes = row.options.get("deadline")
        return None if not minutes else self.clock() + float(minutes) * 60

    def board(self, row: CompetitionRow) -> words.Board:
        """What the event shows, every entrant named as stored with his entry (migration 13) or, newer, as
        an interaction showed him since."""
        stored = {e.player: e.display_name for e in row.entrants}
        self.sessions.readers.know(stored)  # the tables it opens take them too (after a restart)
        seen = self.sessions.readers.names
        names = {p: name for p, n in stored.items() if (name := seen.get(p) or n)}
        return plan.board(row, names, self._places(row))

    def language(self, row: CompetitionRow) -> str:
        return str(row.options.get("language") or "en")

    def _places(self, row: CompetitionRow) -> dict[int, int]:
        """Where each match of the round plays: its table's thread (or channel), by match id."""
        found = {}
        for m in row.current():
            record = None if m.table_id is None else self.sessions.tables.by_id(m.table_id)
            if record is not None:
                found[m.id] = record.channel_id
        return found

    async def _open(self, row: CompetitionRow) -> bool:
        """Open the round's matches that have no table yet, in order, as long as the channel has room.
        True when every match of the round has its table (or needs none)."""
        # The entrants' stored names: a table opened after a restart names them before they click.
        self.sessions.readers.know({e.player: e.display_name for e in row.entrants})
        dropped = {e.player for e in row.entrants if e.dropped is not None and e.dropped < row.round}
        for m in row.current():
            if m.settled:
                continue
            if m.table_id is not None:  # opened; after a restart maybe not dealt yet
                await self.matches.resume(m.table_id, room_of(row))
                continue
            present = [p for p in m.players if p not in dropped]
            if len(present) < 2 or (FORMATS[row.format].bracket and len(present) < len(m.players)):
                await self.store.settle_match(
                    m.id,
                    [1 if p in present else 2 for p in m.players],
                    [p for p in m.players if p in dropped],
                )
                continue
            if not await self._open_match(row, m):
                return False
        return True

    async def _open_match(self, row: CompetitionRow, match: MatchRow) -> bool:
        options = dict(row.options.get("table") or {})
        try:
            await self.matches.open(
                match.id,
                row.kind,
                row.guild_id,
                row.channel_id,
                row.host_id,
                match.players,
                options,
                room_of(row),
                competition=row.id,
            )
        except NotAllowed as refusal:
            if refusal.key == "table.channel_busy":
                return False  # a game plays in the channel: the next table's end opens this one
            raise
        except CompetitionError:
            return True  # another opener got there first
        return True

    async def repost(self) -> int:
        """Announcements claimed long ago and never marked sent (their sender died, or Discord refused
        them): each event's next step is taken again, which claims and sends it. Returns how many."""
        found = 0
        for event in await self.store.unposted_announcements(ANNOUNCE_LEASE):
            row = await self.store.competition(event)
            if row is not None and self.owns_guild(row.guild_id):
                found += 1
                self._spawn(self.advance(event))
        return found

    # ------------------------------------------------------------------ deadlines

    async def _watch(self) -> None:
        looked = self.clock()
        while not self._closed:
            await asyncio.sleep(WATCH_EVERY)
            now = self.clock()
            if now - looked >= REPOST_EVERY:
                looked = now
                self._spawn(self._guarded_repost())
            for event in [e for e, at in self._starts.items() if now >= at]:
                self._starts.pop(event, None)
                self._spawn(self.start_on_time(event))
            for event in [e for e, at in self._deadlines.items() if now >= at]:
                self._deadlines.pop(event, None)
                self._spawn(self.settle(event))

    async def settle(self, event: int) -> None:
        """The round's time is up: its unfinished matches end by the deadline rule (the module's note)."""
        async with self._lock(event):
            row = await self.store.competition(event)
            if row is None or row.status != "running":
                return
            for m in row.current():
                if m.settled:
                    continue
                if m.table_id is None:
                    await self.store.settle_match(m.id, [1] * len(m.players), [])
                    continue
                record = self.sessions.tables.by_id(m.table_id)
                if record is None or record.status != "running":
                    continue
                turn = record.playing.current_player
                absent = await no_shows(self.store, m.table_id, m.players, record.session.timeouts, turn=turn)
                if absent:
                    await self.store.mark_forfeits(m.id, absent)
                await self.matches.end(m.table_id, note("log.tournament_deadline"))
        await self.advance(event)
