"""Computer players for both games: `choose_action(game, player, seed)`.

The strategies cannot peek, by construction: `choose_action` takes from the game only what the player may
know (`game.view(player)`, `game.public_view()`) and the list of legal actions, and hands those, with a
generator seeded from `seed` (never the game's seed), to a strategy function that never sees the game object.
The same state, player and seed therefore always give the same action.
"""

from __future__ import annotations

import random
from typing import Any

from bot.games.ai import insomnia as _insomnia
from bot.games.ai import malice as _malice
from bot.games.insomnia import InsomniaGame
from bot.games.malice import MaliceGame

__all__ = ["choose_action", "random_action"]


def _rng(seed: str, player: str) -> random.Random:
    # A private generator: str seeds hash through SHA-512, the same on every run and platform.
    return random.Random(f"ai/{seed}/{player}")


def _inputs(game: Any, player: str) -> tuple[Any, Any, list[Any]]:
    if game.is_over:
        raise ValueError("The game is over: there is no action to choose.")
    if game.current_player != player:
        raise ValueError(f"It is not {player}'s turn.")
    legal = game.legal_actions()
    return game.view(player), game.public_view(), legal


def choose_action(game: InsomniaGame | MaliceGame, player: str, seed: str) -> Any:
    """The computer player's next action for `player` (who must be the current player): one of
    `game.legal_actions()`, decided from that player's view and the public view only."""
    view, public, legal = _inputs(game, player)
    rng = _rng(seed, player)
    if isinstance(game, InsomniaGame):
        action = _insomnia.choose(view, public, legal, rng)
    elif isinstance(game, MaliceGame):
        action = _malice.choose(view, public, legal, rng)
    else:
        raise TypeError(f"no computer player for {type(game).__name__}")
    # A strategy bug must never become an illegal move in a live game: fall back to the safe default.
    return action if action in legal else game.default_action()


def random_action(game: InsomniaGame | MaliceGame, player: str, seed: str) -> Any:
    """A uniformly random legal action: the baseline opponent of the strength benchmark."""
    _view, _public, legal = _inputs(game, player)
    return _rng(seed, player).choice(legal)
