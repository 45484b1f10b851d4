"""One table's view for one reader, composed in one place from stored facts (issue 30).

`compose(...)` returns a `TableView`: plain, typed, Discord-free data (phase, whose turn and until when, the
seats, the recent moves worded for the reader, the moves the reader may make, the picture). Every surface
draws from it: the table message (`table_message(view)`), a click's answer, the Move dialog and the hand
(`compose(..., reader=player)`), `/table`, and the web table to come. It takes render-level facts only (a
`TableInfo`, the game, the steps' facts and the notes); the sessions hand those over and assemble nothing.

The public view (`reader=None`) has no hidden card anywhere: it is built from `public_view()`, public events
and table facts. A seat's private view adds his hand and his legal moves.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict

from bot import render
from bot.games.base import GameState
from bot.i18n import join, t
from bot.render import rematch
from bot.render import view as typed
from bot.render.common import (
    MAX_BUTTON_ROWS,
    MAX_BUTTONS_PER_ROW,
    Button,
    ButtonStyle,
    Embed,
    Message,
    Picture,
    TableInfo,
    click,
    is_computer,
    name,
    rows_of,
)
from bot.render.pictures.labels import player_name
from bot.render.replay import finished_rows, replay_button
from bot.render.tablelog import NoteFacts, StepFacts, Window, log_of, window, word_note

MOVE = "move"  # the table message's button that opens the mover's private Move dialog
HAND = "hand"  # ... and the one that shows the clicker his hand privately
DIALOGS = {MOVE, HAND, "table"}  # Discord's own dialogs: other surfaces show hand and moves themselves
LAUNCH = "play"  # the table message's "Play here": it launches the Activity (cogs/activity.py)


class Seat(BaseModel):
    """One seat as anyone may see it."""

    model_config = ConfigDict(frozen=True)

    player: str  # the player id (`ai:<n>` for a computer seat)
    name: str  # his display name (pictures, the web page): never an id
    mention: str  # how the text names him (a mention for a person, "Computer N" for a computer)
    chips: int | None = None  # the game's chips where it counts them (Insomnia), else None
    computer: bool = False  # a computer seat from the start
    takeover: bool = False  # a person's seat the computer plays for now
    to_move: bool = False


class MoveChoice(BaseModel):
    """One move the reader may make now: its label in his language and its token (what a button or a select
    carries: `bot.render.token`), drawn for the move count `seq` (a later use is stale)."""

    model_config = ConfigDict(frozen=True)

    label: str
    token: str
    seq: int
    style: ButtonStyle = "secondary"
    facts: dict[str, Any] = {}  # the action's own fields (its card, source, target, amount): the typed view's


class TableView(BaseModel):
    """What one reader may see of a table now (see the module's doc)."""

    table_id: int
    kind: str
    game_name: str
    status: str  # lobby, running, finished, cancelled
    locale: str
    seq: int  # the move count this view shows
    over: bool = False
    phase: str | None = None  # the decision now awaited, worded ("Turn 4 · Alice", "Deal 2 · auction")
    turn: str | None = None  # who is to move (a player id)
    turn_line: str | None = None  # "Alice, your turn: ... Time runs out" and the deadline's moment
    deadline: int | None = None  # the turn's deadline as a unix time (None: no clock, or no turn)
    takeover_line: str | None = None  # "The computer plays for Bob." after a takeover
    banner: str | None = None  # the session's and the presenter's word over the table (worded)
    seats: list[Seat] = []
    log: list[str] = []  # the recent log lines, oldest first; the last `new` were never shown
    new: int = 0
    upto_seq: int = 0  # with `upto_note`: how far the log is shown complete once this view is shown
    upto_note: int = 0
    board: Message = Message()  # the game's own worded board (a lobby's text before the game), no controls
    controls: list[Button] = []  # what anyone may click now on the table message
    rematch_line: str | None = None  # a finished game's rematch: how it stands
    rematch: Button | None = None  # ... and its button while it is open (on a row of its own)
    replay: Button | None = None  # a finished game's Replay (after the rest)
    links: list[Button] = []  # Play here (the Activity) and the web's Watch or Replay, last
    reader: str | None = None  # the seat this view is for (None: the public view)
    hand: Message | None = None  # the reader's hand as its message shows it (a private view)
    moves: list[MoveChoice] = []  # the reader's legal moves (a private view, on his turn)
    picture: Picture | None = None


def compose(
    info: TableInfo,
    game: GameState | None,
    *,
    steps: Sequence[StepFacts] = (),
    notes: Sequence[NoteFacts] = (),
    shown: tuple[int, int] | None = None,
    banner: Sequence[NoteFacts | str] = (),
    deadline: float | None = None,
    reader: str | None = None,
    locale: object = "en",
    picture: bool = False,
    hand_buttons: bool = False,
    log: Window | None = None,
) -> TableView:
    """The view of table `info` (its game `game`, None before the deal) for `reader` (None: public).

    `steps` are the stored steps to word (oldest first; the start is step 0) and `notes` the session's notes;
    `shown` is `(shown_seq, shown_note)`, how far the table message has shown the log (None: nothing, so the
    window holds the newest lines). `banner`: notes (or words already said) over the table. `deadline`: when
    the turn times out (unix time). `picture`: draw the picture now (the table's, or the reader's hand's).
    `hand_buttons`: the private hand carries its move buttons (an ephemeral answer; not a DM). `log`: a
    window of the log taken already (a replay's step), instead of one of `steps`."""
    lang = str(locale)
    view = TableView(
        table_id=info.id,
        kind=info.kind,
        game_name=render.game_name(info.kind, locale),
        status=info.status,
        locale=lang,
        seq=info.seq,
        reader=reader,
        banner="\n".join(b if isinstance(b, str) else word_note(b, locale) for b in banner) or None,
    )
    if game is None:
        lobby = render.renderer(info.kind).lobby(info, locale=locale)
        view.controls = [b for row in lobby.rows for b in row]
        lobby.rows = []
        if view.banner:
            lobby.content = f"{view.banner}\n{lobby.content or ''}".strip()
        view.board = lobby
        view.seats = [_seat(info, p, None, None, locale) for p in info.players]
        view.links = _links(info, locale)
        return view
    public = game.public_view()
    current = None if game.is_over else game.current_player
    chips = getattr(public, "chips", None)
    view.over = game.is_over
    view.turn = current
    view.seats = [
        _seat(info, p, chips.get(p) if isinstance(chips, dict) else None, current, locale)
        for p in game.players
    ]
    group = None if game.is_over else render.renderer(info.kind).state_group(public, locale=locale)
    view.phase = group.title if group is not None and group.title else None
    if deadline and current is not None and not _computer(info, current):
        view.deadline = int(deadline)
    if current is not None:
        view.turn_line = render.turn_line(info, game, view.deadline, locale=locale)
    taken = [p for p in info.computer_seats if p in game.players]
    if taken and not game.is_over:
        who = join(locale, [name(p, locale) for p in taken])
        view.takeover_line = t(locale, "turn.computer_plays_for", players=who)
    win = log
    if win is None:
        shown_seq, shown_note = shown if shown is not None else (-1, 0)
        win = window(log_of(info, steps, notes, locale=locale), shown_seq, shown_note, info.seq)
    if win is not None:
        view.log, view.new, view.upto_seq, view.upto_note = win.lines, win.new, win.upto_seq, win.upto_note
    board = render.renderer(info.kind).table(info, game, view.banner, locale=locale)
    view.controls = _controls(info, game, board, locale)
    board.rows = []
    view.board = board
    _finished(view, info, locale)
    view.links = _links(info, locale)
    if reader is not None and reader in game.players:
        view.hand = render.hand_message(
            info, game, reader, dm=not hand_buttons, locale=locale, picture=picture
        )
        view.moves = legal_moves(info, game, reader, locale=locale)
        if picture:
            view.picture, view.hand.picture = view.hand.picture, None
    elif picture:
        view.picture = render.table_picture(info, game, locale=locale)
    return view


def _finished(view: TableView, info: TableInfo, locale: object) -> None:
    """A finished game's controls: its rematch (the line, and the button while it is open) and its Replay
    (its hands are no longer secret)."""
    if info.status != "finished":
        return
    if info.rematch is not None:
        view.rematch_line = rematch.line(info.rematch, locale=locale)
        if info.rematch.outcome == rematch.OPEN:
            view.rematch = rematch.button(info.id, locale=locale)
    view.replay = replay_button(info.id, locale=locale)


def _links(info: TableInfo, locale: object) -> list[Button]:
    """The table's pages outside Discord: Play here (it launches the Activity) while the table is open or
    playing, then its live page's Watch, or its replay once finished."""
    pages = info.pages
    if pages is None:
        return []
    out = []
    if pages.launch and info.status in ("lobby", "running"):
        out.append(
            Button(
                label=t(locale, "activity.button.play"), table=info.id, action=click(LAUNCH), style="primary"
            )
        )
    if info.status == "finished" and pages.replay:
        out.append(Button(label=t(locale, "web.button.replay"), url=pages.replay, style="link"))
    elif info.status in ("lobby", "running") and pages.watch:
        out.append(Button(label=t(locale, "web.button.watch"), url=pages.watch, style="link"))
    return out


def _computer(info: TableInfo, player: str) -> bool:
    return is_computer(player) or player in info.computer_seats


def _seat(info: TableInfo, player: str, chips: int | None, current: str | None, locale: object) -> Seat:
    if is_computer(player):
        shown = name(player, locale)
    else:
        known = info.names.get(player, "").strip()
        seat = info.players.index(player) + 1 if player in info.players else 0
        shown = known or t(locale, "picture.player", number=seat)
    return Seat(
        player=player,
        name=shown,
        mention=name(player, locale),
        chips=chips,
        computer=is_computer(player),
        takeover=player in info.computer_seats,
        to_move=player == current,
    )


def _controls(info: TableInfo, game: GameState, board: Message, locale: object) -> list[Button]:
    """The table message's buttons while the game runs: Move first (the mover's private dialog), then the
    game's own (My hand, and a move anyone to move may make from the table: End turn, Pass)."""
    buttons = [b for row in board.rows for b in row]
    if game.is_over or info.status != "running":
        return buttons
    move = Button(label=t(locale, "dm.button.move"), table=info.id, action=click(MOVE), style="success")
    return [move, *buttons]


def legal_moves(info: TableInfo, game: GameState, player: str, *, locale: object) -> list[MoveChoice]:
    """The player's legal moves now, worded for him (none when it is not his turn or the computer plays
    his seat)."""
    if game.is_over or game.current_player != player or _computer(info, player):
        return []
    module = render.renderer(info.kind)
    out = []
    for action in game.legal_actions():
        said = module.action_text(action, hide=False, locale=locale)
        out.append(
            MoveChoice(
                label=(said[:1].upper() + said[1:])[:100],
                token=render.token(info.kind, action),
                seq=info.seq,
                facts=json.loads(action.model_dump_json()),
            )
        )
    return out


def table_message(view: TableView, *, with_picture: bool = True) -> Message:
    """The public table message of a view: the lobby, or the board, the log window, whose turn it is and
    until when, who the computer plays for, and the controls (five to a row, at most five rows)."""
    message = view.board.model_copy(deep=True)
    if view.log:
        shown = render.recent_lines(view.log, view.new, locale=view.locale)
        if shown and message.embeds:
            message.embeds.append(Embed(description="\n".join(shown), colour=message.embeds[0].colour))
    if view.turn_line is not None:
        message.content = view.turn_line
    if view.takeover_line is not None:
        lines = [line for line in (message.content, view.takeover_line) if line]
        message.content = "\n".join(lines)
    rows = rows_of(list(view.controls))
    if view.rematch_line is not None:
        message.content = f"{message.content}\n{view.rematch_line}" if message.content else view.rematch_line
    if view.rematch is not None:
        rows = [*rows, [view.rematch]]
    rows = finished_rows(rows, view.table_id, view.status, locale=view.locale)
    for link in view.links:  # at the end of the last row while it has room, else on a row of their own
        if rows and len(rows[-1]) < MAX_BUTTONS_PER_ROW:
            rows[-1].append(link)
        elif len(rows) < MAX_BUTTON_ROWS:
            rows.append([link])
    message.rows = rows
    if with_picture:
        message = render.attach_picture(message, view.picture)
    return message


def hand_message(view: TableView) -> Message:
    """The reader's hand as its private message shows it (with its picture, if drawn)."""
    if view.hand is None:
        raise ValueError(f"table {view.table_id}: a public view has no hand")
    return render.attach_picture(view.hand.model_copy(deep=True), view.picture)


# ---- the typed view (`bot.render.view`): the web page's and the Activity's


def typed_view(
    info: TableInfo,
    game: GameState | None,
    *,
    steps: Sequence[StepFacts] = (),
    notes: Sequence[NoteFacts] = (),
    banner: Sequence[NoteFacts | str] = (),
    deadline: float | None = None,
    reader: str | None = None,
    locale: object = "en",
    log_lines: int | None = None,
) -> typed.PublicView | typed.SeatView:
    """The table's typed view for `reader` (None, or someone not seated: the public one). The references
    to people and moments in its words become typed parts. Its controls are the table message's, as the
    composition places them (a finished game's rematch too)."""
    worded = compose(
        info, game, steps=steps, notes=notes, banner=banner, deadline=deadline, reader=reader, locale=locale
    )
    lang = str(locale)

    def names(player: str) -> str:
        return player_name(info, player, info.names, lang)

    finished = [b for b in (worded.rematch, worded.replay) if b is not None]
    buttons = [*worded.controls, *finished, *worded.links]
    public = _public(info, game, worded, names, buttons, lang)
    if log_lines is not None:
        public = public.model_copy(update={"log": public.log[-log_lines:] if log_lines else ()})
    if worded.hand is None or game is None or reader is None:
        return public
    own = game.view(reader)
    hand = worded.hand.model_copy(update={"rows": []})
    return typed.SeatView(
        public=public,
        reader=typed.Person(id=reader, name=names(reader)),
        hand=typed.hand(own, lang),
        hand_said=typed.text(hand.content, names),
        hand_blocks=typed.blocks(hand, names),
        moves=tuple(typed.move(info.kind, m.label, m.token, m.seq, m.facts, lang) for m in worded.moves),
    )


def _public(
    info: TableInfo,
    game: GameState | None,
    worded: TableView,
    names: typed.Namer,
    buttons: Sequence[Button],
    lang: str,
) -> typed.PublicView:
    """The public part: seats, turn and chips read from the game's public view alone; the public words."""
    seen = game.public_view() if game is not None else None
    seats = (
        typed.seats(seen, seen.players, info.computer_seats, names, lang)
        if seen is not None
        else tuple(
            typed.Seat(person=typed.Person(id=p, name=names(p)), computer=is_computer(p))
            for p in info.players
        )
    )
    turn = None if seen is None or seen.is_over else seen.current_player
    said = "\n".join(x for x in (worded.turn_line, worded.takeover_line) if x)
    return typed.PublicView(
        table=info.id,
        kind=info.kind,
        game=worded.game_name,
        status=info.status,
        locale=lang,
        seq=info.seq,
        over=worded.over,
        phase=typed.line(worded.phase, names) if worded.phase else None,
        turn=typed.Person(id=turn, name=names(turn)) if turn is not None else None,
        deadline=typed.Moment(at=worded.deadline) if worded.deadline is not None else None,
        said=typed.text(said, names),
        board=typed.text(worded.board.content, names),
        blocks=typed.blocks(worded.board, names),
        seats=seats,
        log=tuple(typed.line(x, names) for x in worded.log),
        controls=controls(info.kind, buttons),
    )


def controls(kind: str, buttons: Sequence[Button]) -> tuple[typed.Control, ...]:
    """Table buttons as typed controls, each with its kind and the structured action its maker gave it."""
    out = []
    for button in buttons:
        if button.url is not None:
            out.append(typed.Control(kind="link", label=button.label, style="link", url=button.url))
            continue
        token = button.token
        if token is None or button.steers != "table" or button.disabled or token in DIALOGS:
            continue  # the replay's steering, a spent button, Discord's own dialogs: Discord's alone
        what: typed.ControlKind = (
            "launch"
            if token == LAUNCH
            else "rematch"
            if token == rematch.TOKEN
            else "move"
            if render.parse_token(kind, token) is not None
            else "lobby"
        )
        out.append(typed.control(what, button))
    return tuple(out)
