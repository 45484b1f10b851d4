"""Game views and events as Discord-free message data (`Message`, `Embed`, `Button`).

Rule of this package: a public message is built only from `public_view()`, public events and table facts; a
hand is rendered only into the message for its owner (`hand_message`, sent ephemerally or by DM).
Every render function takes the reader's `locale` (keyword-only, "en" by default): the server's language for
public messages, the player's own for private ones; every word comes from the catalogue (bot/i18n).
Which game is shown how is the presentation registry's (`bot.render.registry.PRESENTATIONS`); the log is
worded from facts alone (table facts, the public view after a step, its events), never from the game object.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from bot.games.base import GameAction, GameEvent, GameState, GameView
from bot.games.registry import REGISTRY
from bot.i18n import catalogue, join, t
from bot.i18n.rules import Rules, rules
from bot.render import drawings
from bot.render.common import (
    Button,
    Embed,
    EmbedField,
    LogGroup,
    LogLine,
    Message,
    Picture,
    TableInfo,
    click,
    is_computer,
    moment,
    name,
)
from bot.render.options import option_lines, rules_params
from bot.render.presentation import ErasedRenderer
from bot.render.ratings import rating_line, result_ratings
from bot.render.registry import PRESENTATIONS

__all__ = [
    "Button",
    "Embed",
    "EmbedField",
    "Message",
    "Picture",
    "TableInfo",
    "action_receipt",
    "choices",
    "click",
    "hand_message",
    "history_pages",
    "is_computer",
    "log_lines",
    "name",
    "parse_token",
    "result_lines",
    "rules_summary",
    "start_line",
    "turn_line",
]


def renderer(kind: str) -> ErasedRenderer:
    """The text renderer of a game with a registered presentation (`UnknownGame` if it has none)."""
    return PRESENTATIONS[kind].renderer


HISTORY_LINES_PER_PAGE = 30
log = logging.getLogger(__name__)


def _with_picture(message: Message, info: TableInfo, draw: Callable[[], Picture | None]) -> Message:
    """Attach a picture (unless the table turned them off) and show it inside the embed, if there is one."""
    if not info.pictures:
        return message
    return attach_picture(message, _drawn(info, draw))


def _drawn(info: TableInfo, draw: Callable[[], Picture | None]) -> Picture | None:
    """A picture is a view of what the text already says: if drawing it fails, the text still goes out."""
    try:
        return draw()
    except Exception:
        log.exception("drawing a %s picture of table %s failed; sending the text alone", info.kind, info.id)
        return None


def attach_picture(message: Message, picture: Picture | None) -> Message:
    """The message with the picture attached and shown inside its first embed (None: the text alone)."""
    if picture is not None:
        message.picture = picture
        if message.embeds:
            message.embeds[0].image = f"attachment://{picture.filename}"
    return message


def table_picture(info: TableInfo, game: GameState | None, *, locale: object = "en") -> Picture | None:
    """The table message's picture alone (None: pictures off, nothing to draw, or drawing failed): the table,
    or once the game is over its result card (with the rating changes of `info.ratings`; none: not rated).
    Safe in a worker thread when `game` is the thread's own (the presenter loads it from the stored
    snapshot)."""
    if not info.pictures:
        return None
    if game is not None and game.is_over:
        title = game_name(info.kind, locale)
        changes = result_ratings(info.ratings)
        return _drawn(info, lambda: drawings.result_picture(info, game, title, changes, locale=locale))
    return _drawn(info, lambda: drawings.table_picture(info, game, locale=locale))


RECENT_LIMIT = 3500  # characters of recent lines: with the board's embed inside Discord's 6,000 per message
RECENT_AT_LEAST = 6  # lines shown even when fewer are new, so the message always tells what just happened


def game_name(kind: str, locale: object) -> str:
    """A game's name as players read it: in their language when the catalogue has it, else the title its
    folder registers; a kind no longer registered shows as stored."""
    if f"game.{kind}" in catalogue():
        return t(locale, f"game.{kind}")
    return REGISTRY[kind].title if kind in REGISTRY else kind


def recent_lines(recent: Sequence[str], new: int, *, locale: object = "en") -> list[str]:
    """The log lines a table message holds: every new one (as far as Discord's limits allow) and one shown
    before them, so a reader (and a test) sees where they continue; at least `RECENT_AT_LEAST`."""
    wanted = max(new + 1, RECENT_AT_LEAST)
    shown: list[str] = []
    size = 0
    for line in reversed(recent[-wanted:]):
        if size + len(line) + 1 > RECENT_LIMIT:
            shown.insert(0, t(locale, "log.earlier_lines"))
            break
        shown.insert(0, line)
        size += len(line) + 1
    return shown


def turn_line(
    info: TableInfo, game: GameState, deadline: int | None, *, locale: object = "en", watching: bool = False
) -> str:
    """Whose turn it is, said to him ("Alice, your turn: ..."); `watching`: said of him, to whoever watches
    (a replay's step: nobody there is to move)."""
    player = game.current_player
    if player is None:
        return t(locale, "table.game_over")
    if is_computer(player):  # "Computer 2" says it already
        return t(locale, "turn.computer_seat_playing", player=name(player, locale))
    if player in info.computer_seats:  # a person's seat, played by the computer
        return t(locale, "turn.computer_playing", player=name(player, locale))
    if watching:
        return t(locale, "turn.to_play", player=name(player, locale))
    hint = renderer(info.kind).turn_hint(game, player, locale=locale)
    if deadline:
        return t(
            locale,
            "turn.message_deadline",
            player=name(player, locale),
            hint=hint,
            deadline=moment(deadline),
        )
    return t(locale, "turn.message", player=name(player, locale), hint=hint)


def start_line(info: TableInfo, *, locale: object = "en") -> str:
    """The log's first line: the game, its table, its players and the seed's commitment (table facts)."""
    return t(
        locale,
        "log.start",
        game=game_name(info.kind, locale),
        table=info.id,
        players=join(locale, [name(p, locale) for p in info.players]),
        commitment=info.commitment,
    )


RESULT_GROUP = LogGroup(key="result")


def log_lines(
    info: TableInfo,
    view: GameView,
    events: Sequence[GameEvent],
    *,
    current: LogGroup | None,
    notes: Sequence[str] = (),
    lead: Sequence[str] = (),
    locale: object = "en",
) -> list[LogLine]:
    """What one step adds to the table's public log, line by line, each with its group, worded from facts
    alone: `view` is the game's public view after these `events` (a stored step can be worded again).

    `current` is the group of the log message now in the channel. A group that starts here is headed by its
    title. `notes` (a timeout, a takeover, a resignation) go with the group of what they explain: the first
    group these events name, else the current one. `lead` (the game's first line) comes before the first
    title. At the end the group of the decision now awaited is opened, so its message is posted before the
    turn message that asks for that decision; a finished game ends with the result in a group of its own.
    """
    module = renderer(info.kind)
    entries: list[LogGroup | str] = list(module.log_entries(info, view, events, locale=locale))
    if view.is_over:
        entries.append(RESULT_GROUP)
        entries.extend(result_lines(info, view, locale=locale))
    else:
        awaited = module.state_group(view, locale=locale)
        if awaited is not None:
            entries.append(awaited)
    first = entries[0] if entries and isinstance(entries[0], LogGroup) else None
    home = first or current or next((e for e in entries if isinstance(e, LogGroup)), None) or RESULT_GROUP
    out: list[LogLine] = []
    group = current
    if lead:
        group = home
        out.extend(LogLine(group=home, text=text) for text in lead)
        if home.title:
            out.append(LogLine(group=home, text=home.title))
    if notes:
        entries = [home, *notes, *entries]
    for entry in entries:
        if isinstance(entry, LogGroup):
            if group is None or entry.key != group.key:
                group = entry
                if entry.title:
                    out.append(LogLine(group=entry, text=entry.title))
            continue
        if group is None:
            group = home
        out.append(LogLine(group=group, text=entry))
    return out


def result_lines(info: TableInfo, view: GameView, *, locale: object = "en") -> list[str]:
    """The result of a finished game, from its final public view, and the revealed seed (`info.seed`)."""
    lines = renderer(info.kind).result_lines(info, view, locale=locale)
    if info.ratings:
        lines.append(rating_line(info.ratings, locale=locale))
    lines.append(t(locale, "log.seed", seed=info.seed or "", commitment=info.commitment))
    return lines


def hand_message(
    info: TableInfo, game: GameState, player: str, *, dm: bool, locale: object = "en", picture: bool = True
) -> Message:
    message = renderer(info.kind).hand(info, game, player, dm=dm, locale=locale)
    if not picture:
        return message
    return _with_picture(message, info, lambda: drawings.hand_picture(info, game, player, locale=locale))


def hand_picture(info: TableInfo, game: GameState, player: str, *, locale: object = "en") -> Picture | None:
    """A hand message's picture alone (see `table_picture`)."""
    if not info.pictures:
        return None
    return _drawn(info, lambda: drawings.hand_picture(info, game, player, locale=locale))


def action_receipt(
    info: TableInfo, game: GameState, player: str, action: GameAction, *, locale: object = "en"
) -> Message:
    """The actor's ephemeral answer: his hand as it is now, with his next choices if it is still his turn."""
    if game.is_over:
        return Message(content=t(locale, "receipt.game_over"))
    # Text only: the answer to a move must be as quick as any other answer (a picture is drawn and uploaded);
    # the hand's picture is one click away (My hand, /hand). His move leads: the answer to his click shows it.
    message = renderer(info.kind).hand(info, game, player, dm=False, locale=locale)
    said = renderer(info.kind).action_text(action, hide=False, locale=locale)
    message.content = "\n".join([t(locale, "receipt.moved", move=said), message.content or ""]).strip()
    return message


def choices(
    kind: str,
    game: GameState,
    player: str,
    command: str,
    option: str,
    namespace: Mapping[str, object],
    *,
    locale: object = "en",
) -> list[tuple[str, str]]:
    return renderer(kind).choices(game, player, command, option, namespace, locale=locale)


def token(kind: str, action: GameAction) -> str:
    """An action as a button's token (what `parse_token` reads back)."""
    return renderer(kind).token(action)


def parse_token(kind: str, text: str) -> dict[str, object] | None:
    try:
        return renderer(kind).parse_token(text)
    except (ValueError, KeyError, IndexError):
        return None


def rules_summary(
    kind: str,
    locale: object = "en",
    options: Mapping[str, Any] | None = None,
    *,
    table: int | None = None,
    server: bool = False,
) -> Rules | None:
    """A game's /rules summary in the reader's language (None: the game has none), as `options` make the
    rules (a table's stored options; None: the game's defaults), ending with those options and house rules:
    this table's (`table`, its number), a new table's in this server (`server`: the server's defaults), or
    a new table's."""
    layout = PRESENTATIONS[kind].rules if kind in PRESENTATIONS else None
    if layout is None:
        return None
    model = REGISTRY[kind].options
    chosen = dict(options or {})
    if table is not None:
        title = t(locale, "rules.options.table", table=table)
    elif server:
        title = t(locale, "rules.options.server")
    else:
        title = t(locale, "rules.options.default")
    lines = tuple(option_lines(model, layout, chosen, locale, skip=("pictures",)))
    return rules(layout, locale, rules_params(model, chosen, locale), options_title=title, options=lines)


def _account(account: str, locale: object) -> str:
    return t(locale, "history.pot") if account[:1] == "@" else name(account, locale)


class Transfer(Protocol):
    """A chip movement as /history shows it (the store's ledger rows have this shape)."""

    @property
    def from_account(self) -> str: ...
    @property
    def to_account(self) -> str: ...
    @property
    def amount(self) -> int: ...
    @property
    def reason(self) -> str: ...


class HistoryEntry(Protocol):
    """A stored action with the chip movements it caused (the store's history rows have this shape)."""

    @property
    def seq(self) -> int: ...
    @property
    def actor(self) -> str | None: ...
    @property
    def action(self) -> str: ...  # the action as JSON text
    @property
    def ledger(self) -> Sequence[Transfer]: ...


VOIDED = "void"  # the actor of a void's entry in a game's log


def history_line(kind: str, status: str, entry: HistoryEntry, *, locale: object = "en") -> str:
    """One stored action as `/history` words it (its number, who, what, the chips it moved); a running game
    never shows a discard. The web's replay heads each step with it."""
    actor = entry.actor or "system"
    number = entry.seq + 1  # move 1 is the first move (the stored seq counts from 0), as the replay counts
    if actor == VOIDED:  # a moderator voided the game (storage.fairplay): its chips given back
        line = f"`{number:>3}` {t(locale, 'history.void')}"
    else:
        if actor[:1].isdigit() or actor.startswith("ai:"):
            who = name(actor, locale)
        elif actor in ("system", "timeout", "ai"):
            who = t(locale, f"history.actor.{actor}")
        else:
            who = f"({actor})"
        action = REGISTRY[kind].parse_action(entry.action)
        hide = status != "finished"
        line = f"`{number:>3}` {who} {renderer(kind).action_text(action, hide=hide, locale=locale)}"
    moves = [
        f"{_account(m.from_account, locale)} → {_account(m.to_account, locale)} {m.amount} ({m.reason})"
        for m in entry.ledger
    ]
    if moves:
        line += " · " + "; ".join(moves)
    return line


def history_pages(
    kind: str,
    table_id: int,
    status: str,
    entries: Sequence[HistoryEntry],
    *,
    locale: object = "en",
    options: Mapping[str, Any] | None = None,
    excluded: Sequence[str] = (),
) -> list[Embed]:
    """The action log with its chip movements, paged into embeds; a running game never shows a discard.
    The first page opens with the table's options and house rules (`options`, as stored with the table),
    after a note naming its players a moderator took off the server's leaderboards (`excluded`)."""
    lines = [history_line(kind, status, entry, locale=locale) for entry in entries]
    if not lines:
        lines = [t(locale, "history.no_actions")]
    pages = [lines[i : i + HISTORY_LINES_PER_PAGE] for i in range(0, len(lines), HISTORY_LINES_PER_PAGE)]
    if options is not None:
        layout = PRESENTATIONS[kind].rules if kind in PRESENTATIONS else None
        shown = option_lines(REGISTRY[kind].options, layout, options, locale)
        pages[0] = [t(locale, "history.options"), *shown, "", *pages[0]]
    if excluded:  # first: why the game's results are on no leaderboard for them
        who = join(locale, [name(p, locale) for p in excluded])
        pages[0] = [t(locale, "history.excluded", players=who), "", *pages[0]]
    return [
        Embed(
            title=t(
                locale,
                "history.title",
                game=game_name(kind, locale),
                table=table_id,
                status=t(locale, f"status.{status}"),
                page=n + 1,
                pages=len(pages),
            ),
            description="\n".join(page)[:4000],
        )
        for n, page in enumerate(pages)
    ]
