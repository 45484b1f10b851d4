"""The records of a table, one owner each.

- `SessionState` is the session's own state of a table (who controls each seat, timeouts in a row, the
languages, the players' display names, the public notes): stored in the table's `meta`, in the same
transaction as each move, written only by the service.
- `TableRecord` is what the service publishes after each stored change: immutable, so whoever holds one (the
  presenter drawing it, the computer thinking on it) sees one stored state, never a move half applied.
- `MoveFacts` is what one stored move did (its events and the game after it): facts, worded only when shown,
in the reader's language.
- The presenter's own record (message ids, what the table message has shown) is
`bot.sessions.display.Display`.

No words are stored here: a note is a catalogue key with facts as its params (`NoteFact`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from bot.games.base import GameEvent, GameState
from storage.models import RatingChange

MOVES_KEPT = 16  # the newest moves' facts each record carries (older ones are replayed from the log)
NOTES_KEPT = 64  # public notes kept in the session state (timeouts, takeovers, a cancel)


class NoteFact(BaseModel):
    """A public note (a timeout, a takeover, why the game ended) as a catalogue key and its facts.

    `params` hold plain values, a player as `{"player": id}` (worded as his name), a game as `{"game": kind}`
    or a nested text as `{"text": key, "params": {...}}`: the reader's language words them when shown. `at`
    is the number of stored actions whose lines it comes before (a note standing alone: one past the last),
    `n` its number in the table (the presenter remembers up to which it showed)."""

    model_config = ConfigDict(frozen=True)

    n: int = 0
    at: int = 0
    key: str
    params: dict[str, Any] = {}


def player(player_id: str) -> dict[str, str]:
    """A note's param naming a player."""
    return {"player": player_id}


class RematchState(BaseModel):
    """A finished table's rematch (`bot.sessions.rematch`): who of its people clicked Rematch, and how it
    ended: `open` (waiting), `started` (as table `table`), `lapsed_time` (10 minutes passed), `lapsed_game`
    (another game opened in the channel). `ends_at`: when it lapses (unix seconds), set at the first click."""

    model_config = ConfigDict(frozen=True)

    clicked: tuple[str, ...] = ()
    outcome: str = "open"
    ends_at: float | None = None
    table: int | None = None


class SessionState(BaseModel):
    """What the session keeps of a table besides the game (stored as the table's `meta`)."""

    model_config = ConfigDict(frozen=True, extra="ignore")  # older rows carry the presenter's fields too

    computer_seats: tuple[str, ...] = ()  # people whose seat a computer player took (resign, three timeouts)
    timeouts: dict[str, int] = {}  # timeouts in a row, per player
    # Who reads what: the public messages in the server's language, each DM in its player's own.
    language: str = "en"
    locales: dict[str, str] = {}
    names: dict[str, str] = {}  # display names as Discord last told them (the pictures write them)
    notes: tuple[NoteFact, ...] = ()
    next_note: int = 1
    banner: NoteFact | None = None  # over the table while nothing has happened since (cancelled, resumed)
    # A finished game's rematch, once someone clicked or it lapsed (left out of the JSON until then).
    rematch: RematchState | None = Field(default=None, exclude_if=lambda v: v is None)

    def with_notes(self, notes: Sequence[NoteFact], at: int) -> SessionState:
        """The state with `notes` added before the lines of action number `at`."""
        if not notes:
            return self
        numbered = [
            note.model_copy(update={"n": self.next_note + i, "at": at}) for i, note in enumerate(notes)
        ]
        kept = (*self.notes, *numbered)[-NOTES_KEPT:]
        return self.model_copy(update={"notes": kept, "next_note": self.next_note + len(numbered)})

    def with_banner(self, banner: NoteFact, at: int) -> SessionState:
        """The state with `banner` over the table from action number `at` on."""
        banner = banner.model_copy(update={"n": self.next_note, "at": at})
        return self.model_copy(update={"banner": banner, "next_note": self.next_note + 1})

    def locale_of(self, player_id: str) -> str:
        return self.locales.get(player_id, self.language)


def note(key: str, **params: Any) -> NoteFact:
    """A note to add with a move (`SessionState.with_notes` numbers and places it)."""
    return NoteFact(key=key, params=params)


@dataclass(frozen=True)
class MoveFacts:
    """One stored step: `count` actions stored after it (0: the start, whose events are the opening deal),
    who acted, what happened (the engine's public events) and the game after it (read, never applied to)."""

    count: int
    actor: str | None
    events: tuple[GameEvent, ...]
    game: GameState
    hands: tuple[str, ...] = ()  # players whose new hand this step should bring them by DM


@dataclass(frozen=True)
class TableRecord:
    """A table as stored, published by the service after each change. Never changed once published: the
    next change publishes a new record (`evolve`)."""

    id: int
    guild_id: int
    channel_id: int
    kind: str
    host_id: int
    options: Mapping[str, Any]
    seed: str
    commitment: str
    status: str
    players: tuple[str, ...]
    seq: int  # actions stored
    session: SessionState
    revision: int = 0  # stored changes published (moves, seats, notes): the presenter shows the newest
    snapshot: str | None = None  # the game's JSON as stored
    game: GameState | None = None  # loaded from `snapshot`: read only (the service applies to a copy)
    moves: tuple[MoveFacts, ...] = field(default=())  # the newest steps, oldest first
    # The channel it was opened in, once its game plays in a thread of its own (`channel_id` is the thread).
    home_channel_id: int | None = None
    ratings: tuple[RatingChange, ...] = ()  # a rated game's changes, once it is over (best rank first)
    competition: int | None = None  # the event whose match this table plays (bot/events), if any

    def evolve(self, **changes: Any) -> TableRecord:
        """The next record: `changes` applied, the revision one past this one's unless `changes` sets it (a
        record reloaded from the store takes its place after the one it replaces)."""
        changes.setdefault("revision", self.revision + 1)
        return replace(self, **changes)

    @property
    def language(self) -> str:
        return self.session.language

    def locale_of(self, player_id: str) -> str:
        return self.session.locale_of(player_id)

    @property
    def timeout(self) -> float:
        return float(self.options.get("timeout") or 0)

    @property
    def playing(self) -> GameState:
        if self.game is None:
            raise RuntimeError(f"table {self.id} has not started")
        return self.game

    @property
    def is_open(self) -> bool:
        return self.status in ("lobby", "running")

    def seat_is_computer(self, player_id: str) -> bool:
        return player_id.startswith("ai:") or player_id in self.session.computer_seats

    def with_move(self, move: MoveFacts) -> tuple[MoveFacts, ...]:
        return (*self.moves, move)[-MOVES_KEPT:]
