"""Moves as the terminal player types them: one short command per legal action, e.g. `play 7h centre1`,
`end`, `exchange kh`, `bid 3`, `rethrow 2`, `pass`; or the number `help` shows beside it."""

from __future__ import annotations

from typing import Any

from bot.games.malice.render import place


def command(action: Any) -> str:
    """What to type for this action (lower case; input is compared case-insensitively)."""
    kind = action.kind
    if kind == "end_turn":
        return "end"
    if kind == "pass":
        return "pass"
    if kind == "bid":
        return f"bid {action.amount}"
    if kind == "rethrow":
        return f"rethrow {action.die}"
    if kind == "exchange":
        return f"exchange {action.card}".lower()
    if kind == "play" and hasattr(action, "source"):  # Malice: a card from somewhere to somewhere
        source = str(action.card) if action.source == "hand" else action.source
        text = f"play {source} {action.to}"
        if action.as_rank is not None:
            text += f" as {action.as_rank.short}"
        return text.lower()
    return f"play {action.card}".lower()  # Insomnia: a card to the trick


def describe(action: Any, game: Any) -> str:
    """The action in words, with what it touches (the die's face, the stack's top)."""
    kind = action.kind
    if kind == "end_turn":
        return "end your turn"
    if kind == "pass":
        phase = getattr(game, "phase", "")
        return {"exchange": "keep your hand", "rethrow": "stop re-throwing"}.get(phase, "pass")
    if kind == "bid":
        return f"bid {action.amount} chip{'s' * (action.amount != 1)}"
    if kind == "rethrow":
        return f"throw die {action.die} again (showing {game.public_view().dice[action.die - 1].short})"
    if kind == "exchange":
        return f"discard {action.card.pretty} and draw from the stock"
    if kind == "play" and hasattr(action, "source"):
        card = action.card.pretty if action.card is not None else "the top card"
        rank = f" as {action.as_rank.short}" if action.as_rank is not None else ""
        return f"{card}{rank} from your {place(action.source, 'en')} to {place(action.to, 'en')}"
    return f"play {action.card.pretty} to the trick"


def parse(text: str, legal: list[Any]) -> Any | None:
    """The legal action the player typed (its command or its number in the list), or None."""
    typed = " ".join(text.lower().split())
    if typed.isdigit():
        n = int(typed)
        return legal[n - 1] if 1 <= n <= len(legal) else None
    for action in legal:
        if command(action) == typed:
            return action
    return None
