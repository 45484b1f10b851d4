"""Moves as the terminal player types them: one short command per legal action (the game's `TypedMoves`, e.g.
`play 7h centre1`, `end`, `exchange kh`, `bid 3`), or the number `help` shows beside it. A game without typed
moves is played by number, its actions named by their kind."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.base import GameAction, GameState
from bot.games.registry import REGISTRY
from bot.render.registry import PRESENTATIONS


def command(action: GameAction, game: GameState) -> str:
    """What to type for this action (lower case; input is compared case-insensitively)."""
    moves = PRESENTATIONS[REGISTRY.spec_of(game).name].moves
    return moves.command(action) if moves is not None else str(action.kind)


def describe(action: GameAction, game: GameState) -> str:
    """The action in words, with what it touches (the die's face, the stack's top)."""
    moves = PRESENTATIONS[REGISTRY.spec_of(game).name].moves
    return moves.describe(action, game) if moves is not None else str(action.kind)


def parse(text: str, legal: Sequence[GameAction], game: GameState) -> GameAction | None:
    """The legal action the player typed (its command or its number in the list), or None."""
    typed = " ".join(text.lower().split())
    if typed.isdigit():
        n = int(typed)
        return legal[n - 1] if 1 <= n <= len(legal) else None
    for action in legal:
        if command(action, game) == typed:
            return action
    return None
