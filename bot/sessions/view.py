"""Words made when shown: a table's record and the facts of its moves worded in the reader's language.

Nothing here is stored. The table message's log is worded from the moves' events each time it is drawn, so a
table whose server switches to German reads German from its next edit on, its older lines included.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot import render
from bot.i18n import t
from bot.render.common import LogGroup, Message, RatingShown, TableInfo, name
from bot.render.replay import finished_rows
from bot.sessions.records import MoveFacts, NoteFact, TableRecord
from bot.sessions.rematch import add_rematch

RECENT_LIMIT = render.RECENT_LIMIT  # characters of log lines a table message holds
RECENT_AT_LEAST = render.RECENT_AT_LEAST
BUDGET = RECENT_LIMIT - 200  # the new lines of one write, with room for the line shown before them
LINE_LIMIT = 1000


def table_info(record: TableRecord, *, pictures_off: bool = False) -> TableInfo:
    over = record.game is not None and record.game.is_over
    return TableInfo(
        id=record.id,
        kind=record.kind,
        status=record.status,
        host_id=record.host_id,
        players=list(record.players),
        options=dict(record.options),
        seq=record.seq,
        commitment=record.commitment,
        seed=record.seed if over else None,
        computer_seats=list(record.session.computer_seats),
        timeout=record.timeout,
        pictures=bool(record.options.get("pictures", True)) and not pictures_off,
        names=dict(record.session.names),
        ratings=[
            RatingShown(player=c.player, before=c.score_before, after=c.score_after, games=c.games)
            for c in record.ratings
        ],
    )


def word_param(value: Any, locale: object) -> Any:
    """A note's param as the reader reads it (see `NoteFact`)."""
    if isinstance(value, dict):
        if "player" in value:
            return name(str(value["player"]), locale)
        if "game" in value:
            return render.game_name(str(value["game"]), locale)
        if "text" in value:
            params = {k: word_param(v, locale) for k, v in value["params"].items()}
            return t(locale, str(value["text"]), **params)
    return value


def word_note(note: NoteFact, locale: object) -> str:
    return t(locale, note.key, **{k: word_param(v, locale) for k, v in note.params.items()})


@dataclass(frozen=True)
class Line:
    """One line of the table's log: the step it belongs to (`count`), or the note it is (`note` > 0)."""

    count: int
    note: int
    text: str


def log_of(
    record: TableRecord, moves: Sequence[MoveFacts], *, locale: object, pictures_off: bool = False
) -> list[Line]:
    """The log lines of these steps (oldest first) and of the notes among them, worded now."""
    info = table_info(record, pictures_off=pictures_off)
    out: list[Line] = []
    current: LogGroup | None = None
    for move in moves:
        notes = [(n.n, word_note(n, locale)) for n in record.session.notes if n.at == move.count]
        lead = [render.start_line(info, locale=locale)] if move.count == 0 else []
        lines = render.log_lines(
            info,
            move.game.public_view(),
            list(move.events),
            current=current,
            notes=[text for _, text in notes],
            lead=lead,
            locale=locale,
        )
        for line in lines:
            # A step's notes are among its lines (they explain it): numbered, so the presenter can tell which
            # it has shown.
            number = next((n for n, text in notes if text == line.text), 0)
            notes = [(n, text) for n, text in notes if n != number]
            out.append(Line(move.count, number, line.text))
        if lines:
            current = lines[-1].group
    last = moves[-1].count if moves else record.seq
    # Notes with no step of their own yet (a seat given to the computer): after the last step's lines.
    out.extend(Line(n.at, n.n, word_note(n, locale)) for n in record.session.notes if n.at > last)
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


def banner_of(record: TableRecord, locale: object, shown_banner: int) -> str | None:
    """The session's banner (cancelled, resumed...) while nothing happened since it was set, or unshown."""
    banner = record.session.banner
    if banner is None or (banner.at < record.seq and banner.n <= shown_banner):
        return None
    return word_note(banner, locale)


def table_message(
    record: TableRecord,
    shown: Window | None,
    *,
    banner: str | None,
    deadline: float | None,
    locale: object,
    pictures_off: bool = False,
    picture: bool = True,
) -> Message:
    """The one table message: the lobby, or the board, the log window and whose turn it is."""
    info = table_info(record, pictures_off=pictures_off)
    message = render.table_message(
        info,
        record.game,
        note=banner,
        recent=shown.lines if shown else [],
        new=shown.new if shown else 0,
        deadline=int(deadline) if deadline else None,
        locale=locale,
        picture=picture,
    )
    if record.game is not None:
        message.mentions = []  # only the challenge pings (when posted); the game's edits never do
    add_rematch(message, record, locale=locale)  # a finished game: the Rematch button and who clicked
    message.rows = finished_rows(message.rows, record.id, record.status, locale=locale)
    return message
