"""A table's public log worded for its reader, from stored facts alone: the steps (their events and the public
view after each) and the session's notes. Nothing here is stored: a server that switches to German reads its
whole log in German at the next write. `compose` (bot/render/compose.py) takes one window of it."""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from bot import render
from bot.games.base import GameEvent, GameState
from bot.i18n import resolve_locale, t
from bot.render.common import LogGroup, LogLine, TableInfo, name

RECENT_LIMIT = render.RECENT_LIMIT  # characters of log lines a table message holds
RECENT_AT_LEAST = render.RECENT_AT_LEAST
BUDGET = RECENT_LIMIT - 200  # the new lines of one write, with room for the line shown before them
LINE_LIMIT = 1000


class StepFacts(Protocol):
    """One stored step as the log words it (the sessions' `MoveFacts` has this shape)."""

    @property
    def count(self) -> int: ...
    @property
    def events(self) -> Sequence[GameEvent]: ...
    @property
    def game(self) -> GameState: ...


class NoteFacts(Protocol):
    """A note over the table (a timeout, a takeover): a catalogue key and its params, the step it belongs to
    (`at`) and its number (`n`) (the sessions' `NoteFact` has this shape)."""

    @property
    def key(self) -> str: ...
    @property
    def params(self) -> Mapping[str, Any]: ...
    @property
    def at(self) -> int: ...
    @property
    def n(self) -> int: ...


def word_param(value: Any, locale: object) -> Any:
    """A note's param as the reader reads it: a player by name, a game by its name, a nested text worded."""
    if isinstance(value, dict):
        if "player" in value:
            return name(str(value["player"]), locale)
        if "game" in value:
            return render.game_name(str(value["game"]), locale)
        if "text" in value:
            params = {k: word_param(v, locale) for k, v in value["params"].items()}
            return t(locale, str(value["text"]), **params)
    return value


def word_note(note: NoteFacts, locale: object) -> str:
    return t(locale, note.key, **{k: word_param(v, locale) for k, v in note.params.items()})


@dataclass(frozen=True)
class Line:
    """One line of the table's log: the step it belongs to (`count`), or the note it is (`note` > 0)."""

    count: int
    note: int
    text: str


def log_of(
    info: TableInfo, steps: Sequence[StepFacts], notes: Sequence[NoteFacts], *, locale: object
) -> list[Line]:
    """The log lines of these steps (oldest first) and of the notes among them, worded now."""
    out: list[Line] = []
    current: LogGroup | None = None
    facts = info.model_dump_json(exclude={"seq"})  # what the lines depend on besides the step
    for step in steps:
        said = [(n.n, word_note(n, locale)) for n in notes if n.at == step.count]
        lead = [render.start_line(info, locale=locale)] if step.count == 0 else []
        lines = STEP_LINES.get(info, facts, step, current, [text for _, text in said], lead, locale)
        for line in lines:
            # A step's notes are among its lines (they explain it): numbered, so the presenter can tell which
            # it has shown.
            number = next((n for n, text in said if text == line.text), 0)
            said = [(n, text) for n, text in said if n != number]
            out.append(Line(step.count, number, line.text))
        if lines:
            current = lines[-1].group
    last = steps[-1].count if steps else info.seq
    # Notes with no step of their own yet (a seat given to the computer): after the last step's lines.
    out.extend(Line(n.at, n.n, word_note(n, locale)) for n in notes if n.at > last)
    return out


class StepLines:
    """The lines of the newest `size` steps as worded last, by step: a table message words the log of the
    record's last steps (up to 16) at every write and every click's answer, and all but the newest were worded
    the same way the time before (the same step object, the group the log was in, the same notes, names and
    language). Bounded: 4,096 steps, about 50 busy tables' last steps in two languages, each entry a few
    lines of text; a step is held weakly (the records hold their own). The info's `seq` is left out of the
    key: no step's lines depend on how many came after it."""

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self._items: OrderedDict[tuple[Any, ...], tuple[weakref.ref[Any], list[LogLine]]] = OrderedDict()
        self._lock = threading.Lock()  # the presenter composes in the event loop, the web in threads

    def get(
        self,
        info: TableInfo,
        facts: str,
        step: StepFacts,
        current: LogGroup | None,
        notes: list[str],
        lead: list[str],
        locale: object,
    ) -> list[LogLine]:
        """`facts`: `info` as JSON without its `seq` (the caller's, once for all its steps)."""
        group = None if current is None else (current.key, current.title)
        # The step's identity is checked below, so the facts' hash tells one table's versions apart.
        key = (hash(facts), id(step), step.count, group, tuple(notes), tuple(lead), resolve_locale(locale))
        with self._lock:
            hit = self._items.get(key)
            if hit is not None and hit[0]() is step:  # the same object, not one at a freed object's address
                self._items.move_to_end(key)
                return hit[1]
        lines = render.log_lines(
            info,
            step.game.public_view(),
            list(step.events),
            current=current,
            notes=notes,
            lead=lead,
            locale=locale,
        )
        try:
            held = weakref.ref(step)
        except TypeError:  # a step that cannot be held weakly is worded each time
            return lines
        with self._lock:
            self._items[key] = (held, lines)
            if len(self._items) > self.size:
                self._items.popitem(last=False)
        return lines


STEP_LINES = StepLines()


@dataclass(frozen=True)
class Window:
    """What one write of the table message shows of the log: `lines` (the last `new` of them never shown)
    and up to which step and note the log is then shown complete."""

    lines: list[str]
    new: int
    upto_seq: int
    upto_note: int


def window(lines: Sequence[Line], shown_seq: int, shown_note: int, newest_seq: int) -> Window:
    """The lines of one write: every line not shown yet, oldest first, as many steps as fit in the message
    (the rest follow in the next write: a stored move is never left out), after a few shown ones."""

    def is_new(line: Line) -> bool:
        return line.note > shown_note if line.note else line.count > shown_seq

    fresh = [i for i, line in enumerate(lines) if is_new(line)]
    taken: list[int] = []
    size, upto_seq, upto_note, complete = 0, shown_seq, shown_note, True
    start = 0
    while start < len(fresh):
        # A step's lines go together (beyond the first step, which goes in any case).
        end = start
        while end < len(fresh) and lines[fresh[end]].count == lines[fresh[start]].count:
            end += 1
        block = fresh[start:end]
        block_size = sum(len(lines[i].text) + 1 for i in block)
        if taken and size + block_size > BUDGET:
            complete = False
            break
        taken.extend(block)
        size += block_size
        upto_seq = max(upto_seq, lines[block[0]].count)
        upto_note = max([upto_note, *(lines[i].note for i in block)])
        start = end
    upto_seq = newest_seq if complete else min(upto_seq, newest_seq)
    first = taken[0] if taken else len(lines)
    context = [i for i in range(first) if not is_new(lines[i])]
    wanted = max(0, RECENT_AT_LEAST - len(taken))
    chosen = (context[len(context) - wanted :] if wanted else []) + taken
    return Window([lines[i].text[:LINE_LIMIT] for i in chosen], len(taken), upto_seq, upto_note)
