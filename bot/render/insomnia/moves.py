"""Insomnia's moves as typed in the terminal: `exchange kh`, `bid 3`, `rethrow 2`, `play 7h`, `pass`."""

from __future__ import annotations

from typing import Any

from bot.render.moves import TypedMoves


def command(action: Any) -> str:
    kind = action.kind
    if kind == "pass":
        return "pass"
    if kind == "bid":
        return f"bid {action.amount}"
    if kind == "rethrow":
        return f"rethrow {action.die}"
    if kind == "exchange":
        return f"exchange {action.card}".lower()
    return f"play {action.card}".lower()  # a card to the trick


def describe(action: Any, game: Any) -> str:
    kind = action.kind
    if kind == "pass":
        phase = getattr(game, "phase", "")
        return {"exchange": "keep your hand", "rethrow": "stop re-throwing"}.get(phase, "pass")
    if kind == "bid":
        return f"bid {action.amount} chip{'s' * (action.amount != 1)}"
    if kind == "rethrow":
        return f"throw die {action.die} again (showing {game.public_view().dice[action.die - 1].short})"
    if kind == "exchange":
        return f"discard {action.card.pretty} and draw from the stock"
    return f"play {action.card.pretty} to the trick"


MOVES = TypedMoves(command=command, describe=describe)
