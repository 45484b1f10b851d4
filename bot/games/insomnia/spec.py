"""Insomnia in the registry of games: its seats, table, options, start, computer player and table rules.

Rules facts only; how Insomnia looks and reads is its presentation, in `bot/render/insomnia/`."""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.games.base import GameAction, GameEvent, GameState
from bot.games.chance import Chance
from bot.games.insomnia import ai
from bot.games.insomnia.game import InsomniaGame, new_game
from bot.games.insomnia.models import InsomniaOptions, parse_action
from bot.games.seats import SessionRules, default_once
from bot.games.spec import GameSpec, TableOptions


def _start(players: list[str], seed: str, options: TableOptions, chance: Chance | None) -> InsomniaGame:
    if not isinstance(options, InsomniaOptions):  # GameSpec.new_game validated them with this very model
        raise TypeError("Insomnia takes InsomniaOptions")
    return new_game(
        players,
        seed,
        chips=options.chips,
        max_deals=options.deals,
        sevens=options.sevens,
        bust=options.bust,
        stage4=options.stage4,
        chance=chance,
    )


def _computer(game: GameState, player: str, rng: random.Random) -> GameAction:
    if not isinstance(game, InsomniaGame):
        raise TypeError(f"not an Insomnia game: {type(game).__name__}")
    # The strategy sees only what the player may know: his view, the public view and his legal actions.
    return ai.choose(game.view(player), game.public_view(), game.legal_actions(), rng)


def _hands(game: GameState, events: Sequence[GameEvent], started: bool) -> list[str]:
    # A new hand at each deal, to every player still in it (house rule bust=out: those out get no cards);
    # exchanges are answered to the player himself.
    if not isinstance(game, InsomniaGame):
        raise TypeError(f"not an Insomnia game: {type(game).__name__}")
    if started or any(getattr(e, "kind", None) == "deal_started" for e in events):
        return list(game.public_view().playing)
    return []


SPEC = GameSpec(
    name="insomnia",
    title="Insomnia",
    min_players=2,
    max_players=8,
    table="lobby",
    options=InsomniaOptions,
    game=InsomniaGame,
    start=_start,
    parse_action=parse_action,
    computer=_computer,
    session=SessionRules(takeover="computer", hands_to_send=_hands, timeout_actions=default_once),
)
