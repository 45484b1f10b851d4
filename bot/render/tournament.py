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
from bot.render.common import Message, Picture, channel, moment, name
from bot.render.pictures import tournament as draw
from bot.render.pictures.canvas import png
from bot.render.pictures.labels import apart, drawn_name


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
    format: str  # the key of the format's words (`Format.words`: its name, as a rule)
    status: str  # open, running, finished, cancelled
    round: int  # the round in play (0 before the start)
    rounds: int  # how many rounds in all
    entrants: tuple[str, ...]
    lines: tuple[Line, ...] = ()
    tables: tuple[Table, ...] = ()  # the round in play
    bracket: tuple[tuple[Table, ...], ...] = ()  # a knockout: every round's matches
    names: Mapping[str, str] = field(default_factory=dict)  # display names as stored with the entrants
    checked_in: tuple[str, ...] = ()
    deadline: float | None = None
    final: bool = False  # the round in play is the format's final table


def title(board: Board, locale: object) -> str:
    fmt = t(locale, f"tournament.format.{board.format}")
    return t(locale, "tournament.title", event=board.event, game=game_name(board.kind, locale), format=fmt)


def table_line(board: Board, table: Table, locale: object) -> str:
    if len(table.players) == 1:
        return t(locale, "tournament.bye", player=name(table.players[0], locale))
    players = t(locale, "tournament.versus").join(name(p, locale) for p in table.players)
    where = "" if table.place is None else t(locale, "tournament.plays_in", place=channel(table.place))
    return t(locale, "tournament.table", number=table.number, players=players, where=where)


def round_message(board: Board, locale: object) -> Message:
    """A round's pairings, posted once: every player of the round pinged in it, once."""
    if board.final:
        head = t(locale, "tournament.round_final", round=board.round, rounds=board.rounds)
    else:
        head = t(locale, "tournament.round", round=board.round, rounds=board.rounds)
    lines = [f"**{title(board, locale)}** · {head}", *(table_line(board, x, locale) for x in board.tables)]
    if board.deadline is not None:
        lines.append(t(locale, "tournament.deadline", at=moment(board.deadline)))
    people = sorted({int(p) for x in board.tables for p in x.players if p.isdigit()})
    picture = bracket_picture(board, locale) if board.bracket else None
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
    picture = bracket_picture(board, locale) if board.bracket else standings_picture(board, locale)
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
    if board.bracket:
        picture = bracket_picture(board, locale)
    elif board.lines and board.status != "open":
        picture = standings_picture(board, locale)
    return Message(content="\n".join(lines), picture=picture)


def labels(board: Board, locale: object) -> dict[str, str]:
    """Every entrant's name as the pictures draw it: as typed (`labels.drawn_name`: the letters the font has,
    "No. 3" when none), "Player 3" only for one the bot never saw, two alike told apart by their entry's
    number."""
    numbers = {p: i + 1 for i, p in enumerate(board.entrants)}
    seen = [x.player for x in board.lines] + [p for r in board.bracket for m in r for p in m.players]
    players = list(dict.fromkeys([*board.entrants, *seen]))
    for p in players:
        numbers.setdefault(p, 0)
    drawn = {
        p: drawn_name(board.names[p], numbers[p], locale)
        if board.names.get(p, "").strip()
        else t(locale, "picture.player", number=numbers[p])
        for p in players
    }
    return apart(drawn, numbers)


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
    drawn = labels(board, locale)
    rows = [
        [
            str(x.place),
            drawn[x.player],
            _number(x.points),
            *(_number(round(v, 2)) for v in x.tiebreaks[: len(breaks)]),
        ]
        for x in board.lines
    ]
    data = png(draw.standings(title(board, locale), head, columns, rows, list(drawn.values())))
    alt = t(
        locale, "tournament.picture.standings_alt", lines="; ".join(f"{r[0]}. {r[1]} {r[2]}" for r in rows)
    )
    return Picture(filename="tournament-standings.png", data=data, alt=alt[:1000])


def winner(match: Table) -> int | None:
    """Which of a settled match's players goes on (a bye's one player; a no-show never), None while open."""
    if len(match.players) == 1:
        return 0
    if match.places is None or len(match.players) != 2:
        return None
    a, b = (match.places[i] + (10 if match.players[i] in match.forfeits else 0) for i in range(2))
    return 0 if a <= b else 1


def bracket_picture(board: Board, locale: object) -> Picture:
    drawn = labels(board, locale)
    rounds = []
    for matches in board.bracket:
        boxes = []
        for x in matches:
            note = t(locale, "tournament.picture.forfeit") if x.forfeits and len(x.players) > 1 else ""
            boxes.append(draw.Box(tuple(drawn[p] for p in x.players), winner(x), note))
        rounds.append(boxes)
    champion = ""
    final = board.bracket[-1] if board.bracket else ()
    if board.status == "finished" and len(board.bracket) == board.rounds and len(final) == 1:
        won = winner(final[0])
        if won is not None:
            champion = t(locale, "tournament.picture.champion", player=drawn[final[0].players[won]])
    first = len(rounds[0]) if rounds else 1
    for r in range(len(rounds), board.rounds):  # the rounds still to come: their boxes empty
        rounds.append([draw.Box(()) for _ in range(max(1, first // 2**r))])
    headings = [t(locale, "tournament.picture.bracket_round", round=r + 1) for r in range(board.rounds)]
    bye = t(locale, "tournament.picture.bye")
    data = png(draw.bracket(title(board, locale), headings, rounds, bye, list(drawn.values()), champion))
    alt = t(locale, "tournament.picture.bracket_alt", title=title(board, locale))
    if champion:
        alt += " " + t(locale, "tournament.picture.champion", player=_alt_name(board, final, locale))
    return Picture(filename="tournament-bracket.png", data=data, alt=alt)


def _alt_name(board: Board, final: Sequence[Table], locale: object) -> str:
    """The champion as the alt text names him: his name whole, as typed."""
    match = final[0]
    won = winner(match)
    player = match.players[won or 0]
    return board.names.get(player) or labels(board, locale)[player]


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
            moderator=name(str(r.moderator)),
            when=moment(r.created_at),
            table=r.table_id or 0,
            player=name(r.player or "", locale),
        )
        lines.append(said + (f" · {r.reason}" if r.reason else ""))
    if not records:
        lines.append(t(locale, "moderation.log.empty"))
    return Message(content="\n".join(lines))
