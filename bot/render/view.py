"""The typed view of a table: what every surface but Discord's message draws (the web page, the Activity),
as data whose parts are typed (issue 40).

- a **person** (`Person`: his id and the name the reader's surface shows), a **moment** (`Moment`: a unix
  time, which each surface words in its reader's language), a **channel**, and plain **words** with their
  emphasis: the parts of a worded `Line`;
- a **card** (`Card`: its code and how the reader writes it), a **place** (`Place`: where a card is taken
  from or goes), a **count** (`Count`: chips);
- a **control** (`Control`): its kind (a move, a lobby's button, the rematch, a link, ...), its label and
  its structured `Action` (what it does, its card, from and to which place, its amount, the move count it
  was drawn for);
- `PublicView`: what anyone may see. It has no field that can hold a hand or the stock: its seats, turn
  and counts are read from the game's public view (`GameView`), and its words are the composition's public
  wording. `SeatView`: one seated player's view, a `PublicView` plus his own hand (from his own `HandView`)
  and his legal moves. They are distinct types: a function that takes a `PublicView` cannot be handed a
  hand, and mypy (strict here) says so.

A person, a moment or a channel inside composed words is a reference (`bot.render.common`: the only way
the words write them), turned here into its typed part (`text`). The catalogue's light emphasis (`**`,
`*`, `` ` ``, a `-# ` small line) becomes each span's marks. No surface parses another's output: Discord's
markup is never in these words, and each surface draws the spans its own way.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from bot.games.base import GameView, HandView
from bot.i18n import catalogue, t, tn
from bot.i18n.cards import format_card, parse_card
from bot.render.common import REF_CLOSE, REF_OPEN, Action, Button, Card, Embed, Message, Place, is_computer

Mark = Literal["strong", "em", "u", "s", "code"]
LineStyle = Literal["", "small", "quote", "h1", "h2", "h3"]
MomentStyle = Literal["t", "T", "d", "D", "f", "F", "R"]
ControlKind = Literal["move", "lobby", "rematch", "link", "launch"]
ButtonStyle = Literal["primary", "secondary", "success", "danger", "link"]


class _Part(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Words(_Part):
    kind: Literal["words"] = "words"
    text: str
    marks: tuple[Mark, ...] = ()


class Person(_Part):
    """A person (or a computer seat): his id and his name as the reader's surface shows it."""

    kind: Literal["person"] = "person"
    id: str
    name: str
    marks: tuple[Mark, ...] = ()


class Moment(_Part):
    """A moment (a unix time); `style` as Discord's timestamp styles (`R`: relative, "in 2 minutes")."""

    kind: Literal["moment"] = "moment"
    at: int
    style: MomentStyle = "R"
    marks: tuple[Mark, ...] = ()


class Channel(_Part):
    kind: Literal["channel"] = "channel"
    id: str
    marks: tuple[Mark, ...] = ()


Span = Annotated[Words | Person | Moment | Channel, Field(discriminator="kind")]


class Line(_Part):
    style: LineStyle = ""
    spans: tuple[Span, ...] = ()


Text = tuple[Line, ...]


class Count(_Part):
    n: int
    shown: str  # "15 chips"


class Control(_Part):
    kind: ControlKind
    label: str
    style: ButtonStyle = "secondary"
    short: str | None = None  # a move's label at a glance (`A♥ → centre 1`); None: the label
    action: Action | None = None  # None for a link
    url: str | None = None


class Block(_Part):
    """A block of the board: its title, its text, its fields (a name and a text each), its footer."""

    title: Line | None = None
    text: Text = ()
    fields: tuple[tuple[Line, Text, bool], ...] = ()  # (name, value, inline)
    footer: Text = ()
    colour: int | None = None


class Seat(_Part):
    person: Person
    chips: Count | None = None
    to_move: bool = False
    computer: bool = False  # a computer seat, or a person's seat the computer plays for now


class PublicView(_Part):
    """What anyone may see of a table now."""

    table: int
    kind: str
    game: str  # its name in the reader's language
    status: str
    locale: str
    seq: int
    over: bool = False
    phase: Line | None = None
    turn: Person | None = None
    deadline: Moment | None = None
    said: Text = ()  # whose turn it is and until when, who the computer plays for
    board: Text = ()  # the board's own words (a lobby's text)
    blocks: tuple[Block, ...] = ()
    seats: tuple[Seat, ...] = ()
    log: Text = ()
    controls: tuple[Control, ...] = ()


class SeatView(_Part):
    """A seated player's own view: the public one, his hand and his legal moves."""

    public: PublicView
    reader: Person
    hand: tuple[Card, ...] = ()
    hand_said: Text = ()  # his hand message's words
    hand_blocks: tuple[Block, ...] = ()
    moves: tuple[Control, ...] = ()


# ---- words into typed lines

Namer = Callable[[str], str]  # a player id -> the name the reader's surface shows

_REF = re.compile(f"{REF_OPEN}([pct])([^{REF_CLOSE}]*){REF_CLOSE}")
# The catalogue's emphasis, each pair of delimiters turned into a pair of mark switches (control characters
# no sentence contains), then read once from left to right.
_EMPHASIS: tuple[tuple[re.Pattern[str], Mark], ...] = (
    (re.compile(r"\*\*(.+?)\*\*"), "strong"),
    (re.compile(r"__(.+?)__"), "u"),
    (re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])"), "em"),
    (re.compile(r"(?<![\w_])_(?!\s)(.+?)(?<!\s)_(?![\w_])"), "em"),
    (re.compile(r"~~(.+?)~~"), "s"),
)
_SWITCH: dict[Mark, str] = {"strong": "\x01", "u": "\x02", "em": "\x03", "s": "\x04", "code": "\x05"}
_MARK_OF: dict[str, Mark] = {v: k for k, v in _SWITCH.items()}
_CODE = re.compile(r"`([^`]+)`")
_PIECES = re.compile(f"([\x01-\x05]|{REF_OPEN}[pct][^{REF_CLOSE}]*{REF_CLOSE})")  # switches, references
_PREFIXES: tuple[tuple[str, LineStyle], ...] = (
    ("-# ", "small"),
    ("> ", "quote"),
    ("### ", "h3"),
    ("## ", "h2"),
    ("# ", "h1"),
)


def text(words: str | None, names: Namer) -> Text:
    """Composed words as typed lines (one per line of the words)."""
    if not words:
        return ()
    return tuple(line(raw, names) for raw in words.split("\n"))


def line(raw: str, names: Namer) -> Line:
    style: LineStyle = ""
    for prefix, named in _PREFIXES:
        if raw.startswith(prefix):
            style, raw = named, raw[len(prefix) :]
            break
    return Line(style=style, spans=spans(raw, names))


def spans(raw: str, names: Namer) -> tuple[Span, ...]:
    codes: list[str] = []

    def keep(match: re.Match[str]) -> str:  # a code span keeps its text as it is
        codes.append(match.group(1))
        return f"{_SWITCH['code']}{len(codes) - 1}{_SWITCH['code']}"

    marked = _CODE.sub(keep, raw)
    for pattern, mark in _EMPHASIS:
        switch = _SWITCH[mark]
        marked = pattern.sub(f"{switch}\\1{switch}", marked)
    out: list[Span] = []
    on: list[Mark] = []
    for piece in _PIECES.split(marked):
        if not piece:
            continue
        if piece in _MARK_OF:
            switched = _MARK_OF[piece]
            if switched in on:
                on.remove(switched)
            else:
                on.append(switched)
            continue
        marks = tuple(on)
        ref = _REF.fullmatch(piece)
        if ref is not None:
            out.append(_reference(ref.group(1), ref.group(2), names, marks))
        elif "code" in on and piece.isdigit():
            out.append(Words(text=codes[int(piece)], marks=marks))
        else:
            out.append(Words(text=piece, marks=marks))
    return tuple(out)


def _reference(kind: str, value: str, names: Namer, marks: tuple[Mark, ...]) -> Span:
    if kind == "p":
        return Person(id=value, name=names(value), marks=marks)
    if kind == "c":
        return Channel(id=value, marks=marks)
    at, _, style = value.partition(":")
    return Moment(at=int(at), style=_style(style), marks=marks)


def _style(style: str) -> MomentStyle:
    for known in ("t", "T", "d", "D", "f", "F", "R"):
        if style == known:
            return known
    return "R"


def blocks(message: Message, names: Namer) -> tuple[Block, ...]:
    return tuple(block(e, names) for e in message.embeds)


def block(embed: Embed, names: Namer) -> Block:
    return Block(
        title=line(embed.title, names) if embed.title else None,
        text=text(embed.description, names),
        fields=tuple((line(f.name, names), text(f.value, names), f.inline) for f in embed.fields),
        footer=text(embed.footer, names),
        colour=embed.colour,
    )


def plain(lines: Iterable[Line]) -> str:
    """Typed lines as plain words (a terminal, a test): people by name, moments as unix times."""
    return "\n".join("".join(_plain(s) for s in ln.spans) for ln in lines)


def _plain(span: Span) -> str:
    match span:
        case Words():
            return span.text
        case Person():
            return span.name
        case Channel():
            return "#"
        case Moment():
            return str(span.at)


# ---- the view's parts from the game's views


def card(code: str, locale: object) -> Card:
    try:
        return Card(code=code, shown=format_card(parse_card(code), locale))
    except ValueError:
        return Card(code=code, shown=code)


def place(kind: str, key: str, locale: object) -> Place:
    """A pile as the game words it (`<game>.place.<pile>`, numbered piles with their number)."""
    stem = key.rstrip("0123456789")
    number = key[len(stem) :]
    message = f"{kind}.place.{stem}"
    if message not in catalogue():
        return Place(key=key, shown=key)
    return Place(key=key, shown=t(locale, message, number=int(number)) if number else t(locale, message))


def seats(
    public: GameView, players: Sequence[str], computer_seats: Sequence[str], names: Namer, locale: object
) -> tuple[Seat, ...]:
    """The seats as the game's public view shows them: who is to move, each one's chips where it counts."""
    chips = getattr(public, "chips", None)
    current = None if public.is_over else public.current_player
    out = []
    for p in players:
        n = chips.get(p) if isinstance(chips, dict) else None
        out.append(
            Seat(
                person=Person(id=p, name=names(p)),
                to_move=p == current,
                chips=None if not isinstance(n, int) else Count(n=n, shown=tn(locale, "count.chip", n)),
                computer=is_computer(p) or p in computer_seats,
            )
        )
    return tuple(out)


def hand(own: HandView, locale: object) -> tuple[Card, ...]:
    """A player's own cards, from his own view (never from the public one, which has none)."""
    return tuple(card(str(c), locale) for c in own.hand)


def move(kind: str, label: str, token: str, seq: int, facts: Mapping[str, object], locale: object) -> Control:
    """One legal move as a control: its words, and the action's own facts (the engine's action model: its
    card, source, target, amount), never read back from its token."""
    code = facts.get("card")
    moved = card(code, locale) if isinstance(code, str) and code else None
    source, to = facts.get("source"), facts.get("to")
    amount, rank = facts.get("amount"), facts.get("as_rank")
    src = place(kind, source, locale) if isinstance(source, str) and source != "hand" else None
    dest = place(kind, to, locale) if isinstance(to, str) else None
    as_rank = rank if isinstance(rank, str) and rank else None
    short = None
    if moved is not None and dest is not None:
        short = f"{moved.shown}{f' ({as_rank})' if as_rank else ''} → {dest.shown}"
    action = Action(
        token=token,
        seq=seq,
        card=moved,
        source=src,
        to=dest,
        amount=amount if isinstance(amount, int) and not isinstance(amount, bool) else None,
        as_rank=as_rank,
    )
    return Control(kind="move", label=label, short=short, action=action)


def control(kind: ControlKind, button: Button) -> Control:
    """A button of the table message as a control of the given kind, with the structured action its maker
    gave it (no custom id exists below the Discord side)."""
    return Control(kind=kind, label=button.label, style=button.style, action=button.action)
