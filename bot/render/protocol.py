"""What a game's renderer offers (`Renderer`): the module `bot/games/<game>/render.py`, named by its spec.

Every text-making method takes a keyword-only `locale` (the reader's language; "en" until the translation
catalogue reads it), so the renderers and their callers agree on one signature.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from bot.games.base import GameAction, GameEvent, GameState
from bot.render.common import LogGroup, Message, TableInfo

if TYPE_CHECKING:
    from PIL import Image


class Renderer(Protocol):
    def lobby(self, info: TableInfo, *, locale: object = "en") -> Message:
        """The lobby (or challenge) message before the game starts."""

    def table(self, info: TableInfo, game: GameState, note: str | None, *, locale: object = "en") -> Message:
        """The public state of a running or finished game."""

    def log_entries(
        self, info: TableInfo, game: GameState, events: Sequence[GameEvent], *, locale: object = "en"
    ) -> list[LogGroup | str]:
        """The public log lines of one step's events, each group (a deal's part, a turn) before its lines."""

    def state_group(self, game: GameState, *, locale: object = "en") -> LogGroup | None:
        """The log group of the decision now awaited."""

    def result_lines(self, info: TableInfo, game: GameState, *, locale: object = "en") -> list[str]:
        """The result of a finished game."""

    def hand(
        self, info: TableInfo, game: GameState, player: str, *, dm: bool, locale: object = "en"
    ) -> Message:
        """A player's private hand with his choices as buttons."""

    def turn_hint(self, game: GameState, player: str, *, locale: object = "en") -> str:
        """What the current player can do, naming the commands."""

    def token(self, action: GameAction) -> str:
        """An action as a button's short token (part of a custom id: never translated)."""

    def parse_token(self, text: str) -> dict[str, Any] | None:
        """A button token back as the action's data (None: not a token of this game)."""

    def choices(
        self, game: GameState, player: str, command: str, option: str, namespace: Mapping[str, Any],
        *, locale: object = "en",
    ) -> list[tuple[str, str]]:
        """Autocomplete: (label, value) for each legal choice of that command's option."""

    def action_text(self, action: Mapping[str, Any], *, hide: bool, locale: object = "en") -> str:
        """A stored action as a line of /history (`hide`: keep hidden cards hidden while the game runs)."""



class Pictures(Protocol):
    """A game's pictures (`bot.render.pictures` caches and encodes them): each returns the canvas and its alt
    text. The table is drawn only from the public view, a hand only from its owner's view and legal moves.
    Every word is in `locale`, as for the text renderers. `names` are the players' display names
    (`TableInfo.names`, player id -> name): the drawings name people by them, never by an id."""

    def table(
        self, info: TableInfo, view: Any, names: Mapping[str, str] | None, *, locale: object = "en"
    ) -> tuple[Image.Image, str]: ...

    def hand(
        self,
        info: TableInfo,
        view: Any,
        legal: list[Any],
        names: Mapping[str, str] | None,
        *,
        locale: object = "en",
    ) -> tuple[Image.Image, str]: ...
