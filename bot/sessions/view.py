"""The sessions' thin adapter to the one composition (`bot.render.compose`): a stored `TableRecord` turned
into the render-level facts `compose` takes (its `TableInfo`, game, steps and notes), and the session's own
rows added to the table message (the rematch of a finished game, its Replay). Nothing here is stored, and
nothing is worded here: a table whose server switches to German reads German from its next edit on."""

from __future__ import annotations

from collections.abc import Sequence

from bot import render
from bot.render import compose as composition
from bot.render import tablelog
from bot.render.common import Message, PageLinks, RatingShown, TableInfo
from bot.render.compose import TableView
from bot.render.tablelog import Line, Window, window, word_note, word_param
from bot.render.view import PublicView, SeatView
from bot.sessions import rematch
from bot.sessions.records import MoveFacts, NoteFact, TableRecord

__all__ = [
    "Line",
    "Window",
    "banner_of",
    "dialog_of",
    "log_of",
    "message_of",
    "table_info",
    "view_of",
    "window",
    "window_of",
    "word_note",
    "word_param",
]


def table_info(
    record: TableRecord, *, pictures_off: bool = False, pages: PageLinks | None = None
) -> TableInfo:
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
        rematch=rematch.shown(record),
        pages=pages,
    )


def log_of(
    record: TableRecord, moves: Sequence[MoveFacts], *, locale: object, pictures_off: bool = False
) -> list[Line]:
    """The log lines of these steps (oldest first) and of the notes among them, worded now."""
    info = table_info(record, pictures_off=pictures_off)
    return tablelog.log_of(info, moves, record.session.notes, locale=locale)


def banner_of(record: TableRecord, shown_banner: int) -> NoteFact | None:
    """The session's banner (cancelled, resumed...) while nothing happened since it was set, or unshown."""
    banner = record.session.banner
    if banner is None or (banner.at < record.seq and banner.n <= shown_banner):
        return None
    return banner


def view_of(
    record: TableRecord,
    *,
    steps: Sequence[MoveFacts] = (),
    shown: tuple[int, int] | None = None,
    banner: Sequence[NoteFact | str] = (),
    deadline: float | None = None,
    locale: object,
    pictures_off: bool = False,
    reader: str | None = None,
    picture: bool = False,
    hand_buttons: bool = False,
    log: Window | None = None,
    pages: PageLinks | None = None,
) -> TableView:
    """The record's view for `reader` (None: public), composed from its stored facts (`pages`: its pages
    outside Discord, which its table message links to)."""
    return composition.compose(
        table_info(record, pictures_off=pictures_off, pages=pages),
        record.game,
        steps=steps,
        notes=record.session.notes,
        shown=shown,
        banner=banner,
        deadline=deadline,
        reader=reader,
        locale=locale,
        picture=picture,
        hand_buttons=hand_buttons,
        log=log,
    )


def typed_of(
    record: TableRecord,
    *,
    steps: Sequence[MoveFacts] = (),
    banner: Sequence[NoteFact | str] = (),
    deadline: float | None = None,
    locale: object,
    reader: str | None = None,
    log_lines: int | None = None,
) -> PublicView | SeatView:
    """The record's typed view (`bot.render.view`) for `reader` (None: public)."""
    return composition.typed_view(
        table_info(record),
        record.game,
        steps=steps,
        notes=record.session.notes,
        banner=banner,
        deadline=deadline,
        reader=reader,
        locale=locale,
        log_lines=log_lines,
    )


def dialog_of(
    record: TableRecord, player: str, *, locale: object
) -> tuple[Message | None, list[composition.MoveChoice]]:
    """What the Move dialog of `player` shows: his hand (text) and his legal moves, as
    `view_of(reader=player)` composes them, without the board, the seats and the log a dialog does not show
    (they were most of composing it, at every press of Move)."""
    game = record.game
    if game is None or player not in game.players:
        return None, []
    info = table_info(record, pictures_off=True)
    hand = render.hand_message(info, game, player, dm=True, locale=locale, picture=False)
    return hand, composition.legal_moves(info, game, player, locale=locale)


def window_of(view: TableView) -> Window:
    """How far a write of this view shows the log (what the presenter then counts shown)."""
    return Window(view.log, view.new, view.upto_seq, view.upto_note)


def message_of(record: TableRecord, view: TableView) -> Message:
    """The table message of a record's public view, every control placed by the composition (a finished
    game's rematch and Replay too)."""
    return composition.table_message(view)
