"""The one signal between the parts, typed: what a stored change of a table was, as a fact.

`Tables.publish` makes the fact (it knows whether the table was open before), so no listener re-inspects a
record to learn what happened to it:

- `LobbyChanged`: a table waiting for players (opened, a seat taken or left);
- `GameChanged`: a running game stored a step (a move, a timeout, a seat's new controller, a note);
- `TableFinished`: the step that finished the game, with its results stored; heard once per table and
  process; `competition` is the event whose match it played (None: an ordinary table);
- `AfterEnd`: a finished table's record changed after its end (its rematch offer taken or lapsed);
- `TableClosed`: a table closed without a result (a lobby cancelled or abandoned).

Listeners are called in the order they listened, synchronously: each only schedules its work.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.sessions.records import TableRecord


@dataclass(frozen=True)
class LobbyChanged:
    record: TableRecord


@dataclass(frozen=True)
class GameChanged:
    record: TableRecord


@dataclass(frozen=True)
class TableFinished:
    record: TableRecord

    @property
    def competition(self) -> int | None:
        return self.record.competition


@dataclass(frozen=True)
class AfterEnd:
    record: TableRecord


@dataclass(frozen=True)
class TableClosed:
    record: TableRecord


TableFact = LobbyChanged | GameChanged | TableFinished | AfterEnd | TableClosed
Listener = Callable[[TableFact], None]


def fact_of(record: TableRecord, *, was_open: bool) -> TableFact:
    """What storing `record` was; `was_open`: the table was open in this process just before."""
    if record.status == "lobby":
        return LobbyChanged(record)
    if record.status == "running":
        return GameChanged(record)
    if record.status == "finished":
        return TableFinished(record) if was_open else AfterEnd(record)
    return TableClosed(record)


class Stored:
    """The signal: every stored change of a table, as its fact. The scheduler listens first (the deadline
    the table message shows), then the presenter, then what spans tables (rematches, events, the web)."""

    def __init__(self) -> None:
        self._listeners: list[Listener] = []

    def listen(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def forget(self, listener: Listener) -> None:
        """A listener that stops (a competition runner closing) hears no more."""
        if listener in self._listeners:
            self._listeners.remove(listener)

    def emit(self, fact: TableFact) -> None:
        for listener in self._listeners:
            listener(fact)
