"""A tournament in words and pictures, in the reader's language: a round's pairings (each player pinged once,
with his opponent and where the match plays), the standings picture each round, a knockout's bracket, the
final standings, and `/tournament show`.

What is shown is a `Board`, made by the competition layer (`bot.events`) from the stored records; this
module words and draws it and knows nothing of how rounds are paired."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from bot.i18n import t
from bot.render import game_name
from bot.render.common import Message, Picture, name
from bot.render.pictures import tournament as draw
from bot.render.pictures.canvas import png
from bot.render.pictures.sprites import printable


@dataclass(frozen=True)
class Line:
    place: int
    player: str
    points: float
    played: int
    tiebreaks: tuple[float, ...] = ()


@dataclass(frozen=True)
class Table:
    """One match of a round: its number, its players in seat order (one: a bye), where it plays (a thread or
    the channel; None: not open yet), and its places once settled."""

    number: int
    players: tuple[str, ...]
    place: int | None = None
    places: tuple[int, ...] | None = None
    forfeits: tuple[str, ...] = ()


@dataclass(frozen=True)
class Board:
    event: int
    kind: str
    format: str  # swiss, knockout, tables
    status: str  # open, running, finished, cancelled
    round: int  # the round in play (0 before the start)
    rounds: int  # how many rounds in all
    entrants: tuple[str, ...]
    lines: tuple[Line, ...] = ()
    tables: tuple[Table, ...] = ()  # the round in play
    bracket: tuple[tuple[Table, ...], ...] = ()  # a knockout: every round's matches
    names: Mapping[str, str] = field(default_factory=dict)  # display names for the pictures
    checked_in: tuple[str, ...] = ()
    deadline: float | None = None


def title(board: Board, locale: object) -> str:
    fmt = t(locale, f"tournament.format.{board.format}")
    return t(locale, "tournament.title", event=board.event, game=game_name(board.kind, locale), format=fmt)


def table_line(board: Board, table: Table, locale: object) -> str:
    if len(table.players) == 1:
        return t(locale, "tournament.bye", player=name(table.players[0], locale))
    players = t(locale, "tournament.versus").join(name(p, locale) for p in table.players)
    where = "" if table.place is None else t(locale, "tournament.plays_in", place=f"<#{table.place}>")
    return t(locale, "tournament.table", number=table.number, players=players, where=where)


def round_message(board: Board, locale: object) -> Message:
    """A round's pairings, posted once: every player of the round pinged in it, once."""
    final = board.format == "tables" and board.round == board.rounds
    if final:
        head = t(locale, "tournament.round_final", round=board.round, rounds=board.rounds)
    else:
        head = t(locale, "tournament.round", round=board.round, rounds=board.rounds)
    lines = [f"**{title(board, locale)}** · {head}", *(table_line(board, x, locale) for x in board.tables)]
    if board.deadline is not None:
        lines.append(t(locale, "tournament.deadline", at=f"<t:{int(board.deadline)}:R>"))
    people = sorted({int(p) for x in board.tables for p in x.players if p.isdigit()})
    picture = bracket_picture(board, locale) if board.format == "knockout" else None
    if picture is None and board.round > 1:
        picture = standings_picture(board, locale)
    return Message(content="\n".join(lines), mentions=people, picture=picture)


def not_started(board: Board, key: str, params: Mapping[str, object], locale: object) -> Message:
    """The start time came but the event could not start (why, as the host's /tournament start would hear)."""
    why = t(locale, key, **params)
    return Message(content=f"**{title(board, locale)}** · {t(locale, 'tournament.not_started', why=why)}")


def final_message(board: Board, locale: object) -> Message:
    winner = board.lines[0].player if board.lines else None
    lines = [f"**{title(board, locale)}**"]
    if winner is not None:
        lines.append(t(locale, "tournament.winner", player=name(winner, locale)))
    picture = (
        bracket_picture(board, locale) if board.format == "knockout" else standings_picture(board, locale)
    )
    return Message(content="\n".join(lines), picture=picture)


def show_message(board: Board, locale: object) -> Message:
    """`/tournament show`: where the event stands, privately, in the reader's language (no pings)."""
    lines = [
        f"**{title(board, locale)}**",
        t(
            locale,
            f"tournament.status.{board.status}",
            round=board.round,
            rounds=board.rounds,
            count=len(board.entrants),
        ),
    ]
    if board.status == "open":
        entrants = ", ".join(
            name(p, locale) + (" ✅" if p in board.checked_in else "") for p in board.entrants
        )
        lines.append(t(locale, "tournament.entrants", entrants=entrants or "—"))
    else:
        lines += [table_line(board, x, locale) for x in board.tables]
    picture = None
    if board.format == "knockout" and board.bracket:
        picture = bracket_picture(board, locale)
    elif board.lines and board.status != "open":
        picture = standings_picture(board, locale)
    return Message(content="\n".join(lines), picture=picture)


def _name(board: Board, player: str, locale: object) -> str:
    known = printable(board.names.get(player, ""))
    if known:
        return known
    number = board.entrants.index(player) + 1 if player in board.entrants else 0
    return t(locale, "picture.player", number=number)


def _number(value: float) -> str:
    return f"{value:g}"


def standings_picture(board: Board, locale: object) -> Picture:
    # While a round plays, the standings hold its results so far: it is "in play", not over.
    if board.status == "running":
        head = t(locale, "tournament.picture.standings_live", round=board.round, rounds=board.rounds)
    else:
        head = t(locale, "tournament.picture.standings", round=board.round, rounds=board.rounds)
    columns = [
        draw.Column("#", 36),
        draw.Column(t(locale, "tournament.picture.player"), 250, right=False),
        draw.Column(t(locale, "tournament.picture.points"), 70),
    ]
    breaks = t(locale, f"tournament.picture.tiebreaks.{board.format}").split("|")
    width = (600 - 2 * 14 - 36 - 250 - 70 - 8 * 3) // max(1, len(breaks)) - 8
    columns += [draw.Column(b, width) for b in breaks]
    rows = [
        [
            str(x.place),
            _name(board, x.player, locale),
            _number(x.points),
            *(_number(round(v, 2)) for v in x.tiebreaks[: len(breaks)]),
        ]
        for x in board.lines
    ]
    data = png(draw.standings(title(board, locale), head, columns, rows))
    alt = t(
        locale, "tournament.picture.standings_alt", lines="; ".join(f"{r[0]}. {r[1]} {r[2]}" for r in rows)
    )
    return Picture(filename="tournament-standings.png", data=data, alt=alt[:1000])


def bracket_picture(board: Board, locale: object) -> Picture:
    rounds = []
    for matches in board.bracket:
        boxes = []
        for x in matches:
            won = None
            if x.places is not None and len(x.players) == 2:
                a, b = (x.places[i] + (10 if x.players[i] in x.forfeits else 0) for i in range(2))
                won = 0 if a <= b else 1
            boxes.append(draw.Box(tuple(_name(board, p, locale) for p in x.players), won))
        rounds.append(boxes)
    first = len(rounds[0]) if rounds else 1
    for r in range(len(rounds), board.rounds):  # the rounds still to come: their boxes empty
        rounds.append([draw.Box(()) for _ in range(max(1, first // 2**r))])
    headings = [t(locale, "tournament.picture.bracket_round", round=r + 1) for r in range(board.rounds)]
    data = png(draw.bracket(title(board, locale), headings, rounds, t(locale, "tournament.picture.bye")))
    alt = t(locale, "tournament.picture.bracket_alt", title=title(board, locale))
    return Picture(filename="tournament-bracket.png", data=data, alt=alt)


class Moderation(Protocol):
    """One moderator's act as the store keeps it (`storage.events.ModerationRow` has this shape)."""

    @property
    def action(self) -> str: ...  # void, exclude, include
    @property
    def table_id(self) -> int | None: ...
    @property
    def player(self) -> str | None: ...
    @property
    def moderator(self) -> int: ...
    @property
    def reason(self) -> str: ...
    @property
    def created_at(self) -> float: ...


def moderation_message(records: Sequence[Moderation], locale: object) -> Message:
    """`/moderation log`: the newest first, each with who, when and why."""
    lines = [f"**{t(locale, 'moderation.log.title')}**"]
    for r in records:
        said = t(
            locale,
            f"moderation.log.{r.action}",
            moderator=f"<@{r.moderator}>",
            when=f"<t:{int(r.created_at)}:R>",
            table=r.table_id or 0,
            player=name(r.player or "", locale),
        )
        lines.append(said + (f" · {r.reason}" if r.reason else ""))
    if not records:
        lines.append(t(locale, "moderation.log.empty"))
    return Message(content="\n".join(lines))
