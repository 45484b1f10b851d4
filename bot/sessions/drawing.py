"""What a write of the table message shows, worded and drawn when it is written: the presenter's display
record (loaded and stored by it alone), the steps to word (the records' own, else replayed from the log), the
log window, the banner, the picture. `Job` is one table's worker state (the presenter's and its pings')."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot import render
from bot.render.common import Message
from bot.render.compose import TableView
from bot.sessions.display import Display
from bot.sessions.links import Pages
from bot.sessions.records import MoveFacts, NoteFact, TableRecord
from bot.sessions.view import Window, banner_of, message_of, table_info, view_of, window_of
from storage.contract import Store


@dataclass
class Job:
    """One table's worker and what it knows: the newest record, its own display record, and what is shown."""

    record: TableRecord
    display: Display | None = None  # loaded from the store on the first step (None: not yet)
    shown_revision: int = -1  # the record revision the table message shows (in memory: a restart redraws)
    steps: tuple[MoveFacts, ...] = ()  # replayed steps, when the records' own are not enough
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)  # one write of this table's messages at a time
    task: asyncio.Task[Any] | None = None
    failures: int = 0
    silenced: bool = False  # the bot may not write here (permission missing): wait for the next change
    busy: bool = False
    # Who holds the turn and since when he is idle: a ping only when the turn passed between two people.
    turn_holder: str | None = None
    turn_since: float = 0.0
    ping_wanted: bool = False
    tracked_seq: int = -1
    moved: asyncio.Event | None = None  # set by the next record: for those who wait for the computer's reply
    answering: int = 0  # clicks being answered with the table message: the worker leaves it to them

    def told(self, record: TableRecord) -> None:
        """A newer record of the table (the presenter's `stored` signal): those waiting for one go on."""
        self.record = record
        if self.moved is not None:
            self.moved.set()
            self.moved = None

    async def computer_answered(self, within: float) -> None:
        """While a computer seat is to move, its moves come within moments (it starts thinking 30 ms after
        the move that gave it the turn): wait for them, at most `within` seconds, so that one write (one
        picture, one answer) shows a person's move and the computer's reply together."""
        deadline = time.monotonic() + within
        while computer_to_move(self.record) and (left := deadline - time.monotonic()) > 0:
            if self.moved is None:
                self.moved = asyncio.Event()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.moved.wait(), left)


class Jobs(dict[int, Job]):
    """Every table's worker state by table id: created and ended by the presenter, read by its parts (the
    answers to clicks, the homes, the pings) through this one shared object, never through another part's
    private fields."""

    def live(self, job: Job) -> bool:
        """Whether `job` is still its table's worker (a closed table's ends; a new one may follow)."""
        return self.get(job.record.id) is job


class Drawing:
    def __init__(
        self,
        store: Store,
        *,
        facts: Callable[[TableRecord], Awaitable[tuple[MoveFacts, ...]]],
        deadline: Callable[[int], float | None],
        pages: Pages,
    ) -> None:
        self.store = store
        self._facts = facts
        self.deadline = deadline
        self.pages = pages  # the table's pages outside Discord (bot.web), which its message links to

    async def display(self, job: Job) -> Display:
        if job.display is None:
            row = await self.store.get_table(job.record.id)
            job.display = Display() if row is None else Display.of_row(row)
        follow_home(job)
        return job.display

    async def save(self, job: Job) -> None:
        if job.display is not None:
            await self.store.update_display(job.record.id, job.display)

    async def steps(self, job: Job, record: TableRecord, shown_seq: int) -> tuple[MoveFacts, ...]:
        """The steps to word: the record's own when they reach back past what was shown, else the replay."""
        if record.game is None:
            return ()
        own = record.moves
        if own and own[0].count <= max(shown_seq, 0):
            return own
        if not job.steps or job.steps[-1].count < record.seq:
            job.steps = await self._facts(record)
        return tuple(s for s in job.steps if s.count <= record.seq)

    def banner(self, record: TableRecord, display: Display) -> list[NoteFact]:
        """The notes over the table: the session's banner, and the presenter's own notice until shown."""
        notes = [banner_of(record, display.shown_banner)]
        notice = display.notice
        if notice is not None and (not display.notice_shown or notice.at == record.seq):
            notes.append(notice)
        return [n for n in notes if n is not None]

    async def view(
        self, job: Job, record: TableRecord, *, all_lines: bool = False, locale: object = None
    ) -> TableView:
        """The record's public view as a write of the table message shows it: the log from what it has shown
        (`all_lines`: the newest lines, as for a reader who saw nothing), in the table's language."""
        display = await self.display(job)
        lang = record.language if locale is None else locale
        shown_seq, shown_note = (-1, 0) if all_lines else (display.shown_seq, display.shown_note)
        steps = await self.steps(job, record, shown_seq)
        pages = await self.pages.pages(record)
        return view_of(
            record,
            steps=steps,
            shown=(shown_seq, shown_note),
            banner=self.banner(record, display),
            deadline=self.deadline(record.id),
            locale=lang,
            pictures_off=display.pictures_off,
            pages=pages,
        )

    async def word(
        self, job: Job, record: TableRecord, *, all_lines: bool = False, locale: object = None
    ) -> tuple[Message, Window | None]:
        """The table message for `record`, its log worded now (text only: the picture comes separately)."""
        view = await self.view(job, record, all_lines=all_lines, locale=locale)
        message = message_of(record, view)
        return message, window_of(view) if record.game is not None else None

    async def drawn(self, job: Job, record: TableRecord) -> tuple[Message, Window | None]:
        """The table message with its picture drawn in a worker thread, from the game as stored."""
        message, win = await self.word(job, record)
        display = await self.display(job)
        game = record.game
        if game is None or not pictures_on(record, display):
            return message, win
        info = info_of(record, display)
        lang = record.language
        # The record's game is never changed (the service applies to a copy): the thread reads the stored
        # state itself, as the computer's thinking does, rather than loading its snapshot again.
        picture = await asyncio.to_thread(lambda: render.table_picture(info, game, locale=lang))
        return render.attach_picture(message, picture), win

    def shown(self, job: Job, record: TableRecord, win: Window | None, *, whole: bool = True) -> None:
        """A write of the table message showed `record` (its log up to `win`); `whole=False`: its text only,
        the picture still to follow (the record is not counted shown)."""
        display = job.display
        assert display is not None
        if win is not None:
            display.shown_seq, display.shown_note = win.upto_seq, win.upto_note
        if record.session.banner is not None:
            display.shown_banner = record.session.banner.n
        if display.notice is not None:
            display.notice_shown = True
        if whole and (win is None or win.upto_seq >= record.seq):
            job.shown_revision = max(job.shown_revision, record.revision)

    async def steps_for_hands(self, job: Job) -> tuple[MoveFacts, ...]:
        display = await self.display(job)
        return await self.steps(job, job.record, display.hands_seq)


def computer_to_move(record: TableRecord) -> bool:
    game = record.game
    player = None if game is None or game.is_over or not record.is_open else game.current_player
    return player is not None and record.seat_is_computer(player)


def pictures_on(record: TableRecord, display: Display) -> bool:
    return bool(record.options.get("pictures", True)) and not display.pictures_off


def info_of(record: TableRecord, display: Display) -> render.TableInfo:
    return table_info(record, pictures_off=display.pictures_off)


def follow_home(job: Job | None) -> Job | None:
    """A table that has moved into its thread (`bot.sessions.homes`): its lobby message becomes its home, and
    the table message is posted anew in the thread by the next write. Seen before any write, and before a
    click on the table message is answered (a click on the lobby of a game that just moved no longer updates
    it)."""
    if job is None or job.display is None:
        return job
    display, record = job.display, job.record
    if record.home_channel_id is not None and display.home_message_id is None:
        display.home_message_id = display.table_message_id
        display.table_message_id = None
        job.shown_revision = -1
    return job
