"""Insomnia's moves as typed in the terminal: `exchange kh`, `bid 3`, `rethrow 2`, `play 7h`, `pass`."""

from __future__ import annotations

from typing import assert_never

from bot.games.insomnia.game import InsomniaGame
from bot.games.insomnia.models import Action, Bid, EndGame, Exchange, Pass, Play, Rethrow
from bot.render.moves import TypedMoves


def command(action: Action) -> str:
    match action:
        case Pass() | EndGame():
            return action.kind.replace("_", " ")
        case Bid():
            return f"bid {action.amount}"
        case Rethrow():
            return f"rethrow {action.die}"
        case Exchange():
            return f"exchange {action.card}".lower()
        case Play():
            return f"play {action.card}".lower()  # a card to the trick
        case _:
            assert_never(action)


def describe(action: Action, game: InsomniaGame) -> str:
    match action:
        case Pass():
            return {"exchange": "keep your hand", "rethrow": "stop re-throwing"}.get(game.phase, "pass")
        case Bid():
            return f"bid {action.amount} chip{'s' * (action.amount != 1)}"
        case Rethrow():
            return f"throw die {action.die} again (showing {game.public_view().dice[action.die - 1].short})"
        case Exchange():
            return f"discard {action.card.pretty} and draw from the stock"
        case Play():
            return f"play {action.card.pretty} to the trick"
        case EndGame():
            return "end the game"
        case _:
            assert_never(action)


MOVES = TypedMoves[InsomniaGame, Action](command=command, describe=describe)
