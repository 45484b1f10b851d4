"""The limits every setting and table option is checked against, in one place.

The bot's settings (`bot.config`) and every table's options read these, so a value accepted in one place is
accepted everywhere (`TURN_TIMEOUT_SECONDS=5` used to pass as a setting while a table refused `timeout:5`).
A game's own options carry their limits in its options model (`bot/games/<game>/models.py`), which the slash
commands, the simulator and the terminal game read.
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
            raise ValueError(f"{what} must be from {self.min} to {self.max}, not {shown(value)}")


def shown(value: float) -> str:
    """A number as the person typed it: whole numbers in full (`99999999999999999999`, never `1e+20`), up to
    a length one can read; a fraction as written."""
    if isinstance(value, int) or float(value).is_integer():
        digits = str(int(value))
        return digits if len(digits) <= 24 else f"{digits[:21]}… ({len(digits.lstrip('-'))} digits)"
    return f"{value:g}"


TURN_TIMEOUT = Limit(10, 86_400)  # seconds per decision: a day at most

DEFAULT_TURN_TIMEOUT = 120
