"""Replays of finished games: every step rebuilt from the stored seed, options and action log (never from
stored words), and the private viewer of one step worded in the reader's language.

A finished table never changes, so its replayed steps are kept in memory for the next click (a bounded LRU
of tables: a viewer is clicked through step after step, and a long game's replay is the costly part). Each
step shows what the public table showed then: the board, the log up to that move, whose turn it was; the seed
and the result appear at the last step, as they did on the table.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass, field

from bot import render
from bot.render import replay as viewer
from bot.render.common import Message
from bot.sessions.errors import NotAllowed
from bot.sessions.records import MoveFacts, TableRecord
from bot.sessions.resume import replay_facts
from bot.sessions.rows import record_from_row
from bot.sessions.view import Line, Window, log_of, message_of, table_info, view_of
from storage.contract import Store
from storage.models import ActionRow, HistoryEntry, TableRow

TABLES_KEPT = 32  # replayed tables in memory, and at most this many steps in all (the table asked for stays):
STEPS_KEPT = 4000  # a step is some 7 KB (a 386-move Malice game takes 2.6 MB), so some 30 MB at most
LOG_LINES = 40  # log lines handed to each step's message (the renderer keeps what fits)


@dataclass
class Replayed:
    """One finished table's steps, 0 (the start) to `last`, and its log worded per language (on demand)."""

    record: TableRecord  # as stored at its end
    steps: tuple[MoveFacts, ...]
    lines: dict[str, list[Line]] = field(default_factory=dict)

    @property
    def last(self) -> int:
        return len(self.steps) - 1

    def record_at(self, step: int) -> TableRecord:
        """The table as it stood after `step` actions: running until the last one (the seed is revealed only
        by a finished game, as on the table)."""
        status = self.record.status if step == self.last else "running"
        return self.record.evolve(game=self.steps[step].game, seq=step, status=status, snapshot=None)

    def log(self, locale: str) -> list[Line]:
        if locale not in self.lines:
            self.lines[locale] = log_of(self.record, self.steps, locale=locale)
        return self.lines[locale]


def replay_table(record: TableRecord, rows: list[ActionRow]) -> Replayed:
    """Every step of a finished table from its seed and log (raises ValueError when the rules refuse it)."""
    return Replayed(record, replay_facts(record, rows))


class Replays:
    def __init__(self, store: Store, *, keep: int = TABLES_KEPT, steps: int = STEPS_KEPT) -> None:
        self.store = store
        self.keep = keep
        self.steps_kept = steps
        self._kept: OrderedDict[int, Replayed] = OrderedDict()
        self.replayed = 0  # tables replayed from the store (not served from memory): tests and benchmarks

    async def replayed_table(self, table_id: int, guild_id: int | None) -> Replayed:
        """The table's steps, from memory or replayed from the store. Only a finished game of this server
        (`guild_id`) is replayed: a running game's replay would show what its players cannot see yet."""
        kept = self._kept.get(table_id)
        if kept is not None and kept.record.guild_id == (guild_id or 0):
            self._kept.move_to_end(table_id)
            return kept
        row = await self.store.get_table(table_id)
        if row is None or row.guild_id != (guild_id or 0):
            raise NotAllowed("replay.no_table", table=table_id)
        if row.status != "finished" or row.snapshot is None:
            raise NotAllowed("replay.not_finished")
        record = record_from_row(row)
        actions = await self.store.actions(table_id)
        try:
            # In a thread: a long game takes a few milliseconds, and the event loop serves other clicks.
            replayed = await asyncio.to_thread(replay_table, record, list(actions))
        except ValueError:
            raise NotAllowed("replay.broken") from None
        self.replayed += 1
        self._kept[table_id] = replayed
        while len(self._kept) > 1 and (
            len(self._kept) > self.keep or sum(len(r.steps) for r in self._kept.values()) > self.steps_kept
        ):
            self._kept.popitem(last=False)
        return replayed

    async def step(self, table_id: int, step: int, *, guild_id: int | None, locale: str) -> Message:
        """The viewer at `step` (cut to the game's last), worded and drawn for the reader (`locale`)."""
        replayed = await self.replayed_table(table_id, guild_id)
        step = min(step, replayed.last)
        lines = replayed.log(locale)
        # A picture is drawn in a worker thread, like the presenter's (the pictures' cache makes a step
        # seen before a lookup).
        return await asyncio.to_thread(step_message, replayed, step, lines, locale)

    async def history(
        self, channel_id: int, *, table_id: int | None = None, kind: str | None = None
    ) -> tuple[TableRow, list[HistoryEntry]]:
        """A past or running game of the channel, as /history lists it: by its number, else the channel's last
        one (of `kind`)."""
        if table_id is not None:
            row = await self.store.get_table(table_id)
            if row is None or channel_id not in (row.channel_id, row.home_channel_id):
                raise NotAllowed("history.no_table", table=table_id)
        else:
            row = await self.store.last_table(channel_id, kind)
            if row is None:
                raise NotAllowed("history.none")
        return row, await self.store.history(row.id)


def step_message(replayed: Replayed, step: int, lines: list[Line], locale: str) -> Message:
    """One step's viewer: the table message as it stood after `step` actions, its newest log lines those of
    that step, and its picture."""
    record = replayed.record_at(step)
    upto = [line for line in lines if line.count <= step]
    new = sum(1 for line in upto if line.count == step)
    recent = [line.text for line in upto[-max(LOG_LINES, new) :]]
    shown = Window(recent, new, step, 0)
    info = table_info(record)
    view = view_of(record, banner=[], deadline=None, locale=locale, picture=False, log=shown)
    if view.turn_line is not None and record.game is not None:  # told to a spectator, not to the mover
        view.turn_line = render.turn_line(info, record.game, None, locale=locale, watching=True)
    table = message_of(record, view)
    table = render.attach_picture(table, render.table_picture(info, record.game, locale=locale))
    return viewer.viewer(table, record.id, step, replayed.last, locale=locale)
