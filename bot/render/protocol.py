"""What a game's presentation offers, typed by the game's own classes: its text (`Renderer`, the module
`bot/render/<game>/text.py`) and its pictures (`Pictures`, `bot/render/<game>/pictures.py`).

Both are generic over the game's state, views, events and actions, so a game's text module is checked
against exactly its engine's types (`Renderer[Game, PublicView, Event, Action]`): an event added to
the engine's union and not shown fails the type check in the renderer's `match`. The registry's dispatch
(`bot.render.presentation`) checks at run time that a game handed over is the presentation's own, so the
layers above pass `GameState`s and never a game-specific type.

Every text-making method takes a keyword-only `locale` (the reader's language), so the renderers and their
callers agree on one signature. The log is worded from facts alone: `log_entries`, `state_group` and
`result_lines` take the public view *after* the step and its events, never the game, so a stored step can be
worded again in another language without replaying it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Protocol, TypeVar

from bot.render.common import LogGroup, Message, TableInfo

if TYPE_CHECKING:
    from PIL import Image

G = TypeVar("G", contravariant=True)  # the game's state class
V = TypeVar("V", contravariant=True)  # its public view
P = TypeVar("P", contravariant=True)  # a player's own view
E = TypeVar("E", contravariant=True)  # the union of its public events
A = TypeVar("A", contravariant=True)  # the union of its actions
L = TypeVar("L")  # the legal actions a hand picture marks (a list: invariant)


class Renderer(Protocol[G, V, E, A]):
    def lobby(self, info: TableInfo, *, locale: object = "en") -> Message:
        """The lobby (or challenge) message before the game starts."""
        ...

    def table(self, info: TableInfo, game: G, note: str | None, *, locale: object = "en") -> Message:
        """The public state of a running or finished game."""
        ...

    def log_entries(
        self, info: TableInfo, view: V, events: Sequence[E], *, locale: object = "en"
    ) -> list[LogGroup | str]:
        """The public log lines of one step's events, each group (a deal's part, a turn) before its lines;
        `view` is the public view after those events."""
        ...

    def state_group(self, view: V, *, locale: object = "en") -> LogGroup | None:
        """The log group of the decision now awaited (None once the game is over)."""
        ...

    def result_lines(self, info: TableInfo, view: V, *, locale: object = "en") -> list[str]:
        """The result of a finished game, from its final public view."""
        ...

    def hand(self, info: TableInfo, game: G, player: str, *, dm: bool, locale: object = "en") -> Message:
        """A player's private hand with his choices as buttons."""
        ...

    def turn_hint(self, game: G, player: str, *, locale: object = "en") -> str:
        """What the current player can do, naming the commands."""
        ...

    def token(self, action: A) -> str:
        """An action as a button's short token (part of a custom id: never translated)."""
        ...

    def parse_token(self, text: str) -> dict[str, object] | None:
        """A button token back as the action's data (None: not a token of this game)."""
        ...

    def choices(
        self,
        game: G,
        player: str,
        command: str,
        option: str,
        namespace: Mapping[str, object],
        *,
        locale: object = "en",
    ) -> list[tuple[str, str]]:
        """Autocomplete: (label, value) for each legal choice of that command's option."""
        ...

    def action_text(self, action: A, *, hide: bool, locale: object = "en") -> str:
        """A stored action as a line of /history (`hide`: keep hidden cards hidden while the game runs)."""
        ...


class Pictures(Protocol[V, P, L]):
    """A game's pictures (`bot.render.drawings` caches and encodes them): each returns the canvas and its alt
    text. The table is drawn only from the public view, a hand only from its owner's view and legal moves.
    Every word is in `locale`, as for the text renderers. `names` are the players' display names
    (`TableInfo.names`, player id -> name): the drawings name people by them, never by an id."""

    def table(
        self, info: TableInfo, view: V, names: Mapping[str, str] | None, *, locale: object = "en"
    ) -> tuple[Image.Image, str]: ...

    def hand(
        self,
        info: TableInfo,
        view: P,
        legal: list[L],
        names: Mapping[str, str] | None,
        *,
        locale: object = "en",
    ) -> tuple[Image.Image, str]: ...
