"""Where a table lives, and what that allows: a server channel the bot writes in, or a place where it may only
answer interactions (a DM or group DM where the app is installed to a user and no bot is a member).

In such a place Discord refuses every channel call (403, code 50001): the table message is the answer to the
command that opened it, and it changes only through the answers to clicks on it (type 7: a button, or the Move
dialog opened from it) or, for 15 minutes, through the token of the last interaction that answered on it (at
most 5 uses: Discord allows a user install 5 follow-ups per interaction, and the bot counts its edits among
them). The presenter never sends, edits or deletes a channel message of such a table, sends no DMs (the Move
dialog and My hand show each hand) and no pings. Tokens are kept in memory only: they are short-lived
credentials, and after a restart the next click on the table refreshes it.

No discord types here: the cogs turn a `MoveDialog` into Discord's modal and back.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from bot.i18n import t
from bot.render.common import Action, Message, click
from bot.sessions.display import Display
from bot.sessions.records import TableRecord
from bot.sessions.view import dialog_of

CHANNEL = "channel"
INTERACTION = "interaction"

TOKEN_LIFETIME = 15 * 60.0  # seconds an interaction token takes follow-ups and edits (Discord)
TOKEN_MARGIN = 60.0  # a token is used only while it has this much left (clocks and queues differ)
TOKEN_USES = 5  # follow-ups Discord allows per interaction when only a user install authorises it
# In a server channel the guild install authorises the click: Discord sets no such count there, so the token
# edits the table message as often as its 15 minutes allow (this only bounds a runaway loop).
CHANNEL_TOKEN_USES = 10_000

PICK = "pick"  # the dialog's own action (Discord's renderer makes its id, as a button's)
OPTIONS_PER_SELECT = 25  # Discord's limit of a select's options
SELECTS = 4  # a modal holds 5 components: the hand's text and up to four selects of moves


def interaction_only(display: Display | None) -> bool:
    return display is not None and display.place == INTERACTION


@dataclass
class LiveToken:
    token: str
    since: float
    message_id: int | None = None  # the table message its `@original` is (None: whichever is the table's)
    limit: int = TOKEN_USES
    uses: int = 0


@dataclass
class Tokens:
    """The newest interaction token whose original response is each table's message (in memory only): in an
    interaction-only place the one way to change it, in a server channel a way that spends nothing of the
    channel's or the token's rate limits (interaction webhooks are outside both)."""

    clock: Callable[[], float]
    _live: dict[int, LiveToken] = field(default_factory=dict)

    def took(
        self, table_id: int, token: str | None, message_id: int | None = None, limit: int = TOKEN_USES
    ) -> None:
        if token:
            self._live[table_id] = LiveToken(token, self.clock(), message_id, limit)

    def usable(self, table_id: int, message_id: int | None = None) -> str | None:
        """A token that may still edit the table message now, counted as used (None: wait for a click, or
        write in the channel). A token of an older table message (replaced since) is no use."""
        live = self._live.get(table_id)
        if live is None:
            return None
        stale = live.message_id is not None and message_id is not None and live.message_id != message_id
        if stale or self.clock() - live.since > TOKEN_LIFETIME - TOKEN_MARGIN or live.uses >= live.limit:
            del self._live[table_id]
            return None
        live.uses += 1
        return live.token

    def has(self, table_id: int, message_id: int | None = None) -> bool:
        """Whether a token might serve now (not counted as a use)."""
        live = self._live.get(table_id)
        if live is None:
            return False
        return live.message_id is None or message_id is None or live.message_id == message_id

    def drop(self, table_id: int) -> None:
        self._live.pop(table_id, None)


@dataclass(frozen=True)
class MoveDialog:
    """The mover's private dialog: his hand and the board as text, his legal moves as `(label, token)` in
    select menus of at most 25, and the move count it was drawn for (a later submit is refused as stale)."""

    table_id: int
    seq: int
    title: str
    text: str
    moves: list[list[tuple[str, str]]]
    label: str

    @property
    def action(self) -> Action:
        """What submitting it does, on its table: Discord's side makes the dialog's id from it."""
        return click(PICK, self.seq)


def move_dialog(record: TableRecord, player: str, *, locale: object) -> MoveDialog:
    """The Move dialog of `player`, drawn from his private view (`bot.render.compose`)."""
    hand, choices = dialog_of(record, player, locale=locale)
    moves = [(m.label, m.token) for m in choices]
    room = OPTIONS_PER_SELECT * SELECTS
    if len(moves) > room:  # many bids: the lowest ones and the last move (the pass) (slash: any amount)
        moves = moves[: room - 1] + moves[-1:]
    chunks = [moves[i : i + OPTIONS_PER_SELECT] for i in range(0, len(moves), OPTIONS_PER_SELECT)][:SELECTS]
    texts = hand.texts() if hand is not None else iter(())
    return MoveDialog(
        table_id=record.id,
        seq=record.seq,
        title=t(locale, "dm.move.title", table=record.id)[:45],
        text="\n".join(texts)[:4000],
        moves=chunks,
        label=t(locale, "dm.move.pick"),
    )


class FirstAnswer:
    """The table message a command's answer carries, and where it went once sent."""

    def __init__(self, message: Message) -> None:
        self.message = message
        self.message_id: int | None = None
        self.token: str | None = None

    def sent(self, message_id: int | None, token: str) -> None:
        self.message_id, self.token = message_id, token
