"""The limits every setting and table option is checked against, in one place.

The bot's settings (`bot.config`), the slash commands' option ranges (`cogs/`), the simulator and the terminal
game all read these, so a value accepted in one place is accepted everywhere (`TURN_TIMEOUT_SECONDS=5` used
to pass as a setting while `/insomnia new timeout:5` was refused).
"""

from __future__ import annotations

from typing import NamedTuple


class Limit(NamedTuple):
    """An inclusive range of whole numbers."""

    min: int
    max: int

    def check(self, value: float, what: str) -> None:
        """Raise ValueError with one sentence when `value` is outside the range."""
        if not self.min <= value <= self.max:
            raise ValueError(f"{what} must be from {self.min} to {self.max}, not {value:g}")


TURN_TIMEOUT = Limit(10, 86_400)  # seconds per decision: a day at most
INSOMNIA_PLAYERS = Limit(2, 8)
CHIPS = Limit(1, 1000)  # Insomnia: starting chips per player
DEALS = Limit(1, 100)  # Insomnia: the optional deal cap
STAKE = Limit(0, 1000)  # Malice: chips per card of the score
TURNS = Limit(1, 500)  # Malice: the turn cap (both players' turns counted)

DEFAULT_TURN_TIMEOUT = 120
DEFAULT_CHIPS = 15
DEFAULT_STAKE = 1
DEFAULT_TURNS = 500
