"""Rebuild a game from its seed and its action log with the engine's keyword options (`max_deals`,
`max_turns`), as the games recorded in `tests/games/data` and the storage invariants keep them. The bot
rebuilds a table's game with `GameSpec.replay` from the table's own options (`deals`, `turns`), checked
against the game's options model; this is the tests' way to the same game from an engine's options.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable, Mapping
from typing import Any

from tests.engines import engine


def game_options(kind: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """The table options `new_game` of that kind takes (a table also keeps session options: `timeout`)."""
    params = inspect.signature(engine(kind).new_game).parameters
    reserved = ("players", "seed", "chance")  # not options: chance replays seeded, always
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
        return {k: v for k, v in options.items() if k not in reserved}
    return {k: v for k, v in options.items() if k in params and k not in reserved}


def replay(
    kind: str,
    players: Iterable[str],
    seed: str,
    options: Mapping[str, Any],
    actions: Iterable[str | Mapping[str, Any]],
) -> Any:
    """The game after `new_game(players, seed, **options)` and every action of the log applied in order.

    `options` are the engine's keyword options (`chips`, `max_deals`; `stake`, `max_turns`); others are
    dropped (a table's stored options go through `GameSpec.replay` instead).

    `actions` are the logged actions as JSON text or dicts, in seq order. Raises IllegalAction if the log does
    not fit the rules (a corrupt log, or rules that changed since the game was played).
    """
    eng = engine(kind)
    game = eng.new_game(list(players), seed, **game_options(kind, options))
    for action in actions:
        game.apply(eng.parse_action(action if isinstance(action, str) else dict(action)))
    return game
