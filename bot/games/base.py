"""What both game engines share: the illegal-action error, seeded chance, chip movements and results.

Chance never comes from global state. A game keeps its `seed` and a counter of how many random draws it has
made; draw number n uses `random.Random(f"{seed}/{n}")`. The same seed and the same actions therefore give
the same game, byte for byte, and the whole state (counter included) is plain JSON.
"""

from __future__ import annotations

import hashlib
import random
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

POT = "@pot"
"""The ledger account of a table's pot (player ids never start with '@')."""


class IllegalAction(ValueError):
    """An action the rules do not allow now. The message is one sentence a player can act on."""


def seed_commitment(seed: str) -> str:
    """SHA-256 of the seed: published before play, so the revealed seed can be checked afterwards."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


class ChipTransfer(BaseModel):
    """One movement of chips between two accounts (a player id or `POT`). Every chip a game moves is one."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["chips"] = "chips"
    from_account: str
    to_account: str
    amount: int = Field(gt=0)
    reason: str


class Standing(BaseModel):
    """A player's result when the game is over."""

    player: str
    placement: int  # 1 = winner; equal results share a placement
    net: int  # chips won (+) or lost (-) in this game
    final_chips: int | None = None  # Insomnia only
    won: bool


class SeededGame(BaseModel):
    """Base for game states: the seed, the draw counter and the seed commitment."""

    seed: str
    draws: int = 0

    def _rng(self) -> random.Random:
        """A fresh generator for the next random event (a shuffle, a throw); advances the counter."""
        rng = random.Random(f"{self.seed}/{self.draws}")
        self.draws += 1
        return rng

    @property
    def seed_commitment(self) -> str:
        return seed_commitment(self.seed)
