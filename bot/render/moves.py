"""A game's moves as a person types them in the terminal (`cardtable-bot play`): one short command per legal
action, e.g. `play 7h centre1`, `bid 3`, and the action in words beside it in the `help` list."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.games.base import GameAction, GameState


@dataclass(frozen=True)
class TypedMoves:
    command: Callable[[GameAction], str]  # what to type for the action (lower case)
    describe: Callable[[GameAction, GameState], str]  # the action in words, with what it touches
