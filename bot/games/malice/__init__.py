"""Malice ("Boshaftigkeit"): the rules engine of docs/rules.md section 2 and the contract of section 4.

The package has the same parts as `bot.games.insomnia`: `piles.py` (pure arithmetic: card values, what a side
stack accepts), `models.py` (actions, events, views, options), `state.py` (the state), `moves.py` (what may go
where), `game.py` (`MaliceGame`: the turns and the score; `new_game`), `ai.py` (the computer player) and
`spec.py` (its entry in the registry). Everything public is re-exported here.
"""

from bot.games.malice.game import MaliceGame, new_game
from bot.games.malice.models import (
    Action,
    CardPlayed,
    CardText,
    EndGame,
    EndReason,
    EndTurn,
    Event,
    GameOver,
    HandRefilled,
    MaliceOptions,
    MalicePublicView,
    MaliceResult,
    MaliceView,
    PayoffTurned,
    Play,
    RankName,
    Resign,
    Source,
    StackCompleted,
    Target,
    TurnEnded,
    TurnStarted,
    parse_action,
)
from bot.games.malice.piles import (
    CENTRE_NAMES,
    FULL_STACK,
    HAND_SIZE,
    PAYOFF_SIZE,
    SIDE_NAMES,
    STACKS,
)

# The names every engine package exports alike (the registry and the conformance tests rely on them).
Game = MaliceGame
Options = MaliceOptions
PublicView = MalicePublicView
PlayerView = MaliceView

__all__ = [
    "CENTRE_NAMES",
    "FULL_STACK",
    "HAND_SIZE",
    "PAYOFF_SIZE",
    "SIDE_NAMES",
    "STACKS",
    "Action",
    "CardPlayed",
    "CardText",
    "EndGame",
    "EndReason",
    "EndTurn",
    "Event",
    "Game",
    "GameOver",
    "HandRefilled",
    "MaliceGame",
    "MaliceOptions",
    "MalicePublicView",
    "MaliceResult",
    "MaliceView",
    "Options",
    "PayoffTurned",
    "Play",
    "PlayerView",
    "PublicView",
    "RankName",
    "Resign",
    "Source",
    "StackCompleted",
    "Target",
    "TurnEnded",
    "TurnStarted",
    "new_game",
    "parse_action",
]
