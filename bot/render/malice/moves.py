"""Malice's moves as typed in the terminal: `play 7h centre1`, `play payoff centre2`, `end`."""

from __future__ import annotations

from typing import Any

from bot.render.malice.text import place
from bot.render.moves import TypedMoves


def command(action: Any) -> str:
    if action.kind == "end_turn":
        return "end"
    source = str(action.card) if action.source == "hand" else action.source  # a card, from where, to where
    text = f"play {source} {action.to}"
    if action.as_rank is not None:
        text += f" as {action.as_rank.short}"
    return str(text.lower())


def describe(action: Any, game: Any) -> str:
    if action.kind == "end_turn":
        return "end your turn"
    card = action.card.pretty if action.card is not None else "the top card"
    rank = f" as {action.as_rank.short}" if action.as_rank is not None else ""
    return f"{card}{rank} from your {place(action.source, 'en')} to {place(action.to, 'en')}"


MOVES = TypedMoves(command=command, describe=describe)
