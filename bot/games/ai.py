"""Computer players for every registered game: `choose_action(game, player, seed)`.

Each game's strategy lives in its own folder (`bot/games/<name>/ai.py`) and is named by its spec. The
strategies cannot peek, by construction: a spec hands its strategy only what the player may know (his view,
the public view, his legal actions) and a generator seeded from `seed` (never the game's seed). The same
state, player and seed therefore always give the same action.
"""

from __future__ import annotations

from bot.games.base import GameAction, GameState
from bot.games.registry import REGISTRY

__all__ = ["choose_action", "random_action"]


def choose_action(game: GameState, player: str, seed: str) -> GameAction:
    """The computer player's next action for `player` (who must be the current player): one of
    `game.legal_actions()`, decided from that player's view and the public view only."""
    return REGISTRY.spec_of(game).choose_action(game, player, seed)


def random_action(game: GameState, player: str, seed: str) -> GameAction:
    """A uniformly random legal action: the baseline opponent of the strength benchmark."""
    return REGISTRY.spec_of(game).random_action(game, player, seed)
