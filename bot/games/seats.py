"""How a game's table behaves around its moves, as the session layer needs it: which hands to send by DM,
what a timeout plays, and what becomes of a seat whose player gives up (`SessionRules`, one per game)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

from bot.games.base import GameAction, GameEvent, GameState

Takeover = Literal["computer", "forfeit"]
"""A seat given up (resigned, or timed out too often): a computer plays on for the player (his result still
counts), or he forfeits the game."""

HandsToSend = Callable[[GameState, Sequence[GameEvent], bool], list[str]]
"""`(game, events, started) -> players`: whose private hand to send after a step (`started`: the game just
began, `events` empty)."""

TimeoutActions = Callable[[GameState, str], Iterator[GameAction]]
"""`(game, player) -> actions`: what a turn timeout plays for `player`, applied one by one until the turn
passes."""


def every_hand_at_start(game: GameState, events: Sequence[GameEvent], started: bool) -> list[str]:
    """Each player's hand once, when the game starts."""
    return list(game.public_view().players) if started else []


def default_once(game: GameState, player: str) -> Iterator[GameAction]:
    """The game's safe default, once."""
    action = game.default_action()
    if action is not None:
        yield action


@dataclass(frozen=True)
class SessionRules:
    takeover: Takeover = "forfeit"
    hands_to_send: HandsToSend = every_hand_at_start
    timeout_actions: TimeoutActions = default_once
