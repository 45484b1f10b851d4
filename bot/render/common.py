"""Discord-free message data: what the cogs turn into discord.py messages, embeds and buttons.

Everything here is plain pydantic data so the session layer and its tests never touch discord.py, and a test
can scan every string the bot would show.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from bot.i18n import t

ButtonStyle = Literal["primary", "secondary", "success", "danger", "link"]

# Discord limits we lay buttons out against.
MAX_BUTTON_ROWS = 5
MAX_BUTTONS_PER_ROW = 5
MAX_LABEL = 80


class _Part(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Card(_Part):
    code: str  # the engine's notation (`AS`): what an action names
    shown: str  # as the reader writes it (`A♠`, `A♠` in German ranks too)


class Place(_Part):
    """Where a card is taken from or goes: the game's name for it (`centre2`) and the reader's words."""

    key: str
    shown: str


class Action(_Part):
    """What a control does: its token (what the session's click entry point takes: a move's token, `join`,
    `hand`, `rematch`, a replay's steering), the move count it was drawn for (a replay's: the step it leads
    to), and for a move the card it moves, from and to which place, or the amount it bids. Each surface
    carries it its own way: Discord encodes it in the button's custom id (`bot.discord_out`), the Activity
    sends its token and count back."""

    token: str
    seq: int | None = None
    card: Card | None = None
    source: Place | None = None  # None: the hand
    to: Place | None = None
    amount: int | None = None
    as_rank: str | None = None


# What a button's action steers: a table (its message, a lobby, a seat's hand) or a replay viewer.
Steers = Literal["table", "replay"]


class Button(BaseModel):
    """A button: its label and look, and what a click does: `action` on table `table` (a replay viewer's
    step with `steers="replay"`). A link button (`style="link"`, a `url`, no action) opens its page: no
    interaction."""

    label: str = Field(max_length=MAX_LABEL)
    style: ButtonStyle = "secondary"
    disabled: bool = False
    url: str | None = Field(default=None, max_length=512)
    table: int | None = None
    action: Action | None = None
    steers: Steers = "table"

    @property
    def token(self) -> str | None:
        return None if self.action is None else self.action.token


def click(token: str, seq: int | None = None) -> Action:
    """The action of a button whose click does `token` (drawn for move count `seq`, where it counts)."""
    return Action(token=token, seq=seq)


class EmbedField(BaseModel):
    name: str
    value: str
    inline: bool = True


class Embed(BaseModel):
    title: str | None = None
    description: str | None = None
    fields: list[EmbedField] = []
    footer: str | None = None
    colour: int | None = None
    image: str | None = None  # `attachment://<filename>`: shows the message's picture inside the embed


class Picture(BaseModel):
    """A PNG attached to a message (bot.render.drawings); `alt` is its description for screen readers."""

    model_config = ConfigDict(ser_json_bytes="base64", val_json_bytes="base64")  # PNG bytes are not UTF-8
    filename: str
    data: bytes
    alt: str


class Message(BaseModel):
    """One message: text, embeds and rows of buttons. `mentions` are the user ids it may ping."""

    content: str | None = None
    embeds: list[Embed] = []
    rows: list[list[Button]] = []
    mentions: list[int] = []
    picture: Picture | None = None

    def texts(self) -> Iterator[str]:
        """Every string a reader would see: for tests that check what is public."""
        if self.content:
            yield self.content
        for embed in self.embeds:
            for text in (embed.title, embed.description, embed.footer):
                if text:
                    yield text
            for field in embed.fields:
                yield field.name
                yield field.value
        if self.picture is not None:
            yield self.picture.alt
        for row in self.rows:
            for button in row:
                yield button.label


def is_computer(player: str) -> bool:
    return player.startswith("ai:")


def name(player: str, locale: object = "en") -> str:
    """How a player is written: a reference to a person (each surface draws it: Discord as a mention, which
    shows his name in every reader's client and pings only where allowed; the web by his name), a computer
    seat or the pot in the reader's language."""
    if is_computer(player):
        return t(locale, "common.computer", number=player.split(":", 1)[1])
    if player.startswith("@"):  # a ledger account: the pot is the only one
        return t(locale, "common.pot_account")
    return _ref(PERSON, player)


def moment(at: float, style: str = "R") -> str:
    """A moment as the words carry it: each surface words it in its reader's language (Discord as its
    timestamp markup; the typed view as a `bot.render.view.Moment`)."""
    return _ref(MOMENT, f"{int(at)}:{style}")


def channel(channel_id: int | str) -> str:
    """A channel as the words name it (a link in Discord; a typed `bot.render.view.Channel` elsewhere)."""
    return _ref(CHANNEL, str(channel_id))


def role(role_id: int | str) -> str:
    """A server's role as the words name it (Discord alone shows roles: its settings)."""
    return _ref(ROLE, str(role_id))


# People, moments, channels and roles inside worded text are references, the only way the words write them:
# each surface draws a reference its own way (`bot.discord_out` as Discord's markup, `bot.render.view.text`
# as a typed part, the terminal as a name), so no surface ever reads another's markup back. They are
# bracketed by ASCII's Shift Out and Shift In (SO kind value SI), which no catalogue sentence, no card and no
# Discord name contains, and which are no whitespace: a `strip()` or `split()` of worded text keeps them
# whole (ASCII's separators GS ... RS, used first, are whitespace to Python, and a strip lost a reference).
REF_OPEN, REF_CLOSE = "\x0e", "\x0f"
PERSON, MOMENT, CHANNEL, ROLE = "p", "t", "c", "r"
REFERENCE = re.compile(f"{REF_OPEN}([{PERSON}{MOMENT}{CHANNEL}{ROLE}])([^{REF_CLOSE}]*){REF_CLOSE}")


def _ref(kind: str, value: str) -> str:
    return f"{REF_OPEN}{kind}{value}{REF_CLOSE}"


def drawn(words: str, draw: Callable[[str, str], str]) -> str:
    """Words with each reference drawn by `draw(kind, value)` (a surface's own way: a mention, a name)."""
    return REFERENCE.sub(lambda m: draw(m.group(1), m.group(2)), words) if REF_OPEN in words else words


def people(words: str) -> list[str]:
    """The ids of the people the words name, in order of first mention."""
    return list(dict.fromkeys(v for k, v in REFERENCE.findall(words) if k == PERSON))


def rows_of(buttons: list[Button], limit_rows: int = MAX_BUTTON_ROWS) -> list[list[Button]]:
    """Buttons laid out five to a row, at most `limit_rows` rows."""
    rows = [buttons[i : i + MAX_BUTTONS_PER_ROW] for i in range(0, len(buttons), MAX_BUTTONS_PER_ROW)]
    return rows[:limit_rows]


# A table's public log message is closed at this length and the group goes on in a new one (Discord's limit
# is 2,000 characters; the margin keeps a long last line and the "(continued)" heading inside it).
LOG_LIMIT = 1800


class LogGroup(BaseModel):
    """A group of the public log: every line of one group goes into one log message (or its continuations).
    `key` tells groups apart (`turn-12`, `deal-1-auction`, `result`); `title` heads its message."""

    key: str
    title: str = ""


class LogLine(BaseModel):
    """One line of the public log and the group it belongs to."""

    group: LogGroup
    text: str


class RatingShown(BaseModel):
    """What a rated game did to one person's rating: his number before and after (unrounded) and his rated
    games of the kind after it (`bot.ratings`: provisional below its count)."""

    player: str
    before: float
    after: float
    games: int


class RematchShown(BaseModel):
    """A finished table's rematch as its message shows it: how it stands (`open`, `started` as table
    `table`, `lapsed_time`, `lapsed_game`), who clicked and who is still awaited, and when it lapses."""

    outcome: str = "open"
    table: int | None = None
    clicked: list[str] = []
    waiting: list[str] = []
    minutes: int = 10


class PageLinks(BaseModel):
    """The table's pages outside Discord, as facts (the web signs the URLs; the composition words and places
    them): its live page while it is open or playing, its replay once finished, and whether the Activity
    can be launched from its message."""

    watch: str | None = None
    replay: str | None = None
    launch: bool = False


class TableInfo(BaseModel):
    """What the renderer needs to know about a table besides the game itself."""

    id: int
    kind: str
    status: str  # lobby, running, finished, cancelled
    host_id: int
    players: list[str]
    options: dict[str, Any] = {}
    seq: int = 0
    commitment: str = ""
    seed: str | None = None  # set only once the game is over (the reveal)
    computer_seats: list[str] = []  # people whose seat a computer player took over
    timeout: float = 0
    pictures: bool = True  # attach pictures of the table and hands (off: text only)
    # player id -> display name, for the pictures (a picture cannot show a mention); the caller fills it.
    # A computer is named "Computer N" and a person missing here by his seat ("Player 2"), never by his id.
    names: dict[str, str] = {}
    ratings: list[RatingShown] = []  # a finished, rated game's rating changes (best rank first)
    rematch: RematchShown | None = None  # a finished game's rematch, when its message offers one
    pages: PageLinks | None = None  # its pages outside Discord (None: no web pages)
