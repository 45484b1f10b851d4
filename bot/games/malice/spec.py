"""Malice in the registry of games: its seats, table, options, start, computer player and table rules.

Rules facts only; how Malice looks and reads is its presentation, in `bot/render/malice/`."""

from __future__ import annotations

import random
from collections.abc import Iterator

from bot.games.base import GameAction, GameState
from bot.games.chance import Chance
from bot.games.malice import ai
from bot.games.malice.game import MaliceGame, new_game
from bot.games.malice.models import MaliceOptions, parse_action
from bot.games.seats import SessionRules, every_hand_at_start
from bot.games.spec import GameSpec, TableOptions


def _start(players: list[str], seed: str, options: TableOptions, chance: Chance | None) -> MaliceGame:
    if not isinstance(options, MaliceOptions):  # GameSpec.new_game validated them with this very model
        raise TypeError("Malice takes MaliceOptions")
    return new_game(
        players, seed, stake=options.stake, max_turns=options.turns, discard=options.discard, chance=chance
    )


def _computer(game: GameState, player: str, rng: random.Random) -> GameAction:
    if not isinstance(game, MaliceGame):
        raise TypeError(f"not a Malice game: {type(game).__name__}")
    # The strategy sees only what the player may know: his view, the public view and his legal actions.
    return ai.choose(game.view(player), game.public_view(), game.legal_actions(), rng)


def _timeout_actions(game: GameState, player: str) -> Iterator[GameAction]:
    # Forced aces first, then the end of the turn: apply the default until the turn passes. Only the first
    # hand goes by DM (`every_hand_at_start`): the hand changes every turn, and a DM per turn would spend
    # Discord's budget on what the answer to each move, the "My hand" button and /hand already show.
    for _ in range(16):
        if game.is_over or game.current_player != player:
            return
        action = game.default_action()
        if action is None:
            return
        yield action


SPEC = GameSpec(
    name="malice",
    title="Malice",
    min_players=2,
    max_players=2,
    table="challenge",
    options=MaliceOptions,
    game=MaliceGame,
    start=_start,
    parse_action=parse_action,
    computer=_computer,
    session=SessionRules(
        takeover="forfeit", hands_to_send=every_hand_at_start, timeout_actions=_timeout_actions
    ),
)
