"""A table's public log worded for its reader, from stored facts alone: the steps (their events and the public
view after each) and the session's notes. Nothing here is stored: a server that switches to German reads its
whole log in German at the next write. `compose` (bot/render/compose.py) takes one window of it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from bot import render
from bot.games.base import GameEvent, GameState
from bot.i18n import t
from bot.render.common import LogGroup, TableInfo, name

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
    for step in steps:
        said = [(n.n, word_note(n, locale)) for n in notes if n.at == step.count]
        lead = [render.start_line(info, locale=locale)] if step.count == 0 else []
        lines = render.log_lines(
            info, step.game.public_view(), list(step.events), current=current,
            notes=[text for _, text in said], lead=lead, locale=locale,
        )  # fmt: skip
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
    chosen = (context[len(context) - wanted:] if wanted else []) + taken
    return Window([lines[i].text[:LINE_LIMIT] for i in chosen], len(taken), upto_seq, upto_note)
