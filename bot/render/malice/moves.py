"""Malice's moves as typed in the terminal: `play 7h centre1`, `play payoff centre2`, `end`."""

from __future__ import annotations

from typing import assert_never

from bot.games.malice.game import MaliceGame
from bot.games.malice.models import Action, EndGame, EndTurn, Play, Resign
from bot.render.malice.text import place
from bot.render.moves import TypedMoves


def command(action: Action) -> str:
    match action:
        case EndTurn():
            return "end"
        case Play():
            source = str(action.card) if action.source == "hand" else action.source  # a card, from, to
            text = f"play {source} {action.to}"
            if action.as_rank is not None:
                text += f" as {action.as_rank.short}"
            return text.lower()
        case Resign() | EndGame():  # system actions, never legal for a player: no command to type
            return action.kind.replace("_", " ")
        case _:
            assert_never(action)


def describe(action: Action, game: MaliceGame) -> str:
    match action:
        case EndTurn():
            return "end your turn"
        case Play():
            card = action.card.pretty if action.card is not None else "the top card"
            rank = f" as {action.as_rank.short}" if action.as_rank is not None else ""
            return f"{card}{rank} from your {place(action.source, 'en')} to {place(action.to, 'en')}"
        case Resign():
            return "resign"
        case EndGame():
            return "end the game"
        case _:
            assert_never(action)


MOVES = TypedMoves[MaliceGame, Action](command=command, describe=describe)
